"""The start page and its form, the spectator page and JSON API, the dev mailbox, the CLI."""

from __future__ import annotations

import json

from service.play import new_game
from tests.conftest import make_app
from tests.consent import confirm_creator, preconsent
from tests.service import toygame
from tests.service.helpers import current, outbox_rows, play_to_end
from tests.web.pages import START_FORM, csrf_token, start_form, text


def test_start_page_form_starts_a_game_and_queues_invitations(client):
    listing = text(client.get("/"))  # the games, each leading to its own form
    assert f'href="{start_form(toygame.NAME)}"' in listing and 'for="email0"' not in listing
    page = text(client.get(start_form(toygame.NAME)))
    assert 'for="email0"' in page and f'name="game" value="{toygame.NAME}"' in page
    form = {
        "csrf_token": csrf_token(page), "game": toygame.NAME,
        "name0": "Ann", "email0": "ann@example.org", "name1": "Bob", "email1": "bob@example.org",
        "options": "target=5\n",
    }
    response = client.post("/games/new", data=form)
    assert response.status_code == 303
    game_id = int(response.headers["Location"].split("/")[-2])
    game, _ = current(game_id)
    assert game.options == {"target": 5}
    # Neither address has played here: Ann (seat 0) is asked whether she started it; everything else,
    # Bob's invitation too, waits for her answer (nobody is emailed from an address nobody confirmed).
    rows = outbox_rows(game_id)
    assert [(row.kind, row.status) for row in rows] == [("invitation", "pending"), ("invitation", "held"),
                                                        ("invite", "held"), ("turn", "held")]
    created = text(client.get(response.headers["Location"]))
    assert "Seat 1: Ann" in created and "Seat 2: Bob" in created
    assert "bob@example.org" not in created  # the creator's browser reads only its own address
    assert "ann@example.org" not in text(client.application.test_client().get(response.headers["Location"]))
    assert "We asked" not in created  # whether an address played here is the creator's to read (their page)
    # Players who played before get the game's emails at once.
    preconsent("ann@example.org", "bob@example.org")
    again = client.post("/games/new", data=form)
    again_id = int(again.headers["Location"].split("/")[-2])
    confirm_creator(again_id)  # once Ann said she started it (every form game asks its seat 0 first)
    rows = [row for row in outbox_rows(again_id) if row.kind != "invitation"]
    assert [(row.kind, row.params, row.status) for row in rows] == [("invite", {}, "pending"),
                                                                    ("turn", {"invite": True}, "pending")]
    def page_of(game: int, page: str) -> str:
        return page.replace(f"#{game}", "#N").replace(f"/games/{game}", "/games/N")

    # The same page as before: it tells nothing of the addresses.
    assert page_of(game_id + 1, text(client.get(again.headers["Location"]))) == page_of(game_id, created)


def test_start_form_rejects_bad_input_with_reasons(client):
    token = csrf_token(text(client.get(START_FORM)))
    cases = [
        ({"game": toygame.NAME, "email0": "ann@example.org"}, "needs 2 to 3 players"),
        ({"game": "no-such-game", "email0": "a@example.org", "email1": "b@example.org"}, "There is no game called"),
        ({"game": toygame.NAME, "email0": "not an address", "email1": "b@example.org"}, "is not an email"),
        ({"game": toygame.NAME, "email0": "a@example.org", "email1": "b@example.org", "options": "colour"}, "KEY=VALUE"),
        ({"game": toygame.NAME, "email0": "a@example.org", "email1": "b@example.org", "options": "target=99"}, "target of 1 to 60"),
        ({"game": toygame.NAME}, "at least one player"),
        ({}, "Choose a game below."),
    ]
    for data, reason in cases:
        response = client.post("/games/new", data={"csrf_token": token, **data})
        assert response.status_code == 422, data
        assert reason in text(response), (data, text(response))
    assert outbox_rows() == []


def test_api_gives_the_spectator_view_without_hidden_cards(client, app):
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], seed=3)
    data = client.get(f"/api/games/{game_id}").get_json()
    assert data["game"] == toygame.NAME and data["seq"] == 3 and data["status"] == "active"
    assert data["to_act"] == [0] and data["result"] is None
    _, state = current(game_id)
    raw = json.dumps(data)
    for card in state["hands"][0] + state["hands"][1] + state["deck"]:
        assert card not in raw
    assert "example.org" not in raw
    play_to_end(game_id)
    done = client.get(f"/api/games/{game_id}").get_json()
    assert done["status"] == "finished" and done["result"]["winners"] and done["to_act"] == []
    spectator = text(client.get(f"/games/{game_id}"))
    assert "The game is over" in spectator


def test_api_and_pages_answer_unknown_games_with_404(client):
    assert client.get("/api/games/999").status_code == 404
    assert client.get("/api/games/999").get_json()["error"]
    assert client.get("/api/games/abc").status_code == 404
    assert client.get("/api/games/-1").status_code == 404
    assert client.get("/games/999").status_code == 404
    assert client.get("/games/999/created").status_code == 404


def test_dev_mailbox_only_without_smtp_url(tmp_path, migrated_sqlite, client):
    assert client.get("/dev/mail/").status_code == 200
    production = make_app(tmp_path, f"sqlite:///{migrated_sqlite}", DEV_MAILBOX=False)
    assert production.test_client().get("/dev/mail/").status_code == 404


def test_dev_mailbox_shows_sink_messages(app, client):
    import mailbox
    from email.message import EmailMessage

    message = EmailMessage()
    message["Subject"] = "[Toy #1] Your turn"
    message["To"] = "ann@example.org"
    message.set_content("Play: http://riftpost.test/m/abc")
    message.add_alternative("<p><a href='http://riftpost.test/m/abc'>Play</a></p>", subtype="html")
    key = mailbox.Maildir(app.config["MAILDIR"], create=True).add(message)
    listing = text(client.get("/dev/mail/"))
    assert "[Toy #1] Your turn" in listing
    shown = text(client.get(f"/dev/mail/{key}"))
    assert 'href="http://riftpost.test/m/abc"' in shown and f'src="/dev/mail/{key}/frame"' in shown
    assert client.get("/dev/mail/nope").status_code == 404


def test_cli_new_game_prints_the_id_and_queues_invitations(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["new-game", toygame.NAME, "ann@example.org", "Bob=bob@example.org",
                                 "--option", "target=4", "--seed", "5"])
    assert result.exit_code == 0, result.output
    game_id = int(result.output.strip())
    game, _ = current(game_id)
    assert game.options == {"target": 4} and game.secret == "5"
    # The command line is a start like the form: the new creator's address is asked first, and the rest
    # (Bob's invitation too) waits for its answer.
    assert [row.kind for row in outbox_rows(game_id) if row.status == "pending"] == ["invitation"]
    assert [(row.kind, row.params) for row in outbox_rows(game_id) if row.status == "held"] == [
        ("invitation", {"invitation": 2}), ("invite", {}), ("turn", {"invite": True})]
    bad = runner.invoke(args=["new-game", "nope", "a@example.org"])
    assert bad.exit_code != 0 and "unknown game" in bad.output
    bad = runner.invoke(args=["new-game", toygame.NAME, "a@example.org"])
    assert bad.exit_code != 0 and "needs 2 to 3 players" in bad.output
    bad = runner.invoke(args=["new-game", toygame.NAME, "a@example.org", "b@example.org", "--option", "x"])
    assert bad.exit_code != 0


def test_healthz_answers_200_when_the_database_answers_and_503_when_not(client, app, tmp_path):
    """DESIGN.md: `GET /healthz` answers 200 when the database answers."""
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.get_data(as_text=True) == "ok\n"
    from tests.conftest import make_app

    broken = make_app(tmp_path / "broken", f"sqlite:///{tmp_path / 'no' / 'such' / 'dir' / 'app.sqlite'}")
    answer = broken.test_client().get("/healthz")
    assert answer.status_code == 503
