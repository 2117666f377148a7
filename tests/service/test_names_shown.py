"""A name someone else chose is never a link (service/names.py): names stored before the start form
refused such names (an old row, here written directly) reach no email, page or JSON answer with
anything a mail client or a browser could link; and the form and the command line refuse them."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from service.mail import outbox
from service.names import name_problem, player_name
from service.people import vacations as people
from service.play import new_game
from service.play.timeouts import sweep
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, Player, utcnow
from tests import tokens
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import current, play_one, play_to_end
from tests.web.pages import START_FORM, csrf_token, text

EVIL = "Claim your prize at http://evil.example/win"
SNEAKY = "bo@evil.example www.evil.example"
SHOWN = "Claim your prize at http evil example wi"  # what is left of EVIL: 40 characters, no link
# What a mail client or a browser could turn into a link to the stranger's site, in any form.
LINKABLE = re.compile(r"evil\s*[.@/:]|https?://evil|www\.evil|@evil|evil\.example", re.I)
PLAYERS = [("Ann", "ann@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


def _named(game_id: int, names: dict[int, str]) -> None:
    """The names as an old row holds them: written directly, past the start form's check."""
    with write_session(get_engine()) as session:
        for seat, name in names.items():
            session.execute(sa.update(Player).where(Player.game_id == game_id, Player.seat == seat)
                            .values(name=name))


def _deliver() -> None:
    while pending := [row.id for row in _rows() if row.status == "pending"]:
        for row_id in pending:
            outbox.deliver(row_id)


def _rows() -> list[Outbox]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(Outbox).order_by(Outbox.id)).scalars())


def _readable(message) -> dict[str, str]:
    """Everything of an email a reader (or their mail client) sees: the headers, every text part decoded."""
    seen = {name: str(message[name] or "") for name in ("Subject", "To", "From", "List-Id")}
    for n, part in enumerate(message.walk()):
        if part.get_content_maintype() == "text":
            seen[f"part {n} {part.get_content_type()}"] = part.get_content()
    return seen


def _games(app) -> tuple[int, int]:
    preconsent(*[email for _, email in PLAYERS])  # the game's own emails go out at once
    toy = new_game(toygame.NAME, PLAYERS, {"target": 12}, seed=3, deadline_hours=24, policy="pause")
    duel = new_game("riftforce", PLAYERS[:2], seed=5)
    _named(toy, {1: EVIL, 2: SNEAKY})
    _named(duel, {0: SNEAKY, 1: EVIL})
    return toy, duel


def test_a_stored_name_with_a_link_reaches_no_email_as_a_link(app, sink):
    """Every email of two games through a real SMTP server: invitations to the game, turns with what
    happened since and the boards, a pause notice, a vacation and a resume told in the next lines,
    the game over; subject, To, first line, plain text and HTML."""
    app.config["SMTP_URL"] = sink.url
    toy, duel = _games(app)
    for _ in range(6):
        play_one(duel)
        play_one(toy)
    sweep(utcnow() + timedelta(hours=25))  # the seat to act runs out of time: the game pauses
    people.start_vacation("bo@example.org", utcnow())
    play_one(toy)  # resumes it
    play_to_end(toy)
    _deliver()
    messages = sink.wait_for(len([row for row in _rows() if row.status == "sent"]))
    kinds = {m["X-Riftpost-Kind"] for m in messages}
    assert {"invite", "turn", "notice", "game_over"} <= kinds, kinds
    for message in messages:
        for where, seen in _readable(message).items():
            assert not LINKABLE.search(seen), (message["X-Riftpost-Kind"], where, LINKABLE.search(seen))
    subjects = {str(m["Subject"]) for m in messages}
    assert f"Toy #{toy}: Ann, Claim your prize at\u2026 and bo evil example www\u2026" in subjects, subjects
    assert any(SHOWN in message.get_body(("plain",)).get_content() for message in messages)
    to_bo = [m for m in messages if "bo@example.org" in str(m["To"])]
    assert to_bo and all(str(m["To"]) in (f"{SHOWN} <bo@example.org>", "bo evil example www evil example "
                                          "<bo@example.org>") for m in to_bo), {str(m["To"]) for m in to_bo}


def test_a_stored_name_with_a_link_reaches_no_page_or_json_as_a_link(app, client):
    toy, duel = _games(app)
    for _ in range(4):
        play_one(duel)
    play_to_end(toy)
    urls = []
    for game_id in (toy, duel):
        with read_session(get_engine()) as session:
            seats = session.execute(sa.select(Player).where(Player.game_id == game_id)).scalars().all()
        urls += [f"/games/{game_id}", f"/games/{game_id}/created", f"/games/{game_id}/history",
                 f"/games/{game_id}/history/record.json", f"/api/games/{game_id}", f"/api/games/{game_id}/events"]
        for player in seats:
            token = tokens.page(player)
            urls += [f"/p/{token}", f"/p/{token}/history", f"/p/{token}/history/record.json", f"/api/play/{token}"]
    pages = {}
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.status_code)
        pages[url] = text(answer)
        assert not LINKABLE.search(pages[url]), (url, LINKABLE.search(pages[url]))
    # The names are there, as they are shown.
    for url in (f"/games/{toy}", f"/games/{toy}/created", f"/api/games/{duel}", f"/games/{duel}/history"):
        assert SHOWN in pages[url] and "bo evil example www evil example" in pages[url], url
    assert current(toy)[0].status == "finished"


@pytest.mark.parametrize("name", [EVIL, "ann@example.org", "www.evil.example", "Ann (the <b>best</b>)",
                                  "x" * 41, "J.R."])
def test_the_start_form_refuses_a_name_that_could_not_be_shown_as_typed(client, name):
    page = text(client.get(START_FORM))
    answer = client.post("/games/new", data={"csrf_token": csrf_token(page), "game": toygame.NAME, "name0": name,
                                             "email0": "ann@example.org", "email1": "bo@example.org"})
    assert answer.status_code == 422
    assert name_problem(name) in text(answer).replace("&#34;", '"').replace("&lt;", "<").replace("&gt;", ">")
    assert "at most 40 characters" in text(answer)
    assert _rows() == []


def test_the_start_form_takes_names_of_every_alphabet_with_hyphens_and_apostrophes(client):
    page = text(client.get(START_FORM))
    names = {"name0": "Zoë O'Brien-Smith", "name1": "Оксана Ковальчук"}
    answer = client.post("/games/new", data={"csrf_token": csrf_token(page), "game": toygame.NAME, **names,
                                             "email0": "zoe@example.org", "email1": "oksana@example.org"})
    assert answer.status_code == 303
    game_id = int(answer.headers["Location"].split("/")[-2])
    with read_session(get_engine()) as session:
        stored = [p.name for p in session.execute(sa.select(Player).where(Player.game_id == game_id)
                                                  .order_by(Player.seat)).scalars()]
    assert stored == list(names.values()) == [player_name(n, s) for s, n in enumerate(stored)]


def test_the_command_line_refuses_such_a_name_too(app):
    runner = app.test_cli_runner()
    refused = runner.invoke(args=["new-game", toygame.NAME, f"{EVIL}=ann@example.org", "bo@example.org"])
    assert refused.exit_code != 0 and "a name may hold only letters" in refused.output
    assert _rows() == []
    taken = runner.invoke(args=["new-game", toygame.NAME, "Zoë O'Brien=ann@example.org", "bo@example.org"])
    assert taken.exit_code == 0, taken.output
