"""Building the email of an outbox row: the one place that renders (standard library `email`).

A message is rendered from the row alone (game, player, kind, params, seq), so a retry renders the
same message with the same Message-ID.  What differs between kinds is the registry's
(service/mail/kinds.py); text and HTML parts come from templates/email/<kind>.{txt,html}.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from functools import cache
from pathlib import Path
from typing import Any

from sqlmodel import Session

from service import links, paths, running, store
from service.games import adapter
from service.mail import addresses, reader, reply_to, talk_email
from service.mail.kinds import NOT_NEWS, Kind, Mail, addressed, clock_context, get
from service.mail.mime import POLICY, address, body_part, unstructured, url_header
from service.mail.threads import thread_root
from service.names import player_name
from service.store import deal, mailrows
from service.store.models import Game, Outbox, Player
from service.views import email_render, positions
from service.views.sentences import headline_of, journal_sentence, since_lines, summary

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
    import css_inline  # here: only the worker renders emails; the web need not map the library

    return seams(css_inline.inline(html, extra_css=stylesheet(game_name), load_remote_stylesheets=False))


# Elements that start or end a line box: whitespace next to their tags is never rendered.
_BLOCKS = frozenset({"html", "head", "body", "table", "caption", "thead", "tbody", "tfoot", "tr", "td", "th", "div",
                     "p", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "br", "hr", "meta", "title"})
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>")


def _block(tag: re.Match[str]) -> bool:
    return tag.group(2).lower() in _BLOCKS or (not tag.group(1) and re.search(r"display:\s*block", tag.group(3)) is not None)


def seams(html: str) -> str:
    """A line break between two tags that touch where one of them is a block's (a table cell, a
    <br>, an element styled display: block): it changes nothing on screen (whitespace there is not
    rendered) but keeps the words on either side apart for readers of the bare text.  Spam filters
    read two words joined by tags alone ("<td>Fire 5</td><td>Ice 6</td>") as text hidden from
    filters (SpamAssassin's HTML_OBFUSCATE_*: up to 2.5 points on a Riftforce board)."""
    out: list[str] = []
    done = 0
    previous: re.Match[str] | None = None
    for tag in _TAG.finditer(html):
        if previous is not None and previous.end() == tag.start() and (_block(previous) or _block(tag)):
            out.append(html[done:tag.start()] + "\n")
            done = tag.start()
        previous = tag
    out.append(html[done:])
    return "".join(out)


# How many choices a turn email links at most (all of them are on the player page).
MAX_MOVE_LINKS = 12
# How many lines of what happened since an email tells (the rest: "and N more on your page").
MAX_SINCE_LINES = 8


def one_click(steps: list[positions.Step], first: Collection[str] = ()) -> list[positions.Step]:
    """The choices an email links: one per distinct first step (a card, an action: Position.first_steps
    groups the decisions so), each label once (two copies of a card are one choice), the kinds of
    move a decision must begin with first (`first`, the adapter's `first_moves`: a hand-size discard),
    then the kinds of move with the fewest steps (a lone "Check & Draw" before ten cards to play), at
    most MAX_MOVE_LINKS.  Standing settings are not decisions: they stay on the page."""
    unique: dict[str, positions.Step] = {}
    for step in steps:
        unique.setdefault(step.label, step)
    sizes = Counter(step.moves[0].move.get("type") for step in unique.values())

    def order(step: positions.Step) -> tuple[bool, int]:
        kind = step.moves[0].move.get("type")
        return kind not in first, sizes[kind]

    return sorted(unique.values(), key=order)[:MAX_MOVE_LINKS]


def choices_of(position: positions.Position) -> list[positions.Step]:
    """The choices a turn email of `position` lists, numbered in this order (one_click with the game's
    `first_moves`); none when it is not the viewer's turn.  The reply door and its answers number a
    reply's choice by the same list."""
    if not position.my_turn:
        return []
    return one_click(position.first_steps(), adapter(position.game.name).first_moves)


def subject(game: Game, players: list[Player], teams: list[list[int]], language: str = "en") -> str:
    """The one subject of every email of a game's thread: the game and who plays ("Riftforce #12: Ana
    vs Bo"; the adapter words it, in the reader's `language`: "Ana проти Bo")."""
    return positions.heading(game, players, teams, language)


def mail_of(session: Session, row: Outbox) -> Mail:
    game = store.get_game(session, row.game_id)
    return _mail(row, game, store.players_of(session, game.id))


def read_mail(session: Session, row_id: int) -> Mail | None:
    """`mail_of` the outbox row `row_id` (None: there is none), read in one statement with what its
    delivery asks next (the game's clock, the reader's settings and language: service/store/mailrows.py)."""
    found = mailrows.email_rows(session, row_id)
    return None if found is None else _mail(*found)


def _mail(row: Outbox, game: Game, players: list[Player]) -> Mail:
    player = next(p for p in players if p.id == row.player_id)
    names = store.seat_names(players)
    to = (row.params or {}).get("to")
    if to:
        # An email to whom the seat was, or will be (a seat handed over: service/play/handover.py): the
        # row names its reader, since the seat's row is, or will be, someone else's.
        player = addressed(player, to)
        names = {**names, player.seat: player_name(player.name, player.seat)}
    return Mail(row, game, player, players, names)


def build(session: Session, row: Outbox, mail: Mail | None = None, locale: str | None = None) -> EmailMessage:
    """The email of `row`, worded for its reader in `locale` (default: the reader's language, chosen now:
    service/mail/reader.py), its links under BASE_URL (service/paths.py)."""
    mail = mail or mail_of(session, row)
    locale = locale or reader.language(session, mail)
    # Every word of it in the reader's language: the kinds' first lines and subjects (Python) and the
    # templates read the locale of the render (service/views/email_render.py).
    with email_render.reading_in(locale):
        return _build(session, get(row.kind), mail, locale)


def _since(session: Session, mail: Mail, position: positions.Position, since: int | None) -> list[positions.SinceEvent]:
    """What happened after `since` up to the email's position: the events (positions.SinceEvent) and
    the journal's entries (a vacation, a pause...: told here rather than in emails of their own; kind
    "journal", news for everyone), in order.  The recorded end of the game is left out: the first line
    says it."""
    if since is None:
        return []
    events = [event for event in position.since_events if event.kind != store.SYSTEM]
    for entry in store.journal_entries(session, mail.game.id, upto=mail.row.seq, since=since):
        if entry.kind not in NOT_NEWS:
            events.append(positions.SinceEvent(entry.after_seq,
                                               journal_sentence(entry, mail.names, mail.player.seat, email_render.locale()),
                                               None, "journal", entry.kind, None, 2))
    return sorted(events, key=lambda event: event.seq)  # stable: an entry after the event it follows


def context(session: Session, kind: Kind, mail: Mail) -> dict[str, Any]:
    """What the templates of `kind` get for `mail` (also each game's part of a digest: digest.py)."""
    game, player, row = mail.game, mail.player, mail.row
    since = kind.since(session, mail)
    # Every word in the reader's language (the render's locale): events, choices, result, subject.
    language = email_render.locale()
    position = positions.build(session, game, player.seat, seq=row.seq, since_seq=since, players=mail.players,
                               language=language)
    # The player's current generation: an email rendered after a "fresh link" reset carries live links.
    player_token = links.player_token(player.id, player.row_key, player.link_generation)
    choices = choices_of(position) if kind.move_links else []
    move_links = [(step.label, paths.url("play.page", token=player_token, step=step.key))
                  for step in choices]
    events = _since(session, mail, position, since)
    found = adapter(game.name)

    headline = headline_of(game.name, player.seat, mail.names, position.partners, language)

    shown, hidden = since_lines(events, player.seat, mail.names, headline, MAX_SINCE_LINES, language)
    context: dict[str, Any] = dict(
        game=game, player=player, players=mail.players, names=mail.names, position=position, actor=None,
        params=mail.params, title=positions.title(game), prefix=positions.subject_prefix(game),
        subject=subject(game, mail.players, position.teams, language),
        player_url=paths.url("play.page", token=player_token),
        unsubscribe_url=paths.url("play.unsubscribe",
                                  token=links.unsubscribe_token(player.id, player.row_key, player.link_generation)),
        # RFC 8058 one-click for everything this sender sends to the address: the List-Unsubscribe header.
        one_click_url=paths.url("account.one_click", token=links.never_email_token(player.email)),
        # The footer's "never email me": the footer travels with a forwarded email, so it only offers
        # to mail the address a link that can do it (service/web/account.py).
        never_url=paths.url("account.ask", token=player_token, why="never"),
        # The history opens at the player's last own move, with what happened since.
        history_url=paths.url("history.player", token=player_token),
        move_links=move_links, choices_total=len({step.label for step in position.first_steps()}),
        since_lines=shown, since_more=hidden,
        # Before anyone has moved there is nothing "since" to step through: the lines tell the setup.
        since_moved=any(event.kind != "setup" for event in events),
        summary=summary(events, player.seat, mail.names, headline, language=language),
        result_words=positions.result_words(game, position.result, mail.names, player.seat, language),
        clock=None,
        # A game without a message catalog (its engine still words events and moves in English): its
        # lines and choices are marked English in another language's email.
        words_english=found.catalog is None and language != "en",
        # The first email of the game's thread states the commitment to the game's secret: a copy the
        # player keeps, to check the secret shown at the end against (service/store/deal.py).
        commitment=(deal.shown(game).commitment
                    if kind.name == "invite" or mail.params.get("invite") else None),
    )
    context["more_moves"] = context["choices_total"] > len(move_links)
    # The players in turn order, the reader marked: "Ana (you), Bo" (the templates list them: and_list).
    context["players_shown"] = [email_render.gettext("%(name)s (you)", name=mail.names[p.seat]) if p.id == player.id
                                else mail.names[p.seat] for p in mail.players]
    if kind.clock:
        context.update(clock_context(session, mail))
    # The table talk the row was written to tell (service/talk decided which: service/mail/talk_email.py).
    context.update(talk_email.context(session, mail))
    context.update(kind.context(session, mail))
    context["first_line"] = kind.first_line(context)
    # The HTML part's first line: the game's words it quotes (kinds.quoted) marked as English.
    context["first_line_html"] = email_render.marked(context["first_line"], context.get("game_words", []))
    if kind.subject is not None:
        context["subject"] = kind.subject(context)
    # An email about the person rather than the game (the account link, fresh links to all their games)
    # has a subject of its own, so it starts a thread of its own too: a thread is one subject.
    context["own_thread"] = context["subject"] != subject(game, mail.players, position.teams, language)
    # Where a reply goes (service/inbound reads it as this seat's, bound to this position): every email
    # of the game's thread to a seat that agreed to our emails; the footer says one can reply.
    context["reply_address"] = (reply_to.address(player, row.seq) if kind.reply_to and not kind.unsolicited
                                and not context["own_thread"] else None)
    return context


def envelope(subject: str, to_name: str, to_email: str, message_id: str, one_click_url: str, kind_name: str,
             threading: dict[str, str] | None = None, *, reply_to: str | None = None,
             auto_submitted: str = "auto-generated") -> EmailMessage:
    """An email's headers, ready for its plain and HTML parts (every email of the service, and the
    timeouts' digest, service/mail/digest.py); `threading`: its In-Reply-To, References, List-Id."""
    message = EmailMessage(policy=POLICY)
    message["Subject"] = unstructured("Subject", subject)
    # The envelope's form of each address: an internationalized domain as its ASCII (IDNA) name, so
    # that no server needs SMTPUTF8 for it.
    message["From"] = address("From", "Riftpost", addresses.ascii_form(running.config()["MAIL_FROM"]))
    message["To"] = address("To", to_name, addresses.ascii_form(to_email))
    if reply_to is not None:  # the reader's signed reply address (service/mail/reply_to.py): ASCII
        message["Reply-To"] = address("Reply-To", "Riftpost", reply_to)
    # When it is sent, not when it was queued: an email held for an invitation's answer (or retried
    # for hours) would otherwise land days down the reader's inbox.
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = message_id
    for name, value in (threading or {}).items():
        message[name] = value
    message["List-Unsubscribe"] = url_header(one_click_url)
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = auto_submitted
    message["X-Riftpost-Kind"] = kind_name  # what the email is, for mail filters (the subject is the thread's)
    message["MIME-Version"] = "1.0"
    message.make_alternative()
    return message


def _build(session: Session, kind: Kind, mail: Mail, locale: str) -> EmailMessage:
    shown = context(session, kind, mail)
    game, player, row = mail.game, mail.player, mail.row
    domain = running.config()["MAIL_DOMAIN"]
    threading = {"List-Id": f"{shown['title']} game {game.id} <game-{game.id}.{domain}>"}
    root = thread_root(game, player)
    # The rest hangs under the game's first email: one thread per player.  The invitation stands apart
    # (its own subject; the thread begins once the address accepts).
    if kind.threading is not None:
        threading = {**kind.threading(mail), **threading}
    elif row.message_id != root and not shown["own_thread"]:
        threading = {"In-Reply-To": root, "References": root, **threading}
    # The seat's name was typed by whoever started the game: not shown to an address that never agreed.
    message = envelope(shown["subject"], "" if kind.unsolicited else mail.names[player.seat], player.email,
                       row.message_id, shown["one_click_url"], kind.name, threading,
                       reply_to=shown["reply_address"], auto_submitted=kind.auto_submitted)
    message.attach(body_part(email_render.render(f"{kind.template_name}.txt", shown, locale), "plain"))
    message.attach(body_part(inline(email_render.render(f"{kind.template_name}.html", shown, locale), game.name), "html"))
    return message
