"""The answer to a reply by email (kind "reply"): what was played, or why not with the legal choices,
or that the words went to the table; written by service/inbound, sent through the outbox like any
email, so it goes only to the seat's own address (who agreed to our emails), never to a From.

It hangs under the reply it answers (In-Reply-To: the reply's Message-ID, References: the reply's
References and its Message-ID, as RFC 5322 3.6.4 says), says `Auto-Submitted: auto-replied` (RFC 3834:
a well-behaved responder answers nothing to it) and carries no reply address, so a reply to an answer
goes nowhere that plays, and the door ignores one that comes back anyway (service/inbound/reading.py).

Its params are what the door decided, as facts (issue #26: service/inbound/replies.py `fact`): `first`
and `lines`, each a message id with its params or a game fact (`since`, `moves_of`, `step`, `played`,
`seats`), and `choices` ([number, key] of the choices at the seq `choices_at`), worded here in the
reader's language when the email is rendered (`_Answer`); an older row's lines, kept in English words
(strings, and choices [number, label, text]), are shown as they are, marked English.  Also `quoted`
(the first lines of what the player wrote), `inbound` (the kept message's id: the tag of a
deterministic Message-ID) and the reply's `reply_id` and `references`.  A person who turned
confirmations off (`reply_settings`) gets none: checked when the door writes it and again at delivery.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sqlmodel import Session

from service import lang
from service.mail.compose import choices_of
from service.mail.kinds import Context, Kind, Mail, quoted, register
from service.mail.talk_email import unlinked
from service.mail.threads import thread_root
from service.store.models import ReplySetting
from service.views import email_render, positions
from service.views.email_render import gettext as _
from service.views.email_render import ngettext
from service.views.sentences import headline_of, played_words, since_lines, who
from service.views.wording import catalog_of

KIND = "reply"
# A Message-ID as it may go back into our headers: one token in angle brackets, nothing that could
# end a header line or open another id (a reply's headers are the sender's to write).
MESSAGE_ID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>")
MAX_REFERENCES = 10  # of the reply's References kept (the oldest dropped, as RFC 5322 allows)
MAX_SINCE = 8  # lines of what happened since, in a stale answer
MAX_MOVES_SHOWN = 12  # of a choice that needs one more decision


def confirmations_on(session: Session, address_key: str) -> bool:
    """Whether the person (their address key) wants answers to their replies (default: yes)."""
    row = session.get(ReplySetting, address_key)
    return row is None or row.confirmations


def clean_ids(values: list[str]) -> list[str]:
    """The well-formed Message-IDs among `values`, in order, each once."""
    found: list[str] = []
    for value in values:
        for candidate in MESSAGE_ID.findall(value or ""):
            if candidate not in found:
                found.append(candidate)
    return found


def _threading(mail: Mail) -> dict[str, str]:
    params = mail.params
    parent = clean_ids([str(params.get("reply_id") or "")])[:1]
    references = clean_ids([str(ref) for ref in params.get("references") or []])[-MAX_REFERENCES:]
    chain = [ref for ref in references if ref not in parent] + parent
    if not chain:
        root = thread_root(mail.game, mail.player)
        return {"In-Reply-To": root, "References": root}
    return {"In-Reply-To": (parent or chain)[-1], "References": " ".join(chain)}


class _Answer:
    """The answer's facts in words for its reader, in the language being rendered: the positions it names
    built once each (by seq), in that language."""

    def __init__(self, session: Session, mail: Mail):
        self.session, self.mail = session, mail
        self.language = email_render.locale()
        self.seat = mail.player.seat
        self.catalog = lang.translations(self.language)
        # A game without a message catalog words its moves and events in English (kinds.quoted).
        self.game_english = catalog_of(mail.game.name) is None and self.language != lang.ENGLISH
        self._at: dict[int, tuple[positions.Position, list[positions.Step]]] = {}

    def choices_at(self, seq: int) -> tuple[positions.Position, list[positions.Step]]:
        """The position at `seq` and the choices a turn email of it lists (compose.one_click)."""
        if seq not in self._at:
            game = self.mail.game
            position = positions.build(self.session, game, self.seat, seq=seq, players=self.mail.players,
                                       language=self.language)
            self._at[seq] = (position, choices_of(position))
        return self._at[seq]

    def step(self, seq: int, ref: int | str) -> positions.Step | None:
        """The choice at `seq` the door judged: by its key (its first move's text: the same in every
        language), or by its number on an older row (numbered as English listed them)."""
        steps = self.choices_at(seq)[1]
        if isinstance(ref, str):
            return next((step for step in steps if step.key == ref), None)
        return steps[ref - 1] if 1 <= ref <= len(steps) else None

    def said(self, fact: Any) -> Any:
        """One fact in words (a number, a name, what the player wrote: as it is)."""
        if not isinstance(fact, Mapping):
            return fact
        if "said" in fact:
            params = {name: self.said(value) for name, value in dict(fact.get("params") or {}).items()}
            if fact.get("plural"):
                found = self.catalog.ngettext(str(fact["said"]), str(fact["plural"]), int(params["num"]))
            else:
                found = self.catalog.gettext(str(fact["said"])) if fact["said"] else ""
            return found % params if params else found
        if "seats" in fact:
            return lang.and_list([who(int(s), None, self.mail.names, self.language) for s in fact["seats"]],
                                 self.language)
        if "played" in fact:
            return self.catalog.gettext("; ").join(
                played_words(one, self.mail.game.name, self.mail.names, self.seat, self.language)
                for one in fact["played"])
        if "step" in fact:
            seq, ref = fact["step"]
            step = self.step(int(seq), ref)
            return step.label if step is not None else str(ref)
        return str(fact)

    def lines(self, fact: Any) -> list[tuple[str, bool]]:
        """A line fact as the lines it stands for, each with whether it is English (a game's without a
        catalog)."""
        if isinstance(fact, Mapping) and "since" in fact:
            return [(line, self.game_english) for line in self._since(*(int(seq) for seq in fact["since"]))]
        if isinstance(fact, Mapping) and "moves_of" in fact:
            seq, ref = int(fact["moves_of"][0]), fact["moves_of"][1]
            found = self.step(seq, ref)
            if found is None:
                return []
            position = self.choices_at(seq)[0]
            lines = [f"  {position.move_text(legal.move)}   ({legal.label})" for legal in found.moves[:MAX_MOVES_SHOWN]]
            if len(found.moves) > MAX_MOVES_SHOWN:
                lines.append("  " + _("... and more on your game page"))
            return [(line, self.game_english) for line in lines]
        text = str(self.said(fact) or "")
        return [(text, self.game_english and _game_fact(fact))] if text else []

    def _since(self, since: int, upto: int) -> list[str]:
        game, names = self.mail.game, self.mail.names
        position = positions.build(self.session, game, self.seat, seq=upto, since_seq=since, players=self.mail.players,
                                   language=self.language)
        shown, hidden = since_lines(position.since_events, self.seat, names,
                                    headline_of(game.name, self.seat, names, position.partners, self.language), MAX_SINCE,
                                    self.language)
        lines = [_("Since that email:"), *(f"- {line}" for line in shown)]
        if hidden:
            lines.append("- " + ngettext("and %(num)d more on your game page", "and %(num)d more on your game page",
                                         hidden))
        return lines


def _game_fact(fact: Any) -> bool:
    """Whether a fact holds the game's words (moves, choices)."""
    if isinstance(fact, Mapping):
        return any(key in fact for key in ("played", "step", "since", "moves_of")) or any(
            _game_fact(value) for value in dict(fact.get("params") or {}).values())
    return False


def _context(session: Session, mail: Mail) -> Context:
    params: dict[str, Any] = mail.params
    answer = _Answer(session, mail)
    lines: list[tuple[str, bool]] = []
    for line in params.get("lines") or []:
        lines += [(line, True)] if isinstance(line, str) else answer.lines(line)  # a string: an older row's English
    first = params.get("first") or ""
    choices = params.get("choices") or []
    if choices and len(choices[0]) == 3:  # an older row's: [number, label, text] in English
        shown = [(int(n), str(label), str(text)) for n, label, text in choices]
        choices_english = True
    else:
        at = params.get("choices_at")
        steps = {step.key: step for step in answer.choices_at(int(at))[1]} if at is not None and choices else {}
        shown = [(int(n), steps[key].label if key in steps else str(key), str(key)) for n, key in choices]
        choices_english = answer.game_english
    if answer.language == lang.ENGLISH:  # English reads English: its lines marked as they always were
        lines, choices_english = [(line, True) for line, _ in lines], True
    return {"answer_first": str(answer.said(first) or "") if isinstance(first, Mapping) else str(first),
            "answer_first_english": isinstance(first, str) or (answer.game_english and _game_fact(first)),
            "answer_lines": lines,
            "answer_choices": shown, "answer_choices_english": choices_english,
            # What the reply said, quoted back as table talk is told: a link in it is text, not a link
            # (whoever holds the reply address wrote it; our email must not carry their links).
            "answer_quoted": [unlinked(str(line)) for line in params.get("quoted") or []]}


def _wanted(session: Session, mail: Mail) -> bool:
    return confirmations_on(session, mail.player.address_key)


# `first` is worded from its facts in the reader's language; an older row's English is quoted as English.
def _line(context: Context) -> str:
    first = str(context.get("answer_first") or "")
    if not first:
        return _("We read your reply.")
    return quoted(context, first) if context.get("answer_first_english") else first


register(Kind(KIND, _line, template="email/reply",
              context=_context, wanted=_wanted, tag=lambda p: f"reply-{p['inbound']}", reply_to=False,
              auto_submitted="auto-replied", threading=_threading))
