"""Talk in time order beside the game's log: on the player page's last moves and on the history pages
(a player's, and the public one of a finished game), each with its viewer's rules (team channel only to
the team, public talk to spectators only once finished or opened by the creator, mutes)."""

from __future__ import annotations

import re

import pytest

from service.store import get_engine, write_session
from service.store.models import Game, TalkMute
from service.talk import messages
from tests.service.helpers import current, play_one
from tests.talk import helpers
from tests.web.pages import text


@pytest.fixture
def db(app, everyone_played_before):
    return app


def say(game_id: int, seat: int, words: str, channel: str = "all") -> None:
    with write_session(get_engine()) as session:
        messages.post(session, session.merge(helpers.seat(game_id, seat)), words, channel=channel)


def order(page: str, *needles: str) -> list[int]:
    return [page.index(needle) for needle in needles]


def recent(page: str) -> str:
    return re.search(r'<section aria-labelledby="recent-h">.*?</section>', page, re.S).group(0)


def step(page: str) -> str:
    return re.search(r'<section aria-labelledby="step-h">.*?</section>', page, re.S).group(0)


def team_game_with_talk() -> tuple[int, dict]:
    """A Riftforce team game (0 & 2 against 1 & 3): moves, and talk between them."""
    game_id = helpers.riftforce_team(4)
    say(game_id, 1, "before anything")
    for _ in range(3):
        play_one(game_id)
    say(game_id, 0, "psst, team", channel="team")
    say(game_id, 3, "table: nice one")
    play_one(game_id)
    say(game_id, 2, "after the fourth")
    return game_id, {seat: helpers.token(game_id, seat) for seat in range(4)}


def test_the_player_pages_last_moves_carry_the_talk_written_among_them_in_time_order(db, client):
    game_id, t = team_game_with_talk()
    page = text(client.get(f"/p/{t[2]}"))
    shown = recent(page)
    assert "Last moves and table talk" in shown
    a, b, c = order(shown, "psst, team", "table: nice one", "after the fourth")
    assert a < b < c
    # Each message sits after the move it followed and before the next one: the list alternates.
    items = re.findall(r'<li( class="talk-message[^"]*")?[^>]*>', shown)
    kinds = ["talk" if attrs else "move" for attrs in items]
    assert kinds[-1] == "talk" and "talk" in kinds[:-1] and kinds.index("talk") > 0
    # The other team's page: no team talk anywhere, the table's talk in the same order.
    other = text(client.get(f"/p/{t[1]}"))
    assert "psst, team" not in other
    assert order(recent(other), "table: nice one", "after the fourth") == sorted(order(recent(other), "table: nice one", "after the fourth"))


def test_a_muted_persons_talk_is_not_among_the_moves(db, client):
    game_id, t = team_game_with_talk()
    with write_session(get_engine()) as session:
        session.add(TalkMute(person=helpers.ADDRESSES[2], muted=helpers.ADDRESSES[3]))
    page = text(client.get(f"/p/{t[2]}"))
    assert "table: nice one" not in page and "after the fourth" in recent(page)


def test_the_players_history_places_talk_among_the_turns_lines_with_their_rules(db, client):
    game_id, t = team_game_with_talk()
    game, _ = current(game_id)
    page = text(client.get(f"/p/{t[0]}/history?at={game.seq}&by=turn"))
    assert 'class="talk-line' in page
    assert "after the fourth" in page
    history_of_other_team = text(client.get(f"/p/{t[3]}/history?at={game.seq}"))
    assert "psst, team" not in history_of_other_team
    # Stepping back to the first turns: the talk written then, there.
    first = step(text(client.get(f"/p/{t[0]}/history?at=1&by=turn")))
    assert "before anything" in first and "after the fourth" not in first


def test_the_public_history_shows_the_tables_talk_only_when_finished_or_opened_never_a_teams(db, client):
    game_id, t = team_game_with_talk()
    game, _ = current(game_id)
    with write_session(get_engine()) as session:
        session.get(Game, game_id).history_public = True
    during = text(client.get(f"/games/{game_id}/history?at={game.seq}"))
    assert "after the fourth" not in during and "talk-line" not in during
    with write_session(get_engine()) as session:
        session.get(Game, game_id).status = "finished"
    steps = [step(text(client.get(f"/games/{game_id}/history?at={n}"))) for n in range(1, game.seq + 1)]
    assert "after the fourth" in steps[-1]
    assert any("table: nice one" in shown for shown in steps) and any("before anything" in shown for shown in steps)
    assert not any("psst, team" in shown for shown in steps)
