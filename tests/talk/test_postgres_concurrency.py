"""Talk under concurrency on PostgreSQL (SQLite serialises its writers): two posts at once at the rate
limit's edge, and two posts at once for a reader who wants "tell me at once".  Each test holds the first
transaction open after its post and starts the second meanwhile, so the second really runs while the
first is uncommitted: without the locks (the seat's row; the reader's cursor) both would get through."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import select

from service.mail import outbox, talk_email
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, Player, TalkAtOnce, TalkMessage, utcnow
from service.talk import messages, notify
from tests.talk import helpers

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_app(tmp_path, everyone_played_before):
    from service.migrate import upgrade
    from tests import services
    from tests.conftest import app_on

    url = services.postgres_database()
    try:
        upgrade(url)
        with app_on(tmp_path, url) as app:
            yield app
    finally:
        services.drop_postgres(url)


def _post(app, player_id: int, text: str, outcome: dict, name: str, posted=None, release=None) -> None:
    """In a thread: post, then (if asked) hold the transaction open until `release`."""
    with app.app_context():
        try:
            with write_session(get_engine()) as session:
                messages.post(session, session.get(Player, player_id), text)
                if posted is not None:
                    posted.set()
                    assert release.wait(20)
            outcome[name] = "posted"
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test reads
            outcome[name] = type(exc).__name__


def _race(app, first: tuple[int, str], second: tuple[int, str]) -> dict:
    """`first` posts and holds its transaction; `second` posts meanwhile; then `first` commits."""
    outcome: dict[str, str] = {}
    posted, release = threading.Event(), threading.Event()
    a = threading.Thread(target=_post, args=(app, *first, outcome, "first", posted, release))
    a.start()
    assert posted.wait(20)
    b = threading.Thread(target=_post, args=(app, *second, outcome, "second"))
    b.start()
    b.join(0.7)
    waited = b.is_alive()  # the second waits for the first's lock
    release.set()
    a.join(20)
    b.join(20)
    outcome["second waited"] = str(waited)
    return outcome


def test_two_posts_at_once_at_the_rate_limits_edge_only_one_gets_through(pg_app):
    game_id = helpers.riftforce_duel()
    bob = helpers.seat(game_id, 1)
    start = utcnow() - timedelta(minutes=1)
    with write_session(get_engine()) as session:
        for n in range(messages.RATE_LIMIT - 1):
            messages.post(session, session.get(Player, bob.id), f"m{n}", now=start)
    outcome = _race(pg_app, (bob.id, "the last one allowed"), (bob.id, "one too many"))
    assert outcome == {"first": "posted", "second": "TooManyMessages", "second waited": "True"}
    with read_session(get_engine()) as session:
        count = session.execute(sa.select(sa.func.count()).select_from(TalkMessage)
                                .where(TalkMessage.player_id == bob.id)).scalar_one()
    assert count == messages.RATE_LIMIT


def test_two_posts_at_once_join_one_waiting_tell_me_at_once_email(pg_app, sink):
    pg_app.config["SMTP_URL"] = sink.url
    game_id = helpers.beyond(3)  # Ann, Bob and Cyd: Bob and Cyd write to Ann at once
    ann, bob, cyd = (helpers.seat(game_id, n) for n in range(3))
    with write_session(get_engine()) as session:
        session.add(TalkAtOnce(person=ann.email))
    outcome = _race(pg_app, (bob.id, "from Bob"), (cyd.id, "from Cyd"))
    assert outcome == {"first": "posted", "second": "posted", "second waited": "True"}
    with read_session(get_engine()) as session:
        rows = list(session.exec(select(Outbox).where(Outbox.player_id == ann.id, Outbox.kind == notify.KIND)))
    assert len(rows) == 1  # one email for both: the second joined the first's
    assert rows[0].status == "pending" and "talk" not in rows[0].params  # it tells both when it goes
    assert outbox.deliver(rows[0].id) == "sent"  # decided on PostgreSQL at delivery: both, once
    body = sink.messages()[-1].get_body(("plain",)).get_content()
    assert "Bob: from Bob" in body and "Cyd: from Cyd" in body
    with read_session(get_engine()) as session:
        assert talk_email.untold(session, game_id, session.get(Player, ann.id)) == []
