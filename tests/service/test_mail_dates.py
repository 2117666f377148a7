"""An email's Date: is when it is sent, not when it was queued: a turn email held two days for an
invitation's answer must not land two days down the inbox (issue #17, item 5)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

import sqlalchemy as sa

from service.mail import outbox
from service.play import new_game
from service.store import get_engine, write_session
from service.store.models import Outbox
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows
from tests.web.pages import csrf_token, text


def _deliver_due(game_id: int) -> None:
    for row in outbox_rows(game_id):
        if row.status == "pending":
            outbox.deliver(row.id)


def test_a_held_email_is_dated_when_it_is_sent_not_when_it_was_queued(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org")
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], {"target": 5}, seed=3)
    _deliver_due(game_id)
    (invitation,) = [m for m in sink.wait_for(2) if m["X-Riftpost-Kind"] == "invitation"]
    # Bob answers two days later: his held emails were queued back then.
    two_days_ago = datetime.now(UTC) - timedelta(days=2)
    with write_session(get_engine()) as session:
        session.execute(sa.update(Outbox).where(Outbox.game_id == game_id).values(created_at=two_days_ago))
    link = re.search(r"http://riftpost\.test(/i/[^\s\"<>]+)", invitation.get_body(("plain",)).get_content()).group(1)
    page = client.get(link)
    token = link.split("/i/")[1]
    assert client.post(f"/i/{token}/accept", data={"csrf_token": csrf_token(text(page))}).status_code == 303
    _deliver_due(game_id)
    released = sink.wait_for(3)[-1]
    assert released["X-Riftpost-Kind"] == "invite"
    sent_at = parsedate_to_datetime(released["Date"])
    assert abs(sent_at - datetime.now(UTC)) < timedelta(minutes=1), released["Date"]
