"""The player page's reads (issue #27): the rows several of its parts need (the game's people, its
clock, its seats) read once; a position shown again (a reload, a step composed without JavaScript, a
stale form's answer) drawn from the positions kept, each seat's its own, in a bounded memory."""

from __future__ import annotations

import json
import re

import pytest

import engine
from service import store
from service.play import handle, new_game
from service.store import get_engine, read_session
from service.views import positions
from service.views.recent import Recent
from tests import tokens
from tests.service import toygame
from tests.service.statements import counted
from tests.turns import decisions, drive
from tests.web.pages import csrf_token

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


@pytest.fixture(autouse=True)
def nothing_kept():
    positions.KEPT.clear()
    yield
    positions.KEPT.clear()


def page_path(game_id: int, seat: int) -> str:
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
    return f"/p/{tokens.page(player.id)}"


def selects(client, path: str) -> tuple[list[str], str]:
    """The SELECT statements of a GET of `path`, counted at the driver (the link's read and the move
    path's run on the DB-API cursor), and its page."""
    with counted(get_engine()) as sent:
        response = client.get(path)
    assert response.status_code == 200
    return [s for s in sent.texts if s.lstrip().upper().startswith("SELECT")], response.get_data(as_text=True)


def reading(statements: list[str], table: str) -> list[str]:
    return [s for s in statements if re.search(rf"\bFROM {table}\b", s)]


def naming(statements: list[str], table: str) -> list[str]:
    """The statements that read `table`, joined to another one's included."""
    return [s for s in statements if re.search(rf"\b(?:FROM|JOIN) {table}\b", s)]


def test_the_page_after_a_form_move_reads_people_clock_and_seats_once_and_at_most_9_selects(client, app):
    """Before: 20 SELECTs (people 4 times, the clock twice, the seats 3 times and counted twice), then
    13, then 10; the game's row now comes with its clock, its talk's opening and the rematch that
    started it in one statement (store.game_page), the seats with their people in another
    (store.seats_and_people), and nothing reads them again."""
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, lambda s, seat, legal: legal[0]["type"] != "pick")
    path = page_path(game_id, seat)
    form = csrf_token(client.get(path).get_data(as_text=True))
    move = decisions(engine.get("riftforce"), state, seat)[0]
    answer = client.post(f"{path}/move", data={"csrf_token": form, "seq": str(game.seq), "move": json.dumps(move)})
    assert answer.status_code == 303
    found, _ = selects(client, answer.headers["Location"])
    assert len(naming(found, "people")) == 1 and len(naming(found, "game_clocks")) == 1, found
    assert len(reading(found, "games")) == 1 and reading(found, "games") == naming(found, "game_clocks")
    assert reading(found, "games") == naming(found, "talk_open") == naming(found, "rematches"), found
    assert len(reading(found, "players")) == 2, found  # the link's seat, the game's seats
    assert naming(found, "people") == [s for s in reading(found, "players") if "ORDER BY players.seat" in s], found
    assert len(found) <= 9, found


def test_a_position_shown_again_reads_no_events_and_draws_the_same_board(client, app):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    _, _, seat = drive(game_id, lambda s, seat, legal: legal[0]["type"] != "pick")
    path = page_path(game_id, seat)
    first, page = selects(client, path)
    again, page_again = selects(client, path)
    assert reading(first, "events") and not reading(again, "events") and not reading(again, "snapshots")
    assert len(again) <= 7, again

    def board(text: str) -> str:
        return text[text.index('<div class="board-now">'):text.index("</section>", text.index('<div class="board-now">'))]

    assert board(page) == board(page_again)
    game, state = store_game(game_id)
    handle(game_id, game.to_act[0], decisions(engine.get("riftforce"), state, game.to_act[0])[0], game.seq)
    moved, _ = selects(client, path)  # a move since: the new position, read and drawn anew
    assert reading(moved, "events")


def store_game(game_id: int):
    from tests.service.helpers import current

    return current(game_id)


def test_kept_positions_are_each_seats_own(client, app):
    """Hidden information: a seat's kept position (its hand on the board) is never another seat's."""
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 6}, seed=21)
    _, state = store_game(game_id)
    for _ in range(2):  # drawn, then from the positions kept
        for seat in (0, 1):
            shown = toygame.cards_in(client.get(page_path(game_id, seat)).get_data(as_text=True))
            assert set(state["hands"][seat]) <= shown
            assert not shown & set(state["hands"][1 - seat]) and not shown & set(state["deck"])


def test_the_positions_kept_are_bounded_least_recently_shown_first():
    kept = Recent(3)
    shown = [object() for _ in range(5)]
    for number, position in enumerate(shown[:3]):
        kept.put((number,), position)
    assert kept.get((0,)) is shown[0]  # shown again: the most recent now
    kept.put((3,), shown[3])
    kept.put((4,), shown[4])
    assert [kept.get((n,)) for n in range(5)] == [shown[0], None, None, shown[3], shown[4]]
    assert kept.get((9,), "none") == "none" and kept.get((1,), "none") == "none"  # (a default for a key not kept)
    assert positions.KEPT.size <= 64  # each entry holds a whole state and its board


def test_a_page_with_talk_reads_the_messages_the_mutes_and_the_seats_once(client, app):
    """The talk panel hands the seats and the reader's mutes it read to the messages' read: with
    messages on the page, neither is read again, nor the seats counted for the teams."""
    from service.store import write_session
    from service.store.models import TalkMute
    from service.talk import messages

    game_id = new_game("riftforce", [*PLAYERS, ("Cyd", "cyd@example.org"), ("Dee", "dee@example.org")],
                       {"mode": "team"}, seed=5)
    with write_session(get_engine()) as session:
        seats = store.players_of(session, game_id)
        messages.post(session, seats[1], "hello table")
        messages.post(session, seats[2], "to my team", channel=messages.TEAM)
        messages.post(session, seats[3], "muted words")
        session.add(TalkMute(person=seats[0].address_key, muted=seats[3].address_key))
    found, page = selects(client, page_path(game_id, 0))
    assert "hello table" in page and "to my team" in page and "muted words" not in page
    assert len(reading(found, "talk_messages")) == 1 and len(reading(found, "talk_mutes")) == 1, found
    assert len(reading(found, "players")) == 2, found  # the link's seat, the game's seats: none counted
