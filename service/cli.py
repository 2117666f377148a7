"""`flask --app service ...` commands: db-upgrade, new-game and sweep."""

from __future__ import annotations

from datetime import UTC, datetime

import click
from flask import Flask, current_app

import engine
from service.clocks.settings import parse_settings
from service.errors import Invalid, TooMany
from service.games import adapter, every
from service.migrate import upgrade
from service.play import new_game
from service.play.startform import parse_options, parse_players
from service.play.timeouts import sweep
from service.store.models import utcnow

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
        """Create or upgrade the database schema (Alembic migrations shipped in service/)."""
        upgrade(current_app.config["DATABASE_URL"])
        click.echo("database is at the latest schema")

    @app.cli.command("new-game", cls=NewGameCommand, help=NEW_GAME_HELP)
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
