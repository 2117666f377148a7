"""The signed-in person's "my games" (service/views/my_games.py, service/web/home.py): every game of
theirs grouped and sorted, over the three games and their modes, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import sqlalchemy as sa
from markupsafe import escape

from service.people import sessions
from service.play import consent, new_game
from service.store import read_session, write_session
from service.store.db import get_engine, single_reads
from service.store.models import Invitation, Player
from service.views import my_games
from service.web import home
from tests.conftest import app_on
from tests.consent import preconsent
from tests.people.helpers import sign_in_as
from tests.people.home_helpers import ANN, BO, CY, DI, due_in, finish
from tests.service.helpers import current, play_one
from tests.web.pages import csrf_token, text

EVE, FAY = ("Eve", "eve@example.org"), ("Fay", "fay@example.org")
ANN_SEAT = 0


def get(client, path: str):
    """A request as a browser's own: app_on's app context stays pushed across the test client's requests,
    and with it `g`, where service/web/auth.py keeps who the request is signed in as (and Flask-WTF its
    CSRF token): each request gets a context of its own, as in a server."""
    with client.application.app_context():
        return client.get(path)


def post(client, path: str, **kw):
    with client.application.app_context():
        return client.post(path, **kw)


def mine(email: str = ANN[1], **kw):
    with single_reads(get_engine()).connect() as conn:
        return my_games.my_games(conn, email, datetime.now(UTC), **kw)


def every_kind() -> dict[str, int]:
    """Ann's games: every game and mode, her turn or not, timed or not, finished, an invitation, and
    two that must not show (a stranger's unconfirmed form game, an invitation she declined)."""
    preconsent(ANN[1], BO[1], CY[1], DI[1])
    games = {
        "duel": new_game("riftforce", [ANN, BO], {}, seed=1, deadline_hours=72),  # Ann's turn
        "team": new_game("riftforce", [ANN, BO, CY, DI], {"mode": "team"}, seed=2, deadline_hours=72),  # Bo's
        "solo": new_game("riftforce", [ANN], {"mode": "solo"}, seed=3),  # Ann's, untimed
        "walker": new_game("riftwalker", [BO, ANN, CY], {}, seed=4, deadline_hours=48),  # Bo's
        "beyond": new_game("beyond-the-rift", [ANN, CY], {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]},
                           seed=5, deadline_hours=24),  # both heroes at once
        "won": new_game("riftforce", [ANN, BO], {}, seed=6),
        "lost": new_game("riftwalker", [BO, ANN], {}, seed=7),
        "team3": new_game("riftforce", [CY, ANN, BO], {"mode": "team"}, seed=8),
    }
    due_in(games["duel"], 0, 10)
    due_in(games["beyond"], 0, 5)  # sooner than the duel's: first
    due_in(games["walker"], 0, 30)
    due_in(games["team"], 1, 60)
    finish(games["won"], {"winners": [0], "scores": {"0": 12, "1": 7}}, datetime(2026, 3, 1, tzinfo=UTC))
    finish(games["lost"], {"winners": [0], "scores": {"0": 12, "1": 9}}, datetime(2026, 3, 2, tzinfo=UTC))
    finish(games["team3"], {"winners": [0, 2], "scores": {"0": 12, "1": 4, "2": 12}}, datetime(2026, 2, 1, tzinfo=UTC))
    preconsent(EVE[1])  # a verified inviter Ann never accepted: her seat waits for Ann's answer
    games["invited"] = new_game("riftforce", [EVE, ANN], {}, seed=9)
    preconsent(FAY[1])
    declined = new_game("riftwalker", [FAY, ANN], {}, seed=10)
    with read_session(get_engine()) as session:
        fay = session.execute(sa.select(Invitation.id).where(Invitation.game_id == declined)).scalar_one()
    consent.decline(fay, datetime.now(UTC))
    games["declined"] = declined
    # A stranger types Ann's address into the public form: nothing of it reaches her until the
    # stranger confirms, so it is not among her games either.
    games["unconfirmed"] = new_game("riftforce", [("Zed", "zed@example.org"), ANN], {}, seed=11, ask_creator=True)
    return games


def test_my_games_groups_and_sorts_every_game_and_mode(tmp_path, backend_url):
    with app_on(tmp_path, backend_url):
        games = every_kind()
        found = mine()
    ids = {group: [row.game_id for row in rows] for group, rows in found.groups.items()}
    assert ids == {
        "your_turn": [games["beyond"], games["duel"], games["solo"]],  # soonest deadline first, untimed last
        "waiting": [games["walker"], games["team"]],
        "invitations": [games["invited"]],
        "lobby": [],
        "finished": [games["lost"], games["won"], games["team3"]],  # newest first
    }
    rows = {row.game_id: row for group in found.groups.values() for row in group}
    assert rows[games["duel"]].status.startswith("Your turn: due ")
    assert rows[games["solo"]].status == "Your turn"
    assert (rows[games["solo"]].players, rows[games["solo"]].mode) == ("Ann vs the trainer", "Solo")
    assert (rows[games["team"]].players, rows[games["team"]].mode) == ("Ann & Cy vs Bo & Di", "Team play")
    assert rows[games["team"]].status == "Bo to play, 2 days left"
    assert rows[games["walker"]].status == "Bo to play, 30 hours left"
    assert (rows[games["walker"]].players, rows[games["walker"]].mode) == ("Bo, Ann and Cy", "3 players")
    assert rows[games["beyond"]].players == "Ann and Cy vs the rift"
    assert rows[games["won"]].status == "You won 12–7 · Sun 1 Mar 2026"
    assert rows[games["lost"]].status == "Bo won 12–9 · Mon 2 Mar 2026"
    assert rows[games["team3"]].status.startswith("Cy and Bo won 12–12–4")
    assert rows[games["invited"]].status == "Eve invited you" and rows[games["invited"]].invited
    assert found.awaiting == 4  # three turns and one invitation
    assert [co.name for co in found.co_players] == ["Bo", "Cy", "Di"]  # not Eve, Fay nor Zed


def test_my_games_reads_one_statement_whatever_the_number_of_games(tmp_path, backend_url):
    with app_on(tmp_path, backend_url):
        preconsent(ANN[1], BO[1])
        engine = get_engine()
        counts = []
        for _ in range(2):
            for seed in range(10):
                new_game("riftforce", [ANN, BO], {}, seed=seed, deadline_hours=72)
            statements: list[str] = []

            def listen(*args, statements=statements):
                statements.append(args[2])

            sa.event.listen(engine, "before_cursor_execute", listen)
            try:
                found = mine()
                assert len(found.groups["your_turn"]) + len(found.groups["waiting"]) == 10 * (len(counts) + 1)
            finally:
                sa.event.remove(engine, "before_cursor_execute", listen)
            counts.append(len(statements))
    # Seats, players, deadlines and the time zone at once, outside a transaction (no BEGIN on SQLite).
    assert counts == [1, 1]


def test_the_start_page_signed_in_shows_my_games_counted_in_its_title_and_no_other_address(tmp_path, backend_url):
    with app_on(tmp_path, backend_url) as app:
        games = every_kind()
        client = app.test_client()
        assert "Play the rift card games by email" in text(get(client, "/"))  # not signed in: as before
        sign_in_as(client, ANN[1])
        page = text(get(client, "/"))
        answer = get(client, "/api/me/games").get_json()
    assert "<title>(4) Riftpost</title>" in page
    for heading in ("Your turn", "Waiting for others", "Invitations to answer", "Finished", "People you played with"):
        assert heading in page
    assert f"Riftforce #{games['team']}: Ann &amp; Cy vs Bo &amp; Di" in page
    assert f"/me/games/{games['duel']}/history" in page and f"/me/games/{games['invited']}/invitation" in page
    assert answer["awaiting"] == 4 and answer["played_with"] == ["Bo", "Cy", "Di"]
    assert [row["id"] for row in answer["groups"]["invitations"]] == [games["invited"]]
    for shown in (page, str(answer)):
        assert not re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+", shown.replace("&#64;", "@"))  # no address, even Ann's
        assert "Zed" not in shown and "Fay" not in shown


def test_the_games_api_needs_a_signed_in_person(client):
    answer = client.get("/api/me/games")
    assert answer.status_code == 401 and answer.get_json()["status"] == 401
    assert client.get("/api/me/profile").status_code == 401


def test_a_finished_game_can_be_hidden_and_shown_again_only_by_its_player(tmp_path, backend_url):
    with app_on(tmp_path, backend_url) as app:
        games = every_kind()
        client = app.test_client()
        sign_in_as(client, ANN[1])
        token = csrf_token(text(get(client, "/")))
        hidden = post(client, f"/me/games/{games['won']}/hide", data={"csrf_token": token})
        assert hidden.status_code == 303
        assert games["won"] not in [row.game_id for row in mine().groups["finished"]]
        page = text(get(client, "/"))
        assert "Show your 1 hidden game" in page and f"Riftforce #{games['won']}" not in page
        shown = text(get(client, "/me/games/hidden"))
        assert f"Riftforce #{games['won']}" in shown and f"Riftforce #{games['duel']}" not in shown
        assert post(client, f"/me/games/{games['won']}/hide", data={"csrf_token": token}).status_code == 303  # twice: once
        for refused in (games["duel"], games["unconfirmed"], 9999):  # running, not hers, none
            answer = post(client, f"/me/games/{refused}/hide", data={"csrf_token": token})
            assert answer.status_code == 404 and "no game of yours" in text(answer)
        assert post(client, f"/me/games/{games['lost']}/hide").status_code == 400  # no CSRF token
        assert mine().hidden == 1
        post(client, f"/me/games/{games['won']}/unhide", data={"csrf_token": token})
        assert mine().hidden == 0 and games["won"] in [row.game_id for row in mine().groups["finished"]]
        sign_in_as(client, BO[1])  # Ann's hiding was hers alone
        token = csrf_token(text(get(client, "/")))
        post(client, f"/me/games/{games['won']}/hide", data={"csrf_token": token})
        assert games["won"] in [row.game_id for row in mine().groups["finished"]]
        assert mine(BO[1]).hidden == 1
        other = app.test_client()
        assert post(other, f"/me/games/{games['won']}/hide").status_code in (400, 401)  # nobody signed in


def test_a_row_opens_the_persons_own_page_history_and_invitation_and_nobody_elses(tmp_path, backend_url):
    with app_on(tmp_path, backend_url) as app:
        games = every_kind()
        client = app.test_client()
        sign_in_as(client, ANN[1])
        page = get(client, f"/me/games/{games['duel']}")
        assert page.status_code == 303 and page.location.startswith("/p/")
        assert "Your turn" in text(get(client, page.location)) or get(client, page.location).status_code == 200
        history = get(client, f"/me/games/{games['duel']}/history")
        assert history.status_code == 303 and history.location.endswith("/history")
        invitation = get(client, f"/me/games/{games['invited']}/invitation")
        assert invitation.status_code == 303 and invitation.location.startswith("/i/")
        assert "Eve invited you to play Riftforce" in text(get(client, invitation.location))
        for refused in (games["unconfirmed"], games["declined"], 9999):  # not hers to open, or none
            assert get(client, f"/me/games/{refused}").status_code == 404
        assert get(client, f"/me/games/{games['duel']}/invitation").status_code == 404
        sign_in_as(client, EVE[1])
        assert get(client, f"/me/games/{games['duel']}").status_code == 404
        assert app.test_client().get(f"/me/games/{games['duel']}").status_code == 401


def test_a_move_a_renamed_seat_and_an_end_show_at_once_though_the_rows_words_are_kept(tmp_path, backend_url):
    """The rows' words are kept between requests (my_games `_game_words`, `_acting`, `_ending`), keyed
    by the stored texts they are made from, never by the game alone: the next request after a move, a
    changed name or the end shows it."""
    with app_on(tmp_path, backend_url) as app:
        preconsent(ANN[1], BO[1])
        duel = new_game("riftforce", [ANN, BO], {}, seed=1)
        client = app.test_client()
        sign_in_as(client, ANN[1])
        assert f"Riftforce #{duel}: Ann vs Bo" in text(get(client, "/"))
        assert [row.game_id for row in mine().groups["your_turn"]] == [duel]
        for _ in range(20):  # Ann plays until her turn is over
            play_one(duel)
            if ANN_SEAT not in current(duel)[0].to_act:
                break
        page = text(get(client, "/"))
        assert "Bo to play" in page and [row.game_id for row in mine().groups["waiting"]] == [duel]
        with write_session(get_engine()) as session:
            session.execute(sa.update(Player).where(Player.game_id == duel, Player.seat == 1)  # type: ignore[arg-type]
                            .values(name="Bob"))
        page = text(get(client, "/"))
        assert f"Riftforce #{duel}: Ann vs Bob" in page and "Bob to play" in page
        finish(duel, {"winners": [1], "scores": {"0": 3, "1": 12}})
        assert "Bob won 12–3" in text(get(client, "/"))
        finish(duel, {"winners": [0], "scores": {"0": 12, "1": 3}})  # a corrected result
        assert "You won 12–3" in text(get(client, "/"))


def test_the_rows_escape_every_text_as_jinja_does():
    """The page's rows are made in Python (service/web/home.py `_lists`): their escaping is markupsafe's
    own, character for character, so a name with an apostrophe reads the same as on every other page."""
    nasty = "D'Arcy & <Bo> \"quoted\" ' é 12–7 \u00a0 &amp;"
    assert home._html(nasty) == str(escape(nasty))
    for code in range(0x250):
        assert home._html(chr(code)) == str(escape(chr(code)))


def test_a_name_with_an_apostrophe_is_escaped_in_the_row_as_in_the_rest_of_the_page(tmp_path, backend_url):
    with app_on(tmp_path, backend_url) as app:
        darcy = ("D'Arcy", "darcy@example.org")
        preconsent(ANN[1], darcy[1])
        game = new_game("riftforce", [ANN, darcy], {}, seed=1)
        finish(game, {"winners": [1], "scores": {"0": 3, "1": 12}})
        client = app.test_client()
        sign_in_as(client, ANN[1])
        page = text(get(client, "/"))
    assert f"Riftforce #{game}: Ann vs D&#39;Arcy</a>" in page
    assert "D&#39;Arcy won 12–3" in page and "New game with D&#39;Arcy" in page  # the row, the template
    assert "D'Arcy" not in page


def test_the_start_page_checks_the_sign_in_in_the_statement_that_reads_the_games(tmp_path, backend_url):
    """GET / signed in: the cookie's session generation is read with the person's games, one statement
    for both (service/web/home.py `generation_with_games`); the games show only while it matches."""
    with app_on(tmp_path, backend_url) as app:
        games = every_kind()
        client = app.test_client()
        sign_in_as(client, ANN[1])
        statements: list[str] = []

        def listen(*args):
            statements.append(args[2])

        sa.event.listen(get_engine(), "before_cursor_execute", listen)
        try:
            page = text(get(client, "/"))
            selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
            answer = get(client, "/api/me/games").get_json()  # its JSON twin too
        finally:
            sa.event.remove(get_engine(), "before_cursor_execute", listen)
        assert f"Riftforce #{games['duel']}" in page and "Your games" in page
        assert len(selects) == 1, selects
        assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 2, statements
        assert games["duel"] in [row["id"] for row in answer["groups"]["your_turn"]]
        sessions.end_everywhere(ANN[1])  # another browser signed out everywhere: this cookie is over
        page = text(get(client, "/"))
        assert 'action="/signin"' in page and f"Riftforce #{games['duel']}" not in page
        sign_in_as(client, ANN[1])
        sessions.end_everywhere(ANN[1])
        assert get(client, "/api/me/games").status_code == 401
        sign_in_as(client, "new@example.org")  # nobody's games: the generation is read on its own
        page = text(get(client, "/"))
        assert "You have no games yet" in page
        sessions.end_everywhere("new@example.org")
        assert 'action="/signin"' in text(get(client, "/"))


def test_the_home_lists_open_games_waiting_for_players_in_its_one_statement(tmp_path, backend_url):
    """#25 part 3 on the home: the person's open games (theirs and joined, confirmed) with the seats
    left, the link to share and, for their creator, a cancel button; still one SELECT for the page; a
    join not confirmed is not shown (nor its stranger's name), nor a cancelled or expired game."""
    from datetime import timedelta

    from service.play import lobby
    from service.store.models import utcnow

    with app_on(tmp_path, backend_url) as app:
        games = every_kind()
        mine_open = lobby.open_game("riftwalker", "", {}, 4, ("Ann", ANN[1]), listed=True, bots={1: "easy"})
        lobby.ask_to_join(mine_open.id, mine_open.key, "Spam dot example", "stranger@example.org")  # held only
        joined = lobby.open_game("riftforce", "duel", {}, 2, ("Bo", BO[1]), listed=False)
        theirs = lobby.open_game("riftwalker", "", {}, 3, ("Cy", CY[1]), listed=True)
        lobby.join_signed_in(theirs.id, theirs.key, "Ann", ANN[1])
        lobby.ask_to_join(joined.id, joined.key, "Ann", ANN[1])  # Ann typed her address, never confirmed
        gone = lobby.open_game("riftwalker", "", {}, 3, ("Ann", ANN[1]), listed=True, now=utcnow() - timedelta(days=8))
        lobby.expire(utcnow())
        found = mine()
        rows = {row.game_id: row for row in found.groups["lobby"]}
        assert list(rows) == [theirs.game_id, mine_open.game_id]  # newest first; not the unconfirmed nor expired
        assert gone.game_id not in rows
        mine_row, their_row = rows[mine_open.game_id], rows[theirs.game_id]
        assert (mine_row.status, mine_row.players, mine_row.opened_by_me) == ("2 seats left", "Ann and Bot (easy)", True)
        assert (their_row.status, their_row.players, their_row.opened_by_me) == ("1 seat left", "Cy and Ann", False)
        assert found.awaiting == 4  # open games wait on nobody: as before
        assert [co.name for co in found.co_players] == ["Bo", "Cy", "Di"]  # nobody from an open game
        client = app.test_client()
        sign_in_as(client, ANN[1])
        statements: list[str] = []

        def listen(*args):
            statements.append(args[2])

        sa.event.listen(get_engine(), "before_cursor_execute", listen)
        try:
            page = text(get(client, "/"))
        finally:
            sa.event.remove(get_engine(), "before_cursor_execute", listen)
        assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1, statements
        section = page.split('id="lobby-h"')[1].split("</section>")[0]
        assert "Waiting for players <span class=\"count\">(2)</span>" in page
        assert f"http://localhost/lobby/{mine_open.id}/{mine_open.key}</a>" in section
        assert f"/lobby/{theirs.id}/{theirs.key}" in section and "2 seats left" in section
        assert section.count("Cancel this game") == 1 and f'action="/lobby/{mine_open.id}/{mine_open.key}/cancel"' in section
        assert "Spam" not in page and "stranger" not in page and f"/lobby/{joined.id}/" not in page
        answer = get(client, "/api/me/games").get_json()
        shown = {row["id"]: row for row in answer["groups"]["lobby"]}
        assert shown[mine_open.game_id]["seats_left"] == 2 and shown[mine_open.game_id]["opened_by_me"] is True
        assert shown[theirs.game_id]["page"].endswith(f"/lobby/{theirs.id}/{theirs.key}")
        # Cancelled from the home: gone from it.
        cancelled = post(client, f"/lobby/{mine_open.id}/{mine_open.key}/cancel", data={"csrf_token": csrf_token(page)})
        assert cancelled.status_code == 303
        assert [row.game_id for row in mine().groups["lobby"]] == [theirs.game_id]
        # Started: it leaves the group for the games under way.
        lobby.join_signed_in(theirs.id, theirs.key, "Di", DI[1])
        now = mine()
        assert now.groups["lobby"] == [] and theirs.game_id in [r.game_id for g in ("your_turn", "waiting")
                                                                  for r in now.groups[g]]
        assert games["duel"]  # the rest unchanged
