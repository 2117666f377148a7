"""A game's messages in words, for one reader in one language (issue #26, docs/i18n.md "Game messages").

An engine that speaks in messages (engine/messages.py) hands the service a key and typed arguments;
this module words them, and is the only place that does:

- the sentence is the game's catalog entry: the key is the gettext context, the English the msgid
  (the adapter's `GameCatalog`), translated by the game's domain (service/translations/<language>/
  LC_MESSAGES/<domain>.po); a message with a `Count` takes the plural form CLDR gives its number;
- a `Seat` is the player's name (a teammate's too: players asked to read their partner's name, issue
  #22 item 9; the turn order marks who the partner is), "your partner" for a nameless teammate, else
  "Player N"; a message whose `actor` is the reader takes the catalog's `<key>.you` form
  where it has one ("Turn 4: your turn.");
- a `Card` is the card's name in the catalog (context "card"), `Cards` a list by CLDR ("A, B і C");
- a `Place` is `place.<kind>.<index>` (or `place.<kind>` with its number), a `Term` its catalog word.

Nothing here reads a sentence back: no regular expression edits what a catalog says.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from babel.lists import format_list

from engine.messages import Arg, Card, Cards, Clause, Count, Joined, Message, Number, Place, Seat, Term, msg
from service import lang
from service.games import GameCatalog, adapter

Names = Mapping[int, str] | None


def catalog_of(game: str) -> GameCatalog | None:
    """The message catalog of the game registered under `game`, None if it has none yet."""
    return adapter(game).catalog


def seat_name(seat: int, language: str, names: Names, partners: Collection[int] = ()) -> str:
    """A seat for a reader: the player's name, "your partner" (a teammate of the reader with no name
    known), "Player N"."""
    if names and seat in names:
        return names[seat]
    words = lang.translations(language)
    if seat in partners:
        return words.gettext("your partner")
    return words.gettext("Player %(n)s") % {"n": seat + 1}


class Wording:
    """Words messages of one game for one reader (`reader`: the seat reading; None: a spectator or
    anyone) in one language; `names`: seat -> player name; `partners`: the reader's teammates."""

    def __init__(self, game: str, language: str = lang.ENGLISH, reader: int | None = None, names: Names = None,
                 partners: Collection[int] = ()):
        found = catalog_of(game)
        if found is None:
            raise LookupError(f"the game {game!r} has no message catalog")
        self.catalog = found
        self.language = language
        self.reader = reader
        self.names = names
        self.partners = frozenset(partners)
        self.words = lang.translations(language, found.domain)

    # ---- the catalog ---------------------------------------------------------------------------------

    def _entry(self, key: str, count: int | None) -> str:
        english = self.catalog.messages.get(key)
        if english is None:
            raise KeyError(f"{self.catalog.domain}: no message {key!r} in the catalog")
        if isinstance(english, tuple):
            return str(self.words.npgettext(key, english[0], english[1], 1 if count is None else count))
        return str(self.words.pgettext(key, english))

    def term(self, kind: str, word: str) -> str:
        english = self.catalog.terms.get((kind, word), word)
        return str(self.words.pgettext(kind, english))

    def card(self, cid: str) -> str:
        english = self.catalog.card_names.get(cid)
        return cid if english is None else self.card_named(english)

    def card_named(self, english: str) -> str:
        """A card by its English name (a view that carries names, not ids: a board's discard pile): the
        catalog's translation of that name, the name itself when the catalog has none."""
        return str(self.words.pgettext("card", english)) if english else english

    def cards(self, ids: tuple[str, ...]) -> str:
        # English keeps its own list ("A, B, C": the sentences said so before messages, and CLDR's "unit"
        # list of English says the same), joined here: Babel's locale data is ~4 MB a worker that
        # writes English need not load.  The others are CLDR's.
        names = [self.card(cid) for cid in ids]
        if self.language == lang.ENGLISH:
            return ", ".join(names)
        return format_list(names, style="standard", locale=self.language) if names else ""

    def and_list(self, items: Collection[Any]) -> str:
        """Words joined as a list in the reader's language ("1, 2 and 3", "1, 2 і 3", "1、2和3")."""
        return lang.and_list([str(item) for item in items], self.language)

    # ---- words -----------------------------------------------------------------------------------------

    def __call__(self, message: Message | Mapping[str, Any]) -> str:
        """The message (or its JSON form, as a view carries it) as a sentence: its first letter
        upper-cased where a seat or a phrase starts it ("Your partner flips ...", "Your Fire 5 moved ...")."""
        if not isinstance(message, Message):
            message = Message.from_json(message)
        text, template = self._worded(message)
        return self._capitalised(message, text, template)

    def merged(self, messages: Sequence[Message], name: str) -> str:
        """Messages of one key that differ only in their argument `name`, said once, that argument's
        values listed in the reader's language ("Bo викладає «Вогонь 5» і «Вогонь 6» на території 3."):
        the first message's sentence with the list in its place (sentences.merge_lines)."""
        first = messages[0]
        listed = lang.and_list([self.arg(message.arg(name)) for message in messages], self.language)
        text, template = self._worded(first, {name: listed})
        return self._capitalised(first, text, template)

    def _capitalised(self, message: Message, text: str, template: str) -> str:
        if template.startswith("{") and text[:1].islower():
            first = message.arg(template[1:template.index("}")])
            if isinstance(first, Seat | Message):
                text = text[0].upper() + text[1:]
        return text

    def _worded(self, message: Message, given: Mapping[str, str] | None = None) -> tuple[str, str]:
        """The message in words, as its catalog says it (a phrase inside a sentence keeps its case:
        "... to your partner's Fire 5."), and the template used."""
        key = message.key
        actor = message.arg("actor")
        if (isinstance(actor, Seat) and self.reader is not None and actor.n == self.reader
                and f"{key}.you" in self.catalog.messages):
            key = f"{key}.you"
        counts = [value.n for _, value in message.args if isinstance(value, Count)]
        template = self._entry(key, counts[0] if counts else None)
        values = {name: self.arg(value) for name, value in message.args}
        values.update(given or {})
        return template.format(**values), template

    def arg(self, value: Arg) -> str:
        if value is None:
            return ""
        if isinstance(value, Message):
            return self._worded(value)[0]
        if isinstance(value, Seat):
            return seat_name(value.n, self.language, self.names, self.partners)
        if isinstance(value, Card):
            return self.card(value.id)
        if isinstance(value, Cards):
            return self.cards(value.ids)
        if isinstance(value, Count | Number):
            return str(value.n)
        if isinstance(value, Term):
            return self.term(value.kind, value.word)
        if isinstance(value, Place):
            own = f"place.{value.kind}.{value.index}"
            return self._worded(msg(own) if own in self.catalog.messages
                                else msg(f"place.{value.kind}", n=Number(value.index + 1)))[0]
        if isinstance(value, Clause):
            text = self._worded(value.message)[0]
            return text[:1].lower() + text[1:]
        if isinstance(value, Joined):
            return self._worded(msg(value.separator))[0].join(self._worded(m)[0] for m in value.messages)
        raise TypeError(f"not a message argument: {value!r}")


def word(message: Message | Mapping[str, Any], game: str, language: str = lang.ENGLISH, reader: int | None = None,
         names: Names = None, partners: Collection[int] = ()) -> str:
    """One message (or its stored JSON form) in words for a reader."""
    if not isinstance(message, Message):
        message = Message.from_json(message)
    return Wording(game, language, reader, names, partners)(message)
