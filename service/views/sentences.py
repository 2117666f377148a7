"""Every line of a game's history in words, written once and used by pages, emails and history.

- Engine events (kind "setup", "move", "timeout"): the engine's `event_messages(event, seat, state)`
  worded for the reader by service/views/wording.py (issue #26), or, for a game without messages yet,
  its English `describe_event(event, seat, state)` with names put in by `named`; either worded from the
  state the event was applied to, and by contract revealing nothing that seat may not see.  A timeout's events are the default move the service made for the seat, so the engine's
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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import engine
from engine.kit import plural
from engine.messages import Card, Cards, Message, Term
from service import lang
from service.games import adapter
from service.lang import ENGLISH, N_, translations
from service.names import unlinkable
from service.store.models import JournalEntry
from service.views.wording import Wording, seat_name, word

# Events that engines never see (kind "system"): type -> sentence.  {who} is the seat's player.
# "game_finished" is the recorded end of a game (service/play/ending.py); its payload holds the result.
SYSTEM_SENTENCES = {
    "game_finished": N_("The game is over."),
    "abandoned": N_("The game was abandoned."),
    "cancelled": N_("The game was cancelled."),
}

# A system event's reason: a code the service recorded ("no_players"), worded here.  English shows any
# code as words ("no players"), as before; another language shows the codes it knows, and the sentence
# alone for a code it does not (its words are not known to be anything but English).
SYSTEM_REASONS = {
    "no_players": N_("no players"),
}
# An unknown kind of system event, in a language other than English (English words its name).
SYSTEM_UNKNOWN = N_("The service recorded an event of its own.")

TIMEOUT_NOTE = lang.N_(" (Time ran out: the service made this move.)")

# Payload fields of service rows that may name a seat.
SEAT_FIELDS = ("seat", "player", "by_seat")

# What happens when a deadline passes, per timeout policy (service/clocks), for pages and emails.
# Marked for the catalogs (N_): the emails translate them (service/mail/kinds.py clock_context).
POLICY_WORDS = {
    "auto": N_("If the deadline passes, the game's safe default move is played for you."),
    "skip": N_("If the deadline passes, your turn is passed where the rules allow it (else the default move is played)."),
    "forfeit": N_("If the deadline passes, you forfeit the game."),
    "pause": N_("If the deadline passes, the game is paused and everyone is told."),
}

Names = Mapping[int, str] | None


class Worded(str):
    """A line worded from one message of a game: as a `str` its words in the reader's language; it keeps
    its message and the Wording that said it, so `merge_lines` merges such lines at the message level,
    in any language (issue #26), never by reading the words."""

    message: Message
    wording: Wording

    def __new__(cls, wording: Wording, message: Message) -> Worded:
        made = super().__new__(cls, wording(message))
        made.message, made.wording = message, wording
        return made

    def __reduce__(self) -> tuple:  # type: ignore[override]  # pickled as its words (a cache keeps lines)
        return str, (str(self),)


def who(seat: int | None, viewer: int | None, names: Names, language: str = lang.ENGLISH) -> str:
    """"You" for the viewer, else the player's name (public), else "Player N" (in `language`)."""
    words = translations(language)
    if seat is None:
        return words.gettext("Someone")
    if viewer is not None and seat == viewer:
        return words.gettext("You")
    return seat_name(seat, language, names)


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


def system_sentence(payload: Mapping[str, Any], actor: int | None, viewer: int | None, names: Names = None,
                    language: str = lang.ENGLISH) -> str:
    words = translations(language)
    kind = str(payload.get("type") or payload.get("kind") or "")
    template = SYSTEM_SENTENCES.get(kind)
    if template is None:
        # An unknown kind still gets a line (history must not silently drop anything), worded
        # from its name only: its other fields are not known to be public.  Its name is a code, which
        # English reads as words; another language says that the service recorded something.
        return f"{_words(kind)}." if language == lang.ENGLISH else words.gettext(SYSTEM_UNKNOWN)
    result = payload.get("result")
    if kind == "game_finished" and isinstance(result, Mapping):
        return _finished(result, viewer, names, language)
    sentence = words.gettext(template)
    reason = payload.get("reason")
    if isinstance(reason, str) and reason and "{" not in reason:
        # the reason is a code the service recorded (SYSTEM_REASONS)
        code = reason.strip().replace(" ", "_")
        if code in SYSTEM_REASONS:
            said = words.gettext(SYSTEM_REASONS[code])
        elif language == lang.ENGLISH:
            said = reason.replace("_", " ")
        else:
            return sentence
        sentence = words.gettext("%(sentence)s (%(reason)s).") % {
            "sentence": sentence.rstrip(".\u3002"), "reason": said}
    return sentence


def _finished(result: Mapping[str, Any], viewer: int | None, names: Names, language: str = lang.ENGLISH) -> str:
    words = translations(language)
    forfeited = result.get("forfeited")
    start = words.gettext("The game is over")
    if isinstance(forfeited, int) and not isinstance(forfeited, bool):
        if viewer is not None and forfeited == viewer:
            start = words.gettext("You ran out of time and forfeited; the game is over")
        else:
            start = words.gettext("%(name)s ran out of time and forfeited; the game is over") % {
                "name": who(forfeited, viewer, names, language)}
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    if not winners:
        return words.gettext("%(start)s, without a winner.") % {"start": start}
    named = [who(w, viewer, names, language) for w in winners]
    text = named[0] if len(named) == 1 else lang.and_list(named, language)
    return words.ngettext("%(start)s: %(names)s won.", "%(start)s: %(names)s won.", len(named)) % {
        "start": start, "names": text}


def event_sentence(
    rules: engine.Game, payload: dict[str, Any], kind: str, actor: int | None, viewer: int | None,
    state: dict[str, Any] | None, names: Names = None, language: str = lang.ENGLISH,
) -> str | None:
    """The event as a sentence for `viewer` (None: a spectator), `state` being the state it was applied
    to (the engine words it from there); None if it is not worth a line.

    A game that speaks in messages (`event_messages`) is worded in `language` by service/views/wording.py,
    its seats made names there; the others' English sentences still get their names by `named`."""
    if kind == "system":
        return system_sentence(payload, actor, viewer, names, language)
    messages = rules.event_messages(payload, viewer, state)
    if messages is not None:
        wording = Wording(rules.name, language, viewer, names, partners_of(rules, state, viewer))
        if len(messages) == 1 and kind != "timeout":
            return Worded(wording, messages[0]) or None  # one message: merge_lines may merge it with others
        text = lang.sentences((wording(message) for message in messages), language) or None
    else:
        text = named(rules.describe_event(payload, viewer, state) or "", names, viewer) or None
    if text and kind == "timeout":
        text = text + lang.translations(language).gettext(TIMEOUT_NOTE)
    return text


def partners_of(rules: engine.Game, state: dict[str, Any] | None, viewer: int | None) -> list[int]:
    """The viewer's teammates ("your partner" in messages)."""
    if viewer is None or state is None:
        return []
    return [seat for team in rules.teams(state) if viewer in team for seat in team if seat != viewer]


def move_words(rules: engine.Game, move: dict[str, Any], state: dict[str, Any] | None, names: Names = None,
               viewer: int | None = None, language: str = lang.ENGLISH) -> str:
    """A move in words, for buttons, links and confirm pages: the engine's message worded for `viewer`
    in `language`, or, for a game without messages, its English `describe_move`."""
    message = rules.move_message(move, state)
    if message is None:
        return rules.describe_move(move, state)
    return Wording(rules.name, language, viewer, names, partners_of(rules, state, viewer))(message)


def move_fact(rules: engine.Game, move: dict[str, Any], state: dict[str, Any] | None) -> str | dict[str, Any]:
    """A move as stored data says it (the timed-out email's outbox params): the engine's message as JSON,
    facts only, worded when the email is made (`played_words`); a game without messages: its English."""
    message = rules.move_message(move, state)
    return rules.describe_move(move, state) if message is None else {"message": message.to_json()}


def played_words(played: str | Mapping[str, Any], game: str, names: Names = None, viewer: int | None = None,
                 language: str = lang.ENGLISH) -> str:
    """A stored move (`move_fact`) in words: a message worded for the reader, an older row's words as they are."""
    if isinstance(played, Mapping) and "message" in played:
        return word(played["message"], game, language, viewer, names)
    return str(played)


def journal_sentence(entry: JournalEntry, names: Names = None, viewer: int | None = None,
                     language: str | None = None) -> str:
    """A journal entry (reminder, vacation, pause...) as one sentence for players and the history;
    `viewer`: the seat reading it (its own entries say "you").  `language` (service/lang.py): the
    notice emails word it in their reader's; None: English, as the pages and the lines of what
    happened since still say it (docs/i18n.md)."""
    if language is not None and language != ENGLISH:
        return _journal_words(entry, names, viewer, language)
    names = dict(names or {})
    you = viewer is not None and entry.seat == viewer
    whom = names.get(entry.seat, f"seat {entry.seat + 1}") if entry.seat is not None else ""
    data = entry.payload or {}
    if entry.kind == "reminder":
        left = plural(int(data.get("hours") or 0), "hour")
        return (f"You were reminded: {left} left to move." if you
                else f"{whom} was reminded: {left} left to move.")
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


def _journal_words(entry: JournalEntry, names: Names, viewer: int | None, language: str) -> str:
    """journal_sentence in `language`, from the catalogs (the same sentences, whole, with CLDR's plurals)."""
    words = translations(language)

    def _(message: str, **values: Any) -> str:
        return words.gettext(message) % values if values else words.gettext(message)

    names = dict(names or {})
    you = viewer is not None and entry.seat == viewer
    whom = (names.get(entry.seat) or _("seat %(number)s", number=entry.seat + 1)) if entry.seat is not None else ""
    data = entry.payload or {}
    if entry.kind == "reminder":
        hours = int(data.get("hours") or 0)
        if you:
            return words.ngettext("You were reminded: %(num)d hour left to move.",
                                  "You were reminded: %(num)d hours left to move.", hours) % {"num": hours}
        return words.ngettext("%(name)s was reminded: %(num)d hour left to move.",
                              "%(name)s was reminded: %(num)d hours left to move.", hours) % {"num": hours, "name": whom}
    if entry.kind == "vacation_start":
        return (_("You are on vacation: your clock is stopped until you are back.") if you
                else _("%(name)s is on vacation: their clock is stopped until they are back.", name=whom))
    if entry.kind == "vacation_end":
        return (_("You are back from vacation: your clock runs again.") if you
                else _("%(name)s is back from vacation: their clock runs again.", name=whom))
    if entry.kind == "paused":
        if data.get("reason") == "timeouts":
            rounds = int(data.get("rounds") or 0)
            return words.ngettext(
                "The game is paused: every player's turns timed out %(num)d round in a row. It resumes, with "
                "fresh clocks, when anyone plays.",
                "The game is paused: every player's turns timed out %(num)d rounds in a row. It resumes, with "
                "fresh clocks, when anyone plays.", rounds) % {"num": rounds}
        if you:
            return _("The game is paused: you ran out of time. It resumes, with fresh clocks, when you play.")
        return _("The game is paused: %(name)s ran out of time. It resumes, with fresh clocks, when %(name)s plays.",
                 name=whom)
    if entry.kind == "resumed":
        if you:
            return _("The game resumed: you played. The clocks run again.")
        by = unlinkable(str(data.get("by") or ""), fallback=whom)
        return _("The game resumed: %(name)s played. The clocks run again.", name=by)
    if entry.kind == "forfeit":
        return (_("You ran out of time and forfeited the game.") if you
                else _("%(name)s ran out of time and forfeited the game.", name=whom))
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


# Argument kinds a merge may list: what is done to (cards, a player's card, a word of the game), never
# who does it (a seat), how many (a count: its plural form would change), a number or a place.
_LISTABLE = (Card, Cards, Term, Message)


def _one_message(text: str, first: Worded) -> Message | None:
    """The message of `text` if it is a line of the same game, reader and language as `first`."""
    if not isinstance(text, Worded):
        return None
    same = (text.wording.catalog.domain == first.wording.catalog.domain and text.wording.language == first.wording.language
            and text.wording.reader == first.wording.reader)
    return text.message if same and text.message.key == first.message.key else None


def _differing(messages: Sequence[Message]) -> str | None:
    """The one argument in which messages of one key differ, if it is one a list may stand for; None
    for messages that differ in more, in another kind of argument, or not at all."""
    names = [name for name, _ in messages[0].args]
    if any([name for name, _ in m.args] != names for m in messages[1:]):
        return None
    differ = {name for m in messages[1:] for name in names if m.arg(name) != messages[0].arg(name)}
    if len(differ) != 1:
        return None
    name = differ.pop()
    return name if all(isinstance(m.arg(name), _LISTABLE) for m in messages) else None


def _merged_messages(texts: list[str], language: str) -> list[str]:
    """merge_lines in a language other than English, at the message level: consecutive lines of one
    message each (Worded) that are the same message several times ("... (3 рази)."), or one key whose
    messages differ only in what is done to (Wording.merged: "Bo викладає «Вогонь 5» і «Вогонь 6» ...").
    Other lines stay as they are."""
    words = translations(language)
    out: list[str] = []
    i = 0
    while i < len(texts):
        first = texts[i]
        if not isinstance(first, Worded):
            out.append(first)
            i += 1
            continue
        group = [first.message]
        end = i + 1
        while end < len(texts) and (found := _one_message(texts[end], first)) is not None:
            trial = [*group, found]
            if not (all(m == group[0] for m in trial) or _differing(trial) is not None):
                break
            group, end = trial, end + 1
        if len(group) == 1:
            out.append(first)
        elif all(m == group[0] for m in group):
            out.append(words.ngettext("%(sentence)s (%(num)d time).", "%(sentence)s (%(num)d times).", len(group)) % {
                "sentence": str(first).rstrip(".\u3002"), "num": len(group)})
        else:
            out.append(first.wording.merged(group, str(_differing(group))))
        i = end
    return out


def merge_lines(texts: list[str], language: str = lang.ENGLISH) -> list[str]:
    """Consecutive sentences that say one thing several times, said once.  English reads its words
    (see _merged: "and", "(3 times)"); the other languages merge at the message level the lines worded
    from one message each (_merged_messages), their lists and counts in their own words."""
    if language != lang.ENGLISH:
        return _merged_messages(texts, language)
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


class Said(Protocol):
    """An event or journal entry as the emails' summaries read it (positions.SinceEvent)."""

    text: str | None
    actor: int | None
    kind: str
    doer: int | None
    weight: int


# The game's headline of a run (Adapter.headline), worded by the caller in the reader's language.
Headline = Callable[[Sequence[Any]], "list[str] | None"]
TURN_KINDS = ("move", "timeout")


def headline_of(game: str, viewer: int | None, names: Names = None, partners: Sequence[int] = (),
                language: str = lang.ENGLISH) -> Headline:
    """The game's headline (Adapter.headline) for one reader: its messages worded in `language`."""
    found = adapter(game)

    def headline(run: Sequence[Any]) -> list[str] | None:
        said = found.headline(run, viewer)
        if said is None:
            return None
        wording = Wording(game, language, viewer, names, partners)
        return [Worded(wording, part) if isinstance(part, Message) else part for part in said]

    return headline


def _runs(events: Sequence[Said], viewer: int | None) -> list[list[Said]]:
    """The events of decisions (moves, timeouts) that are not the viewer's own doing, in runs of one
    doer each (a player's turn, the game's own phase), in order."""
    runs: list[list[Said]] = []
    for event in events:
        if event.kind not in TURN_KINDS or (event.doer == viewer and viewer is not None):
            continue
        if runs and runs[-1][0].doer == event.doer:
            runs[-1].append(event)
        else:
            runs.append([event])
    return runs


def run_sentence(run: Sequence[Said], viewer: int | None, names: Names = None,
                 headline: Headline | None = None, cap: int = 1000, language: str = lang.ENGLISH) -> str | None:
    """What a run did, in at most `cap` characters: the game's headline sentences for it (as many whole
    ones as fit), else the first sentence among its heaviest events (merged: "Bo played Fire 5 and
    Fire 6 at location 3."), else, for a player's turn of which no event has words, "Bo took their
    turn." (None for the game's own run without words).  A first sentence longer than `cap` is cut."""
    said = [text for text in (headline(run) or []) if text] if headline is not None else []
    if said:
        sentences = merge_lines(said, language)
    else:
        worded = [event for event in run if event.text]
        if worded:
            top = max(event.weight for event in worded)
            sentences = merge_lines([event.text for event in worded if event.weight == top and event.text],
                                    language)[:1]
        elif run[0].doer is not None:
            sentences = [translations(language).gettext("%(name)s took their turn.") % {
                "name": who(run[0].doer, viewer, names, language)}]
        else:
            return None
    text = _clip(sentences[0], cap)
    gap = lang.sentence_gap(language)
    for more in sentences[1:]:
        if len(text) + len(gap) + len(more) > cap:
            break
        text = f"{text}{gap}{more}"
    return text


def _clip(text: str, cap: int) -> str:
    return text if len(text) <= cap else text[:cap - 1].rstrip() + "\u2026"


BEFORE = N_("Before that:")


def summary(events: Sequence[Said], viewer: int | None, names: Names = None, headline: Headline | None = None,
            cap: int = 150, most: int = 2, language: str = lang.ENGLISH) -> str:
    """What the others did since the viewer's last turn, for the first line of an email (a mail
    client's preview shows its start): the newest turn first, as `run_sentence` says it, then the one
    before ("Before that: ..."), at most `most` turns in `cap` characters, and how many earlier turns
    it leaves out ("Plus 2 earlier turns.").  A turn is a run of one doer's events (_runs): another
    player's, or the game's own (an enemy phase, an automatic opponent: the adapter's `doer`).  The
    viewer's own moves are left out, except a note when time ran out on them."""
    words = translations(language)
    before = f" {words.gettext(BEFORE)} "
    timed_out = viewer is not None and any(e.actor == viewer and e.kind == "timeout" for e in events)
    note = words.gettext("Time ran out on your last turn; the game played it for you.") if timed_out else ""
    runs = _runs(events, viewer)
    room = max(cap - (len(note) + 1 if note else 0), 40)
    kept: list[str] = []
    told = 0
    for run in reversed(runs):
        if kept and len(kept) >= most:
            break
        left = room - len(before.join(kept)) - (len(before) if kept else 0)
        text = run_sentence(run, viewer, names, headline, left if kept else room, language)
        if text is None:
            told += 1  # nothing to say of it, nothing to count
            continue
        if kept and (len(text) > left or text.endswith("\u2026")):
            break  # an earlier turn is told whole or not at all
        kept.append(text)
        told += 1
    earlier = len(runs) - told
    said = before.join(kept) + (lang.sentence_gap(language) + words.ngettext(
        "Plus %(num)d earlier turn.", "Plus %(num)d earlier turns.", earlier) % {"num": earlier} if earlier else "")
    return lang.sentences((note, said), language)


def _own_line(own: Sequence[Said], language: str = lang.ENGLISH) -> str | None:
    """The viewer's own events in one line: the first of the heaviest, and how many more there are
    ("You play Flame Lance, and 7 more actions of your own.")."""
    if not own:
        return None
    top = max(event.weight for event in own)
    first = str(next(event.text for event in own if event.weight == top))
    rest = len(own) - 1
    if not rest:
        return first
    return translations(language).ngettext("%(first)s, and %(num)d more action of your own.",
                                           "%(first)s, and %(num)d more actions of your own.", rest) % {
        "first": first.rstrip(".\u3002"), "num": rest}


def since_lines(events: Sequence[Said], viewer: int | None, names: Names = None, headline: Headline | None = None,
                cap: int = 8, language: str = lang.ENGLISH) -> tuple[list[str], int]:
    """The lines of what happened since, at most `cap`, and how many sentences they leave out: the
    others' events and the game's own first, in order (the viewer's own decisions, which they know,
    are one last line: _own_line); when they are too many, the heaviest stay (the adapter's
    `weight`: news before usual events before bookkeeping), still in order and merged (merge_lines).
    Another player's turn of which no event has words gets its `run_sentence` ("Bo checked: scored 0
    Riftforce and drew 0 cards.")."""
    own: list[Said] = []
    others: list[tuple[str, int]] = []  # (sentence, weight), in order
    for run_or_event in _with_silent_runs(events, viewer, names, headline, language):
        if isinstance(run_or_event, tuple):
            others.append(run_or_event)
            continue
        event = run_or_event
        if not event.text:
            continue
        if event.kind == "move" and event.doer == viewer and viewer is not None:
            own.append(event)
        else:
            others.append((event.text, event.weight))
    own_line = _own_line(own, language)
    room = cap - (1 if own_line else 0)
    every = merge_lines([text for text, _ in others], language)
    # "And 1 more" would hide a line behind a link as long as the line itself: show it instead.
    if len(every) <= room + 1:
        return every + ([own_line] if own_line else []), 0
    chosen: list[int] = []
    shown: list[str] = []
    for index in sorted(range(len(others)), key=lambda i: (-others[i][1], i)):
        trial = sorted([*chosen, index])
        merged = merge_lines([others[i][0] for i in trial], language)
        if len(merged) <= room:
            chosen, shown = trial, merged
            if len(merged) == room:
                break
    return shown + ([own_line] if own_line else []), len(others) - len(chosen)


def _with_silent_runs(events: Sequence[Said], viewer: int | None, names: Names,
                      headline: Headline | None, language: str = lang.ENGLISH) -> list[Any]:
    """The events, with a (sentence, weight) after each run of another player without words."""
    silent = {id(run[-1]): run for run in _runs(events, viewer)
              if run[0].doer is not None and not any(event.text for event in run)}
    out: list[Any] = []
    for event in events:
        out.append(event)
        if id(event) in silent and (text := run_sentence(silent[id(event)], viewer, names, headline,
                                                          language=language)):
            out.append((text, 1))
    return out
