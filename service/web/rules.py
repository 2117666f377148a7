"""Each game's rules in short (/rules/<game>): the project's own summary, a template the game's adapter
names (service/games), linked from the start form and from every page of a game of it."""

from __future__ import annotations

from flask import Blueprint, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

import engine
from service import lang
from service.web import language
from service.web.games import adapter_or_none, no_such_game

bp = Blueprint("rules", __name__)


@bp.get("/rules/<game>")
def page(game: str) -> ResponseReturnValue:
    found = adapter_or_none(game)
    if found is None:
        return no_such_game(game)
    if found.rules_template is None:  # a game without a summary of its own (a new one, the tests' toy game)
        return render_template(
            "error.html",
            status=404,
            title="No rules page",
            message=f"{found.rules.title or game} has no rules summary here yet.",
            back=url_for("games.create"),
            back_words=gettext("Choose a game"),
        ), 404
    return render_template(
        "rules.html",
        adapter=found,
        title=found.rules.title or found.name,
        rules_templates=in_language(found.rules_template, language.current()),
    )


def in_language(template: str, reader: str) -> list[str]:
    """The rules text in the reader's language: "rules.uk.html" beside "rules.html" (one template a
    language: the prose is long), the English one where the language has none."""
    if reader == lang.ENGLISH:
        return [template]
    stem, dot, suffix = template.rpartition(".")
    return [f"{stem}.{reader}.{suffix}", template]


@bp.app_template_global()
def rules_url(game: str) -> str | None:
    """The rules page of a game, for the pages of a game of it (None: it has none)."""
    found = adapter_or_none(game)
    return url_for("rules.page", game=game) if found is not None and found.rules_template else None


@bp.app_template_global()
def game_title(game: str) -> str:
    """A game's name for people ("Beyond the Rift")."""
    try:
        rules = engine.get(game)
    except engine.UnknownGame:
        return game
    return rules.title or rules.name
