"""The profile line (service/views/profile.py): games played per game, finished, timed-out turns in the
last 20 games, the median time to move; on the invitation page and email, and `GET /api/me/profile`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

import engine
from service import links, store
from service.mail import compose
from service.play import handle, new_game
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import Event, Invitation, Outbox
from service.views import profile
from tests.consent import preconsent
from tests.people.helpers import sign_in_as
from tests.people.home_helpers import ANN, BO, finish
from tests.service import toygame

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def dated(game_id: int, at: datetime, after: int = 0) -> None:
    """The game's events after seq `after` as made at `at` (an event row takes the clock's time when
    written; these tests tell the time instead)."""
    with write_session(get_engine()) as session:
        session.execute(sa.update(Event).where(Event.game_id == game_id, Event.seq > after).values(created_at=at))


def started(name: str, players, seed: int, **kw) -> int:
    game_id = new_game(name, players, {"target": 60} if name == toygame.NAME else {}, seed=seed, now=T0, **kw)
    dated(game_id, T0)
    return game_id


def play_turn(game_id: int, at: datetime, kind: str = "move") -> None:
    """The seat to act plays a whole toy turn (a card, then a draw, which ends it) at `at`."""
    rules = engine.get(toygame.NAME)
    with read_session(get_engine()) as session:
        before = store.get_game(session, game_id).seq
    for _ in range(2):
        with read_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            state, _ = store.load_state(session, game)
        seat = game.to_act[0]
        handle(game_id, seat, rules.legal_moves(state, seat)[-1], game.seq, kind=kind, now=at)  # draw: the hand lasts
    dated(game_id, at, before)


def ann_profile() -> profile.Profile:
    with read_session(get_engine()) as session:
        return profile.profile(session, "ANN@example.org")


def test_the_profile_counts_games_timeouts_and_the_median_time_to_move(app):
    preconsent(ANN[1], BO[1])
    game = started(toygame.NAME, [ANN, BO], 1)  # Ann's turn from T0
    play_turn(game, T0 + timedelta(hours=1))  # Ann after 1 hour
    play_turn(game, T0 + timedelta(hours=2))  # Bo
    play_turn(game, T0 + timedelta(hours=7))  # Ann after 5 hours
    play_turn(game, T0 + timedelta(hours=8))  # Bo
    play_turn(game, T0 + timedelta(hours=80), kind="timeout")  # Ann's turn timed out: not a move time
    play_turn(game, T0 + timedelta(hours=81))  # Bo
    play_turn(game, T0 + timedelta(hours=85))  # Ann after 4 hours
    other = started(toygame.NAME, [BO, ANN], 2)
    play_turn(other, T0 + timedelta(hours=1))  # Bo
    play_turn(other, T0 + timedelta(hours=2), kind="timeout")  # Ann: a second timed-out turn
    finish(other, {"winners": [0], "scores": {"0": 3, "1": 1}})
    started("riftforce", [BO, ANN], 3)
    found = ann_profile()
    assert (found.played, found.finished, found.recent, found.timeouts) == (3, 1, 3, 2)
    assert found.per_game == [("Toy", 2), ("Riftforce", 1)]
    assert found.median_move == timedelta(hours=4)  # of 1, 5 and 4 hours
    assert found.line("Ann") == ("Ann: 3 games (1 finished; Toy 2, Riftforce 1), 2 timed-out turns in the last 3, "
                                 "usually moves within 4 hours")


def test_only_the_last_20_games_count_for_timeouts(app):
    preconsent(ANN[1], BO[1])
    old = started(toygame.NAME, [BO, ANN], 1)
    play_turn(old, T0)
    play_turn(old, T0 + timedelta(hours=1), kind="timeout")
    assert ann_profile().timeouts == 1
    for seed in range(20):
        started(toygame.NAME, [ANN, BO], seed + 2)
    found = ann_profile()
    assert (found.played, found.recent, found.timeouts, found.median_move) == (21, 20, 0, None)
    assert found.line("Ann").endswith("0 timed-out turns in the last 20")


def test_someone_new_has_a_line_too(app):
    assert profile.Profile([], 0, 0, 0, 0, None).line("Cy") == "Cy: no games played here yet"


def test_the_invitation_shows_the_inviters_line_and_never_an_address(app, client):
    preconsent(BO[1])
    game = started(toygame.NAME, [BO, ANN], 1)
    with read_session(get_engine()) as session:
        invitation = session.execute(sa.select(Invitation).where(Invitation.game_id == game)).scalar_one()
    page = client.get(f"/i/{links.invitation_token(invitation.id, invitation.row_key)}").get_data(as_text=True)
    assert "Bo: 1 game (0 finished; Toy 1), 0 timed-out turns in the last 1." in page
    assert "bo@example.org" not in page and "ann@example.org" not in page


def test_the_invitation_email_carries_the_line(app):
    preconsent(BO[1])
    game = started(toygame.NAME, [BO, ANN], 1)
    with read_session(get_engine()) as session:
        row = session.execute(sa.select(Outbox).where(Outbox.game_id == game, Outbox.kind == "invitation")).scalar_one()
        message = compose.build(session, row)
    body = message.get_body(("plain",)).get_content()
    assert message.get_body(("html",)) is not None and "Toy 1" in message.get_body(("html",)).get_content()
    assert "Bo: 1 game (0 finished; Toy 1), 0 timed-out turns in the last 1." in body
    assert "bo@example.org" not in body


def test_my_profile_as_json(app, client):
    preconsent(ANN[1], BO[1])
    game = started(toygame.NAME, [ANN, BO], 1)
    play_turn(game, T0 + timedelta(hours=3))
    sign_in_as(client, ANN[1])
    answer = client.get("/api/me/profile").get_json()
    assert answer == {"played": 1, "finished": 0, "per_game": [{"game": "Toy", "played": 1}], "recent_games": 1,
                      "timeouts_recent": 0, "median_move_seconds": 3 * 3600, "ratings": []}
