"""Riftwalker in the service: its board on the player, spectator and confirm pages (all derived from
`view`, so no seat sees another's hand, the rift deck or a face-down card beneath a rift it may not
see), its game over with the engine's string seat keys, and starting 2- to 4-player games from the
web form and the CLI."""

from __future__ import annotations

import json
import re

import pytest
from sqlmodel import select

from service import links
from service.play import handle, new_game
from service.store import get_engine, read_session
from service.store.models import Player
from tests.consent import confirm_creator, preconsent
from tests.riftwalker_helpers import RULES, Secrets, choose
from tests.service.helpers import current, outbox_rows
from tests.web.pages import START_FORM, csrf_token, move_values, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")]


def players(game_id):
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def plain(page: str) -> str:
    """The page's words without tags, whitespace collapsed: what a screen reader reads out."""
    import html

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def board_of(page: str) -> str:
    """The board's part of a page (the rest of it, the log of moves, has words of its own)."""
    start = page.index('<div class="board rw">')
    return page[start:page.index("</section>", start)]


def who(seat, viewer) -> str:
    """How the board names a seat: by its player's name, "you" for the viewer."""
    return "you" if seat == viewer else PLAYERS[seat][0]


def elements(card) -> str:
    """A card's elements as the board writes them: each element's word (its badge)."""
    return "Any" if card["elements"] == ["*"] else " ".join(card["elements"])


def play_until(game_id, reached, limit=400):
    for _ in range(limit):
        game, state = current(game_id)
        if reached(state):
            return state
        seat = game.to_act[0]
        handle(game_id, seat, choose(state, seat, RULES.legal_moves(state, seat)), game.seq)
    raise AssertionError("the position was not reached")


def face_down_beneath(state):
    return [(owner, rift, b) for owner, rifts in enumerate(state["explored"]) for rift in rifts
            for b in rift["beneath"] if b["face"] == "down"]


def test_board_for_each_player_and_a_spectator_shows_everything_public_and_hides_the_rest(client, app):
    game_id = new_game("riftwalker", PLAYERS, seed=3)
    # Seed 3: after a few dozen decisions someone has a face-down card beneath a rift (Shadowlands)
    # and rifts were burst, at rest between two turns' decisions.
    state = play_until(game_id, lambda s: face_down_beneath(s) and sum(map(len, s["scored"])) >= 2
                       and not s["stack"])
    secrets = Secrets(app, game_id)
    seats = players(game_id)
    pages = {p.seat: text(client.get(f"/p/{links.player_token(p.id, p.row_key)}")) for p in seats}
    pages[None] = text(client.get(f"/games/{game_id}"))
    owner, host, hidden = face_down_beneath(state)[0]

    for seat, page in pages.items():
        secrets.check(page, seat, what="the page")
        words = plain(page)
        view = RULES.view(state, seat)
        # Accessible structure: tables with captions and header cells, a heading for the hand.
        board = board_of(page)
        assert "<caption" in board and '<th scope="row"' in board and '<th scope="col"' in board
        assert ("<h3>Your hand" in board) == (seat is not None)
        assert "The element grid" in words
        for cell in view["grid"]:  # both faces of every card, and which one is up, by slot
            assert f"{cell['slot'] + 1} {cell['up']} back: {cell['down']}" in words
        top = view["element_deck"]["top"]["faces"]
        assert f"Element deck {view['element_deck']['size']}, next card {top[0]} / {top[1]}" in words
        assert f"Rift deck {view['rift_deck']['size']}" in words
        for entry in view["seats"]:
            name = PLAYERS[entry["seat"]][0] + (" (you)" if entry["seat"] == seat else "")
            assert re.search(re.escape(name) + r"( playing)? " + f"{entry['points']} {entry['bursts']} of "
                             f"{view['threshold']} {entry['hand_size']} ", words), name
            for rift in entry["explored"]:
                after = f" →{rift['track'][rift['rot'] + 1]}" if rift["rot"] < 2 else ""
                assert f"{elements(rift)} {rift['name']} {rift['value']}{after}" in words
            for rift in entry["score_pile"]:
                assert f"{elements(rift)} {rift['name']} {rift['value']}" in words
        assert not re.search(r"Player \d", plain(board))  # named, never numbered
        if seat is None:
            assert "Your hand" not in words and "(you)" not in words
        else:
            hand = view["seats"][seat]["hand"]
            assert f"Your hand ({len(hand)})" in words and f"{PLAYERS[seat][0]} (you)" in words
            for card in hand:
                assert f"{elements(card)} {card['name']} {'·'.join(map(str, card['track']))} {card['power']}" in words
        # The face-down card beneath: named only to the player who put it there and the host's owner.
        seen = next(r for r in view["seats"][owner]["explored"] if r["id"] == host["id"])
        shown = seen["beneath"][host["beneath"].index(hidden)]
        if seat is not None and seat in (hidden["by"], owner):
            assert shown["name"] and f"{shown['name']} (face down)" in words
        else:
            assert shown["name"] is None
            assert re.search(r"(a|\d) face-down cards? from " + who(hidden["by"], seat), words)

    # The seat to act sees its choices in words; the others see none.
    game, state = current(game_id)
    acting = game.to_act[0]
    values = [json.loads(v) for v in move_values(pages[acting])]
    assert values == RULES.legal_moves(state, acting)
    for move in values:
        assert RULES.describe_move(move, state).replace("'", "&#39;") in pages[acting]
    assert all(not move_values(pages[s]) for s in pages if s != acting)

    # A move link's confirm page shows the same board and hides the same cards.
    mover = next(p for p in seats if p.seat == acting)
    confirm = client.get(f"/m/{links.move_token(mover.id, mover.row_key, game.seq, values[0])}")
    assert confirm.status_code == 200
    secrets.check(text(confirm), acting, what="the confirm page")
    assert "The element grid" in text(confirm) and f"Your hand ({len(RULES.view(state, acting)['seats'][acting]['hand'])})" in text(confirm)

    api = client.get(f"/api/games/{game_id}").get_json()
    assert api["game"] == "riftwalker" and api["to_act"] == [acting] and all("hand" not in entry for entry in api["view"]["seats"])
    secrets.check(json.dumps(api), None, what="the JSON API")


def test_a_finished_game_shows_everyones_final_score_with_the_engines_string_seat_keys(client, app):
    game_id = new_game("riftwalker", PLAYERS[:2], seed=23)  # ends by score in about 220 decisions
    state = play_until(game_id, lambda s: s["over"], limit=1000)
    result = RULES.result(state)
    assert set(result["scores"]) == {"0", "1"}  # the engine's keys are strings; the pages cope
    ann, bob = players(game_id)
    spectator = plain(text(client.get(f"/games/{game_id}")))
    page = plain(text(client.get(f"/p/{links.player_token(ann.id, ann.row_key)}")))
    for viewer, words in ((None, spectator), (0, page)):
        assert f"Scores: Ann {result['scores']['0']}, Bob {result['scores']['1']}." in words
        assert "Final scores (bonus points count only now)" in words
        seat = result["winners"][0]
        winner = "You" if seat == viewer else PLAYERS[seat][0]  # "You won." on the winner's own page
        assert f"{winner} won." in words  # the result in words, where the board asks for a decision in play
        for seat in (0, 1):
            breakdown = result["breakdown"][seat]
            name = PLAYERS[seat][0] + (" (you)" if seat == 0 and words is page else "")
            star = " ★ winner" if seat in result["winners"] else ""
            assert (f"{name}{star} {sum(r['value'] for r in breakdown)} {sum(r['bonus'] for r in breakdown)} "
                    f"{result['points'][seat]} {result['bursts'][seat]} {result['explored_value'][seat]}") in words
    api = client.get(f"/api/games/{game_id}").get_json()
    assert api["status"] == "finished" and api["result"]["scores"] == result["scores"]
    Secrets(app, game_id).check(text(client.get(f"/p/{links.player_token(bob.id, bob.row_key)}")), 1, what="the last page")


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_start_form_starts_riftwalker_for_two_to_four_players(client, count):
    listing = text(client.get("/"))
    assert "Riftwalker</h2>" in listing and "2 to 4 players." in listing
    page = text(client.get("/games/new/riftwalker"))
    assert "Players, in seat order (2 to 4 players)" in page and 'id="email3"' in page
    assert 'name="options"' not in page  # no options at all: no box for them
    form = {"csrf_token": csrf_token(page), "game": "riftwalker"}
    preconsent(*[f"p{i}@example.org" for i in range(count)])  # about the game's own first emails
    for i in range(count):
        form.update({f"name{i}": f"P{i}", f"email{i}": f"p{i}@example.org"})
    response = client.post("/games/new", data=form)
    assert response.status_code == 303
    game_id = int(response.headers["Location"].split("/")[-2])
    confirm_creator(game_id)  # P0 confirms the game they started (its "did you start it?" email)
    game, state = current(game_id)
    assert game.name == "riftwalker" and state["players"] == count
    kinds = [row.kind for row in outbox_rows(game_id) if row.kind != "invitation"]
    # One invitation each: the first player's is their first turn email.
    assert kinds.count("invite") == count - 1 and kinds.count("turn") == 1 and len(kinds) == count


def test_the_start_form_and_the_cli_refuse_riftwalker_for_one_or_with_options(client, app):
    token = csrf_token(text(client.get(START_FORM)))
    alone = client.post("/games/new", data={"csrf_token": token, "game": "riftwalker", "email0": "a@example.org"})
    assert alone.status_code == 422 and "Riftwalker needs 2 to 4 players" in text(alone)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["new-game", "riftwalker", "a@x.org", "b@x.org", "c@x.org"])
    assert result.exit_code == 0, result.output
    game, state = current(int(result.output.strip()))
    assert game.name == "riftwalker" and state["players"] == 3
    five = runner.invoke(args=["new-game", "riftwalker", "a@x.org", "b@x.org", "c@x.org", "d@x.org", "e@x.org"])
    assert five.exit_code != 0 and "needs 2 to 4 players" in five.output
    options = runner.invoke(args=["new-game", "riftwalker", "a@x.org", "b@x.org", "--option", "guilds=all"])
    assert options.exit_code != 0 and "Riftwalker has no options" in options.output
