"""Building and sending the emails of outbox rows (standard library `email` + `smtplib`).

A message is rendered from the row alone (game, player, kind, seq), so a retry renders the same
message with the same Message-ID.  Text and HTML parts come from templates/email/<kind>.{txt,html}.
"""

from __future__ import annotations

import email.policy
import smtplib
import ssl
from collections import Counter
from datetime import timezone
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

import sqlalchemy as sa
from flask import current_app, render_template, url_for
from sqlmodel import Session, select

from service import deadlines, links, notify, positions, store
from service.config import smtp_address
from service.models import Event, Game, Outbox, Player

# RFC 5322's real limit: long links stay on one line (no folding right after a header's colon,
# no quoted-printable soft breaks inside URLs of plain ASCII bodies).
POLICY = email.policy.default.clone(max_line_length=998)

# How many one-click move links a turn email carries at most (the rest are on the player page).
MAX_MOVE_LINKS = 12


def one_click(moves: list[positions.LegalMove]) -> list[positions.LegalMove]:
    """The choices an email offers as links: the kinds of move with the fewest options first (a
    lone "Check & Draw" before thirty card-and-location plays), at most MAX_MOVE_LINKS."""
    moves = [legal for legal in moves if legal.section is None]  # standing settings stay on the page
    sizes = Counter(legal.move.get("type") for legal in moves)
    return sorted(moves, key=lambda legal: sizes[legal.move.get("type")])[:MAX_MOVE_LINKS]


def _subject(kind: str, game: Game, position: positions.Position, names: dict[int, str],
             actor: int | None = None) -> str:
    prefix = positions.subject_prefix(game)
    if kind == "invite":
        return f"{prefix} You are invited to a game of {positions.title(game)}"
    if kind == "turn":
        return f"{prefix} Your turn"
    if kind == "partner":
        partner = names.get(actor, "Your partner") if actor is not None else "Your partner"
        return f"{prefix} Your partner {partner} has played"
    return f"{prefix} Game over: {positions.result_words(position.result, names)}"


def _actor_at(session: Session, game_id: int, seq: int) -> int | None:
    """The seat whose decision appended event `seq`."""
    return session.exec(select(Event.actor).where(Event.game_id == game_id, Event.seq == seq)).first()


def _run_start(session: Session, game_id: int, seq: int, actor: int | None) -> int:
    """The seq just before the unbroken run of `actor`'s events that ends at `seq`: a partner
    email tells that whole turn (its follow-up decisions included) and nothing earlier."""
    return session.exec(
        select(sa.func.coalesce(sa.func.max(Event.seq), 0)).where(
            Event.game_id == game_id, Event.seq <= seq,
            sa.or_(Event.actor.is_(None), Event.actor != actor),
        )
    ).one()


def _previous_turn_start(session: Session, game_id: int, seat: int, seq: int) -> int:
    """The seq of the `{"type": "turn", "seat": seat}` event that began the seat's previous turn
    (the one before the turn in progress at `seq`); 0 if there was none."""
    starts = session.exec(
        select(Event.seq, Event.payload)
        .where(Event.game_id == game_id, Event.type == "turn", Event.seq <= seq)
        .order_by(Event.seq.desc())
        .limit(64)
    )
    mine = [found for found, payload in starts if payload.get("seat") == seat]
    return mine[1] if len(mine) > 1 else 0


def _has_turn_events(session: Session, game_id: int) -> bool:
    return session.exec(
        select(Event.seq).where(Event.game_id == game_id, Event.type == "turn").limit(1)
    ).first() is not None


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
    since = actor = None
    if row.kind == "turn":
        since = store.last_own_seq(session, game.id, player.seat, row.seq + 1)
        if since >= row.seq:
            # The player's own move began this turn (Riftforce solo: the trainer plays inside it):
            # tell the whole previous turn, the player's action and what answered it.
            since = _previous_turn_start(session, game.id, player.seat, row.seq)
            if not since and not _has_turn_events(session, game.id):
                # An engine without "turn" events (Beyond the Rift: the last DONE ran the automatic
                # phases into a new round): tell the player's own decisions and what followed.
                since = _run_start(session, game.id, row.seq, player.seat)
    elif row.kind == "partner":
        actor = _actor_at(session, game.id, row.seq)
        since = _run_start(session, game.id, row.seq, actor)
    position = positions.build(session, game, player.seat, seq=row.seq, since_seq=since)
    player_url = url_for("play.page", token=links.player_token(player.id), _external=True)
    unsubscribe_url = url_for("play.unsubscribe", token=links.unsubscribe_token(player.id), _external=True)
    # The history opens at the player's last own move, with what happened since (issue 5).
    history_url = url_for("history.player", token=links.player_token(player.id), _external=True)
    move_links = []
    if row.kind == "turn" or deadlines.is_reminder(row.kind):  # a reminder carries the turn's links
        move_links = [
            (
                legal.label,
                url_for("play.confirm", token=links.move_token(player.id, row.seq, legal.move), _external=True),
            )
            for legal in one_click(position.moves)
        ]
    context = dict(
        game=game, player=player, players=players, names=names, position=position, actor=actor,
        title=positions.title(game), player_url=player_url, unsubscribe_url=unsubscribe_url,
        history_url=history_url,
        move_links=move_links, more_moves=len(position.decisions) > len(move_links),
        result_words=positions.result_words(position.result, names),
    )
    # Reminders and notices (service/deadlines.py) add the deadline in the player's time zone or
    # the journal entry they tell about.
    context.update(deadlines.mail_context(session, row, game, player, names))
    template = deadlines.template_name(row.kind)
    message = EmailMessage(policy=POLICY)
    message["Subject"] = deadlines.subject(row.kind, context) or _subject(row.kind, game, position, names, actor)
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
    message.set_content(render_template(f"email/{template}.txt", **context))
    message.add_alternative(render_template(f"email/{template}.html", **context), subtype="html")
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
