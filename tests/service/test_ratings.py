"""Ratings per game and mode (issue #25 part 5, service/play/ratings.py): updated with the recorded end of
a game, once; a duel, a Riftforce team game (rated as teams) and a 4-player Riftwalker; games with a bot,
cooperative and solo games unrated; forfeits rated; on both backends."""

from __future__ import annotations

import sqlalchemy as sa

from service.play import ending, new_game
from service.play.ratings import ranks
from service.store import get_engine, read_session, write_session
from service.store.models import Game, Player, RatedGame, Rating, utcnow
from service.views import leaderboard, profile
from tests.conftest import app_on
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import play_to_end

DUEL = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
FOUR = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org"), ("Di", "di@example.org")]


def _end(game_id: int, result: dict) -> bool:
    """The engine reported `result` (as a final move leaves it) and the end is recorded."""
    with write_session(get_engine()) as session:
        session.execute(sa.update(Game).where(Game.id == game_id).values(status="finished", result=result))
    return ending.record_end(game_id, utcnow())


def _ratings(game: str) -> dict[str, Rating]:
    with read_session(get_engine()) as session:
        return {row.person: row for row in session.execute(sa.select(Rating).where(Rating.game == game)).scalars()}


def _judged(game_id: int) -> RatedGame | None:
    with read_session(get_engine()) as session:
        return session.get(RatedGame, game_id)


def test_ranks_follow_the_result_winners_first_then_scores_with_ties():
    assert ranks({"winners": [1], "scores": {"0": 3, "1": 9, "2": 3}}, [[0], [1], [2]]) == [2, 1, 2]
    assert ranks({"winners": [0], "scores": {"0": 9, "1": 4, "2": 6}}, [[0], [1], [2]]) == [1, 3, 2]
    assert ranks({"winners": [0, 1], "scores": {}}, [[0], [1]]) == [1, 1]  # a shared win ties
    assert ranks({"winners": [0, 2], "scores": {}}, [[0, 2], [1, 3]]) == [1, 2]  # teams by their seats


def test_a_duel_rates_the_winner_up_and_the_loser_down_once_on_both_backends(tmp_path, backend_url):
    with app_on(tmp_path, backend_url):
        preconsent("ann@example.org", "bob@example.org")
        game_id = new_game("riftforce", DUEL, seed=1)
        assert _end(game_id, {"winners": [0], "scores": {"0": 12, "1": 7}})
        found = _ratings("riftforce")
        ann, bob = found["ann@example.org"], found["bob@example.org"]
        assert ann.mode == bob.mode == "duel" and ann.games == bob.games == 1
        assert ann.mu > 25 > bob.mu and ann.ordinal > bob.ordinal
        assert ending.record_end(game_id, utcnow()) is False  # recorded once: rated once
        assert _ratings("riftforce")["ann@example.org"].games == 1
        judged = _judged(game_id)
        assert judged is not None and judged.reason == "" and judged.changes["0"][1] > judged.changes["1"][1]


def test_a_riftforce_team_game_rates_the_two_teams_each_partner_alike(app):
    preconsent(*[email for _, email in FOUR])
    game_id = new_game("riftforce", FOUR, {"mode": "team"}, seed=2)
    assert _end(game_id, {"winners": [1, 3], "scores": {"0": 5, "1": 11, "2": 5, "3": 11}})
    found = _ratings("riftforce")
    assert {row.mode for row in found.values()} == {"team"}
    assert found["bob@example.org"].mu == found["di@example.org"].mu > 25
    assert found["ann@example.org"].mu == found["cy@example.org"].mu < 25


def test_a_four_player_riftwalker_ranks_all_four_by_the_result(app):
    preconsent(*[email for _, email in FOUR])
    game_id = new_game("riftwalker", FOUR, seed=3)
    assert _end(game_id, {"winners": [2], "scores": {"0": 10, "1": 14, "2": 20, "3": 4}})
    found = _ratings("riftwalker")
    order = sorted(found, key=lambda person: -found[person].mu)
    assert order == ["cy@example.org", "bob@example.org", "ann@example.org", "di@example.org"]
    assert all(row.games == 1 and row.mode == "" for row in found.values())


def test_a_game_played_to_its_end_is_rated_by_the_end_the_worker_records(app):
    preconsent("ann@example.org", "bob@example.org")
    game_id = new_game(toygame.NAME, DUEL, {"target": 5}, seed=3)
    play_to_end(game_id)
    assert _judged(game_id) is not None and _judged(game_id).reason == ""
    assert {row.games for row in _ratings(toygame.NAME).values()} == {1}


def test_a_forfeit_is_rated_the_forfeiting_seat_losing(app):
    preconsent("ann@example.org", "bob@example.org")
    game_id = new_game("riftforce", DUEL, seed=4)
    assert ending.record_end(game_id, utcnow(), forfeit_seat=0)
    found = _ratings("riftforce")
    assert found["bob@example.org"].mu > found["ann@example.org"].mu


def test_a_game_with_a_bot_seat_is_not_rated(app):
    preconsent("ann@example.org", "bob@example.org")
    game_id = new_game("riftforce", DUEL, seed=5)
    with write_session(get_engine()) as session:  # a seat without a person: the bots' Player row
        session.execute(sa.update(Player).where(Player.game_id == game_id, Player.seat == 1).values(email=""))
    assert _end(game_id, {"winners": [0], "scores": {"0": 12, "1": 7}})
    assert _judged(game_id).reason == "bot" and _ratings("riftforce") == {}


def test_cooperative_and_solo_games_are_not_rated(app):
    preconsent("ann@example.org", "bob@example.org")
    coop = new_game("beyond-the-rift", DUEL, seed=6)
    assert _end(coop, {"winners": [0, 1], "scores": {"0": 1, "1": 1}, "outcome": "win"})
    solo = new_game("riftforce", DUEL[:1], {"mode": "solo"}, seed=7)
    assert _end(solo, {"winners": [0], "scores": {"0": 12}})
    assert (_judged(coop).reason, _judged(solo).reason) == ("cooperative", "solo")
    with read_session(get_engine()) as session:
        assert session.execute(sa.select(sa.func.count()).select_from(Rating)).scalar_one() == 0


def test_the_leaderboard_and_the_profile_line_show_display_numbers_and_names_never_addresses(app):
    preconsent("ann@example.org", "bob@example.org")
    for seed in range(3):
        _end(new_game("riftforce", DUEL, seed=10 + seed), {"winners": [0], "scores": {"0": 12, "1": 7}})
    with read_session(get_engine()) as session:
        board = leaderboard.board(session, "riftforce", "duel", 1, min_games=3)
        line = profile.profile(session, "ann@example.org").line("Ann")
        assert leaderboard.board(session, "riftforce", "duel", 1, min_games=4).rows == []
    assert [(row.place, row.name, row.games) for row in board.rows] == [(1, "Ann", 3), (2, "Bob", 3)]
    assert board.rows[0].rating > board.rows[1].rating
    assert f"rated {board.rows[0].rating} in Riftforce duel" in line and "@" not in line


def test_the_leaderboard_page_lists_pages_and_says_why_beyond_the_rift_has_none(app, client):
    preconsent("ann@example.org", "bob@example.org")
    app.config["RATING_MIN_GAMES"] = 1
    _end(new_game("riftforce", DUEL, seed=20), {"winners": [1], "scores": {"0": 2, "1": 7}})
    page = client.get("/leaderboard/riftforce").get_data(as_text=True)
    assert "Bob" in page and "Ann" in page and "example.org" not in page
    assert "Team play" in client.get("/leaderboard/riftforce?mode=team").get_data(as_text=True)
    coop = client.get("/leaderboard/beyond-the-rift")
    assert coop.status_code == 200 and "cooperative" in coop.get_data(as_text=True)
    assert client.get("/leaderboard/nonesuch").status_code == 404
    assert client.get("/leaderboard/riftforce?page=x").status_code == 200
