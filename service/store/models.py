"""The tables (SQLModel).  The schema itself is owned by the Alembic migrations in
service/migrations; these classes must match them (a test compares the two).

- `games`      the read model of a game: its seq, status, who is to act, its result.
- `players`    one row per seat, with the email address and mail preferences.
- `events`     the append-only log: UNIQUE(game_id, seq); nothing updates or deletes a row.
- `snapshots`  cached states at some seqs (a cache only: deleting them changes nothing but speed).
- `game_states` each game's current state, one row beside `games`: what a move reads and rewrites
               (a cache too, trusted only while its seq and rules_version are the game's).
- `turns`      where each turn began, as the engine counts turns (`Game.turn`).
- `outbox`     emails to send, written in the same transaction as the events that caused them.
- `journal`    what happened around a game that is not a move (reminders, vacations, pauses).
- `game_clocks`, `deadlines`, `people`: time control (service/clocks).
- `bounces`    bounce reports received for sent emails (service/mail/bounces.py); a person's row says
               when their address was judged undeliverable.
- `campaigns`, `campaign_games`: games played one after the other by the same party.
- `invitations`: the one short email an address that never played gets, and its answer (consent).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from service.store.inboxes import key as inbox_key


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_row_key() -> str:
    """A row's random key: 16 lower-case hex digits (64 bits), the same read in any case (some mail
    servers fold the return path's), so it is safe in a link, a return path and a Message-ID."""
    return secrets.token_hex(8)


def as_utc(moment: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite hands times back without their zone)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)



# players.consent of a bot's seat: "bot:" and its level (service/play/bots.py); no address, never emailed.
BOT_CONSENT = "bot:"

class Game(SQLModel, table=True):
    __tablename__ = "games"

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    name: str = Field(max_length=40)  # engine registry name
    rules_version: str = Field(max_length=20)  # the engine's rules_version at creation
    options: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    # Where the game's randomness comes from (service/store/deal.py): a decimal integer, 256 random
    # bits for a game a player started, a chosen seed (the operator's, or a game older than 0010a);
    # never shown while the game runs (nor in the row's repr, which a log or a traceback may print).
    # `commitment`: its SHA-256 in hex, public from the start.
    secret: str = Field(max_length=80, repr=False)
    commitment: str = Field(max_length=64)
    seq: int = 0  # number of events so far (the seq of the last one)
    status: str = Field(default="active", max_length=20)  # active | finished
    to_act: list[int] = Field(default_factory=list, sa_type=sa.JSON)
    result: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)
    # The public (spectator) history of the game: its creator (seat 0) may turn it off.
    history_public: bool = Field(default=True, sa_column_kwargs={"server_default": sa.true()})
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class Player(SQLModel, table=True):
    __tablename__ = "players"
    __table_args__ = (sa.UniqueConstraint("game_id", "seat", name="uq_players_game_seat"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id", index=True)
    seat: int
    name: str = Field(max_length=80)
    email: str = Field(max_length=254)  # as typed (normalized): mail goes to exactly this
    # The address as one inbox (service/store/inboxes.py): what every comparison of addresses uses.
    # Filled from `email` on insert, however the row is written.
    address_key: str = Field(default=None, max_length=254, index=True, sa_column_kwargs={
        "default": lambda context: inbox_key(context.get_current_parameters()["email"])})
    # RFC 8058 unsubscribe turns this off; the player page turns it back on.
    turn_emails: bool = True
    # Every link that stands for this player (page, move, unsubscribe, API) carries the generation it
    # was made in and is refused once it differs: "send me a fresh link" increments it, ending every
    # link of this seat already out there (a forwarded email's among them).  Links made before
    # generations existed carry none and count as 0.
    link_generation: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # Whether this seat's address may be emailed for this game (service/play/consent.py): "" yes (it
    # has played or accepted an invitation), "asked" not yet (its emails are held until the address
    # accepts), "declined" never (the address declined the invitations of this game's creator),
    # "creator" held until the creator confirms their address, BOT_CONSENT + level a bot's seat.
    consent: str = Field(default="", max_length=20, sa_column_kwargs={"server_default": ""})
    # Every link of the player carries this random key beside the id and is refused when it is not the
    # row's, and the player's Message-IDs include it: a restore resets the id counters, so a new player
    # may get the id of a rolled-back one, never its key.  NULL: a row from before keys (migration
    # 0010b), whose links, made without a key, still stand, and whose Message-IDs stay as they were.
    row_key: str | None = Field(default_factory=new_row_key, max_length=16)


class Event(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (sa.UniqueConstraint("game_id", "seq", name="uq_events_game_seq"),)

    id: int = Field(default=None, primary_key=True)  # global order of appends; set by the database
    game_id: int = Field(foreign_key="games.id")
    seq: int  # 1, 2, 3... per game; the UNIQUE constraint is the optimistic lock
    type: str = Field(max_length=60)
    payload: dict[str, Any] = Field(sa_type=sa.JSON)  # the engine's event, verbatim
    actor: int | None = None  # the seat whose decision caused it; None for setup
    kind: str = Field(default="move", max_length=20)  # setup | move | timeout | system
    created_at: datetime = Field(default_factory=utcnow)


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshots"

    game_id: int = Field(foreign_key="games.id", primary_key=True)
    seq: int = Field(primary_key=True)  # the state after event `seq`
    state: dict[str, Any] = Field(sa_type=sa.JSON)
    # The rules_version of the engine that made it: a state's layout may change between versions, so
    # a snapshot of another version is not used (the state is replayed from the events instead).
    rules_version: str | None = Field(default=None, max_length=20)
    created_at: datetime = Field(default_factory=utcnow)


class GameState(SQLModel, table=True):
    """The state after the game's latest event: the one row a move reads and rewrites (in the move's
    transaction), so playing never replays.  A cache like the snapshots: used only while its `seq` is
    the game's and its `rules_version` the engine's, rebuilt from the log otherwise."""

    __tablename__ = "game_states"

    game_id: int = Field(foreign_key="games.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    seq: int
    rules_version: str = Field(max_length=20)
    state: dict[str, Any] = Field(sa_type=sa.JSON)
    # The seq of the game's latest snapshot: when the next one is due (every SNAPSHOT_EVERY events)
    # is known without a query.
    snapshot_seq: int = 0


class TurnStart(SQLModel, table=True):
    """Where a turn began: after event `seq`, the engine's turn counter (`Game.turn`) read `number`
    and it was the turn of `seats`.  Written by the move that began it (and by the game's creation
    for the first turn); "what happened since your last turn" in emails is told from these rows."""

    __tablename__ = "turns"
    __table_args__ = (sa.UniqueConstraint("game_id", "seq", name="uq_turns_game_seq"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    seq: int
    number: int
    seats: list[int] = Field(default_factory=list, sa_type=sa.JSON)


class Outbox(SQLModel, table=True):
    """An email to send.  `kind` names an entry of the email-kind registry (service/mail/kinds.py) and
    `params` its details (a reminder's hours, the journal entry a notice tells); the message is
    rendered from the row alone at delivery.  The deterministic `message_id` is the idempotency key:
    one email per player, kind, details and position of the game."""

    __tablename__ = "outbox"
    __table_args__ = (sa.Index("ix_outbox_due", "status", "next_attempt_at"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    player_id: int = Field(foreign_key="players.id")
    kind: str = Field(max_length=20)  # invite | turn | reminder | notice | timed_out | game_over | fresh_link | account_link ...
    params: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    seq: int  # the game position the email describes (its links are bound to it)
    message_id: str = Field(max_length=200, unique=True)  # deterministic: a retry is the same mail
    status: str = Field(default="pending", max_length=20)  # pending | held | sending | sent | skipped | undeliverable | failed
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow)
    claimed_at: datetime | None = None
    sent_at: datetime | None = None
    last_error: str | None = Field(default=None, max_length=500)
    # Why a skipped row was not sent: "unwanted" (its kind's `wanted` said no), "never_email", or the
    # person's notification mode ("turned_off", "digest", "until_visit"); "quiet_hours" on a row their
    # quiet hours held (service/mail/notify_policy.py).
    skip_reason: str | None = Field(default=None, max_length=40)
    created_at: datetime = Field(default_factory=utcnow)
    # When an operator last re-queued it (`flask outbox requeue`): the retry policy's give-up horizon
    # runs from here instead of from created_at, while created_at still says how long the email waited.
    requeued_at: datetime | None = None
    # The email's return path names the row by its id and this random key (service/mail/bounces.py): a
    # bounce of a rolled-back email cannot mark the address of the row that got its id after a restore.
    # NULL: a row from before keys, whose return path named the id alone.
    row_key: str | None = Field(default_factory=new_row_key, max_length=16)
    # A row "sent" inside another row's email (a sweep's digest of timed_out emails to one address:
    # service/mail/digest.py): that row's id.  NULL: sent as its own email (or not sent yet).
    sent_in: int | None = None
    # (channels, migration 0015d) What carries the row: "email" (every row written before 0015d) or
    # "webhook", the twin of an email row to one of its person's webhooks (`webhook_id`; no foreign key:
    # a webhook row is never deleted, only disabled, and the column is added without copying the table).
    channel: str = Field(default="email", max_length=10, sa_column_kwargs={"server_default": "email"})
    webhook_id: int | None = None


class JournalEntry(SQLModel, table=True):
    """Things that happened around a game but are not moves: a reminder sent, a vacation started or
    ended, the game paused or resumed.  They are shown in the game's history beside the events.

    Not events on purpose: an event bumps the game's seq, which would make every emailed move
    link of the current position stale just because, say, a reminder went out.
    """

    __tablename__ = "journal"
    __table_args__ = (sa.Index("ix_journal_game_seq", "game_id", "after_seq"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    after_seq: int  # the game's seq when it happened: history places the entry after that event
    kind: str = Field(max_length=40)  # reminder | vacation_start | vacation_end | paused | resumed ...
    seat: int | None = None  # the seat it concerns, if any
    payload: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)  # public details only
    created_at: datetime = Field(default_factory=utcnow)


# ---- time control: clocks, reminders, vacations, the end of the game -------------------------------


class GameClock(SQLModel, table=True):
    """A game's time control and end-of-game bookkeeping; one row per game (games created before
    deadlines existed get theirs on their next move).  `deadline_hours` None: no time control."""

    __tablename__ = "game_clocks"
    __table_args__ = (sa.Index("ix_game_clocks_end_due", "end_due_at"),)

    game_id: int = Field(foreign_key="games.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    deadline_hours: int | None = None
    policy: str = Field(default="auto", max_length=20)  # auto | skip | forfeit | pause
    reminders: list[int] = Field(default_factory=lambda: [24, 2], sa_type=sa.JSON)  # hours before
    paused_at: datetime | None = None  # the pause policy (or the timeout-streak rule) stopped it
    # Turns in a row that ended by timeout, any seat; a player's own move resets it.
    timeout_streak: int = 0
    # Set by the move that made the engine report a result, cleared once the end is recorded: the
    # sweep's retry queue for the end-of-game task.
    end_due_at: datetime | None = None
    ended_at: datetime | None = None


class Deadline(SQLModel, table=True):
    """The clock of one seat that is to act in a timed game: created when it becomes the seat's
    turn, deleted when the turn is over.  `next_at` is when the sweep must look at the row next (the
    next reminder or the deadline itself); NULL while the clock is stopped (vacation, pause)."""

    __tablename__ = "deadlines"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "seat", name="uq_deadlines_game_seat"),
        sa.Index("ix_deadlines_next_at", "next_at"),
    )

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    seat: int
    player_id: int = Field(foreign_key="players.id", index=True)
    started_at: datetime  # when the turn (or, after a pause, the restarted clock) began
    due_at: datetime | None = None  # NULL while stopped
    remaining_seconds: int | None = None  # the time left while stopped by a vacation
    reminders_done: int = 0  # how many steps of the game's reminder ladder are behind us
    next_at: datetime | None = None


class Person(SQLModel, table=True):
    """Settings of a person across all their games; a person is their inbox: `email` holds the address's
    key (service/store/inboxes.py), so VIC@ and vic@ share one row (migration 0012a merged variants)."""

    __tablename__ = "people"
    __table_args__ = (sa.Index("ix_people_vacation_until", "vacation_until"),)

    email: str = Field(max_length=254, primary_key=True)
    time_zone: str = Field(default="UTC", max_length=64)
    # When the person chose `time_zone` (on a page, or the page took their browser's zone on their first
    # visit); NULL: never chosen, so `time_zone` is the UTC default and the page may take the browser's.
    time_zone_set_at: datetime | None = None
    vacation_since: datetime | None = None
    vacation_until: datetime | None = None  # when the allowance runs out: the sweep ends it then
    allowance_year: int = 0  # the calendar year `allowance_used_seconds` counts
    allowance_used_seconds: int = 0
    # When the person asked never to be emailed (RFC 8058 one-click or their account page); NULL: we may.
    # Delivery skips every email to them but the links they ask for on a page (service/mail/kinds.py).
    never_email_at: datetime | None = None
    # When a fresh player link or an account link was last mailed: at most one of each per
    # LINK_MAIL_INTERVAL (service/people/access.py), so a page cannot be used to flood the inbox.
    fresh_link_sent_at: datetime | None = None
    account_link_sent_at: datetime | None = None
    # Set when bounces showed the address cannot receive mail (service/mail/bounces.py): no email is
    # sent to it until the person asks to try again from their page, which clears it and sets
    # `bounces_cleared_at` (bounces of emails sent before then no longer count).
    bounced_at: datetime | None = None
    bounce_status: str | None = Field(default=None, max_length=16)  # the RFC 3463 code that decided it
    bounces_cleared_at: datetime | None = None
    # When the address showed it is its owner's: it accepted an invitation (anyone's, its own "did you
    # start this game?" among them) or had played before invitations existed (migration 0007).  Such an
    # address is a verified inviter: its games' emails may go to others.  Who it accepts mail from is
    # the `consents` table's, per inviter.
    consented_at: datetime | None = None
    # Every browser signed in as this person holds the generation of its sign-in (service/web/auth.py);
    # "sign out everywhere" increments it, ending them all.
    session_generation: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # (notifications) How game emails reach the person (service/mail/notify_policy.py decides at
    # delivery): "every" change of turn, "until_visit" (one email, then nothing more of that game until
    # they open its page or move), "digest" (one email a day at `digest_hour`, their local hour, listing
    # every game awaiting them) or "none" (the home page only).  A game's own mode (notify_games)
    # overrides it.  Quiet hours, local hours [start, end) (both NULL: none), hold every game email but a
    # seat's last reminder until they end.
    notify_mode: str = Field(default="every", max_length=20, sa_column_kwargs={"server_default": "every"})
    digest_hour: int = Field(default=7, sa_column_kwargs={"server_default": "7"})
    quiet_start: int | None = None
    quiet_end: int | None = None


class Bounce(SQLModel, table=True):
    """One bounce report received for an email we sent: the address it was sent to (as it was then),
    the outbox row (the return path's signed token named it), how bad it is and what the receiving
    side said.  Written for every accepted report, whether or not it changed anything."""

    __tablename__ = "bounces"
    __table_args__ = (sa.Index("ix_bounces_email_received", "email", "received_at"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    email: str = Field(max_length=254)
    outbox_id: int = Field(foreign_key="outbox.id")
    kind: str = Field(max_length=10)  # hard | soft | delayed
    status: str = Field(max_length=16)  # RFC 3463 enhanced status code, e.g. 5.1.1; "" when none was given
    diagnostic: str = Field(default="", max_length=500)  # the remote server's words, shortened
    received_at: datetime = Field(default_factory=utcnow)



class Invitation(SQLModel, table=True):
    """The one short email an address that has not consented gets when a game names it, and its
    answer.  Addresses are kept lower-cased (one inbox, whatever the case typed): `address` the
    invited one, `inviter` the address of the game's creator (seat 0).  An address declines per
    inviter: that inviter can never again make the service email it; others still may invite it."""

    __tablename__ = "invitations"
    __table_args__ = (
        sa.Index("ix_invitations_address_created", "address", "created_at"),
        sa.Index("ix_invitations_address_inviter", "address", "inviter"),
    )

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    address: str = Field(max_length=254)
    inviter: str = Field(max_length=254)
    game_id: int = Field(foreign_key="games.id")
    player_id: int = Field(foreign_key="players.id")
    status: str = Field(default="asked", max_length=20)  # asked | accepted | declined
    created_at: datetime = Field(default_factory=utcnow)
    answered_at: datetime | None = None
    # The invitation's link carries it beside the id, as a player's links carry theirs (Player.row_key).
    row_key: str | None = Field(default_factory=new_row_key, max_length=16)


# Vacations look up a person's seats in every game by address.
sa.Index("ix_players_email", Player.email)


class Consent(SQLModel, table=True):
    """An address accepts the emails of the games of one inviter (service/play/consent.py): both are
    keys (service/store/inboxes.py).  Written when the address accepts that inviter's invitation (or,
    by migration 0012a, for the inviters of the games the address already played in)."""

    __tablename__ = "consents"

    address: str = Field(max_length=254, primary_key=True)
    inviter: str = Field(max_length=254, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow)


class Naming(SQLModel, table=True):
    """A game naming an address that has not accepted its inviter: what the per-address caps count
    (service/play/consent.py).  `address` is the limit key (no +tag), `inviter` a key; `new_inviter`:
    the address never played with nor accepted that inviter."""

    __tablename__ = "namings"
    __table_args__ = (sa.Index("ix_namings_address_created", "address", "created_at"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    address: str = Field(max_length=254)
    inviter: str = Field(max_length=254)
    game_id: int = Field(foreign_key="games.id")
    new_inviter: bool = False
    created_at: datetime = Field(default_factory=utcnow)


# ---- campaigns: games played one after the other by the same party --------------------------------


class Campaign(SQLModel, table=True):
    """A series of games played one after the other by the same party; created when a game that
    offers a follow-up (its game's adapter says which: the next scenario after a win, a replay after a
    loss) is followed up."""

    __tablename__ = "campaigns"

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    name: str = Field(max_length=40)  # the game's own campaign id
    created_at: datetime = Field(default_factory=utcnow)


class CampaignGame(SQLModel, table=True):
    """One game of a campaign: the scenario, the carry-over it started with, the rewards its win recorded
    (the next scenario's carry-over) and the game that followed it (at most one: the offer is taken once)."""

    __tablename__ = "campaign_games"
    __table_args__ = (
        sa.UniqueConstraint("game_id", name="uq_campaign_games_game"),
        sa.Index("ix_campaign_games_campaign", "campaign_id"),
    )

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    campaign_id: int = Field(foreign_key="campaigns.id")
    game_id: int = Field(foreign_key="games.id")
    scenario: str = Field(max_length=40)  # the part of the campaign the game plays
    carry: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)  # None: the campaign's start
    rewards: dict[str, Any] | None = Field(default=None, sa_type=sa.JSON)  # recorded on a win
    # While a follow-up game is being created (between two transactions): a second press waits.
    follow_up_started_at: datetime | None = None
    follow_up_game_id: int | None = Field(default=None, foreign_key="games.id")


# ---- people: sign-in, my games, notifications, channels, deliveries (service/people) ---------------
# (sign-in)


class SigninRequest(SQLModel, table=True):
    """One "email me a sign-in link" (service/people/signin.py): its emailed link names the row by id and
    `nonce`, and its 6-digit code is derived from the nonce with SECRET_KEY (service/links.py), so no
    code or link is stored in a form that signs anyone in.  Alive for 15 minutes while unused, while
    fewer than 5 wrong codes were tried, and while it is the address's newest request."""

    __tablename__ = "signin_requests"
    __table_args__ = (sa.Index("ix_signin_requests_address_created", "address", "created_at"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    address: str = Field(max_length=254)  # the address's key (service/store/inboxes.py)
    nonce: str = Field(max_length=32)  # random; with SECRET_KEY it makes the link's and the code's proof
    created_at: datetime = Field(default_factory=utcnow)
    used_at: datetime | None = None  # signed in with it (link or code): single use
    wrong_codes: int = 0  # wrong codes tried against it; at MAX_WRONG_CODES it is dead


class PersonalToken(SQLModel, table=True):
    """A personal API token (service/people/tokens.py): `Authorization: Bearer` acts as its person on
    /api/me.  Only the token's SHA-256 is kept: it is shown once, when it is made."""

    __tablename__ = "personal_tokens"
    __table_args__ = (sa.Index("ix_personal_tokens_person", "person"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    person: str = Field(max_length=254)  # the address's key (people.email)
    name: str = Field(max_length=60)  # what the person called it ("my bot")
    token_hash: str = Field(max_length=64, unique=True)  # hex SHA-256 of the token
    created_at: datetime = Field(default_factory=utcnow)
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None


# (my games)


class HiddenGame(SQLModel, table=True):
    """A finished game a person chose not to see among their games (service/web/home.py): per person,
    since each player of a game decides for their own list.  `email` is the person's address key."""

    __tablename__ = "hidden_games"

    email: str = Field(max_length=254, primary_key=True)
    game_id: int = Field(foreign_key="games.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    hidden_at: datetime = Field(default_factory=utcnow)


# (notifications)


class NotifyGame(SQLModel, table=True):
    """A person's notification state for one game: its own mode (NULL: the person's; "none" for a game
    is the seat's `players.turn_emails` off, which the RFC 8058 unsubscribe sets, so it is never stored
    here) and their last visit of its page (the "until I visit" mode: service/mail/notify_policy.py)."""

    __tablename__ = "notify_games"

    email: str = Field(max_length=254, primary_key=True)  # the person's address key (people.email)
    game_id: int = Field(foreign_key="games.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    mode: str | None = Field(default=None, max_length=20)  # every | until_visit | digest
    visited_at: datetime | None = None


# (channels)


class Webhook(SQLModel, table=True):
    """A person's webhook (service/people/channels.py): the turn, reminder, game-over and invite emails of
    their consented seats get a twin outbox row to it (service/mail/webhooks.py).  `shape` says the body:
    "generic" (JSON signed with `secret`, HMAC-SHA256), "discord" or "slack".  A removed webhook keeps its
    row (`disabled_at` set) so that the outbox rows naming it still say where they went."""

    __tablename__ = "webhooks"
    __table_args__ = (sa.Index("ix_webhooks_person", "person"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    person: str = Field(max_length=254)  # the person's key (people.email)
    url: str = Field(max_length=2000)
    shape: str = Field(max_length=10)  # generic | discord | slack
    # The HMAC key of the generic shape's signature, shown to its person on the settings page (the
    # receiver needs it in clear, and so do we to sign).  Never put in a log or a repr.
    secret: str = Field(max_length=64, repr=False)
    created_at: datetime = Field(default_factory=utcnow)
    disabled_at: datetime | None = None


class FeedKey(SQLModel, table=True):
    """The random id in a person's feed URLs (/feeds/<id>.<mac>/...: service/people/feeds.py).  The URL's
    MAC is derived from SECRET_KEY, so this table alone (a backup, a dump) opens no feed; a rotation
    draws a new id, which ends the old URLs."""

    __tablename__ = "feed_keys"

    person: str = Field(max_length=254, primary_key=True)  # the person's key (people.email)
    feed_id: str = Field(max_length=32, unique=True)
    created_at: datetime = Field(default_factory=utcnow)


# ---- talk: table talk, stored apart from the event log (service/talk) -------------------------------


class TalkMessage(SQLModel, table=True):
    """One message of a game's table talk (service/talk/messages.py): never an event, so the engine and
    the game's seq stay untouched; `seq` is the game's seq when it was written (where it stands among
    the game's moves).  `channel` "all" (the table; in a cooperative game the party) or "team" (the
    writer's team only: who is on it comes from the game's adapter).  A deleted message keeps its row
    (`deleted_at` set, `text` emptied): the page shows that something was said and taken back."""

    __tablename__ = "talk_messages"
    __table_args__ = (
        sa.Index("ix_talk_messages_game", "game_id", "id"),
        sa.Index("ix_talk_messages_player_created", "player_id", "created_at"),
    )

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    player_id: int = Field(foreign_key="players.id")
    seat: int
    channel: str = Field(default="all", max_length=10)  # all | team
    text: str = Field(default="", max_length=1000)
    seq: int  # the game's seq when it was written
    source: str = Field(default="page", max_length=10)  # page | api | email
    created_at: datetime = Field(default_factory=utcnow)
    deleted_at: datetime | None = None


class TalkMute(SQLModel, table=True):
    """A person who does not want to read another's talk, in any game: both are address keys
    (service/store/inboxes.py).  The page names the message whose writer is muted, never an address."""

    __tablename__ = "talk_mutes"

    person: str = Field(max_length=254, primary_key=True)
    muted: str = Field(max_length=254, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow)


class TalkReport(SQLModel, table=True):
    """A player reporting a message to the operator (`flask --app service reports` lists them), with the
    message's text as it was then."""

    __tablename__ = "talk_reports"
    __table_args__ = (sa.UniqueConstraint("message_id", "reporter", name="uq_talk_reports_message_reporter"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    message_id: int = Field(foreign_key="talk_messages.id")
    reporter: int = Field(foreign_key="players.id")  # the reporting seat
    reason: str = Field(default="", max_length=500)
    # A copy of the message's text when it was reported: its writer may delete it afterwards (which
    # empties talk_messages.text), and the operator must still read what the report is about.
    text: str = Field(default="", max_length=1000)
    created_at: datetime = Field(default_factory=utcnow)


class TalkAtOnce(SQLModel, table=True):
    """A person who chose "tell me at once" about table talk (their address key): a talk email of its own
    when someone writes, at most one per game per AT_ONCE_INTERVAL (service/talk/notify.py)."""

    __tablename__ = "talk_at_once"

    person: str = Field(max_length=254, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow)


class TalkTold(SQLModel, table=True):
    """How far a seat's emails have told the game's talk: the id of the last message an email of its took
    when it was about to be sent (service/mail/talk_email.py: at delivery, so a skipped email takes
    none), so the next email tells only what came after (and no message twice)."""

    __tablename__ = "talk_told"

    player_id: int = Field(foreign_key="players.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    upto: int = 0


class TalkOpen(SQLModel, table=True):
    """A game whose creator opened its table talk (the "all" channel) to spectators while it is played;
    a finished game's is open to them anyway."""

    __tablename__ = "talk_open"

    game_id: int = Field(foreign_key="games.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    opened_at: datetime = Field(default_factory=utcnow)


# ---- inbound: received mail and replies by email (service/inbound) ---------------------------------


class InboundMessage(SQLModel, table=True):
    """Every message the door of service/inbound received, kept whatever became of it, so nothing
    received is lost and a failure can be shown to the operator (`flask --app service inbound-log`) and
    read again (`inbound-retry`).  `raw` is the message as received, cut at the door's cap (`truncated`);
    `outcome` what was done: received (not read yet, or its reading died), played, talk, stale, illegal,
    answered (a refusal answered to the seat), ignored (an auto-reply, a loop, over the hourly limit:
    no answer), refused (no valid reply address: nobody to answer), bounce, failed (an error: `error`).
    `player_id`/`game_id`/`seq` are the reply address's, once its token held."""

    __tablename__ = "inbound_messages"
    __table_args__ = (
        sa.Index("ix_inbound_messages_player_received", "player_id", "received_at"),
        sa.Index("ix_inbound_messages_outcome", "outcome", "id"),
    )

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    received_at: datetime = Field(default_factory=utcnow)
    rcpt: str = Field(default="", max_length=320)  # the envelope recipient (or the header that named us)
    sender: str = Field(default="", max_length=320)  # the envelope sender (Return-Path), as given
    message_id: str = Field(default="", max_length=250)  # its Message-ID header (cut; for threading)
    size: int = 0  # bytes received (before the cap)
    truncated: bool = False
    raw: bytes = Field(default=b"", sa_type=sa.LargeBinary)
    player_id: int | None = None  # no foreign key: a restore may remove the seat, the message stays
    game_id: int | None = None
    seq: int | None = None
    outcome: str = Field(default="received", max_length=20)
    detail: str = Field(default="", max_length=500)  # what was done, in words (the operator's and the log's)
    error: str | None = Field(default=None, max_length=2000)
    answer_id: int | None = None  # the outbox row of the answer to the seat, if one was written
    done_at: datetime | None = None


class ReplySetting(SQLModel, table=True):
    """A person's choice about the answers to their replies by email (their address key): with
    `confirmations` off, a reply is read and acted on as always, and nothing is emailed back."""

    __tablename__ = "reply_settings"

    person: str = Field(max_length=254, primary_key=True)
    confirmations: bool = True
    changed_at: datetime = Field(default_factory=utcnow)


# ---- lobby: open seats and the lobby, rematches, ratings (service/play/lobby.py, rematch.py, ratings.py) ----


class OpenGame(SQLModel, table=True):
    """A game waiting for players (service/play/lobby.py): dealt when it was opened (its games row has
    status "open" until every seat is filled, "expired" if it never was), its creator in seat 0, the
    other seats open to "anyone with this link" (`listed` False) or to anyone in the lobby (`listed`)."""

    __tablename__ = "open_games"
    __table_args__ = (sa.Index("ix_open_games_status", "status", "expires_at"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id", unique=True)
    key: str = Field(default_factory=new_row_key, max_length=16)  # in the game's lobby URL
    mode: str = Field(default="", max_length=20)  # the adapter's Mode.name
    seats: int  # players in all, the creator's seat among them
    listed: bool = False
    # The time control the game gets when it starts (service/clocks/settings.py): its pace.
    deadline_hours: int | None = None
    policy: str = Field(default="auto", max_length=20)
    reminders: list[int] = Field(default_factory=list, sa_type=sa.JSON)
    status: str = Field(default="open", max_length=10)  # open | started | expired
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime
    ended_at: datetime | None = None  # started or expired


class Joining(SQLModel, table=True):
    """One join of an open game: the seat it holds (`player_id`, a players row of consent "joining" that its
    confirmation email hangs on) until its address confirms (the emailed link's button; a signed-in
    person's press confirms at once).  Unconfirmed after LOBBY_HOLD_HOURS it lapses and the seat is free
    for the next person (the players row is given to them)."""

    __tablename__ = "joinings"
    __table_args__ = (sa.Index("ix_joinings_open_game", "open_game_id"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    open_game_id: int = Field(foreign_key="open_games.id")
    player_id: int = Field(foreign_key="players.id")
    address: str = Field(max_length=254)  # the address's key
    nonce: str = Field(max_length=32, repr=False)  # in the confirmation link
    created_at: datetime = Field(default_factory=utcnow)
    confirmed_at: datetime | None = None
    lapsed_at: datetime | None = None


class Rematch(SQLModel, table=True):
    """"Play again" asked after a finished game (service/play/rematch.py): at most one per game.  `order`
    says the new game's seats (new seat i is the finished game's seat order[i]); `accepted` the finished
    game's seats that said yes.  `game_id`'s rematch is `new_game_id` once everyone accepted."""

    __tablename__ = "rematches"
    __table_args__ = (sa.UniqueConstraint("game_id", name="uq_rematches_game"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    asked_by: int  # the seat that asked
    seating: str = Field(max_length=10)  # kept | swapped | random
    order: list[int] = Field(default_factory=list, sa_type=sa.JSON)
    accepted: list[int] = Field(default_factory=list, sa_type=sa.JSON)
    created_at: datetime = Field(default_factory=utcnow)
    started_at: datetime | None = None  # the claim while the new game is being created
    new_game_id: int | None = Field(default=None, foreign_key="games.id")


class Rating(SQLModel, table=True):
    """One person's rating in one game and mode (openskill's Plackett-Luce: `mu`, `sigma`); `ordinal`
    (mu - 3 sigma) is what the leaderboard sorts by.  `person` is the address key: never shown."""

    __tablename__ = "ratings"
    __table_args__ = (sa.Index("ix_ratings_board", "game", "mode", "ordinal"),)

    person: str = Field(max_length=254, primary_key=True)
    game: str = Field(max_length=40, primary_key=True)
    mode: str = Field(max_length=20, primary_key=True)
    mu: float
    sigma: float
    ordinal: float
    games: int = 0
    updated_at: datetime = Field(default_factory=utcnow)


class RatedGame(SQLModel, table=True):
    """A finished game judged for ratings, once (its row is the idempotency key): `reason` "" when it was
    rated, else why not ("cooperative", "solo", "bot"); `changes` each seat's display rating before and
    after (seat -> [before, after])."""

    __tablename__ = "rated_games"

    game_id: int = Field(foreign_key="games.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    reason: str = Field(default="", max_length=20)
    changes: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    rated_at: datetime = Field(default_factory=utcnow)


# ---- i18n: a person's language (issue #26) ----


class PersonLanguage(SQLModel, table=True):
    """The language a person reads Riftpost in (their address key; service/lang.py LANGUAGES): their
    pages and, as the emails learn it, every email to them.  No row: never chosen (pages follow the
    browser's Accept-Language).  A table of its own: the person row is everyone's."""

    __tablename__ = "person_languages"

    person: str = Field(max_length=254, primary_key=True)
    language: str = Field(max_length=16)
    changed_at: datetime = Field(default_factory=utcnow)


# ---- bots: handing a dropped seat over for good (service/play/handover.py) ----------------------------


class SeatVote(SQLModel, table=True):
    """One remaining player's vote to hand a seat that timed out twice over for good: to a bot
    ("bot") or to a new person ("person", with the address they named).  One row per voter and seat;
    a new vote replaces the voter's last.  Deleted when a handover of the seat passes or ends."""

    __tablename__ = "seat_votes"
    __table_args__ = (sa.UniqueConstraint("game_id", "seat", "voter", name="uq_seat_votes_voter"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    seat: int  # the seat to hand over
    voter: int  # the seat that votes
    target: str = Field(max_length=10)  # bot | person
    address: str = Field(default="", max_length=254)  # the new person's, as typed (normalized); "" for a bot
    name: str = Field(default="", max_length=80)  # the new person's name, as typed (checked)
    created_at: datetime = Field(default_factory=utcnow)


class SeatHandover(SQLModel, table=True):
    """A handover that passed: to a bot (done at once) or to a new person (an invitation, done when
    they accept).  `after_seq`: the game's seq when it was done, so only later timeouts count against
    the seat's new holder; `former_key`: the row key the seat's links carried before (an old link
    is then told the seat was handed over, rather than "no game here")."""

    __tablename__ = "seat_handovers"
    __table_args__ = (sa.Index("ix_seat_handovers_game_seat", "game_id", "seat"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    seat: int
    player_id: int = Field(foreign_key="players.id")
    target: str = Field(max_length=10)  # bot | person
    address: str = Field(default="", max_length=254)
    name: str = Field(default="", max_length=80)
    inviter: str = Field(default="", max_length=254)  # the key of the voter who named the address first
    invitation_id: int | None = Field(default=None, foreign_key="invitations.id")
    status: str = Field(max_length=10)  # invited | declined | done
    after_seq: int | None = None  # set when done
    former_key: str | None = Field(default=None, max_length=16)
    created_at: datetime = Field(default_factory=utcnow)
    done_at: datetime | None = None


# ---- lobby2: rematches closed by a "No thanks" (service/play/rematch.py) ------------------------------


class RematchClosure(SQLModel, table=True):
    """A rematch one of its players declined ("No thanks"): its `rematches` row is deleted (a later
    "Play again" asks anew, as a new row) and this row says what was asked and who said no, for the
    finished game's pages and the notice emailed to the others."""

    __tablename__ = "rematch_closures"
    __table_args__ = (sa.Index("ix_rematch_closures_game", "game_id"),)

    id: int = Field(default=None, primary_key=True)  # set by the database on insert
    game_id: int = Field(foreign_key="games.id")
    asked_by: int  # the seat that had asked
    declined_by: int  # the seat that said no
    seating: str = Field(max_length=10)  # kept | swapped | random, as asked
    closed_at: datetime = Field(default_factory=utcnow)
