"""The transactional outbox: rows written with the events, delivered by the worker.

Status machine of a row: pending -> sending -> sent | skipped | undeliverable | failed, and back to
pending on a transient error.  A row to an address that has not accepted its invitation yet is written
`held` (held -> pending when the address accepts, held -> skipped when it declines;
service/play/consent.py); none is written to an address that declined the game's creator.  A skipped
row says why in `skip_reason`: "no_consent" (declined meanwhile), "never_email" (the address asked
never to be emailed; only the links a person asks for on a page still go), "unwanted" (its kind's
`wanted` said no at delivery: a reminder after the move) or what the person's notification mode said
("turned_off", "digest", "until_visit": service/mail/notify_policy.py).  A row the person's quiet hours
hold goes back to pending until they end, its skip_reason "quiet_hours" (kept once it is sent).  "undeliverable": the
address is marked so by its bounces (service/mail/bounces.py), and nothing was sent.  A delivery first
*claims* its row with a conditional UPDATE, so however many times the kick and the beat scan enqueue
the same row, only one delivery sends it.

The table talk an email tells is decided by its delivery, once no reason to skip or hold the row is
left (`_decide_talk`, service/mail/talk_email.py), so a skipped or held email takes none.

One retry policy, this module's: a transient failure (the server unreachable, a 4xx, a timeout) puts
the row back to pending with `next_attempt_at` = now + `backoff(attempts)` (OUTBOX_RETRY_BASE_SECONDS,
doubling, capped at OUTBOX_RETRY_CAP_SECONDS: by default 30 s, 1, 2, 4 ... minutes, then every 30
minutes), and `claim` takes only rows whose `next_attempt_at` has come, so no path (a kick, a task
redelivered by the broker, the beat scan) can spend attempts early.  The Celery task never retries on
its own.  A row fails for good only on a permanent refusal (a 5xx, a refused recipient or sender) or
once OUTBOX_GIVE_UP_HOURS (default 72) passed since it was queued (or re-queued); then it is listed by
`flask outbox` and its player's page says we could not reach them.  Retry latency: the beat scan runs
every OUTBOX_DISPATCH_SECONDS (30 s), so an attempt happens between its `next_attempt_at` and one scan
interval later (plus the queue's wait).

The lease: a row stays "sending" while a worker sends it; one left there longer than
OUTBOX_LEASE_SECONDS (60 s) belonged to a worker that died (SIGKILL, a lost machine) and is claimed
again.  A live send can never outlast the lease: the SMTP transaction is cut off at 3/4 of it after
the claim (`smtp.send`'s deadline) and the send task's Celery time limit is below it too.  So the one
duplicate window is a worker dying after the SMTP server accepted the message and before "sent" was
recorded: the row is sent again after at most the lease (plus a scan interval), once per such death,
with the same Message-ID (readers' mail programs thread or drop it).  A late "sent" or "failed" of a
delivery whose lease another one took over changes nothing (`_finish` is fenced by the attempt).
"""

from __future__ import annotations

import logging
import smtplib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from service import running, store
from service.lang import N_
from service.mail import (
    answers,  # noqa: F401 - registers the answer to a reply by email (its email kind)
    bounces,
    compose,
    digest,
    kinds,
    lobby_kinds,  # noqa: F401 - registers the lobby's email kinds
    notify_digest,  # noqa: F401 - registers the daily digest's email kind
    notify_policy,
    queue,
    rematch_kinds,  # noqa: F401 - registers the rematch's email kind
    smtp,
    talk_email,
    webhooks,
)
from service.mail.threads import message_id
from service.store import read_session, write_session
from service.store.current import AnyGame, AnyPlayer
from service.store.db import get_engine, unbound
from service.store.inboxes import key, limit_key
from service.store.models import BOT_CONSENT, Outbox, Player, as_utc, new_row_key, utcnow
from service.store.prepared import Prepared

log = logging.getLogger(__name__)

# Deliveries travel in batches: a task of up to SEND_BATCH rows (`send_emails`).  Celery's own work per
# task (receiving it, tracing it, acknowledging it: about 1.3 ms of the 10.5 ms an email cost the worker,
# bench/delivery.py against bench/deliver_cpu.py) is paid once per batch, not once per email; a batch
# small enough that a sweep's burst still spreads over a pool's processes and threads.
SEND_BATCH_TASK = "riftpost.send_emails"
SEND_BATCH = 10
# One row a task: what was queued before batches, still served by the worker (worker/tasks.py).
SEND_TASK = "riftpost.send_email"
# A batch starts no delivery after this many seconds (the rows it did not start go back to the queue as
# a batch of their own), and no send of it runs past the send budget (SEND_SHARE of the lease) from the
# batch's start: every send ends as a one-row task's would, with the same margin left under the task's
# time limit (worker/tasks.py) to record its outcome.
BATCH_SECONDS = 5.0
DISPATCH_TASK = "riftpost.dispatch_outbox"
# The share of the lease a delivery may spend, from its claim to the end of the SMTP transaction; the
# rest is the margin for recording the outcome.
SEND_SHARE = 0.75
# A pending row this far past its next attempt was not picked up: the beat scan is not running.
STUCK_AFTER = timedelta(minutes=5)


HELD = "held"
# players.consent of a seat in a game whose creator's address is not verified yet (service/play/consent.py):
# everything to it waits, its invitation too.
UNCONFIRMED = "creator"
# players.consent of a bot seat ("bot:normal"...; service/play/bots.py): no address, never emailed.
BOT = BOT_CONSENT


def mailable_status(player: AnyPlayer, kind: str) -> str | None:
    """The one place that says whether an email may go to a player's address: the status its outbox row
    starts with.  "pending" (send it), HELD (the address has not accepted this game's inviter yet, or the
    game's creator has not confirmed their address: the email waits, and goes out once they do), or None (write nothing: the address declined the invitations of
    this game's creator).  The invitation itself is what asks, so it is never held.  A bot seat has no
    address: nothing is written for it, whatever the kind."""
    if player.consent.startswith(BOT):
        return None
    if kinds.get(kind).requested:
        return "pending"  # the person asked for it on a page: the only way back in, never held
    if player.consent == "declined":
        return None
    if player.consent == UNCONFIRMED:
        return HELD  # the game's creator has not confirmed their address: nothing of it goes, nor asks
    if player.consent == "asked" and not kinds.get(kind).unsolicited:
        return HELD
    return "pending"


@dataclass(frozen=True, slots=True)
class Queued:
    """An outbox row just written: its id, and whether it waits for its address's consent."""

    id: int
    status: str


OUTBOX = Outbox.__table__  # type: ignore[attr-defined]
_QUEUE = sa.insert(OUTBOX).returning(OUTBOX.c.id, sort_by_parameter_order=True)
_COLUMNS = ["game_id", "player_id", "kind", "params", "seq", "status", "message_id", "attempts", "next_attempt_at",
            "created_at", "row_key", "channel", "webhook_id"]
# One row (a move's turn email, most often): the same INSERT on the DB-API cursor (service/store/prepared.py),
# without the ~0.1 ms of SQLAlchemy's Python around an execution.
_QUEUE_ONE = Prepared(sa.insert(OUTBOX).returning(OUTBOX.c.id), _COLUMNS)


def add(session: Session, game: AnyGame, players: Sequence[AnyPlayer], kind: str,
        params: dict[str, Any] | None = None, seq: int | None = None) -> list[Queued]:
    """Queue one email of a registered `kind` to each of `players`, about the game at `seq` (default:
    now), in the caller's transaction, in one statement; the rows written.  Rows to an address that has
    not consented are held (mailable_status); the kick sends nothing for them."""
    return add_many(session, [(game, p, kind, params, seq) for p in players])


def add_each(session: Session, game: AnyGame, kind: str, emails: Sequence[tuple[AnyPlayer, dict[str, Any]]],
             seq: int | None = None) -> list[Queued]:
    """`add` with each player's own params (a turn email states each seat's own deadline)."""
    return add_many(session, [(game, p, kind, params, seq) for p, params in emails])


Email = tuple[AnyGame, AnyPlayer, str, dict[str, Any] | None, int | None]  # (game, player, kind, params, seq)


def add_many(session: Session, emails: Sequence[Email]) -> list[Queued]:
    """`add` for emails of any games, kinds and params (a sweep's batch), in one statement."""
    now = utcnow()
    values: list[dict[str, Any]] = []
    people: list[str] = []  # the address key of each row's player: whose webhooks get a twin
    for game, p, kind, params, seq in emails:
        status = mailable_status(p, kind)
        if status is not None:
            params = dict(params or {})
            seq = game.seq if seq is None else seq
            values.append({
                "game_id": game.id, "player_id": p.id, "kind": kind, "params": params, "seq": seq,
                "status": status, "message_id": message_id(game, p, kinds.get(kind).tag_of(params), seq),
                "attempts": 0, "next_attempt_at": now, "created_at": now, "row_key": new_row_key(),
                "channel": "email", "webhook_id": None,
            })
            people.append(key(p.email))
    if not values:
        return []
    values += webhooks.twins(session, values, people)  # (channels) in the same statement
    conn = session.connection()
    if len(values) == 1:
        [(row_id,)] = _QUEUE_ONE.rows(conn, values[0])
        return [Queued(row_id, values[0]["status"])]
    written = conn.execute(_QUEUE, values)
    return [Queued(row_id, row["status"]) for row_id, row in zip(written.scalars(), values, strict=True)]


def message_id_of(email: Email) -> str:
    game, player, kind, params, seq = email
    return message_id(game, player, kinds.get(kind).tag_of(dict(params or {})), game.seq if seq is None else seq)


def taken(session: Session, emails: Sequence[Email]) -> set[str]:
    """Of these emails, the Message-IDs already queued (each is deterministic: a second one is the same
    email), in one query."""
    if not emails:
        return set()
    wanted = [message_id_of(email) for email in emails]
    return set(session.execute(sa.select(col(Outbox.message_id)).where(col(Outbox.message_id).in_(wanted))).scalars())


def ids(session: Session, rows: list[Queued]) -> list[int]:
    """The ids of queued rows to send now, to kick the worker with after the commit; held rows wait for
    their address's answer."""
    return [row.id for row in rows if row.status != HELD]



@dataclass(frozen=True)
class Policy:
    """The retry policy's numbers (from the app's config: `policy()`)."""

    base: timedelta
    cap: timedelta
    horizon: timedelta
    lease: timedelta

    def delay(self, attempts: int) -> timedelta:
        """How long to wait after the `attempts`-th failed attempt: base, doubling, capped."""
        # min() before the power would overflow a float for very many attempts: cap the exponent.
        exponent = min(max(0, attempts - 1), 40)
        return min(self.cap, self.base * 2**exponent)

    def attempt_offsets(self) -> list[timedelta]:
        """When the attempts of a row that never gets through happen, from its creation (each
        scheduled at the earliest: the scan may start one up to a scan interval later)."""
        offsets = [timedelta(0)]
        while offsets[-1] < self.horizon:
            offsets.append(offsets[-1] + self.delay(len(offsets)))
        return offsets

    @property
    def send_budget(self) -> float:
        """Seconds a delivery may take from its claim to the end of the SMTP transaction."""
        return self.lease.total_seconds() * SEND_SHARE


def policy() -> Policy:
    config = running.config()
    return Policy(
        base=timedelta(seconds=config["OUTBOX_RETRY_BASE_SECONDS"]),
        cap=timedelta(seconds=config["OUTBOX_RETRY_CAP_SECONDS"]),
        horizon=timedelta(hours=config["OUTBOX_GIVE_UP_HOURS"]),
        lease=timedelta(seconds=config["OUTBOX_LEASE_SECONDS"]),
    )


def _permanent(exc: Exception) -> bool:
    """A 5xx only: a 4xx refusal of the sender or the recipient (a greylisting 450, a 421 "closing the
    channel", a full mailbox's 452) asks us to try again later.  (Or an error that says it is
    permanent: a webhook's refusal, service/mail/webhooks.py.)"""
    if getattr(exc, "permanent", False):
        return True
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return bool(codes) and all(500 <= code < 600 for code in codes)
    code = getattr(exc, "smtp_code", None)  # SMTPSenderRefused, SMTPDataError...
    return isinstance(code, int) and 500 <= code < 600


def _claimable(now: Any, expired: Any, pending: Any = "pending", sending: Any = "sending") -> sa.ColumnElement[bool]:
    """Pending and due at `now`, or left "sending" by a worker whose lease ran out (claimed before
    `expired`).  Values, or bound parameters (the claim's statement is built once, and as a Prepared
    statement binds the statuses too)."""
    return sa.or_(
        sa.and_(OUTBOX.c.status == pending, OUTBOX.c.next_attempt_at <= now),
        sa.and_(OUTBOX.c.status == sending, OUTBOX.c.claimed_at < expired),
    )


# claim and _finish run for every email: Core statements on the table cost a third of the CPU of
# ORM-enabled UPDATEs (which also evaluate the session's objects), and run on the DB-API cursor
# (service/store/prepared.py) they skip the ~90 µs of SQLAlchemy's Python around an execution too; each
# is built and compiled once, with its values bound per call.  Each is one statement, atomic on its
# own: it runs outside any transaction (db.unbound, autocommit), without a BEGIN IMMEDIATE and a COMMIT
# of its own and a SQLAlchemy connection's Python around them (on SQLite an UPDATE takes the write lock
# as it starts, as BEGIN IMMEDIATE does, and waits for it as any writer: the busy timeout).
_CLAIM = Prepared(
    sa.update(OUTBOX)
    .where(OUTBOX.c.id == sa.bindparam("row_id"),
           _claimable(sa.bindparam("now"), sa.bindparam("expired"), sa.bindparam("pending"), sa.bindparam("sending")))
    .values(status=sa.bindparam("sending"), claimed_at=sa.bindparam("now"),
            attempts=OUTBOX.c.attempts + sa.bindparam("one", type_=sa.Integer))
    .returning(OUTBOX.c.attempts, OUTBOX.c.channel)
)
# (every value of a Prepared statement is a parameter)
_CLAIM_VALUES = {"pending": "pending", "sending": "sending", "one": 1}


def claim(row_id: int, now: datetime | None = None) -> int | None:
    """Take the row for one delivery attempt if it is due (as `_claimable` says); the attempt's number
    (which fences the outcome this delivery records), or None when it is not due, sent, or being sent."""
    claimed = _claim(row_id, now)
    return None if claimed is None else claimed[0]


def _claim(row_id: int, now: datetime | None = None) -> tuple[int, str] | None:
    """`claim`, with the row's channel: (attempt, channel)."""
    now = now or utcnow()
    with unbound(get_engine()) as connection:  # one statement, in a transaction of its own (see above)
        claimed = _CLAIM.rows(connection, {**_CLAIM_VALUES, "row_id": row_id, "now": now, "expired": now - policy().lease})
        return None if not claimed else (int(claimed[0][0]), str(claimed[0][1]))


@cache
def _finishing(columns: tuple[str, ...]) -> Prepared:
    """The UPDATE that records an outcome setting `columns` (a few sets: sent, skipped, retrying...),
    built once per set, its values bound per call (see _CLAIM).  ("sending" a bound value too: every
    value of a Prepared statement is a parameter.)"""
    return Prepared(sa.update(OUTBOX)
                    .where(OUTBOX.c.id == sa.bindparam("row_id"), OUTBOX.c.status == sa.bindparam("sending"),
                           OUTBOX.c.attempts == sa.bindparam("attempt"))
                    .values({column: sa.bindparam(f"value_{column}", type_=OUTBOX.c[column].type)
                             for column in columns}))


def _finish(row_id: int, attempt: int, **values: Any) -> bool:
    """Record the outcome of attempt number `attempt`, unless another delivery took the row over."""
    statement = _finishing(tuple(sorted(values)))
    with unbound(get_engine()) as connection:  # one statement, in a transaction of its own (see _CLAIM)
        cursor = statement.run(connection, {"row_id": row_id, "attempt": attempt, "sending": "sending",
                                            **{f"value_{column}": value for column, value in values.items()}})
        try:
            return bool(cursor.rowcount == 1)
        finally:
            cursor.close()


def _never(session: Session, email: str) -> bool:
    """Whether the inbox said "never email me", under this spelling or without its +tag (a tag the
    sender added must not reopen what its owner closed)."""
    return any(store.person_of(session, spelling).never_email_at is not None
               for spelling in {key(email), limit_key(email)})


def _skip_reason(session: Session, row: Outbox, mail: kinds.Mail, inbox: bool = True) -> str | None:
    """Why the row is not to be sent now (its `skip_reason`), or None.  `inbox`: the row goes to the
    address (an email), so "never email me" stops it; a webhook's does not (it is the person's own
    channel), but every other reason does."""
    kind = kinds.get(row.kind)
    if mailable_status(mail.player, row.kind) != "pending":
        return "no_consent"  # the address declined, or was asked again meanwhile
    if inbox and not kind.requested and _never(session, mail.player.email):
        return "never_email"
    mode_says = notify_policy.skip_reason(session, row, mail.player)  # the person's notification mode
    if mode_says is not None:
        return mode_says
    if not kind.wanted(session, mail):
        return "unwanted"
    return None


def deliver(row_id: int, until: float | None = None) -> str:
    """Make one delivery attempt of an outbox row if it is due: "sent", "skipped" (no longer wanted),
    "retrying" (a transient failure: pending again, with its next attempt later), "failed" (a
    permanent failure, or the give-up horizon passed), or "not due".  A timed_out row of a sweep carries
    the due rows of the same sweep to the same address in one email (service/mail/digest.py).  The
    send ends within the send budget from the claim, and by `until` (a `time.monotonic()` value: a
    batch's, `deliver_batch`) if that comes first."""
    claimed = _claim(row_id)
    if claimed is None:
        return "not due"
    attempt, channel = claimed
    rules = policy()
    deadline = time.monotonic() + rules.send_budget
    if until is not None:
        deadline = min(deadline, until)
    if channel == webhooks.WEBHOOK:
        return _deliver_webhook(row_id, attempt, rules, deadline)
    carried: list[tuple[int, int]] = []  # (row id, attempt) of the rows this delivery claimed besides its own
    try:
        # The rows read by key are kept: those read with the outbox row (compose.read_mail: the person's
        # settings, the game's clock...) are asked for again and again.
        with read_session(get_engine(), keep_rows=True) as session:
            lead = compose.read_mail(session, row_id)
            assert lead is not None
            mail, row = lead, lead.row
            reason = _skip_reason(session, row, mail)
            if reason is not None:
                _finish(row_id, attempt, status="skipped", sent_at=utcnow(), skip_reason=reason)
                # The sweep kicked only this row of its digest: the next one now carries the others.
                kick(digest.candidates(session, row, mail.player.email, utcnow())[:1])
                return "skipped"
            dead = bounces.undeliverable(session, mail.player.email)
            if dead is not None:
                # Not "failed": nothing went wrong here, and the row says why it was not sent.
                assert dead.bounced_at is not None
                _finish(row_id, attempt, status="undeliverable", sent_at=None,
                        last_error=f"not sent: the address bounced ({dead.bounce_status}) "
                                   f"on {dead.bounced_at:%Y-%m-%d %H:%M} UTC")
                log.info("outbox %s not sent: its address is marked undeliverable", row_id)
                return "undeliverable"
            held = notify_policy.held_until(session, row, mail.player, utcnow())
            if held is not None:
                # Quiet hours: back to pending until they end, the attempt not spent (no retry's backoff).
                _finish(row_id, attempt, status="pending", attempts=attempt - 1, next_attempt_at=held,
                        skip_reason=notify_policy.QUIET)
                return "held"
            others = digest.candidates(session, row, mail.player.email, utcnow())
            mails = [mail]
            for other_id in others:
                other_attempt = claim(other_id)  # another delivery may have taken it: then it is its own
                if other_attempt is None:
                    continue
                carried.append((other_id, other_attempt))
                other_mail = compose.read_mail(session, other_id)
                assert other_mail is not None
                other = other_mail.row
                why = _skip_reason(session, other, other_mail)
                if why is not None:
                    _finish(other_id, other_attempt, status="skipped", sent_at=utcnow(), skip_reason=why)
                    continue
                mails.append(other_mail)
            mails = _decide_talk(session, mails, {row_id: attempt, **dict(carried)})
            if not mails:  # a "tell me at once" email whose talk another email told first
                _finish(row_id, attempt, status="skipped", sent_at=utcnow(), skip_reason="unwanted")
                return "skipped"
            mail = mails[0]
            message = compose.build(session, mail.row, mail) if len(mails) == 1 else digest.build(session, mails)
            envelope_from = bounces.return_path(row_id, row.row_key)
        smtp.send(message, envelope_from=envelope_from, deadline=deadline)
    except Exception as exc:  # noqa: BLE001 - whatever ended the attempt is recorded on the row and retried
        for other_id, other_attempt in carried:  # (a row already skipped is no longer "sending": untouched)
            _failed(other_id, other_attempt, exc, rules)
        return _failed(row_id, attempt, exc, rules)
    _finish(row_id, attempt, status="sent", sent_at=utcnow(), last_error=None)
    for other_id, other_attempt in carried:  # (the skipped ones are done: fenced by their status)
        _finish(other_id, other_attempt, status="sent", sent_at=utcnow(), last_error=None, sent_in=row_id)
    return "sent"


def _decide_talk(session: Session, mails: list[kinds.Mail], attempts: dict[int, int]) -> list[kinds.Mail]:
    """The emails about to go, each with the table talk it tells decided now (service/mail/talk_email.py:
    at delivery, so a skipped or held email loses none).  Deciding writes in a transaction of its own;
    then this read session starts afresh (it must see the decision and the messages it names), and the
    lead is asked again whether it is wanted: [] when it no longer is."""
    todo = [(mail.row.id, seats) for mail in mails if (seats := talk_email.undecided(session, mail))]
    if not todo:
        return mails
    for row_id, seats in todo:
        talk_email.decide(row_id, attempts[row_id], seats)
    session.rollback()  # a new snapshot; the rows are read again
    fresh = []
    for mail in mails:
        again = session.get(Outbox, mail.row.id, populate_existing=True)
        assert again is not None
        fresh.append(compose.mail_of(session, again))
    return fresh if kinds.get(fresh[0].row.kind).wanted(session, fresh[0]) else []


def _deliver_webhook(row_id: int, attempt: int, rules: Policy, deadline: float) -> str:
    """`deliver` for a webhook row (service/mail/webhooks.py): the same skips (but "never email me",
    which is about the inbox), the same retry policy; no bounces, no digest."""
    try:
        with read_session(get_engine(), keep_rows=True) as session:  # (as `deliver`'s)
            found = compose.read_mail(session, row_id)
            assert found is not None
            mail, row = found, found.row
            reason = webhooks.off(session, row) or _skip_reason(session, row, mail, inbox=False)
            if reason is not None:
                _finish(row_id, attempt, status="skipped", sent_at=utcnow(), skip_reason=reason)
                return "skipped"
            call = webhooks.prepare(session, row, mail)
        webhooks.post(call, deadline)  # outside the read: the receiver may take seconds
    except Exception as exc:  # noqa: BLE001 - recorded on the row and retried, as an email's would be
        return _failed(row_id, attempt, exc, rules)
    _finish(row_id, attempt, status="sent", sent_at=utcnow(), last_error=None)
    return "sent"


def _failed(row_id: int, attempt: int, exc: Exception, rules: Policy) -> str:
    error = f"{type(exc).__name__}: {exc}"[:500]
    now = utcnow()
    with read_session(get_engine()) as session:
        row = session.get(Outbox, row_id)
        started = as_utc(row.requeued_at or row.created_at) if row is not None else now
    if _permanent(exc):
        log.error("outbox %s refused for good: %s", row_id, error)
        _finish(row_id, attempt, status="failed", last_error=error)
        return "failed"
    if now - started >= rules.horizon:
        log.error("outbox %s given up after %s attempts over %s: %s", row_id, attempt, now - started, error)
        _finish(row_id, attempt, status="failed", last_error=error)
        return "failed"
    _finish(row_id, attempt, status="pending", last_error=error, next_attempt_at=now + rules.delay(attempt))
    log.warning("outbox %s attempt %s failed, retried in %s: %s", row_id, attempt, rules.delay(attempt), error)
    return "retrying"


# At most this many deliveries waiting in the broker's queue after a scan (see `scan_room`).
SCAN_BATCH = 500


def due(limit: int = SCAN_BATCH) -> list[int]:
    """Ids of rows to (re)send now: pending rows whose next attempt has come, and rows of workers that
    died mid-send (their lease ran out).  A row whose worker died past its give-up horizon fails here,
    so a message that kills every worker cannot be retried forever."""
    now = utcnow()
    rules = policy()
    with write_session(get_engine()) as session:
        session.execute(
            sa.update(Outbox)
            .where(col(Outbox.status) == "sending", col(Outbox.claimed_at) < now - rules.lease,
                   sa.func.coalesce(col(Outbox.requeued_at), col(Outbox.created_at)) < now - rules.horizon)
            .values(status="failed", last_error="the worker sending it stopped, and its retries ran out")
        )
        # A move that read a seat as not consented while its address was accepting (two transactions
        # at once) wrote its row held after the acceptance released the others: released here.
        session.execute(
            sa.update(Outbox)
            .where(col(Outbox.status) == HELD,
                   col(Outbox.player_id).in_(sa.select(col(Player.id)).where(col(Player.consent) == "")))
            .values(status="pending", next_attempt_at=now)
        )
        return list(
            session.exec(
                select(col(Outbox.id)).where(_claimable(now, now - rules.lease)).order_by(col(Outbox.id)).limit(limit)
            )
        )


def scan_room() -> int:
    """How many rows the beat scan may enqueue: SCAN_BATCH less the tasks already waiting in the
    broker's queue.  The scan cannot tell a row whose kick is still queued from one whose kick was
    lost, so it enqueues every due row again; while the workers are behind (a backlog of kicked rows),
    each scan used to add up to 500 more tasks, most of them for rows already queued, which the workers
    then spent their time claiming for nothing ("not due"): the scale drill (docs/scale.md) saw 16,000
    such tasks for 3,300 emails, and a queue that grew faster than the workers could empty it.  With
    work waiting, the rows left out are the newest (the scan takes the oldest first), whose kicks are
    the likeliest still queued; a row whose kick was lost is enqueued by a scan once the queue has
    room.  The queue's length unreadable: SCAN_BATCH (as before).  The queue holds tasks, of up to
    SEND_BATCH rows each: its room is counted in tasks, SCAN_BATCH rows' worth of them."""
    from kombu.exceptions import ChannelError  # (kombu comes with Celery, loaded by the client)

    app = queue.celery_client()
    try:
        with app.connection_for_read() as connection:
            waiting = connection.default_channel.queue_declare(
                queue=app.conf.task_default_queue, passive=True).message_count
    except ChannelError as exc:
        if "NOT_FOUND" not in str(exc):
            log.warning("could not read the length of the broker's queue", exc_info=True)
        # Not found: nothing waits.  Redis deletes an emptied list, and kombu then says the queue
        # does not exist: every scan of an idle outbox logged this as a failure.
        waiting = 0
    except Exception:  # the scan goes on as it always did
        log.warning("could not read the length of the broker's queue", exc_info=True)
        waiting = 0
    return max(0, SCAN_BATCH // SEND_BATCH - int(waiting or 0)) * SEND_BATCH


def batches(row_ids: Sequence[int]) -> list[list[int]]:
    """`row_ids` in tasks' worth: SEND_BATCH at most each, in order."""
    return [list(row_ids[start:start + SEND_BATCH]) for start in range(0, len(row_ids), SEND_BATCH)]


def enqueue(row_ids: list[int]) -> None:
    """Enqueue deliveries now (the beat scan), SEND_BATCH rows a task."""
    app = queue.celery_client()
    for batch in batches(row_ids):
        app.send_task(SEND_BATCH_TASK, args=[batch])


def kick(row_ids: list[int]) -> None:
    """After a commit: ask the worker to send these rows now (the beat scan sends them anyway)."""
    queue.publish(SEND_BATCH_TASK, [[batch] for batch in batches(row_ids)])


def deliver_batch(row_ids: list[int]) -> dict[str, int]:
    """One delivery attempt of each row in turn (`deliver`), for as long as BATCH_SECONDS allows; the
    rows not started then are enqueued again.  How many rows ended how ("sent", "not due"..., and
    "enqueued again").  An exception (the database gone) ends the batch: the rows after it are still
    pending, and the beat scan enqueues them, as it does a lost kick's."""
    started = time.monotonic()
    until = started + policy().send_budget  # (see BATCH_SECONDS)
    outcomes: dict[str, int] = {}
    for done, row_id in enumerate(row_ids):
        if done and time.monotonic() - started > BATCH_SECONDS:  # (the first is always started)
            enqueue(row_ids[done:])
            outcomes["enqueued again"] = len(row_ids) - done
            break
        outcome = deliver(row_id, until)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


# ---- what people are shown: the operator (`flask outbox`) and the player (their own page) ----------


@dataclass(frozen=True)
class Problem:
    """A row the operator should know about."""

    id: int
    game_id: int
    kind: str
    address: str
    attempts: int
    created_at: datetime
    state: str  # failed | stuck (pending long past due, or sending past the lease) | retrying
    last_error: str | None


def problems(now: datetime | None = None) -> list[Problem]:
    """Failed rows, stuck rows (pending long past their next attempt: nothing is scanning; sending
    past the lease: a dead worker's, not yet claimed again), and rows retrying for longer than the
    player notice's threshold; oldest first."""
    now = now or utcnow()
    rules = policy()
    retrying_since = now - timedelta(seconds=running.config()["OUTBOX_NOTICE_AFTER_SECONDS"])
    failed = col(Outbox.status) == "failed"
    stuck = sa.or_(
        sa.and_(col(Outbox.status) == "pending", col(Outbox.next_attempt_at) < now - STUCK_AFTER),
        sa.and_(col(Outbox.status) == "sending", col(Outbox.claimed_at) < now - rules.lease),
    )
    retrying = sa.and_(col(Outbox.status) == "pending", col(Outbox.attempts) > 0,
                       sa.func.coalesce(col(Outbox.requeued_at), col(Outbox.created_at)) < retrying_since)
    with read_session(get_engine()) as session:
        rows = session.execute(
            sa.select(Outbox, col(Player.email))
            .join(Player, col(Player.id) == col(Outbox.player_id))
            .where(sa.or_(failed, stuck, retrying))
            .order_by(col(Outbox.created_at), col(Outbox.id))
        ).all()
    found = []
    for row, address in rows:
        if row.status == "failed":
            state = "failed"
        elif (row.status == "sending" or as_utc(row.next_attempt_at) < now - STUCK_AFTER):
            state = "stuck " + row.status
        else:
            state = "retrying"
        found.append(Problem(row.id, row.game_id, row.kind, address, row.attempts, as_utc(row.created_at),
                             state, row.last_error))
    return found


def requeue(row_ids: list[int], every_failed: bool = False) -> tuple[list[int], dict[int, str]]:
    """Put rows back to pending, due now, with their attempts and give-up horizon starting afresh:
    the given ids (failed, undeliverable, pending, or sending past the lease) and, with `every_failed`, every failed
    row.  (requeued ids, {id: why not} for the ids that cannot be re-queued); kicks the worker."""
    now = utcnow()
    rules = policy()
    allowed = sa.or_(
        # "undeliverable" too: an operator who knows the address works again may send one such email
        # (if its bounce mark is still set, the delivery just says so again).
        col(Outbox.status).in_(("failed", "pending", "undeliverable")),
        sa.and_(col(Outbox.status) == "sending", col(Outbox.claimed_at) < now - rules.lease),
    )
    chosen: sa.ColumnElement[bool] = col(Outbox.id).in_(row_ids)
    if every_failed:
        chosen = sa.or_(chosen, col(Outbox.status) == "failed")
    with write_session(get_engine()) as session:
        done = sorted(session.execute(
            sa.update(Outbox).where(chosen, allowed)
            .values(status="pending", attempts=0, next_attempt_at=now, requeued_at=now, claimed_at=None,
                    last_error=None)
            .returning(col(Outbox.id))
        ).scalars())
        refused = {}
        left = sorted(set(row_ids) - set(done))
        if left:
            states = dict(session.execute(
                sa.select(col(Outbox.id), col(Outbox.status)).where(col(Outbox.id).in_(left))).all())
            for row_id in left:
                status = states.get(row_id)
                refused[row_id] = {
                    None: "no such email", "sending": "being sent right now",
                }.get(status, f"it is {status}: nothing to send again")
    kick(done)
    return done, refused


@dataclass(frozen=True)
class Trouble:
    """What a player's page says when we cannot reach them."""

    address: str
    since: datetime  # when the oldest email that did not reach them was queued
    words: str  # the last error in plain words
    given_up: bool  # True: we stopped trying (a refusal, or the horizon passed)


# A player's emails that did not get through (`trouble`), oldest first: failed, or retrying since
# before `since`, with none of theirs delivered after it was queued.  Built once and run on the DB-API
# cursor (service/store/prepared.py): the player page reads it on every view (issue #27), where
# building the statement and loading whole rows cost ~0.5 ms.  One statement: the check that nothing
# was delivered since the oldest is its NOT EXISTS.  (Every value a bound parameter: `_STATUSES`.)
_STATUSES = {"email": "email", "failed": "failed", "pending": "pending", "sending": "sending", "sent": "sent"}
_BAD = sa.select(col(Outbox.created_at), col(Outbox.last_error), col(Outbox.status)).where(
    col(Outbox.player_id) == sa.bindparam("player_id"),
    col(Outbox.channel) == sa.bindparam("email"),  # (a webhook's: its own page)
    sa.or_(col(Outbox.status) == sa.bindparam("failed"),
           # "sending" too: the page must not forget the trouble while an attempt is under way.
           sa.and_(col(Outbox.status).in_((sa.bindparam("pending"), sa.bindparam("sending"))),
                   col(Outbox.last_error).is_not(None),
                   sa.func.coalesce(col(Outbox.requeued_at), col(Outbox.created_at)) < sa.bindparam("since"))),
)
_SENT = aliased(Outbox)
_DELIVERED: sa.Select[Any] = sa.select(sa.literal_column("1")).select_from(_SENT).where(
    col(_SENT.player_id) == sa.bindparam("player_id"), col(_SENT.status) == sa.bindparam("sent"),
    col(_SENT.channel) == sa.bindparam("email"),
    col(_SENT.sent_at) > _BAD.with_only_columns(sa.func.min(col(Outbox.created_at))).scalar_subquery())
_TROUBLE = Prepared(_BAD.where(~sa.exists(_DELIVERED)).order_by(col(Outbox.created_at), col(Outbox.id)))


def trouble(session: Session, player: AnyPlayer, now: datetime | None = None) -> Trouble | None:
    """Whether `player`'s emails are not getting through: a row of theirs failed, or has been retrying
    for longer than OUTBOX_NOTICE_AFTER_SECONDS, and none of theirs was delivered since it was queued
    (then their address works again, whatever an older email met).  None when all is well."""
    now = now or utcnow()
    retrying_since = now - timedelta(seconds=running.config()["OUTBOX_NOTICE_AFTER_SECONDS"])
    bad = _TROUBLE.rows(session.connection(), {**_STATUSES, "player_id": player.id, "since": retrying_since})
    if not bad:
        return None
    (oldest, _, _), (_, last_error, _) = bad[0], bad[-1]
    return Trouble(player.email, as_utc(oldest), plain_words(last_error),
                   given_up=any(status == "failed" for _, _, status in bad))


# The exception names `_failed` records (first word of last_error), in words for the player.
_UNREACHABLE = ("ConnectionRefusedError", "ConnectionResetError", "ConnectionError", "TimeoutError", "SendTimeout",
                "OSError", "gaierror", "SMTPConnectError", "SMTPServerDisconnected", "SSLError")


def plain_words(error: str | None) -> str:
    """A recorded SMTP error as a player can read it (never the server's own text: it may name hosts);
    marked for the catalogs: the player's page says it in the reader's language."""
    kind, _, detail = (error or "").partition(":")
    if kind == "SMTPRecipientsRefused":
        return N_("the mail server refused your address")
    if kind == "SMTPSenderRefused":
        return N_("the mail server refused our sender address")
    code = detail.strip().lstrip("(").split(",", 1)[0].split(" ", 1)[0]
    if kind.startswith("SMTP") and code.isdigit():
        if code.startswith("5"):
            return N_("the mail server refused the email")
        if code.startswith("4"):
            return N_("the mail server asked us to try again later")
    if kind in _UNREACHABLE:
        return N_("our mail server could not be reached")
    if kind.startswith("the worker"):
        return N_("sending it failed on our side")
    return N_("the email could not be sent")
