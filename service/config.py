"""Configuration: the environment variables of DESIGN.md, with embedded defaults under `instance/`.

Every process (web, worker, mail sink, CLI) reads the same variables, so one Procfile serves the
embedded default and production alike.  Nothing here needs a server: SQLite for the database and
kombu's SQLAlchemy transport on a SQLite file for the broker.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import time
from pathlib import Path
from urllib.parse import urlsplit

# The local mail sink (Procfile `mail`) listens here in the embedded mode: SMTP_URL unset, or set to
# exactly this address (README's documented default must behave as the default).
MAIL_SINK_HOST = "127.0.0.1"
MAIL_SINK_PORT = 8025
MAIL_SINK_URL = f"smtp://{MAIL_SINK_HOST}:{MAIL_SINK_PORT}"
# ...and takes mail *for* the service (replies to play+ addresses, bounces) on this port of its own: the
# door of service/inbound, which refuses every other recipient (INBOUND_SMTP_PORT; 0: not at all).
MAIL_SINK_INBOUND_PORT = 8026
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
ANY_ADDRESS = frozenset({"", "0.0.0.0", "::"})


def default_instance_path() -> Path:
    """`instance/` beside the package, i.e. at the repository root in a checkout/editable install."""
    override = os.environ.get("RIFTPOST_INSTANCE")
    if override:
        return Path(override).resolve()
    return Path(__file__).resolve().parent.parent / "instance"


def _secret_key(instance: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in instance/secret_key.

    Several processes may start at once under honcho, so the file is created exclusively and a
    loser of that race reads the winner's key.
    """
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # the winner may not have written yet
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.02)
        raise RuntimeError(f"{path} is empty") from None
    with os.fdopen(fd, "w") as handle:
        key = secrets.token_urlsafe(48)
        handle.write(key)
    return key


def is_local_sink(url: str | None, host: str = MAIL_SINK_HOST, port: int = MAIL_SINK_PORT) -> bool:
    """Whether SMTP_URL means the local sink at `host:port`: unset, or plain `smtp://` (no login, no
    TLS) to that port on that host (any loopback name when the sink listens on loopback or on every
    address).  Then the sink runs and the dev mailbox shows its mail; anything else is a real server."""
    if not url:
        return True
    parts = urlsplit(url)
    try:
        url_port = parts.port or 25
    except ValueError:  # a port that is not a number: not the sink (smtp_address says why)
        return False
    url_host = (parts.hostname or "").lower()
    host = host.lower()
    same_host = url_host == host or (url_host in LOOPBACK and (host in LOOPBACK or host in ANY_ADDRESS))
    return parts.scheme == "smtp" and not parts.username and same_host and url_port == port


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def _yes(name: str, default: bool) -> bool:
    """An on/off setting from the environment: 1/true/yes/on or 0/false/no/off; unset or empty: `default`."""
    value = os.environ.get(name)
    if not value:
        return default
    if value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if value.strip().lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be on or off, not {value!r}")


def mail_domain(mail_from: str | None) -> str:
    """The domain of MAIL_FROM: Message-IDs, List-Id and the bounce address use it, so in its ASCII
    (IDNA) form: an internationalized domain there would need SMTPUTF8 of every server."""
    domain = (mail_from or "riftpost@localhost").rpartition("@")[2] or "localhost"
    try:
        return domain.encode("idna").decode("ascii")
    except UnicodeError:  # not a valid domain name: left as given (the SMTP server will say so)
        return domain


def bounce_address(value: str | None, mail_domain: str, smtp_url: str | None = None) -> str:
    """BOUNCE_ADDRESS as used: unset means `bounces@<MAIL_DOMAIN>`, a bare local part gets that
    domain, and "off" (or "none") is "" (no return path of our own: the envelope sender is MAIL_FROM,
    as before bounces were read).  Unset with an SMTP_URL that logs in means "off": submission servers
    (SES, Gmail, most providers) refuse an envelope sender the account does not own, and every email
    would fail; such a deployment sets BOUNCE_ADDRESS to an address its server lets it use."""
    value = (value or "").strip()
    if value.lower() in ("off", "none"):
        return ""
    if not value:
        return "" if smtp_url and urlsplit(smtp_url).username else f"bounces@{mail_domain}"
    return value if "@" in value else f"{value}@{mail_domain}"


def inbound_domain(value: str | None, mail_domain: str) -> str:
    """INBOUND_DOMAIN as used: unset means MAIL_DOMAIN (the embedded sink's), "off" (or "none") is ""
    (no Reply-To on any email, no reply read); in its ASCII (IDNA) form, lower case."""
    value = (value or "").strip().lower().rstrip(".")
    if value in ("off", "none"):
        return ""
    if not value:
        return mail_domain.lower()
    try:
        return value.encode("idna").decode("ascii")
    except UnicodeError:
        raise ValueError(f"INBOUND_DOMAIN must be a domain name, not {value!r}") from None


# SQLite's `PRAGMA synchronous` under WAL (README, "Configuration"): NORMAL, the default, may lose the
# last commits to a power cut or an OS crash (never corrupting the file); FULL syncs every commit.
SQLITE_SYNCHRONOUS = ("NORMAL", "FULL")


def sqlite_synchronous(value: str | None) -> str:
    """SQLITE_SYNCHRONOUS as used: unset means NORMAL; anything but NORMAL or FULL (any case) is refused
    here, at start, rather than left to SQLite (which would quietly take other levels, OFF included)."""
    chosen = (value or "NORMAL").strip().upper()
    if chosen not in SQLITE_SYNCHRONOUS:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be NORMAL or FULL (see README.md), not {value!r}")
    return chosen


def from_env(instance: Path | None = None) -> dict:
    """The settings as a dict of Flask config keys."""
    instance = instance or default_instance_path()
    instance.mkdir(parents=True, exist_ok=True)
    smtp_url = os.environ.get("SMTP_URL") or ""
    mail_from = os.environ.get("MAIL_FROM") or "riftpost@localhost"
    domain = mail_domain(mail_from)
    broker = os.environ.get("CELERY_BROKER_URL") or f"sqla+sqlite:///{instance / 'broker.sqlite'}"
    # Publishing to the embedded SQLite broker costs ~4 ms of CPU and a synced commit per message, more
    # than a whole move: there the web publishes nothing and beat's outbox scan runs every 2 s instead
    # (the outbox is the queue; the kick only shortens the wait).  A Redis publish costs ~0.7 ms of CPU,
    # off the request's path.
    embedded_broker = broker.startswith("sqla+")
    return {
        "INSTANCE_PATH": str(instance),
        "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'app.sqlite'}",
        "SQLITE_SYNCHRONOUS": sqlite_synchronous(os.environ.get("SQLITE_SYNCHRONOUS")),
        "CELERY_BROKER_URL": broker,
        # SMTP_URL unset (or set to the sink's own address) means "embedded mode": mail goes to the
        # Procfile's local sink and the dev mailbox page shows it.  With SMTP_URL naming another
        # server that page does not exist at all.
        "SMTP_URL": smtp_url or MAIL_SINK_URL,
        "DEV_MAILBOX": is_local_sink(smtp_url),
        "MAILDIR": str(instance / "mail"),
        # The worker keeps its SMTP connection for the next email; one unused this long is not trusted
        # (servers drop idle clients) but closed, and a new one opened (service/mail/smtp.py).
        "SMTP_IDLE_SECONDS": float(os.environ.get("SMTP_IDLE_SECONDS") or 60),
        "BASE_URL": (os.environ.get("BASE_URL") or "http://127.0.0.1:5000").rstrip("/"),
        "SECRET_KEY": _secret_key(instance),
        # Older keys still verify links and sessions after a rotation (newest is SECRET_KEY).
        "SECRET_KEY_FALLBACKS": _split(os.environ.get("SECRET_KEY_FALLBACKS")),
        "MAIL_FROM": mail_from,
        "MAIL_DOMAIN": domain,
        # The envelope sender of every email is `<local>+<signed outbox row>@<domain>` of this
        # address (VERP), so a bounce names the email it is about (service/mail/bounces.py).
        "BOUNCE_ADDRESS": bounce_address(os.environ.get("BOUNCE_ADDRESS"), domain, smtp_url),
        # Replies by email (service/inbound): every game email's Reply-To is `play+<signed token>@` this
        # domain ("off": no Reply-To, and no reply is read).  Mail for it reaches the service through
        # the embedded sink's inbound port or `flask inbound` on an MTA's pipe (README).
        "INBOUND_DOMAIN": inbound_domain(os.environ.get("INBOUND_DOMAIN"), domain),
        # Refuse a reply whose Authentication-Results (from our own MTA: INBOUND_AUTHSERV_ID names it)
        # does not say dmarc=pass.  Off by default: the signed reply address is the proof, as a link is.
        "INBOUND_REQUIRE_DMARC": _yes("INBOUND_REQUIRE_DMARC", False),
        "INBOUND_AUTHSERV_ID": (os.environ.get("INBOUND_AUTHSERV_ID") or "").strip(),
        # Replies read per seat per hour; past it they are kept and ignored (a loop with an autoresponder).
        "INBOUND_REPLIES_PER_HOUR": int(os.environ.get("INBOUND_REPLIES_PER_HOUR") or 20),
        # Snapshot every N events (and at every change of the seats to act).
        "SNAPSHOT_EVERY": int(os.environ.get("RIFTPOST_SNAPSHOT_EVERY") or 25),
        # Links: a player's page link lives as long as a slow game; a move link a few weeks.
        "PLAYER_LINK_MAX_AGE": 365 * 24 * 3600,
        "MOVE_LINK_MAX_AGE": 60 * 24 * 3600,
        # The account link (vacation, never-email) stands for the address itself: one hour.
        "ACCOUNT_LINK_MAX_AGE": 3600,
        # After a commit the web nudges the worker; the beat scan is what guarantees delivery.
        "OUTBOX_KICK": _yes("RIFTPOST_OUTBOX_KICK", not embedded_broker),
        "OUTBOX_DISPATCH_SECONDS": float(os.environ.get("RIFTPOST_DISPATCH_SECONDS") or (2 if embedded_broker else 30)),
        # The one retry policy of the outbox (service/mail/outbox.py): after a transient failure the
        # next attempt waits BASE, then twice that, and so on up to CAP; the row fails for good (and is
        # shown to the operator and on the player's page) only once GIVE_UP hours passed since it was
        # queued, long enough for an SMTP outage over a weekend.  The RIFTPOST_ knobs let the drills in
        # tests/worker run an outage in seconds.
        "OUTBOX_RETRY_BASE_SECONDS": float(os.environ.get("RIFTPOST_OUTBOX_RETRY_BASE") or 30),
        "OUTBOX_RETRY_CAP_SECONDS": float(os.environ.get("RIFTPOST_OUTBOX_RETRY_CAP") or 1800),
        "OUTBOX_GIVE_UP_HOURS": float(os.environ.get("OUTBOX_GIVE_UP_HOURS") or 72),
        # A row left "sending" this long belonged to a worker that died mid-send and is claimed again.
        "OUTBOX_LEASE_SECONDS": float(os.environ.get("RIFTPOST_OUTBOX_LEASE") or 60),
        # The player's page says "we could not reach you" once a row has failed for good, or has been
        # retrying this long.
        "OUTBOX_NOTICE_AFTER_SECONDS": 3600,
        # Beat's deadline sweep (reminders, timeouts, ends still due); shorter only in drills.
        "DEADLINE_SWEEP_SECONDS": float(os.environ.get("RIFTPOST_SWEEP_SECONDS") or 60),
        # Beat's look for daily digests due (service/people/digests.py): each goes out within this much
        # of the person's chosen hour.
        "NOTIFY_DIGEST_SECONDS": float(os.environ.get("RIFTPOST_DIGEST_SECONDS") or 300),
        # `flask backup` (and every db-upgrade that changes a SQLite database) writes dated copies
        # here and keeps the newest N.
        "BACKUP_DIR": os.environ.get("RIFTPOST_BACKUP_DIR") or str(instance / "backups"),
        "BACKUP_KEEP": int(os.environ.get("RIFTPOST_BACKUP_KEEP") or 10),
        # Rate limits (Flask-Limiter, service/web/limits.py).  Its counters live in this storage: the
        # process's memory by default (the embedded mode's one web process); with several web
        # processes (WEB_CONCURRENCY) or machines point it at Redis (redis://host:6379/2), or each
        # process counts alone.
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URL") or "memory://",
        # New games from one client (IP address): the public form emails the addresses typed into it.
        "RATELIMIT_NEW_GAMES": os.environ.get("RATELIMIT_NEW_GAMES") or "5 per minute;20 per hour;50 per day",
        # The sign-in form (service/web/signin.py) emails the address typed: per client, and per address
        # typed (counted alike whether or not the address is known here, so a 429 tells nothing).
        "RATELIMIT_SIGNIN": os.environ.get("RATELIMIT_SIGNIN") or "5 per minute;20 per hour;50 per day",
        "RATELIMIT_SIGNIN_ADDRESS": os.environ.get("RATELIMIT_SIGNIN_ADDRESS") or "3 per 15 minutes;10 per day",
        # Codes typed per client: with 5 wrong codes per request and a new request paced as above, a
        # 6-digit code is not guessed.
        "RATELIMIT_SIGNIN_CODE": os.environ.get("RATELIMIT_SIGNIN_CODE") or "10 per minute;30 per hour",
        # Games one address (+tags included) may be named in per day by inviters it has not accepted,
        # whoever they are, invitation sent or not (service/play/consent.py).
        "INVITATIONS_PER_ADDRESS_PER_DAY": int(os.environ.get("INVITATIONS_PER_ADDRESS_PER_DAY") or 3),
        # Of those, the games from inviters it never played with nor accepted, whether it has played
        # here or not.
        "NEW_INVITERS_PER_ADDRESS_PER_DAY": int(os.environ.get("NEW_INVITERS_PER_ADDRESS_PER_DAY") or 3),
        # The lobby (service/play/lobby.py): an open game nobody filled expires after this many days, and
        # everyone who joined it is told.  Joining by address emails that address one confirmation: per
        # client, and per address typed (counted alike whether or not the address is known here).
        "LOBBY_EXPIRY_DAYS": float(os.environ.get("LOBBY_EXPIRY_DAYS") or 7),
        # A seat taken by typing an address is held this long for its confirmation, then freed.
        "LOBBY_HOLD_HOURS": float(os.environ.get("LOBBY_HOLD_HOURS") or 24),
        "RATELIMIT_LOBBY_JOIN": os.environ.get("RATELIMIT_LOBBY_JOIN") or "5 per minute;20 per hour;50 per day",
        "RATELIMIT_LOBBY_JOIN_ADDRESS": os.environ.get("RATELIMIT_LOBBY_JOIN_ADDRESS") or "3 per 15 minutes;10 per day",
        # Ratings (service/play/ratings.py): the leaderboard lists people with at least this many rated games.
        "RATING_MIN_GAMES": int(os.environ.get("RATING_MIN_GAMES") or 3),
        # Proxies in front of the web process that append X-Forwarded-For (0: none; the client's
        # address is the connection's).  Only trusted hops: a client can forge the header itself.
        "PROXY_HOPS": int(os.environ.get("PROXY_HOPS") or 0),
        # Webhooks (service/mail/webhooks.py) never go to a private, loopback, link-local or otherwise
        # non-public address, except into these networks (comma-separated CIDRs; empty by default): an
        # operator whose players' receivers live on an internal network allows it here.
        "WEBHOOK_ALLOW_NETWORKS": networks(os.environ.get("WEBHOOK_ALLOW_NETWORKS")),
    }


def networks(value: str | None) -> list[str]:
    """WEBHOOK_ALLOW_NETWORKS as used: each CIDR checked at start (a typo must not silently allow
    nothing, or everything) and written in its normal form."""
    found = []
    for part in _split(value):
        try:
            found.append(str(ipaddress.ip_network(part, strict=False)))
        except ValueError:
            raise ValueError(f"WEBHOOK_ALLOW_NETWORKS: {part!r} is not a network like 10.0.0.0/8") from None
    return found


def smtp_address(url: str) -> tuple[str, int, str | None, str | None, bool]:
    """(host, port, user, password, starttls) from `smtp://user:pw@host:port` (smtps:// = TLS)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps", "smtp+starttls"):
        raise ValueError(f"SMTP_URL must be smtp://host:port, not {url!r}")
    return (
        parts.hostname or "127.0.0.1",
        parts.port or (465 if parts.scheme == "smtps" else 25),
        parts.username,
        parts.password,
        parts.scheme == "smtp+starttls",
    )
