"""Every line of a game's history in words, written once and used by pages, emails and history.

- Engine events (kind "setup", "move", "timeout"): the engine's `describe_event(event, seat, state)`,
  worded from the state the event was applied to, and by contract revealing nothing that seat may
  not see.  A timeout's events are the default move the service made for the seat, so the engine's
  sentence gets a note saying so.
- Service events (kind "system", e.g. the end of a game decided by the service): engines never see
  them, so their words come from the table below.
- Journal entries (reminders, vacations, pauses; service/store/journal.py): `journal_sentence`, also
  the words of the notice emails that tell about them.

Service payloads hold public details only, and the words below use only seats, player names and
the few fields named here, so nothing hidden can pass through them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import engine
from service.names import unlinkable
from service.store.models import JournalEntry

# Events that engines never see (kind "system"): type -> sentence.  {who} is the seat's player.
# "game_finished" is the recorded end of a game (service/play/ending.py); its payload holds the result.
SYSTEM_SENTENCES = {
    "game_finished": "The game is over.",
    "abandoned": "The game was abandoned.",
    "cancelled": "The game was cancelled.",
}

TIMEOUT_NOTE = " (Time ran out: the service made this move.)"

# Payload fields of service rows that may name a seat.
SEAT_FIELDS = ("seat", "player", "by_seat")

# What happens when a deadline passes, per timeout policy (service/clocks), for pages and emails.
POLICY_WORDS = {
    "auto": "If the deadline passes, the game's safe default move is played for you.",
    "skip": "If the deadline passes, your turn is passed where the rules allow it (else the default move is played).",
    "forfeit": "If the deadline passes, you forfeit the game.",
    "pause": "If the deadline passes, the game is paused and everyone is told.",
}

Names = Mapping[int, str] | None


def who(seat: int | None, viewer: int | None, names: Names) -> str:
    """"You" for the viewer, else the player's name (public), else "Player N"."""
    if seat is None:
        return "Someone"
    if viewer is not None and seat == viewer:
        return "You"
    if names and seat in names:
        return names[seat]
    return f"Player {seat + 1}"


_PLAYER = re.compile(r"\b(?:[Pp]layer|[Ss]eat) (\d{1,2})\b")
_MARK = re.compile(r"\[P(\d{1,2})\]")  # a text board's owner mark, "Fire 5 [P2]"
_OPPONENT = re.compile(r"\bOpponent\b")


def named(text: str, names: Names, viewer: int | None = None) -> str:
    """Engine words with the players' names in them: an engine knows seats, not people, so it says
    "Player 2", "Seat 2" or "[P2]" (and, to one of two players, "Opponent"); the service knows who sits there.  Nothing
    hidden can pass: only public seat names are put in."""
    if not names or not text:
        return text
    text = _PLAYER.sub(lambda m: names.get(int(m.group(1)) - 1, m.group(0)), text)
    text = _MARK.sub(lambda m: f"[{names[int(m.group(1)) - 1]}]" if int(m.group(1)) - 1 in names else m.group(0), text)
    if viewer is not None and viewer in names and len(names) == 2:
        other = next(name for seat, name in names.items() if seat != viewer)
        text = _OPPONENT.sub(other, text)
    return text


def _seat_of(payload: Mapping[str, Any], fallback: int | None) -> int | None:
    for key in SEAT_FIELDS:
        if isinstance(payload.get(key), int) and not isinstance(payload.get(key), bool):
            return payload[key]
    return fallback


def _words(kind: str) -> str:
    return kind.replace("_", " ").strip().capitalize() or "Something happened"


def system_sentence(payload: Mapping[str, Any], actor: int | None, viewer: int | None, names: Names = None) -> str:
    kind = str(payload.get("type") or payload.get("kind") or "")
    template = SYSTEM_SENTENCES.get(kind)
    if template is None:
        # An unknown kind still gets a line (history must not silently drop anything), worded
        # from its name only: its other fields are not known to be public.
        return f"{_words(kind)}."
    result = payload.get("result")
    if kind == "game_finished" and isinstance(result, Mapping):
        return _finished(result, viewer, names)
    sentence = template.format(who=who(_seat_of(payload, actor), viewer, names))
    reason = payload.get("reason")
    if isinstance(reason, str) and reason and "{" not in reason:
        sentence = f"{sentence[:-1]} ({reason.replace('_', ' ')})."
    return sentence


def _finished(result: Mapping[str, Any], viewer: int | None, names: Names) -> str:
    forfeited = result.get("forfeited")
    start = "The game is over"
    if isinstance(forfeited, int) and not isinstance(forfeited, bool):
        start = f"{who(forfeited, viewer, names)} ran out of time and forfeited; the game is over"
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    if not winners:
        return f"{start}, without a winner."
    named = [who(w, viewer, names) for w in winners]
    text = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"{start}: {text} won."


def event_sentence(
    rules: engine.Game, payload: dict[str, Any], kind: str, actor: int | None, viewer: int | None,
    state: dict[str, Any] | None, names: Names = None,
) -> str | None:
    """The event as a sentence for `viewer` (None: a spectator), `state` being the state it was applied
    to (the engine words it from there); None if it is not worth a line."""
    if kind == "system":
        return system_sentence(payload, actor, viewer, names)
    text = named(rules.describe_event(payload, viewer, state) or "", names, viewer) or None
    if text and kind == "timeout":
        text = text + TIMEOUT_NOTE
    return text


def journal_sentence(entry: JournalEntry, names: Names = None, viewer: int | None = None) -> str:
    """A journal entry (reminder, vacation, pause...) as one sentence for players and the history;
    `viewer`: the seat reading it (its own entries say "you")."""
    names = dict(names or {})
    you = viewer is not None and entry.seat == viewer
    whom = names.get(entry.seat, f"seat {entry.seat + 1}") if entry.seat is not None else ""
    data = entry.payload or {}
    if entry.kind == "reminder":
        return (f"You were reminded: {data.get('hours')} hours left to move." if you
                else f"{whom} was reminded: {data.get('hours')} hours left to move.")
    if entry.kind == "vacation_start":
        return ("You are on vacation: your clock is stopped until you are back." if you
                else f"{whom} is on vacation: their clock is stopped until they are back.")
    if entry.kind == "vacation_end":
        return ("You are back from vacation: your clock runs again." if you
                else f"{whom} is back from vacation: their clock runs again.")
    if entry.kind == "paused":
        if data.get("reason") == "timeouts":
            return (f"The game is paused: every player's turns timed out {data.get('rounds')} rounds "
                    "in a row. It resumes, with fresh clocks, when anyone plays.")
        if you:
            return "The game is paused: you ran out of time. It resumes, with fresh clocks, when you play."
        return f"The game is paused: {whom} ran out of time. It resumes, with fresh clocks, when {whom} plays."
    if entry.kind == "resumed":
        by = unlinkable(str(data.get("by") or ""), fallback=whom)  # the name as it was stored then
        return f"The game resumed: {'you' if you else by} played. The clocks run again."
    if entry.kind == "forfeit":
        return ("You ran out of time and forfeited the game." if you
                else f"{whom} ran out of time and forfeited the game.")
    return str(entry.kind).replace("_", " ")


# ---- many lines in few words: the emails' "what happened since" and their first line ---------------

_NUMBER = re.compile(r"^\d+\W*$")
_LINKING = {"the", "a", "an", "of", "to", "at", "in", "on", "from", "with", "by", "and", "or"}


def _one_sentence(text: str) -> bool:
    body = text.rstrip(".")
    return text.endswith(".") and ". " not in body and "; " not in body and ": " not in body


def _merged(texts: list[str]) -> tuple[int, str] | None:
    """Sentences that say one thing several times, in one, and the number of words they share at the
    start: "Bo played Crystal 6 at location 5." and "Bo played Air 6 at location 5." make "Bo played
    Crystal 6 and Air 6 at location 5."; one sentence three times makes "... (3 times)".  None when
    they do not share a subject and its verb (the shared start must end on a lower-case word that is
    not a linking word, and what follows it must differ from the first word on, or only in a number:
    "Fire 5" and "Fire 6")."""
    if len(set(texts)) == 1:
        return len(texts[0].split()), f"{texts[0][:-1]} ({len(texts)} times)."
    words = [text[:-1].split() for text in texts]
    prefix = 0
    while all(len(w) > prefix + 1 for w in words) and len({w[prefix] for w in words}) == 1:
        prefix += 1
    while prefix and any(_NUMBER.match(w[prefix]) for w in words):
        prefix -= 1  # never split a card's name from its number ("Fire" | "5")
    last = words[0][prefix - 1] if prefix else ""
    if prefix < 2 or not last.isalpha() or not last.islower() or last in _LINKING:
        return None
    rests = [w[prefix:] for w in words]
    same = 0
    while all(len(r) > same for r in rests) and len({r[same] for r in rests}) == 1:
        same += 1
    if same and not (all(len(r) > same and _NUMBER.match(r[same]) for r in rests)):
        return None  # they part later than the verb: not one thing said several times
    suffix = 0
    while (all(len(w) > prefix + suffix + 1 for w in words)
           and len({w[len(w) - suffix - 1] for w in words}) == 1):
        suffix += 1
    while suffix and any(_NUMBER.match(w[len(w) - suffix]) for w in words):
        suffix -= 1  # the same: "Crystal 6" and "Air 6" keep their numbers
    parts = [" ".join(w[prefix:len(w) - suffix]) for w in words]
    head = " ".join(words[0][:prefix])
    tail = " ".join(words[0][len(words[0]) - suffix:]) if suffix else ""
    joined = ", ".join(parts[:-1]) + " and " + parts[-1]
    return prefix, f"{head} {joined}{' ' + tail if tail else ''}."


def merge_lines(texts: list[str]) -> list[str]:
    """Consecutive sentences that say one thing several times, said once (see _merged)."""
    out: list[str] = []
    i = 0
    while i < len(texts):
        text, end = texts[i], i + 1
        pair = _merged(texts[i:i + 2]) if i + 1 < len(texts) and _one_sentence(texts[i]) else None
        if pair is not None and _one_sentence(texts[i + 1]):
            shared, text = pair
            end = i + 2
            while end < len(texts) and _one_sentence(texts[end]):
                more = _merged(texts[i:end + 1])
                # the same sentence repeated may yet go on with others that share its subject and verb
                if more is None or (more[0] != shared and len(set(texts[i:end])) > 1):
                    break
                shared, text, end = more[0], more[1], end + 1
        out.append(text)
        i = end
    return out


def summary(lines: list[tuple[str | None, int | None, str, bool]], viewer: int | None, names: Names = None,
            cap: int = 150, most: int = 2) -> str:
    """What the other players did since the viewer's last turn, in a sentence or two for the first
    line of an email: the first thing each other player's turn did (its sentences merged, minor ones
    passed over if it has others), in order, at most `most` sentences and as many as fit in `cap`
    characters.  `lines`: (sentence or None for an event without words, the seat whose decision
    caused it, the event's kind, whether it is minor: the game's adapter says which events are).  A
    turn of which no event has words (a Check that scored and drew nothing) is "Bo took their turn."
    The viewer's own moves are left out, except a note when time ran out on them."""
    runs: list[tuple[int, list[str], list[str]]] = []  # (actor, sentences, minor sentences)
    timed_out = False
    for text, actor, kind, minor in lines:
        if actor == viewer and kind == "timeout":
            timed_out = True
        if actor is None or actor == viewer or kind not in ("move", "timeout"):
            continue
        if not runs or runs[-1][0] != actor:
            runs.append((actor, [], []))
        if text:
            (runs[-1][2] if minor else runs[-1][1]).append(text)
    said: list[str] = ["Time ran out on your last turn; the game played it for you."] if timed_out else []
    for actor, texts, small in runs:
        main = texts or small
        first = merge_lines(main)[0] if main else f"{who(actor, viewer, names)} took their turn."
        if said and (len(said) >= most or len(" ".join(said + [first])) > cap):
            break
        said.append(first if len(first) <= cap else first[:cap - 1].rstrip() + "\u2026")
    return " ".join(said)
