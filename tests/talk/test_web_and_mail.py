"""Talk on every surface: the player page and its forms, the JSON API, spectators, the emails."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from sqlmodel import select

from service import store
from service.mail import outbox, talk_email
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, TalkAtOnce, TalkReport
from service.talk import messages, notify
from tests.talk import helpers
from tests.web.pages import csrf_token

HTML_ATTACK = '<script>alert(1)</script><img src=x onerror=alert(2)> see http://evil.example/win'
HEADER_ATTACK = "hi\r\nBcc: victim@example.org\r\nSubject: pwned"


@pytest.fixture
def db(app, everyone_played_before):
    return app


def api_post(client, token, body, **kw):
    return client.post(f"/api/play/{token}/messages", data=json.dumps(body), content_type="application/json", **kw)


def api_texts(client, token):
    answer = client.get(f"/api/play/{token}/messages")
    assert answer.status_code == 200
    return [m["text"] for m in answer.get_json()["messages"]]


def form_post(client, token, path, **data):
    page = client.get(f"/p/{token}")
    return client.post(f"/p/{token}/{path}", data={"csrf_token": csrf_token(page.text), **data})


def test_json_talk_and_team_privacy_on_page_and_json(db, client):
    game_id = helpers.riftforce_team(4)
    t = {seat: helpers.token(game_id, seat) for seat in range(4)}
    assert api_post(client, t[0], {"text": "team secret", "channel": "team"}).status_code == 201
    assert api_post(client, t[1], {"text": "hello table"}).status_code == 201
    assert api_texts(client, t[2]) == ["team secret", "hello table"]
    assert api_texts(client, t[3]) == ["hello table"]
    for seat in (1, 3):
        assert "team secret" not in client.get(f"/p/{t[seat]}").text
    assert "team secret" in client.get(f"/p/{t[2]}").text
    # Spectators: nothing while the game runs, and never the team's.
    assert "hello table" not in client.get(f"/games/{game_id}").text
    assert form_post(client, t[0], "talk/spectators", open="on").status_code == 303
    spectator = client.get(f"/games/{game_id}").text
    assert "hello table" in spectator and "team secret" not in spectator
    # Only the creator opens it.
    assert form_post(client, t[1], "talk/spectators", open="on").status_code == 403


def test_the_attackers_requests_get_a_4xx_with_words(db, client):
    game_id, other = helpers.riftforce_duel(), helpers.riftforce_duel()
    token = helpers.token(game_id, 0)
    huge = client.post(f"/api/play/{token}/messages", data=b'{"text": "' + b"a" * (10 * 1024 * 1024) + b'"}',
                       content_type="application/json")
    assert huge.status_code == 413
    assert api_post(client, token, {"text": "x" * 1001}).status_code == 422
    assert api_post(client, token, {"text": ""}).status_code == 422
    assert api_post(client, token, {"text": 5}).status_code == 400
    assert client.post(f"/api/play/{token}/messages", data="nope", content_type="application/json").status_code == 400
    assert client.post(f"/api/play/{token}/messages", data="{}", content_type="text/plain").status_code == 415
    assert api_post(client, token, {"text": "x", "channel": "team"}).status_code == 422
    assert api_post(client, token[:-3] + "abc", {"text": "forged"}).status_code == 403
    assert client.get(f"/api/play/{token[:-3]}abc/messages").status_code == 403
    assert client.get(f"/api/play/{token}/messages?after=x").status_code == 400
    # A message of another game cannot be deleted, muted or reported through this seat.
    other_token = helpers.token(other, 1)
    message = api_post(client, other_token, {"text": "elsewhere"}).get_json()["message"]["id"]
    for action in ("delete", "mute", "report"):
        assert form_post(client, token, f"talk/{message}/{action}").status_code == 404
    # Another's message cannot be deleted.
    mine = api_post(client, helpers.token(game_id, 1), {"text": "bob's"}).get_json()["message"]["id"]
    assert form_post(client, token, f"talk/{mine}/delete").status_code == 403


def test_html_is_escaped_on_the_page_and_in_json(db, client):
    game_id = helpers.riftforce_duel()
    token = helpers.token(game_id, 0)
    assert api_post(client, token, {"text": HTML_ATTACK}).status_code == 201
    page = client.get(f"/p/{helpers.token(game_id, 1)}").text
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'href="http://evil.example' not in page
    assert api_texts(client, helpers.token(game_id, 1)) == [HTML_ATTACK]


def test_delete_mute_report_and_the_reports_command(db, client):
    game_id = helpers.riftforce_duel()
    ann, bob = helpers.token(game_id, 0), helpers.token(game_id, 1)
    first = api_post(client, bob, {"text": "rude words"}).get_json()["message"]["id"]
    assert form_post(client, ann, f"talk/{first}/report", reason="rude").status_code == 303
    with read_session(get_engine()) as session:
        assert len(list(session.exec(select(TalkReport)))) == 1
    out = db.test_cli_runner().invoke(args=["reports"]).output
    assert f"game {game_id} message {first}" in out and "'rude words'" in out and "reason='rude'" in out
    assert form_post(client, bob, f"talk/{first}/delete").status_code == 303
    assert [m["deleted"] for m in client.get(f"/api/play/{ann}/messages").get_json()["messages"]] == [True]
    assert "(deleted)" in client.get(f"/p/{ann}").text and "rude words" not in client.get(f"/p/{ann}").text
    second = api_post(client, bob, {"text": "more noise"}).get_json()["message"]["id"]
    assert form_post(client, ann, f"talk/{second}/mute").status_code == 303
    assert api_texts(client, ann) == []
    page = client.get(f"/p/{ann}").text
    assert "bob@example.org" not in page and "You muted Bob" in page
    assert form_post(client, ann, "talk/unmute/1").status_code == 303
    assert api_texts(client, ann) == ["", "more noise"]


def test_a_report_keeps_the_reported_text_after_its_writer_deletes_it_and_names_no_address(db, client):
    game_id = helpers.riftforce_duel()
    ann, bob = helpers.token(game_id, 0), helpers.token(game_id, 1)
    said = api_post(client, bob, {"text": "you are all idiots\n\x1b[31mred"}).get_json()["message"]["id"]
    assert form_post(client, ann, f"talk/{said}/report").status_code == 303
    assert form_post(client, bob, f"talk/{said}/delete").status_code == 303  # the writer takes it back
    with read_session(get_engine()) as session:
        [report] = list(session.exec(select(TalkReport)))
        assert report.text == "you are all idiots\n[31mred"  # the copy, as it was kept (tidied)
    out = db.test_cli_runner().invoke(args=["reports"]).output
    [line] = out.splitlines()
    assert "'you are all idiots\\n[31mred'" in line and "(deleted by its writer since)" in line
    assert f"game {game_id} message {said}" in line and "by 'Bob', reported by 'Ann'" in line
    assert " UTC " in line and "@" not in line  # when, and seat names: never an address
    page = client.get(f"/p/{ann}").text
    assert "(deleted)" in page and "idiots" not in page  # the page still shows it deleted


def test_a_form_refusal_keeps_the_typed_text(db, client):
    game_id = helpers.riftforce_duel()
    token = helpers.token(game_id, 0)
    answer = form_post(client, token, "talk", text="y" * 1001)
    assert answer.status_code == 422 and "at most 1,000 characters" in answer.text and "y" * 1001 in answer.text


def _parts(message):
    return {part.get_content_type(): part.get_content() for part in message.walk() if not part.is_multipart()}


def test_talk_is_folded_into_the_next_turn_email_with_links_broken_and_never_in_a_header(db, client, sink):
    from tests.service.helpers import current, play_one

    db.config["SMTP_URL"] = sink.url
    game_id = helpers.riftforce_duel()
    writer = current(game_id)[0].to_act[0]
    reader = 1 - writer
    token = helpers.token(game_id, writer)
    assert api_post(client, token, {"text": HEADER_ATTACK}).status_code == 201
    assert api_post(client, token, {"text": HTML_ATTACK}).status_code == 201
    for _ in range(20):  # the writer's turn, to its end: the reader's turn email follows
        if current(game_id)[0].to_act == [reader]:
            break
        play_one(game_id)
    with read_session(get_engine()) as session:
        rows = list(session.exec(select(Outbox).where(Outbox.game_id == game_id, Outbox.kind == "turn",
                                                      Outbox.status == "pending")))
    assert all("talk" not in row.params for row in rows)  # what an email tells is decided when it goes
    for row in rows:
        outbox.deliver(row.id)
    mail = next(m for m in sink.messages() if "ann@example.org" in m["To"] or "bob@example.org" in m["To"])
    mail = next(m for m in sink.messages() if helpers.ADDRESSES[reader] in m["To"] and "At the table" in str(m))
    assert mail["Bcc"] is None and "pwned" not in mail["Subject"] and "Bcc" not in mail["Subject"]
    assert all("victim" not in str(value) for _, value in mail.items())
    parts = _parts(mail)
    text, html = parts["text/plain"], parts["text/html"]
    assert "Bcc: victim@example[.]org" in text  # the words are there, as words in the body
    assert "http[:]//evil[.]example/win" in text and "http://evil.example" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    assert "evil.example" not in html and 'href="http[:]' not in html
    # Told once: the reader's email kept what it told, and nothing is left untold for the seat.
    with read_session(get_engine()) as session:
        told = session.get(Outbox, next(row.id for row in rows if row.player_id == helpers.seat(game_id, reader).id))
        assert len(told.params["talk"][str(game_id)]) == 2
        assert talk_email.untold(session, game_id, session.merge(helpers.seat(game_id, reader))) == []


def test_team_talk_never_reaches_the_other_teams_emails(db, client):
    game_id = helpers.riftforce_team(4)
    api_post(client, helpers.token(game_id, 0), {"text": "team only", "channel": "team"})
    with read_session(get_engine()) as session:
        told = {seat: talk_email.untold(session, game_id, session.merge(helpers.seat(game_id, seat)))
                for seat in range(4)}
    assert told[2] and not told[1] and not told[3] and not told[0]


@pytest.mark.parametrize("maker", ["riftforce_team", "beyond", "riftwalker", "riftforce_solo"])
def test_talk_in_every_game_and_mode(db, client, maker):
    game_id = getattr(helpers, maker)()
    token = helpers.token(game_id, 0)
    assert api_post(client, token, {"text": "gl hf"}).status_code == 201
    assert "gl hf" in client.get(f"/p/{token}").text


def test_tell_me_at_once_at_most_one_email_per_game_per_15_minutes(db, client, sink):
    from datetime import datetime, timedelta

    db.config["SMTP_URL"] = sink.url
    game_id = helpers.riftforce_duel()
    with write_session(get_engine()) as session:
        session.add(TalkAtOnce(person="ann@example.org"))
    bob = helpers.token(game_id, 1)
    for text in ("one", "two", "three"):
        api_post(client, bob, {"text": text})
    ann = helpers.seat(game_id, 0)

    def talk_rows():
        with read_session(get_engine()) as session:
            return list(session.exec(select(Outbox).where(Outbox.player_id == ann.id, Outbox.kind == notify.KIND)
                                     .order_by(Outbox.id)))

    rows = talk_rows()
    assert len(rows) == 1  # the later ones joined the waiting email: it tells what is untold when it goes
    assert outbox.deliver(rows[0].id) == "sent"
    assert len(talk_rows()[0].params["talk"][str(game_id)]) == 3
    api_post(client, bob, {"text": "four"})
    api_post(client, bob, {"text": "five"})
    rows = talk_rows()
    assert len(rows) == 2
    assert rows[0].status == "sent" and rows[1].status == "pending"
    gap = datetime.fromisoformat(rows[1].params["at"]) - datetime.fromisoformat(rows[0].params["at"])
    assert gap == notify.AT_ONCE_INTERVAL
    assert rows[1].next_attempt_at.replace(tzinfo=None) >= (rows[0].created_at + notify.AT_ONCE_INTERVAL).replace(
        tzinfo=None) - timedelta(seconds=1)
    assert outbox.deliver(rows[1].id) == "not due"  # not before its slot
    # The sent one told the three messages, as text, under the game's own subject.
    mail = sink.messages()[-1]
    body = _parts(mail)["text/plain"]
    assert body.startswith("Bob wrote at the table of ")
    assert "Bob: one" in body and "Bob: three" in body and mail["X-Riftpost-Kind"] == "talk"
    assert "one" not in mail["Subject"] and "/settings/notifications" in body
    # Its slot come, the second tells four and five, and nothing of the first again.
    with write_session(get_engine()) as session:
        session.execute(sa.update(Outbox).where(Outbox.id == rows[1].id).values(next_attempt_at=rows[0].created_at))
    assert outbox.deliver(rows[1].id) == "sent"
    body = _parts(sink.messages()[-1])["text/plain"]
    assert "Bob: four" in body and "Bob: five" in body and "Bob: one" not in body
    # Bob, who did not ask, gets none.
    with read_session(get_engine()) as session:
        assert not list(session.exec(select(Outbox).where(Outbox.player_id == helpers.seat(game_id, 1).id,
                                                           Outbox.kind == notify.KIND)))


def test_a_talk_email_whose_talk_a_turn_email_told_first_is_skipped(db, client, sink):
    db.config["SMTP_URL"] = sink.url
    game_id = helpers.riftforce_duel()
    with write_session(get_engine()) as session:
        session.add(TalkAtOnce(person="ann@example.org"))
        ann = session.merge(helpers.seat(game_id, 0))
        bob = session.merge(helpers.seat(game_id, 1))
        messages.post(session, bob, "told by the turn email")
        [turn_row] = outbox.add(session, store.get_game(session, game_id), [ann], "turn")
    with read_session(get_engine()) as session:
        [waiting] = list(session.exec(select(Outbox).where(Outbox.player_id == ann.id, Outbox.kind == notify.KIND)))
    assert outbox.deliver(turn_row.id) == "sent"
    assert "Bob: told by the turn email" in _parts(sink.messages()[-1])["text/plain"]
    assert outbox.deliver(waiting.id) == "skipped"
    with read_session(get_engine()) as session:
        assert session.get(Outbox, waiting.id).skip_reason == "unwanted"
