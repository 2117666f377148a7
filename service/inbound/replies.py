"""A reply to a game email, read as the seat its reply address names (service/links.py: the token is
the key, as a link is; the From need not match, since people forward and write from other addresses).

What is new in it (service/inbound/reading.py) is, in order of its first line:
- a choice's number ("2", "#2", "2."): the choice of that number in the email it answers (the email's
  numbered choices, compose.one_click, at the email's position): played when it is a whole decision,
  else answered with the moves that complete it;
- a move in the game's text notation (the engine's `parse_move` reads it): the first block of lines
  (up to the first blank line), one move a line, played as a whole turn, all of them or none;
- anything else: table talk (service.talk.messages.post, source "email"; a first line starting with
  "team:" goes to the team).
Moves and choices go through service.play.handle, bound to the email's seq: a reply to an older email
than the game now is is refused with what happened since.

Every outcome is answered to the seat's own address (never to the From) through the outbox (kind
"reply": service/mail/answers.py), threaded under the reply, unless the person turned confirmations
off, or the message was an auto-reply or over the hourly limit (then nothing is sent at all).

The answer is kept on its row as facts, never as words (issue #26): each line a message id with its
params (`Nf_`/`Nn_`, stored by `fact`), the game's words as what they are made from (`since`: the
seqs between which the events happened; `step`/`moves_of`: a choice's number at a seq; `played`: the
moves' facts, sentences.move_fact; `seats`: whose turn it is), so service/mail/answers.py words the
answer in its reader's language when it is rendered.  The reading does not depend on a language: a
choice's number is a number in any.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

import engine
from service import lang, links, running, store
from service.errors import IllegalMoveAt, Invalid, StaleState
from service.lang import Nf_, Words
from service.mail import answers, outbox, reader
from service.mail.compose import choices_of
from service.play import handle
from service.play.batch import MAX_MOVES, MAX_TEXT
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import Game, InboundMessage, Player
from service.talk import messages as talk
from service.views import positions

from . import reading

log = logging.getLogger(__name__)

CHOICE = re.compile(r"#?\s*(\d{1,3})\s*[.)]?")
TEAM = re.compile(r"team\s*:\s*", re.IGNORECASE)
QUOTED_LINES = 3  # of what the player wrote, quoted back in the answer

Fact = Any  # a line of the answer as stored: `fact(words)`, or one of the game facts (module docstring)


def fact(value: Any) -> Any:
    """A message made with Nf_/Nn_ (or `_marked`) as stored data: its message id, plural and params,
    worded by service/mail/answers.py in the reader's language; a param that is a message is one in
    turn, any other (a number, a name, what the player wrote, a game fact) is kept as it is."""
    if isinstance(value, Words):
        return {"said": value.msgid, "plural": value.plural,
                "params": {k: fact(v) if isinstance(v, Words) else v for k, v in value.params.items()}}
    return value


def _marked(text: str) -> Words:
    """An error's words as a message to look up when worded: a `Words` as it is, a message marked N_
    where it was raised (a plain `str`) by itself; an engine's English reason, in no catalog, then shows
    as it is."""
    return text if isinstance(text, Words) else Words(str(text))


@dataclass
class Verdict:
    """What the door did with a reply: its `outcome` (InboundMessage.outcome), `detail` for the operator
    (English), and the answer to write (`first` line, `lines`: facts, `choices`: [number, key] at the seq
    `choices_at`), or none (`answer` False)."""

    outcome: str
    detail: str
    first: Fact = ""
    lines: list[Fact] = field(default_factory=list)
    choices: list[list[Any]] = field(default_factory=list)
    answer: bool = True
    text: str = ""  # the reply's new text as read (its first lines are quoted back in the answer)
    choices_at: int | None = None  # the seq whose choices `choices` numbers


@dataclass(frozen=True)
class Seat:
    """The seat a verified reply address names, with the address's seq and generation."""

    player_id: int
    game_id: int
    seat: int
    seq: int
    generation: int
    current_generation: int
    consented: bool


def seat_of(token: str) -> Seat | None:
    """The seat a reply token names, if it holds for that seat's row (its key, so never another seat,
    another database or a row a restore rolled back); None for anything else."""
    link = links.read_reply_token(token)
    if link is None:
        return None
    with read_session(get_engine()) as session:
        player = session.get(Player, link.player_id)
        if player is None or not links.reply_token_holds(link, player.row_key):
            return None
        return Seat(player.id, player.game_id, player.seat, link.seq, link.generation, player.link_generation,
                    player.consent == "")


def recent_replies(session: Session, player_id: int, now: datetime, exclude: int) -> int:
    """Messages read as this seat's in the last hour (the loop guard's count), this one left out."""
    return int(session.execute(
        sa.select(sa.func.count()).select_from(InboundMessage).where(
            col(InboundMessage.player_id) == player_id, col(InboundMessage.received_at) > now - timedelta(hours=1),
            col(InboundMessage.id) != exclude)
    ).scalar_one())


def read(kept_id: int, message: EmailMessage, seat: Seat, sender: str | None, now: datetime) -> Verdict:
    """Decide and do what the reply asks; the verdict (its answer is the caller's to write)."""
    auto = reading.automatic(message, sender)
    if auto is not None:
        return Verdict("ignored", f"not a person's reply: {auto}", answer=False)
    with read_session(get_engine()) as session:
        count = recent_replies(session, seat.player_id, now, kept_id)
    limit = int(running.config()["INBOUND_REPLIES_PER_HOUR"])
    if count >= limit:
        return Verdict("ignored", f"over {limit} replies this hour from this seat (a loop?)", answer=False)
    if seat.generation != seat.current_generation:
        return Verdict("answered", "a reply address of an old link generation",
                       Nf_("Your reply was not read: it went to an older email whose links you replaced with "
                           "fresh ones."),
                       [Nf_("Reply to your newest email of this game, or open your game page.")])
    if running.config().get("INBOUND_REQUIRE_DMARC"):
        refusal = reading.dmarc_refusal(message, str(running.config().get("INBOUND_AUTHSERV_ID") or ""))
        if refusal is not None:
            return Verdict("answered", f"refused: {refusal}",
                           Nf_("Your reply was not read: our mail server could not confirm it came from your "
                               "mail provider."),
                           # (the refusal is the authentication results' own words: a mail server's)
                           [Nf_("(%(refusal)s.) Play from your game page instead.", refusal=refusal)])
    text = reading.new_text(message)
    if not text:
        return Verdict("answered", "nothing new in the reply", Nf_("We found nothing new in your reply."),
                       [Nf_("Write your move or a choice's number on the first line, above the quoted email.")])
    block = _first_block(text)
    found = CHOICE.fullmatch(block[0])
    if found:
        verdict = _choice(seat, int(found.group(1)))
    elif _is_move(seat, block[0]):
        verdict = _moves(seat, block)
    else:
        verdict = _talk(seat, text, now)
    verdict.text = text
    return verdict


def _first_block(text: str) -> list[str]:
    lines = [line.strip() for line in text.split("\n")]
    block: list[str] = []
    for line in lines:
        if not line:
            if block:
                break
            continue
        block.append(line)
    return block


def _is_move(seat: Seat, line: str) -> bool:
    """Whether the line is written in the game's move notation (legal or not): the engine reads it as
    a move, or refuses it for another reason than being no move at all ("unreadable")."""
    if len(line) > MAX_TEXT:
        return False
    with read_session(get_engine()) as session:
        game = store.get_game(session, seat.game_id)
        state, _ = store.load_state(session, game)
    try:
        engine.get(game.name).parse_move(state, seat.seat, line)
    except engine.IllegalMove as exc:
        return exc.code != "unreadable"
    except Exception:  # noqa: BLE001 - an engine tripping on a stranger's text: not a move it reads
        return False
    return True


# ---- moves and choices ------------------------------------------------------------------------------------


def _choices_now(session: Session, game: Game, seat: Seat) -> tuple[positions.Position, list[positions.Step]]:
    """The position now and the choices a turn email of it lists, in its order (compose.choices_of),
    numbered as the seat's turn emails number them: in the player's language (a step's label may read
    alike for two steps in one language and not in another, and one_click lists each label once)."""
    player = session.get(Player, seat.player_id)
    language = reader.setting(session, player.address_key if player is not None else None) or lang.ENGLISH
    position = positions.build(session, game, seat.seat, language=language)
    return position, choices_of(position)


def numbered(steps: list[positions.Step]) -> list[list[Any]]:
    """The choices as the answer's row keeps them: [number, key] (the label is worded when it is rendered,
    from the choices at the verdict's `choices_at`: service/mail/answers.py)."""
    return [[number, step.key] for number, step in enumerate(steps, start=1)]


def _stale(seat: Seat) -> Verdict | None:
    """The answer to a move sent from an older email than the game is now at, else None."""
    with read_session(get_engine()) as session:
        game = store.get_game(session, seat.game_id)
        if game.seq == seat.seq:
            return None
        if seat.seq > game.seq:  # a seq the game never reached here: a restore rolled it back
            return Verdict("stale", f"a reply to seq {seat.seq}, the game is at {game.seq}",
                           Nf_("Not played: that email is about a position this game no longer has."),
                           [Nf_("Open your game page to see where it stands.")])
        position, steps = _choices_now(session, game, seat)
        # What happened since, as facts: the answer words the events between the seqs for its reader.
        lines: list[Fact] = [{"since": [seat.seq, game.seq]}, _whose_turn(game, position)]
    return Verdict("stale", f"a reply to seq {seat.seq}, the game is at {game.seq}",
                   Nf_("Not played: the game moved on since the email you replied to."), lines, numbered(steps),
                   choices_at=game.seq)


def _whose_turn(game: Game, position: positions.Position) -> Fact:
    if game.status != "active":
        return Nf_("The game is over.")
    if position.my_turn:
        return Nf_("It is your turn: reply to your newest turn email, or play from your game page.")
    if not position.to_act:
        return ""
    return Nf_("Now it is %(names)s's turn; we will email you when it is yours.",
               names={"seats": list(position.to_act)})


def _choice(seat: Seat, number: int) -> Verdict:
    stale = _stale(seat)
    if stale is not None:
        return stale
    with read_session(get_engine()) as session:
        game = store.get_game(session, seat.game_id)
        position, steps = _choices_now(session, game, seat)
        if not steps:
            return Verdict("illegal", f"choice {number}, but the seat has nothing to decide",
                           Nf_("Not played: there is no choice %(number)s to make now.", number=number),
                           [_whose_turn(game, position)])
        if not 1 <= number <= len(steps):
            return Verdict("illegal", f"choice {number} of {len(steps)}",
                           Nf_("Not played: the email listed choices 1 to %(count)s, not %(number)s.",
                               count=len(steps), number=number),
                           [], numbered(steps), choices_at=game.seq)
        step = steps[number - 1]
        if len(step.moves) > 1:
            return Verdict("illegal", f"choice {number} needs more than its number",
                           Nf_("Not played yet: choice %(number)s (%(label)s) needs one more decision.",
                               number=number, label={"step": [game.seq, step.key]}),
                           [Nf_("Reply to your turn email with one of these lines:"),
                            {"moves_of": [game.seq, step.key]}])
        move = step.moves[0].move
    return _play(seat, [move], [f"{number}"])


def _moves(seat: Seat, block: list[str]) -> Verdict:
    if len(block) > MAX_MOVES:
        return Verdict("illegal", f"{len(block)} lines of moves",
                       f"Not played: a reply holds at most {MAX_MOVES} moves, one a line; yours had {len(block)}.")
    stale = _stale(seat)
    if stale is not None:
        return stale
    return _play(seat, list(block), block)


def _play(seat: Seat, moves: list[dict[str, Any] | str], written: list[str]) -> Verdict:
    try:
        outcome = handle(seat.game_id, seat.seat, moves, seat.seq)
    except StaleState:
        stale = _stale(seat)  # another move came in between: the same answer as before
        return stale or Verdict("stale", "the game moved on while the reply was read",
                                Nf_("Not played: the game moved on just now."))
    except IllegalMoveAt as exc:
        line = written[exc.index] if 0 <= exc.index < len(written) else ""
        with read_session(get_engine()) as session:
            game = store.get_game(session, seat.game_id)
            _, steps = _choices_now(session, game, seat)
        # (the reason is the engine's words, or the service's marked for the catalogs)
        first = (Nf_("Not played: %(reason)s (line %(line)s: \u201c%(text)s\u201d).", reason=_marked(exc.reason),
                     line=exc.index + 1, text=line[:80])
                 if len(written) > 1 else Nf_("Not played: %(reason)s.", reason=_marked(exc.reason)))
        return Verdict("illegal", f"illegal at {exc.index}: {exc.reason}"[:500], first,
                       [Nf_("Nothing of your reply was played (a turn is played whole or not at all).")]
                       if len(written) > 1 else [], numbered(steps), choices_at=game.seq)
    played = "; ".join(p.label for p in outcome.played) or "your move"
    with read_session(get_engine()) as session:
        game = store.get_game(session, seat.game_id)
        players = store.players_of(session, game.id)
        position = positions.build(session, game, seat.seat, players=players)
        if outcome.result is not None:
            after = Nf_("The game is over: your game page has the result.")
        elif position.my_turn:
            after = Nf_("Your turn goes on: finish it on your game page.")
        else:
            after = _whose_turn(game, position)
    said = (Nf_("Played: %(played)s.", played={"played": [p.fact for p in outcome.played]}) if outcome.played
            else Nf_("Played: your move."))
    return Verdict("played", f"played {len(outcome.played)} move(s) at seq {seat.seq}: {played}"[:500],
                   said, [after])


# ---- table talk -------------------------------------------------------------------------------------------


def _talk(seat: Seat, text: str, now: datetime) -> Verdict:
    channel = talk.ALL
    found = TEAM.match(text)
    if found:
        channel, text = talk.TEAM, text[found.end():]
    try:
        with write_session(get_engine()) as session:
            player = store.get_player(session, seat.player_id)
            said = talk.post(session, player, text, channel=channel, source="email", now=now)
            said_id = said.id
    except Invalid as exc:
        return Verdict("answered", f"talk refused: {exc.message}"[:500],
                       Nf_("Your message was not posted: %(why)s", why=_marked(exc.message)))
    posted = (Nf_("Your message is posted to your team.") if channel == talk.TEAM
              else Nf_("Your message is posted to the table."))
    return Verdict("talk", f"posted to {channel} as talk message {said_id}",
                   posted, [Nf_("Everyone it is for reads it on their game page.")])


# ---- the answer -------------------------------------------------------------------------------------------


def write_answer(kept_id: int, message: EmailMessage | None, seat: Seat, verdict: Verdict) -> int | None:
    """Queue the answer to the seat's own address (never the From), if the person wants answers and the
    address agreed to our emails; the outbox row's id, else None."""
    if not verdict.answer or not seat.consented:
        return None
    with write_session(get_engine()) as session:
        player = store.get_player(session, seat.player_id)
        if not answers.confirmations_on(session, player.address_key):
            return None
        game = store.get_game(session, seat.game_id)
        references = []
        reply_id = ""
        if message is not None:
            found = answers.clean_ids([reading.header(message, "Message-ID")])
            reply_id = found[0] if found else ""
            references = answers.clean_ids([reading.header(message, "References")])[-answers.MAX_REFERENCES:]
        quoted = [line[:200] for line in _first_block(verdict.text)[:QUOTED_LINES]] if verdict.text else []
        params = {"inbound": kept_id, "first": fact(verdict.first), "lines": [fact(line) for line in verdict.lines if line != ""],
                  "choices": verdict.choices, "choices_at": verdict.choices_at,
                  "quoted": quoted, "reply_id": reply_id, "references": references}
        rows = outbox.add(session, game, [player], answers.KIND, params)
        row_ids = outbox.ids(session, rows)
    outbox.kick(row_ids)
    return rows[0].id if rows else None
