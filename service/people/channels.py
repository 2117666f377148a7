"""A person's channels besides email: their webhooks (delivered by service/mail/webhooks.py through the
outbox) and the secret id of their feeds (service/people/feeds.py).  Every function takes the person's
address key, as the signed-in session gives it (service/web/auth.py): one person never sees or changes
another's webhooks, and a webhook id of someone else's is answered like one that does not exist.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from datetime import datetime
from urllib.parse import urlsplit, urlunsplit

import sqlalchemy as sa
from sqlmodel import Session, col

from service import lang, running
from service.errors import Invalid, NotFound
from service.lang import N_, Nf_, Nn_
from service.mail import reader, webhooks
from service.mail.webhooks import Call, Refused, TryLater
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import FeedKey, Webhook

MAX_WEBHOOKS = 3  # each one is a request per turn email: a few targets (a chat, a script) are plenty
MAX_URL = 2000
SHAPE_WORDS = {"generic": N_("JSON, signed"), "discord": "Discord", "slack": "Slack"}
TITLE = N_("That webhook cannot be used")


# ---- webhooks ---------------------------------------------------------------------------------------------


def checked_url(url: str) -> str:
    """A webhook URL as stored, or Invalid saying what is wrong: http(s), a host, no user or password
    in it (it would be sent in clear to whoever logs URLs), no fragment; an IP address or `localhost`
    that we would never send to is refused now rather than at the first turn."""
    url = (url or "").strip()
    if not url:
        raise Invalid(N_("Give the webhook's URL (it starts with https://)."), TITLE)
    if len(url) > MAX_URL:
        raise Invalid(Nf_("That URL is longer than %(num)d characters.", num=MAX_URL), TITLE)
    if any(ord(ch) < 33 or ord(ch) == 127 for ch in url):
        raise Invalid(N_("A URL has no spaces or control characters."), TITLE)
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("https", "http"):
        raise Invalid(N_("A webhook URL starts with https:// (or http://)."), TITLE)
    if parts.username is not None or parts.password is not None:
        raise Invalid(N_("Take the user name and password out of the URL: a webhook's URL is its only key."),
                      TITLE)
    host = parts.hostname
    if not host:
        raise Invalid(N_("That URL names no host."), TITLE)
    try:
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise Invalid(N_("That URL's port is not a number from 1 to 65535."), TITLE) from None
    why = webhooks.literal_refusal(host)
    if why is not None:
        raise Invalid(Nf_("That URL points at %(why)s: we send webhooks to public addresses only.", why=why), TITLE)
    return urlunsplit((parts.scheme.lower(), parts.netloc, parts.path, parts.query, ""))


def checked_shape(shape: str) -> str:
    if shape not in webhooks.SHAPES:
        raise Invalid(N_("Choose what the webhook expects: JSON (signed), Discord or Slack."), TITLE)
    return shape


def webhooks_of(session: Session, email: str) -> list[Webhook]:
    return list(session.execute(
        sa.select(Webhook).where(col(Webhook.person) == email, col(Webhook.disabled_at).is_(None))
        .order_by(col(Webhook.id))).scalars())


def add_webhook(email: str, url: str, shape: str) -> Webhook:
    """A new webhook of the person, with a fresh signing secret."""
    url, shape = checked_url(url), checked_shape(shape)
    with write_session(get_engine()) as session:
        # Two adds racing may both pass the count and leave one webhook too many: harmless.
        if len(webhooks_of(session, email)) >= MAX_WEBHOOKS:
            raise Invalid(Nn_("You have %(num)d webhook already: remove it first.",
                              "You have %(num)d webhooks already: remove one first.", MAX_WEBHOOKS), TITLE)
        hook = Webhook(person=email, url=url, shape=shape, secret=webhooks.new_secret())
        session.add(hook)
        session.flush()
        session.refresh(hook)
        session.expunge(hook)
    return hook


def _own(session: Session, email: str, hook_id: int) -> Webhook:
    hook = session.get(Webhook, hook_id)
    if hook is None or hook.person != email or hook.disabled_at is not None:
        raise NotFound(N_("You have no such webhook."), N_("No such webhook"))
    return hook


def remove_webhook(email: str, hook_id: int, now: datetime) -> None:
    """Nothing more goes to it; rows already queued for it are skipped at delivery."""
    with write_session(get_engine()) as session:
        hook = _own(session, email, hook_id)
        hook.disabled_at = now
        session.add(hook)


def test_webhook(email: str, hook_id: int, settings_url: str) -> str:
    """Send the test message now (not through the outbox: it belongs to no game, and the person waits
    for the answer); what happened, in words for them (marked: the page words it in its reader's language)."""
    with read_session(get_engine()) as session:
        hook = _own(session, email, hook_id)
        language = reader.setting(session, hook.person) or lang.ENGLISH  # the body in its owner's words
        session.expunge(hook)
    call: Call = webhooks.call_for(hook, webhooks.test_message(settings_url, language),
                                   delivery=f"test-{int(time.time())}")
    try:
        status = webhooks.post(call, time.monotonic() + webhooks.TIMEOUT)
    except (Refused, TryLater) as exc:
        return Nf_("The test did not go through: %(why)s.", why=exc.args[0] if exc.args else "")
    except TimeoutError:
        return Nf_("The test did not go through: the webhook did not answer within %(seconds)s seconds.",
                   seconds=format(webhooks.TIMEOUT, "g"))
    except OSError:
        return N_("The test did not go through: we could not connect to the webhook's host.")
    return Nf_("The test went through: the webhook answered HTTP %(status)s.", status=status)


# ---- feeds -------------------------------------------------------------------------------------------------

_FEED = b"riftpost.feed:"


def _mac(key: str, feed_id: str) -> str:
    return hmac.new(key.encode(), _FEED + feed_id.encode(), hashlib.sha256).hexdigest()[:32]


def feed_token(feed_id: str) -> str:
    """The secret part of the person's feed URLs: their random id and its MAC under SECRET_KEY (the
    id alone, as a database dump holds it, opens nothing)."""
    return f"{feed_id}-{_mac(running.config()['SECRET_KEY'], feed_id)}"


def feed_owner(session: Session, token: str) -> str | None:
    """The person whose feeds the token opens (older keys of a rotation still verify), or None."""
    feed_id, _, mac = token.partition("-")
    if len(feed_id) != 32 or len(mac) != 32:
        return None
    row = session.execute(sa.select(FeedKey).where(col(FeedKey.feed_id) == feed_id)).scalar_one_or_none()
    keys = [running.config()["SECRET_KEY"], *running.config().get("SECRET_KEY_FALLBACKS", [])]
    # Compared even when no row has the id, so the time taken says nothing of which ids exist.
    good = any(hmac.compare_digest(_mac(key, feed_id), mac) for key in keys)
    return row.person if row is not None and good else None


def feed_id_of(session: Session, email: str) -> str | None:
    row = session.get(FeedKey, email)
    return None if row is None else row.feed_id


def new_feed_id(email: str, now: datetime) -> str:
    """Turn the person's feeds on, or give them new URLs: the old ones stop working at once."""
    feed_id = secrets.token_hex(16)
    with write_session(get_engine()) as session:
        row = session.get(FeedKey, email, with_for_update=True)
        if row is None:
            session.add(FeedKey(person=email, feed_id=feed_id, created_at=now))
        else:
            row.feed_id, row.created_at = feed_id, now
            session.add(row)
    return feed_id


def feeds_off(email: str) -> None:
    with write_session(get_engine()) as session:
        session.execute(sa.delete(FeedKey).where(col(FeedKey.person) == email))
