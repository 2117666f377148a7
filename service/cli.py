"""`flask --app service ...` commands: db-upgrade and new-game."""

from __future__ import annotations

import click
from flask import Flask, current_app

import engine
from service.gameform import EMAIL, parse_options


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
    def new_game_command(game, emails, options, seed):
        """Create a GAME for the players at EMAILS (in seat order), queue their invitations and
        print the game's id.  An address may be given as NAME=EMAIL."""
        from service.moves import new_game

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
        try:
            game_id = new_game(game, players, parsed, seed)
        except engine.UnknownGame as exc:
            raise click.BadParameter(f"{exc} (known: {', '.join(engine.names())})", param_hint="GAME")
        except engine.IllegalMove as exc:
            raise click.ClickException(exc.reason)
        click.echo(game_id)
