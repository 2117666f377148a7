"""Building and sending the emails of outbox rows (standard library `email` + `smtplib`).

A message is rendered from the row alone (game, player, kind, seq), so a retry renders the same
message with the same Message-ID.  Text and HTML parts come from templates/email/<kind>.{txt,html}.
"""

from __future__ import annotations

import email.policy
import smtplib
import ssl
from datetime import timezone
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from flask import current_app, render_template, url_for
from sqlmodel import Session

from service import links, notify, positions, store
from service.config import smtp_address
from service.models import Game, Outbox, Player

# RFC 5322's real limit: long links stay on one line (no folding right after a header's colon,
# no quoted-printable soft breaks inside URLs of plain ASCII bodies).
POLICY = email.policy.default.clone(max_line_length=998)

# How many one-click move links a turn email carries at most (the rest are on the player page).
MAX_MOVE_LINKS = 12


def _subject(kind: str, game: Game, position: positions.Position, names: dict[int, str]) -> str:
    prefix = positions.subject_prefix(game)
    if kind == "invite":
        return f"{prefix} You are invited to a game of {positions.title(game)}"
    if kind == "turn":
        return f"{prefix} Your turn"
    return f"{prefix} Game over: {positions.result_words(position.result, names)}"


def build(session: Session, row: Outbox) -> EmailMessage:
    # Emails are rendered by the worker, outside any request: a request context on BASE_URL makes
    # url_for(_external=True) produce the links players will click.
    with current_app.test_request_context("/", base_url=current_app.config["BASE_URL"]):
        return _build(session, row)


def _build(session: Session, row: Outbox) -> EmailMessage:
    game = store.get_game(session, row.game_id)
    player = session.get(Player, row.player_id)
    players = notify.players_of(session, game.id)
    names = positions.seat_names(players)
    since = store.last_own_seq(session, game.id, player.seat, row.seq + 1) if row.kind == "turn" else None
    position = positions.build(session, game, player.seat, seq=row.seq, since_seq=since)
    player_url = url_for("play.page", token=links.player_token(player.id), _external=True)
    unsubscribe_url = url_for("play.unsubscribe", token=links.unsubscribe_token(player.id), _external=True)
    move_links = []
    if row.kind == "turn":
        move_links = [
            (
                legal.label,
                url_for("play.confirm", token=links.move_token(player.id, row.seq, legal.move), _external=True),
            )
            for legal in position.moves[:MAX_MOVE_LINKS]
        ]
    context = dict(
        game=game, player=player, players=players, names=names, position=position,
        title=positions.title(game), player_url=player_url, unsubscribe_url=unsubscribe_url,
        move_links=move_links, more_moves=len(position.moves) > len(move_links),
        result_words=positions.result_words(position.result, names),
    )
    message = EmailMessage(policy=POLICY)
    message["Subject"] = _subject(row.kind, game, position, names)
    message["From"] = formataddr(("Riftpost", current_app.config["MAIL_FROM"]))
    message["To"] = formataddr((player.name, player.email))
    message["Date"] = format_datetime(row.created_at.astimezone(timezone.utc))
    message["Message-ID"] = row.message_id
    if row.kind != "invite":  # everything else hangs under the invitation: one thread per player
        root = notify.thread_root(game, player)
        message["In-Reply-To"] = root
        message["References"] = root
    message["List-Id"] = f"{positions.title(game)} game {game.id} <game-{game.id}.{current_app.config['MAIL_DOMAIN']}>"
    message["List-Unsubscribe"] = f"<{unsubscribe_url}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(render_template(f"email/{row.kind}.txt", **context))
    message.add_alternative(render_template(f"email/{row.kind}.html", **context), subtype="html")
    return message


def send(message: EmailMessage, smtp_url: str | None = None) -> None:
    """Hand the message to the SMTP server of SMTP_URL (raises smtplib/OS errors)."""
    host, port, user, password, starttls = smtp_address(smtp_url or current_app.config["SMTP_URL"])
    scheme = (smtp_url or current_app.config["SMTP_URL"]).split(":", 1)[0]
    client_class = smtplib.SMTP_SSL if scheme == "smtps" else smtplib.SMTP
    with client_class(host, port, timeout=30) as client:
        if starttls:
            client.starttls(context=ssl.create_default_context())
        if user:
            client.login(user, password or "")
        client.send_message(message)
