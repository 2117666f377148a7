"""`flask --app service ...` commands: db-upgrade, new-game and sweep."""

from __future__ import annotations

import click
from flask import Flask, current_app

import engine
from service.gameform import EMAIL, beyond_shorthands, parse_options, riftforce_shorthands


def register_commands(app: Flask) -> None:
    @app.cli.command("db-upgrade")
    def db_upgrade():
        """Create or upgrade the database schema (Alembic migrations shipped in service/)."""
        from service.migrate import upgrade

        upgrade(current_app.config["DATABASE_URL"])
        click.echo("database is at the latest schema")

    @app.cli.command("new-game")
    @click.argument("game")
    @click.argument("emails", nargs=-1, required=True)
    @click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option")
    @click.option("--seed", type=int, default=None, help="the game's random seed")
    @click.option("--deadline", "deadline", default=None, metavar="HOURS",
                  help="time control: each turn must be played within HOURS (default: no deadline)")
    @click.option("--policy", default="auto", show_default=True,
                  type=click.Choice(["auto", "skip", "forfeit", "pause"]),
                  help="what happens when a deadline passes")
    @click.option("--reminders", default="24,2", show_default=True, metavar="H,H",
                  help="reminder emails, in hours before the deadline")
    def new_game_command(game, emails, options, seed, deadline, policy, reminders):
        """Create a GAME for the players at EMAILS (in seat order), queue their invitations and
        print the game's id.  An address may be given as NAME=EMAIL.

        Options are KEY=VALUE; JSON numbers, objects and arrays are understood, and a dotted key
        fills an object.  Riftforce: --option mode=team (3-4 addresses; seats 1 and 3 are one
        team, 2 and 4 the other), --option mode=solo (1 address) with --option stars.5=2
        --option stars.6=1 --option stars.7=1 --option and.number=6 --option and.end=A
        --option trainer_guilds=fire,water,ice,plant (or random).  Beyond the Rift: --option
        scenario=tutorial (or old-friends-1; later parts start from the won game's page) and
        --option heroes=brannoc,osric (one per address, in seat order)."""
        from service import deadlines
        from service.moves import new_game

        try:
            hours, policy, ladder = deadlines.parse_settings(deadline, policy, reminders)
        except deadlines.DeadlineError as exc:
            raise click.BadParameter(str(exc), param_hint="--deadline/--reminders")
        players = []
        for item in emails:
            name, sep, email = item.rpartition("=")
            email = email.strip()
            if not EMAIL.match(email):
                raise click.BadParameter(f"{item!r} is not an email address", param_hint="EMAIL")
            players.append((name.strip() if sep else "", email))
        parsed, errors = parse_options(list(options))
        if errors:
            raise click.BadParameter(" ".join(errors), param_hint="--option")
        if game == "riftforce":
            parsed = riftforce_shorthands(parsed)
        if game == "beyond-the-rift":
            parsed = beyond_shorthands(parsed)
        try:
            game_id = new_game(game, players, parsed, seed, deadline_hours=hours, policy=policy, reminders=ladder)
        except engine.UnknownGame as exc:
            raise click.BadParameter(f"{exc} (known: {', '.join(engine.names())})", param_hint="GAME")
        except engine.IllegalMove as exc:
            raise click.ClickException(exc.reason)
        click.echo(game_id)

    @app.cli.command("sweep")
    @click.option("--now", "when", default=None, metavar="ISO8601",
                  help="sweep as of this time (default: now); a time without a zone is UTC")
    def sweep_command(when):
        """Run the deadline sweep exactly as celery beat does: reminders, timeouts, vacations that
        ran out, game ends still to record.  Idempotent; safe beside a running beat."""
        from datetime import datetime, timezone

        from service import deadlines
        from service.models import utcnow

        if when is None:
            moment = utcnow()
        else:
            try:
                moment = datetime.fromisoformat(when)
            except ValueError:
                raise click.BadParameter(f"{when!r} is not an ISO 8601 time", param_hint="--now")
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)
        counts = deadlines.sweep(moment)
        click.echo(f"swept as of {moment.isoformat()}: " + (
            ", ".join(f"{key} {value}" for key, value in sorted(counts.items()) if value) or "nothing was due"))
