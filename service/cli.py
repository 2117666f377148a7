"""`flask --app service ...` commands: db-upgrade, backup, restore, verify (and a game's deal check),
new-game, sweep, outbox, bounce and bounce-server, inbound (one received message on stdin), inbound-log
and inbound-retry."""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import Flask, current_app
from sqlmodel import col, select

import engine
from service import backup
from service.clocks.settings import parse_settings
from service.errors import Invalid, TooMany
from service.games import adapter, every
from service.mail import bounces, outbox
from service.play import new_game
from service.play.startform import parse_options, parse_players
from service.play.timeouts import sweep
from service.store import deal, get_engine, read_session
from service.store.check import problems, replay_deal
from service.store.models import Game, utcnow
from service.store.rows import MAX_ID
from service.talk import reports

# sysexits.h EX_TEMPFAIL: an MTA's pipe delivery keeps the message and tries again later.
EX_TEMPFAIL = 75

NEW_GAME_HELP = """Create a GAME for the players at EMAILS (in seat order), queue their invitations and
print the game's id.  An address may be given as NAME=EMAIL.

Options are KEY=VALUE; JSON numbers, objects and arrays are understood, and a dotted key
fills an object."""


class NewGameCommand(click.Command):
    """Its help names each game's options (from the games' adapters), read only when asked for, so
    starting the app does not load every engine."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.help = "\n\n".join([NEW_GAME_HELP, *(a.cli_help for a in every() if a.cli_help)])
        super().format_help_text(ctx, formatter)


def register(app: Flask) -> None:
    @app.cli.command("db-upgrade")
    def db_upgrade() -> None:
        """Create or upgrade the database schema (Alembic migrations shipped in service/).  A SQLite
        database with tables is backed up first when a migration is to run (`flask backup`)."""
        # Alembic (with Mako and Pygments, ~11 MB) only for the commands that migrate: every process
        # creates the app, and so registers these commands, but only these commands need it.
        from service.migrate import current, heads, upgrade

        url = current_app.config["DATABASE_URL"]
        at = current(url)
        if at and at != heads():  # a database with our tables that a migration is about to change
            if backup.sqlite_path(url) is None:
                click.echo(f"not backed up here: take a pg_dump before upgrading ({backup.README_SECTION})")
            else:
                # A migration rewrites tables (SQLite's batch ALTERs copy them): keep the database as
                # it was, so a failed or regretted upgrade can be undone with `flask restore`.
                click.echo(f"backed up before upgrading: {_backup(url)}")
        upgrade(url)
        click.echo("database is at the latest schema")

    def _backup(url: str, to: str | None = None, prune: bool = True) -> str:
        keep = current_app.config["BACKUP_KEEP"] if prune else None
        try:
            made = backup.backup(url, Path(to or current_app.config["BACKUP_DIR"]), keep)
        except backup.CannotBackUp as exc:
            raise click.ClickException(str(exc)) from None
        if keep is None:
            kept = "no older one removed"
        else:
            kept = f"the last {keep} are kept" + (f", removed {len(made.removed)} older" if made.removed else "")
        return f"{made.path} ({_size(made.size)} in {made.seconds:.1f} s; {kept})"

    @app.cli.command("backup")
    @click.option("--to", "to", default=None, metavar="DIR",
                  help="the folder for the backups (default: BACKUP_DIR, instance/backups)")
    def backup_command(to: str | None) -> None:
        """Copy the SQLite database to a dated file, consistently while the web and the worker write
        (SQLite's online backup API), and keep the newest RIFTPOST_BACKUP_KEEP (default 10).
        PostgreSQL: pg_dump (README, "Backups")."""
        click.echo(f"backup written: {_backup(current_app.config['DATABASE_URL'], to)}")

    @app.cli.command("restore")
    @click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
    def restore_command(file: Path) -> None:
        """Put the SQLite backup FILE back as the database, after backing up the database as it is.
        Stop the web, the worker and beat first (README, "Backups"), then run db-upgrade."""
        from service.migrate import revisions  # Alembic only here (see db-upgrade)

        url = current_app.config["DATABASE_URL"]

        def keep_the_database() -> None:
            # Nothing removed: the oldest backup may be the very FILE being restored.
            if backup.has_tables(url):
                click.echo(f"the database as it was: {_backup(url, prune=False)}")

        try:
            backup.restore(url, file, revisions(), before=keep_the_database)
        except backup.CannotBackUp as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"restored {file}; now run `flask --app service db-upgrade`, then start the services")

    @app.cli.command("verify")
    @click.option("--game", "game_id", type=int, default=None, metavar="N",
                  help="check game N only, and replay its deal: every random outcome from its secret")
    @click.option("--record", "record", default=None, type=click.Path(dir_okay=False, path_type=Path),
                  metavar="FILE", help="replay the deal of a downloaded complete game record (no database needed)")
    def verify_command(game_id: int | None, record: Path | None) -> None:
        """Check every game: its replay from event 1 equals its stored state, its read model (status,
        seats to act, result, seq) agrees and its secret's SHA-256 is its commitment.  Run it after a
        restore; exits 1 on any problem.  With --game N or --record FILE: also replay that game's deal
        from its secret (service/store/deal.py) and say whether it gives the stored log."""
        if record is not None and game_id is not None:
            raise click.UsageError("give --game or --record, not both")
        if record is not None:
            _verify_record(record)
            return
        if game_id is not None:
            _verify_game(game_id)
            return
        found, count = [], 0
        with read_session(get_engine()) as session:
            for game in session.exec(select(Game).order_by(col(Game.id))):
                count += 1
                found += problems(session, game)
        for line in found:
            click.echo(line, err=True)
        if found:
            raise click.ClickException(f"{len(found)} problems in {count} games")
        click.echo(f"{count} games verified: each replays from event 1 to its stored state")

    def _verify_game(game_id: int) -> None:
        with read_session(get_engine()) as session:
            game = session.get(Game, game_id) if 0 < game_id < MAX_ID else None
            if game is None:
                raise click.ClickException(f"there is no game {game_id}")
            found = problems(session, game)
            replayed = replay_deal(session, game) if not found else None
            label = f"game {game.id} ({game.name}, {game.status}, {game.seq} events)"
            name, secret, commitment, version = game.name, game.secret, game.commitment, game.rules_version
            # The secret is printed only once the game is over, as its pages show it.
            shown = game.secret if game.status == "finished" else None
        for line in found:
            click.echo(line, err=True)
        if replayed is None:
            raise click.ClickException(f"{label}: its stored records disagree; its deal was not replayed")
        _deal_verdict(label, secret, commitment, shown, replayed, engine.get(name).rules_version != version)

    def _verify_record(path: Path) -> None:
        try:
            found = deal.read_record(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, ValueError) as exc:
            raise click.ClickException(f"{path}: {exc}") from None
        try:
            rules = engine.get(found.name)
        except engine.UnknownGame as exc:
            raise click.ClickException(f"{path}: {exc}") from None
        label = f"game {found.game_id} ({found.name}, from {path.name}, {len(found.rows)} events)"
        replayed = deal.replay_problems(rules, found.secret, found.players, found.options, found.rows)
        _deal_verdict(label, found.secret, found.commitment, found.secret, replayed,
                      found.rules_version != rules.rules_version)
        click.echo("Compare that commitment with the one the game's pages and first email showed when it started.")

    def _deal_verdict(label: str, secret: str, commitment: str | None, shown: str | None,
                      replayed: deal.Replayed, older_rules: bool) -> None:
        if shown is not None:
            click.echo(f"{label}: secret {shown}")
        if not deal.drawn(secret):
            click.echo(f"{label}: dealt from a seed (a game from before commitments, or one whose seed the operator "
                       "chose): its deal can be replayed, but nothing shows it was not chosen")
        bad = []
        if commitment is None:
            click.echo(f"{label}: no commitment to compare (a record from before commitments)")
        elif deal.commit(secret) == commitment:
            click.echo(f"{label}: the secret's SHA-256 is its commitment, sha256:{commitment}")
        else:
            bad.append(f"{label}: the secret's SHA-256 is sha256:{deal.commit(secret)}, not the commitment "
                       f"sha256:{commitment}")
        if replayed.problems:
            bad += [f"{label}: {problem}" for problem in replayed.problems]
            if older_rules:
                bad.append(f"{label}: the game was set up under an older rules version than this engine's, "
                           "which may draw differently")
        else:
            click.echo(f"{label}: the secret deals the setup (events 1 to {replayed.setup}) and gives the random "
                       f"draws of all {replayed.moves} moves after it, as stored")
        for line in bad:
            click.echo(line, err=True)
        if bad:
            raise click.ClickException(f"{label}: the deal does NOT check out")
        click.echo(f"{label}: the deal checks out")

    @app.cli.command("new-game", cls=NewGameCommand, help=NEW_GAME_HELP)
    @click.argument("game")
    @click.argument("emails", nargs=-1, required=True)
    @click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option")
    @click.option("--seed", type=int, default=None,
                  help="deal from this seed (0 to 2**63-1), for tests and reproductions: a chosen deal, "
                       "known to whoever chose it (default: a secret drawn for the game)")
    @click.option("--deadline", "deadline", default=None, metavar="HOURS",
                  help="time control: each turn must be played within HOURS (default: no deadline)")
    @click.option("--policy", default="auto", show_default=True,
                  type=click.Choice(["auto", "skip", "forfeit", "pause", "bot"]),
                  help="what happens when a deadline passes")
    @click.option("--reminders", default="24,2", show_default=True, metavar="H,H",
                  help="reminder emails, in hours before the deadline")
    def new_game_command(game: str, emails: tuple[str, ...], options: tuple[str, ...], seed: int | None,
                         deadline: str | None, policy: str, reminders: str) -> None:
        try:
            hours, policy, ladder = parse_settings(deadline, policy, reminders)
        except Invalid as exc:
            raise click.BadParameter(exc.message, param_hint="--deadline/--reminders") from None
        try:
            players = parse_players(list(emails))
        except Invalid as exc:
            raise click.BadParameter(exc.message, param_hint="EMAIL") from None
        parsed, errors = parse_options(list(options))
        if errors:
            raise click.BadParameter(" ".join(errors), param_hint="--option")
        try:
            parsed = adapter(game).cli_options(parsed)
            game_id = new_game(game, players, parsed, seed, deadline_hours=hours, policy=policy, reminders=ladder)
        except engine.UnknownGame as exc:
            raise click.BadParameter(f"{exc} (known: {', '.join(engine.names())})", param_hint="GAME") from None
        except engine.IllegalMove as exc:
            raise click.ClickException(exc.reason) from None
        except TooMany as exc:  # an address has had its day's invitations
            raise click.ClickException(exc.message) from None
        click.echo(game_id)

    @app.cli.command("sweep")
    @click.option("--now", "when", default=None, metavar="ISO8601",
                  help="sweep as of this time (default: now); a time without a zone is UTC")
    def sweep_command(when: str | None) -> None:
        """Run the deadline sweep exactly as celery beat does: reminders, timeouts, vacations that
        ran out, game ends still to record.  Idempotent; safe beside a running beat."""
        if when is None:
            moment = utcnow()
        else:
            try:
                moment = datetime.fromisoformat(when)
            except ValueError:
                raise click.BadParameter(f"{when!r} is not an ISO 8601 time", param_hint="--now") from None
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
        counts = sweep(moment)
        click.echo(f"swept as of {moment.isoformat()}: " + (
            ", ".join(f"{key} {value}" for key, value in sorted(counts.items()) if value) or "nothing was due"))

    @app.cli.command("bounce")
    @click.option("--rcpt", default=None, metavar="ADDRESS",
                  help="the address the bounce was delivered to (default: $ORIGINAL_RECIPIENT, which "
                       "Postfix sets for a pipe; else the bounce's Delivered-To/X-Original-To/To headers)")
    def bounce_command(rcpt: str | None) -> None:
        """Read one bounce from standard input (an MTA's pipe alias for the bounce address) and record
        it.  Exits 0 when it was recorded or ignored (not a bounce, a forged or unknown return path:
        the log says which), 75 (EX_TEMPFAIL) when the database failed, so the MTA tries again."""
        logging.basicConfig(level=logging.INFO, format="%(asctime)s bounce %(message)s", stream=sys.stderr)
        raw = sys.stdin.buffer.read(bounces.MAX_BYTES)
        while sys.stdin.buffer.read(1 << 16):  # the rest (a quoted message) is not needed: drain it
            pass
        try:
            outcome = bounces.receive(raw, rcpt or os.environ.get("ORIGINAL_RECIPIENT"))
        except Exception as exc:  # noqa: BLE001 - anything here is the database: the MTA retries
            click.echo(f"bounce not recorded, try again later: {type(exc).__name__}: {exc}", err=True)
            sys.exit(EX_TEMPFAIL)
        click.echo(outcome)

    @app.cli.command("bounce-server")
    @click.option("--host", default="127.0.0.1", show_default=True, help="the address to listen on")
    @click.option("--port", type=int, default=2525, show_default=True, help="the port to listen on")
    def bounce_server_command(host: str, port: int) -> None:
        """Receive bounces over SMTP (aiosmtpd, the [inbound] extra): mail for the bounce address's
        return paths is read and recorded, any other recipient refused.  Point the MTA's route for
        the bounce address here.  Runs until SIGTERM or Ctrl-C."""
        try:
            from aiosmtpd.controller import Controller
        except ImportError:
            raise click.ClickException("bounce-server needs aiosmtpd: pip install 'riftpost[inbound]'") from None
        logging.basicConfig(level=logging.INFO, format="%(asctime)s bounce-server %(message)s")
        logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command
        app_now = current_app._get_current_object()  # type: ignore[attr-defined]
        receiver = bounces.Receiver(lambda: app_now)
        # A bounce quotes at most our own email: refuse anything far larger than MAX_BYTES.
        controller = Controller(bounces.Listener(receiver), hostname=host, port=port,
                                data_size_limit=bounces.MAX_BYTES)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        controller.start()
        click.echo(f"receiving bounces for {app_now.config['BOUNCE_ADDRESS'] or '(BOUNCE_ADDRESS is off)'} "
                   f"on {host}:{port}")
        stop.wait()
        controller.stop()

    @app.cli.command("inbound")
    @click.option("--rcpt", default=None, metavar="ADDRESS",
                  help="the address the message was delivered to (default: $ORIGINAL_RECIPIENT, which "
                       "Postfix sets for a pipe, else $RECIPIENT (Exim); else its Delivered-To/To headers)")
    @click.option("--sender", default=None, metavar="ADDRESS",
                  help="the envelope sender (default: $SENDER, which Postfix and Exim set for a pipe; "
                       "else its Return-Path header)")
    def inbound_command(rcpt: str | None, sender: str | None) -> None:
        """Receive one message on standard input (an MTA's pipe transport for the inbound domain and the
        bounce address): it is kept, then read as a reply (a move, a choice, table talk), a bounce, or
        refused.  Exits 0 once it is kept, whatever it said (`inbound-log` shows what became of it), 75
        (EX_TEMPFAIL) when it could not be kept, so the MTA tries again."""
        from service.inbound import door

        logging.basicConfig(level=logging.INFO, format="%(asctime)s inbound %(message)s", stream=sys.stderr)
        raw = sys.stdin.buffer.read(door.MAX_BYTES)
        size = len(raw)
        while chunk := sys.stdin.buffer.read(1 << 16):  # past the cap: counted, not kept
            size += len(chunk)
        rcpt = rcpt or os.environ.get("ORIGINAL_RECIPIENT") or os.environ.get("RECIPIENT") or None
        sender = sender if sender is not None else os.environ.get("SENDER")
        try:
            kept = door.keep(raw, rcpt, sender)
        except Exception as exc:  # noqa: BLE001 - the database: the MTA keeps the message and retries
            click.echo(f"message not kept, try again later: {type(exc).__name__}: {exc}", err=True)
            sys.exit(EX_TEMPFAIL)
        if size > len(raw):
            door.note_size(kept, size)
        click.echo(door.read_kept(kept))

    @app.cli.command("inbound-log")
    @click.option("--trouble", is_flag=True, help="only the messages that failed (or were never read to the end)")
    @click.option("--limit", type=int, default=30, show_default=True)
    @click.option("--show", "show_id", type=int, default=None, metavar="ID", help="one message: its details and raw text")
    def inbound_log_command(trouble: bool, limit: int, show_id: int | None) -> None:
        """The received messages (newest first): what each was and what became of it.  A failed one
        keeps its error and its bytes: `--show ID` prints them, `inbound-retry ID` reads it again."""
        from service.inbound import door

        if show_id is not None:
            row = door.get(show_id)
            if row is None:
                raise click.ClickException(f"no received message #{show_id}")
            click.echo(door.describe(row))
            return
        rows = door.listing(trouble, limit)
        if not rows:
            click.echo("no received messages" + (" in trouble" if trouble else ""))
            return
        for row in rows:
            click.echo(door.line(row))
        failed = sum(1 for row in rows if row.outcome in door.TROUBLE)
        if failed:
            click.echo(f"{plural(failed, 'message')} to look at: flask --app service inbound-log --show ID; "
                       "inbound-retry ID reads one again")

    @app.cli.command("inbound-retry")
    @click.argument("ids", nargs=-1, type=int, required=True)
    def inbound_retry_command(ids: tuple[int, ...]) -> None:
        """Read kept messages IDS again (after a failure): a move it held is still bound to the position
        its email was about, so one played meanwhile is answered as stale, never played twice."""
        from service.inbound import door

        for kept_id in ids:
            row = door.get(kept_id)
            if row is None:
                click.echo(f"#{kept_id}: no such message", err=True)
                continue
            if row.outcome not in door.TROUBLE:
                click.echo(f"#{kept_id}: {row.outcome}, not read again (only failed or unfinished ones are)", err=True)
                continue
            click.echo(door.read_kept(kept_id))

    @app.cli.command("reports")
    @click.option("--limit", default=200, show_default=True, help="how many, newest first")
    def reports_command(limit: int) -> None:
        """List the table-talk messages players reported (service/talk/reports.py), newest first."""
        with read_session(get_engine()) as session:
            found = reports.listing(session, limit)
        click.echo("\n".join(report.line() for report in found) if found else "no reported messages")

    @app.cli.group("outbox", invoke_without_command=True)
    @click.pass_context
    def outbox_command(ctx: click.Context) -> None:
        """List the emails that need an operator: failed ones (refused, or retried until the give-up
        horizon), stuck ones (pending long past their next attempt: is beat running?; sending past
        the lease: a dead worker's), and ones retrying for over an hour.  `outbox requeue` sends
        them again."""
        if ctx.invoked_subcommand is None:
            click.echo(problems_table(outbox.problems(), utcnow()))

    @outbox_command.command("requeue")
    @click.argument("ids", nargs=-1, type=int)
    @click.option("--failed", "every_failed", is_flag=True, help="every failed email")
    def requeue_command(ids: tuple[int, ...], every_failed: bool) -> None:
        """Send the emails IDS (as `flask outbox` lists them) again, and with --failed every failed
        one: each is due now, with its attempts and its give-up horizon starting afresh."""
        if not ids and not every_failed:
            raise click.UsageError("name the emails to send again (their ids), or give --failed for all failed ones")
        done, refused = outbox.requeue(list(ids), every_failed)
        if done:
            click.echo(f"re-queued {plural(len(done), 'email')}: " + ", ".join(f"#{row_id}" for row_id in done))
        else:
            click.echo("nothing was re-queued")
        for row_id, why in refused.items():
            click.echo(f"#{row_id} not re-queued: {why}", err=True)
        if refused:
            raise click.exceptions.Exit(1)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def age(moment: datetime, now: datetime) -> str:
    """How long ago, in the two largest units ("2d 3h", "4h 10m", "5m", "40s")."""
    seconds = max(0, int((now - moment).total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{minutes}m" if minutes else f"{seconds}s"


def problems_table(found: list[outbox.Problem], now: datetime) -> str:
    """The rows as an aligned table, each row's last error on the line under it."""
    if not found:
        return "no failed or stuck emails"
    counts: dict[str, int] = {}
    for problem in found:
        counts[problem.state] = counts.get(problem.state, 0) + 1
    lines = [f"{plural(len(found), 'email')} to look at ("
             + ", ".join(f"{state} {count}" for state, count in sorted(counts.items())) + "):"]
    header = ("id", "game", "kind", "to", "attempts", "age", "state")
    cells = [header] + [(f"#{p.id}", f"#{p.game_id}", p.kind, p.address, str(p.attempts), age(p.created_at, now),
                         p.state) for p in found]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    for index, row in enumerate(cells):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
        if index and found[index - 1].last_error:
            lines.append(f"    last error: {found[index - 1].last_error}")
    lines.append("send them again: flask --app service outbox requeue ID... (or --failed)")
    return "\n".join(lines)

def _size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    value = size / 1024
    for unit in ("KB", "MB"):
        if value < 1024:
            return f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"
