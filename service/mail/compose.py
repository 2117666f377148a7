"""Building the email of an outbox row: the one place that renders (standard library `email`).

A message is rendered from the row alone (game, player, kind, params, seq), so a retry renders the
same message with the same Message-ID.  What differs between kinds is the registry's
(service/mail/kinds.py); text and HTML parts come from templates/email/<kind>.{txt,html}.
"""

from __future__ import annotations

import email.policy
from collections import Counter
from datetime import UTC
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from functools import cache
from pathlib import Path
from typing import Any

import css_inline
from flask import current_app, render_template, url_for
from sqlmodel import Session

from service import links, store
from service.mail.kinds import Kind, Mail, get
from service.mail.threads import thread_root
from service.store.models import Outbox
from service.views import positions

# RFC 5322's real limit: long links stay on one line (no folding right after a header's colon,
# no quoted-printable soft breaks inside URLs of plain ASCII bodies).
POLICY = email.policy.default.clone(max_line_length=998)

STATIC = Path(__file__).resolve().parent.parent / "static"


@cache
def stylesheet(game_name: str) -> str:
    """The CSS an email of `game_name` gets inlined: the boards' shared sheet, the game's own and the
    email layout's (static/board/email.css), the same files the pages link."""
    parts = [STATIC / "board" / "common.css", STATIC / "board" / f"{game_name}.css", STATIC / "board" / "email.css"]
    return "\n".join(path.read_text(encoding="utf-8") for path in parts if path.is_file())


def inline(html: str, game_name: str) -> str:
    """The HTML part with every class's style written into its elements: mail clients drop <style>,
    <link> and SVG, so the inline styles are all they see."""
    return css_inline.inline(html, extra_css=stylesheet(game_name), load_remote_stylesheets=False)


# How many one-click move links a turn email carries at most (the rest are on the player page).
MAX_MOVE_LINKS = 12


def one_click(moves: list[positions.LegalMove]) -> list[positions.LegalMove]:
    """The choices an email offers as links: the kinds of move with the fewest options first (a
    lone "Check & Draw" before thirty card-and-location plays), at most MAX_MOVE_LINKS."""
    moves = [legal for legal in moves if legal.section is None]  # standing settings stay on the page
    sizes = Counter(legal.move.get("type") for legal in moves)
    return sorted(moves, key=lambda legal: sizes[legal.move.get("type")])[:MAX_MOVE_LINKS]


def mail_of(session: Session, row: Outbox) -> Mail:
    game = store.get_game(session, row.game_id)
    players = store.players_of(session, game.id)
    player = next(p for p in players if p.id == row.player_id)
    return Mail(row, game, player, players, store.seat_names(players))


def build(session: Session, row: Outbox, mail: Mail | None = None) -> EmailMessage:
    # Emails are rendered by the worker, outside any request: a request context on BASE_URL makes
    # url_for(_external=True) produce the links players will click.
    with current_app.test_request_context("/", base_url=current_app.config["BASE_URL"]):
        return _build(session, get(row.kind), mail or mail_of(session, row))


def _context(session: Session, kind: Kind, mail: Mail) -> dict[str, Any]:
    game, player, row = mail.game, mail.player, mail.row
    position = positions.build(session, game, player.seat, seq=row.seq, since_seq=kind.since(session, mail),
                               players=mail.players)
    player_token = links.player_token(player.id)
    move_links = [
        (legal.label, url_for("play.confirm", token=links.move_token(player.id, row.seq, legal.move), _external=True))
        for legal in one_click(position.moves)
    ] if kind.move_links else []
    context = dict(
        game=game, player=player, players=mail.players, names=mail.names, position=position, actor=None,
        title=positions.title(game), prefix=positions.subject_prefix(game),
        player_url=url_for("play.page", token=player_token, _external=True),
        unsubscribe_url=url_for("play.unsubscribe", token=links.unsubscribe_token(player.id), _external=True),
        # The history opens at the player's last own move, with what happened since.
        history_url=url_for("history.player", token=player_token, _external=True),
        move_links=move_links, more_moves=len(position.decisions) > len(move_links),
        result_words=positions.result_words(game, position.result, mail.names),
    )
    context.update(kind.context(session, mail))
    return context


def _build(session: Session, kind: Kind, mail: Mail) -> EmailMessage:
    context = _context(session, kind, mail)
    game, player, row = mail.game, mail.player, mail.row
    domain = current_app.config["MAIL_DOMAIN"]
    message = EmailMessage(policy=POLICY)
    message["Subject"] = kind.subject(context)
    message["From"] = formataddr(("Riftpost", current_app.config["MAIL_FROM"]))
    message["To"] = formataddr((player.name, player.email))
    message["Date"] = format_datetime(row.created_at.astimezone(UTC))
    message["Message-ID"] = row.message_id
    if kind.name != "invite":  # everything else hangs under the invitation: one thread per player
        root = thread_root(game, player)
        message["In-Reply-To"] = root
        message["References"] = root
    message["List-Id"] = f"{context['title']} game {game.id} <game-{game.id}.{domain}>"
    message["List-Unsubscribe"] = f"<{context['unsubscribe_url']}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(render_template(f"{kind.template_name}.txt", **context))
    html = inline(render_template(f"{kind.template_name}.html", **context), game.name)
    message.add_alternative(html, subtype="html")
    return message
