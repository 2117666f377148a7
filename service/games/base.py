"""What the service needs to know of one game beyond the engine contract, and the defaults.

An adapter is looked up by the engine's name (service/games/__init__.py).  The service core asks it
for: the game's one-line summary, its modes and player counts and its rules page (the list of games
and /rules/<game>), the board template pages and emails draw, the start form's options and what they give,
the command line's shorthands, the words for a result, the cards of a hand, and a follow-up game
(the next part of a campaign).  A game without an adapter of its own gets `Adapter` as it is: a text
board, no fieldset, options typed as KEY=VALUE, winners named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.messages import Message
from service import lang

FormData = Mapping[str, str]
# A name in a subject is cut to this many characters (the subject names every player).
NAME_CAP = 20
# The title of the page that says a follow-up game could not be started.
FOLLOW_UP_TITLE = lang.N_("The next game was not started")


@dataclass(frozen=True)
class Mode:
    """One way to play a game, as the start form offers it (a duel, team play, solo...)."""

    name: str  # the form's `mode` value ("" for a game played one way only)
    # For people: "Duel".  Title and summary are English message ids (marked `N_` by the adapter, issue
    # #26): a page says `said(mode.title)` (web) or `lang.in_language(mode.title, language)` below it.
    title: str
    players: tuple[int, ...]  # the player counts it takes, in order
    summary: str = ""  # one line under the title
    # The mode after the game's name, as a rating names it ("Riftforce duel"): a message id too; "":
    # the title.
    rated: str = ""

    @property
    def count_words(self) -> lang.Words:
        return count_words(self.players)


@dataclass
class FollowUp:
    """What a finished game offers its players: one next game for the same party (e.g. the next
    scenario of a campaign after a win, the same one again after a loss)."""

    kind: str  # the adapter's own word: "next" | "replay" ...
    campaign: str  # the campaign's id (Campaign.name)
    campaign_title: str
    played: str  # the part the finished game played (CampaignGame.scenario)
    played_carry: dict[str, Any] | None  # what the finished game started with (CampaignGame.carry)
    part: str  # the part the next game plays
    title: str  # the next game, for people
    carry: dict[str, Any] | None  # what the next game starts with
    options: dict[str, Any]  # the next game's start options before the party's choices
    rewards: dict[str, Any] | None = None  # what the finished game won, kept with the campaign
    follow_up_game_id: int | None = None  # the follow-up already started, if any
    details: dict[str, Any] = field(default_factory=dict)  # for the adapter's own templates


@dataclass(frozen=True)
class GameCatalog:
    """A game's message catalog in English (issue #26, docs/i18n.md "Game messages"): the source of its
    gettext domain, whose `.po` files translate it (service/translations/<language>/LC_MESSAGES/<domain>.po).

    - `messages`: engine message key -> English (a pair for a plural: singular, plural); in the catalog
      the key is the context and the English the msgid.  `<key>.you`: the form for the reader who is the
      message's `actor`.
    - `terms`: (context, word) -> English, for the engine's `Term`s (context "element": "Fire").
    - `card_names`: card id -> English name (context "card").
    """

    domain: str
    messages: Mapping[str, str | tuple[str, str]]
    terms: Mapping[tuple[str, str], str]
    card_names: Mapping[str, str]


class Adapter:
    """The defaults; a game's adapter overrides what it has."""

    # The game's message catalog (GameCatalog), for a game whose engine speaks in messages; None: its
    # engine still words events and moves itself (describe_event, describe_move).
    catalog: GameCatalog | None = None

    # The fieldset of the start form (a template of its own; `form_fields` names its inputs).
    form_template: str | None = None
    # Lines for `flask new-game --help`.
    cli_help: str = ""
    # The template that draws a follow-up offer on the player page and in the game-over email
    # (`<name>.html` on the page, `<name>_email.html` and `_email.txt` in the email).
    follow_up_template: str | None = None
    # Whether the board template (and the text board) says every word in the reader's language: an
    # email then no longer marks the board `lang="en"` (issue #26).
    board_translated: bool = False
    # Where the game stands in the list of games to start.
    listing_order: int = 100
    # One line saying what the game is, under its name in the list of games and atop its start form: an
    # English message id marked `N_` (issue #26), said in the reader's language where it is shown.
    summary: str = ""
    # The project's own summary of the rules (a template of its own, shown at /rules/<game>; None: no page).
    rules_template: str | None = None
    # Whether the start form offers the free KEY=VALUE box (under its advanced options): a game whose
    # every option has a field of its own does without it.
    free_options: bool = True

    def __init__(self, name: str, board_template: str | None = None):
        self.name = name
        self.board_template = board_template

    @property
    def rules(self) -> engine.Game:
        return engine.get(self.name)

    # ---- starting a game -------------------------------------------------------------------------

    def modes(self) -> list[Mode]:
        """The ways to play the start form offers, the default first: one way, any player count
        the engine takes, unless the game's adapter says more."""
        rules = self.rules
        return [Mode("", rules.title or rules.name, tuple(range(rules.min_players, rules.max_players + 1)))]

    def mode(self, name: str | None) -> Mode:
        """The mode of that name, or the default one."""
        modes = self.modes()
        return next((mode for mode in modes if mode.name == name), modes[0])

    @property
    def form_fields(self) -> tuple[str, ...]:
        """The names of the fieldset's inputs (shown again as submitted after a mistake)."""
        return ()

    def form_choices(self) -> dict[str, Any]:
        """What the fieldset template offers (from the engine's options schema)."""
        return {}

    def form_options(self, data: FormData, typed: dict[str, Any], players: int) -> tuple[dict[str, Any], list[str]]:
        """The fieldset's values as start options, the options box's `typed` ones winning, and the
        mistakes a person should hear about before the engine is asked: messages marked `N_` (a
        `lang.Words` from `Nf_`/`Nn_` where they hold a number), worded where they are shown."""
        return dict(typed), []

    def cli_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options as typed on a command line, in the engine's JSON shapes, read from the engine's
        options schema: an array property typed as a comma list becomes a list (but a word that
        an `anyOf` branch's string `enum` lists stays that word); a word its `x-absent` names (e.g.
        "random") leaves the option out; "none" for a property that may be null is null."""
        properties = self.rules.options_schema().get("properties", {})
        out = dict(options)
        for key, value in options.items():
            schema = properties.get(key)
            if not isinstance(schema, dict) or not isinstance(value, str):
                continue
            word = value.strip().lower()
            types, words = _types_and_words(schema)
            if word in schema.get("x-absent", ()):
                del out[key]
            elif word in words:
                out[key] = word
            elif "null" in types and word in ("", "none", "no"):
                out[key] = None
            elif "array" in types:
                out[key] = [part.strip().lower() for part in value.split(",") if part.strip()]
        return out

    # ---- what people read ------------------------------------------------------------------------

    # Event types (the engine's) a turn email's first line passes over when it tells what another
    # player's turn did: bookkeeping such as a counter going down, unless the turn did nothing else.
    minor_events: frozenset[str] = frozenset()

    # ---- what happened since: whose doing, how much it matters, a turn in one sentence -------------
    # The emails' first line and their "since your last turn" lines (service/views/sentences.py) read
    # these for each event.  Like the engine's describe_event they get the event as it was logged and
    # the state it was applied to: they must use only what the viewer may see.

    def doer(self, event: Mapping[str, Any], actor: int, state: Mapping[str, Any] | None) -> int | None:
        """Whose doing an event is: the seat whose decision caused it (the default), or None for the
        game's own doing that a decision set off (an automatic phase, an automatic opponent): a reader
        is told those as news, not as their own moves."""
        return actor

    def weight(self, event: Mapping[str, Any]) -> int:
        """How much an event matters to a player reading what happened since their last turn: 0 for
        bookkeeping (`minor_events`), 1 for a usual event, 2 for news (a loss, a score, a threat): when
        the lines are too many for an email, the heavier ones stay."""
        return 0 if event.get("type") in self.minor_events else 1

    def note(self, event: Mapping[str, Any], state: Mapping[str, Any] | None, viewer: int | None,
             names: Mapping[int, str]) -> Any:
        """Public facts of the event that `headline` needs later (the state is not kept): None here."""
        return None

    def orders_words(self, view: Mapping[str, Any], words: Any) -> list[dict[str, str]]:
        """The viewer's standing orders for the play page's setting forms: [{name (the engine's
        `move_section`, English), title (the section in the reader's language), value (in words)}]; `words`:
        the game's Wording for the reader (None without a catalog).  Here: the view's own `orders`."""
        return [{"name": o["name"], "title": o["name"], "value": o["value"]} for o in view.get("orders") or []]

    def headline(self, run: Sequence[Any], viewer: int | None) -> list[str | Message] | None:
        """The sentences that tell a run of events of one doer (a player's turn, the game's own phase)
        in an email's first line, the most telling first (the service merges those that say one thing
        several times, joins them and cuts the line short).  `run`: positions.SinceEvent, in order.  A
        sentence is an event's `text` (worded already) or a Message of the game, which the caller words
        for the reader in their language (adapters sit below the wording, service/views/wording.py).
        None: the first sentence among the run's heaviest events (service/views/sentences.py)."""
        return None

    # Move types an email's choices list first, whatever their number: a decision that must be made
    # before any other (the default order puts the kinds of move with the fewest choices first).
    first_moves: frozenset[str] = frozenset()

    # Whom the players face when it is not each other, for the words naming a game's players: a
    # cooperative game's foe, whatever the party ("the rift"); a solo player's automatic opponent ("the
    # trainer"), when one person plays.
    against: str | None = None
    solo_against: str | None = None

    def players_words(self, names: Sequence[str], teams: Sequence[Sequence[int]], language: str = lang.ENGLISH) -> str:
        """Who plays whom, as the subject of every email of a game's thread says it: "Ana vs Bo",
        "Ana, Bo and Cy", "Ana & Cy vs Bo & Di" (the engine's `teams`), "Ana vs the trainer", "Ana and
        Bo vs the rift".  `names` in seat order; each is cut to NAME_CAP characters.  In `language`
        (the reader's: "Ana проти Bo", "Ana 對 Bo"); `against`/`solo_against` are marked N_."""
        words = lang.translations(language)

        def versus(left: str, right: str) -> str:
            return words.gettext("%(left)s vs %(right)s") % {"left": left, "right": right}

        short = [shorten(name) for name in names]
        if self.against:
            return versus(lang.and_list(short, language), words.gettext(self.against))
        if len(short) == 1:
            return versus(short[0], words.gettext(self.solo_against)) if self.solo_against else short[0]
        grouped = [list(team) for team in teams if team]
        if grouped:
            alone = [[seat] for seat in range(len(short)) if not any(seat in team for team in grouped)]
            sides = sorted(grouped + alone, key=min)
            said = [" & ".join(short[seat] for seat in side if seat < len(short)) for side in sides]
            text = said[0]
            for side in said[1:]:
                text = versus(text, side)
            return text
        if len(short) == 2:
            return versus(short[0], short[1])
        return lang.and_list(short, language)

    def mode_of(self, options: Mapping[str, Any]) -> Mode:
        """The mode a game was started in, from its start options (the form's `mode` value, as
        `form_options` stores it; the default mode when the options name none)."""
        name = options.get("mode")
        return self.mode(name if isinstance(name, str) else None)

    def teams_of(self, options: Mapping[str, Any], players: int) -> list[list[int]]:
        """The engine's `teams` as known from the start options and the player count alone (a list of
        many games names its sides without reading each game's state): none by default."""
        return []

    def end_message(self, result: Mapping[str, Any]) -> Message | None:
        """Why the game ended, as the game's message (worded by the caller in the reader's language and
        handed to `result_words` as `why`); None: the result words need none."""
        return None

    def result_words(self, result: Mapping[str, Any] | None, names: Mapping[int, str], viewer: int | None = None,
                     language: str = lang.ENGLISH, why: str | None = None) -> str:
        """The end of the game in one sentence (two after a forfeit: who forfeited, then who won), to
        `viewer` ("You won.", "You and Bo won."; None: to anyone), in `language`; `why`: `end_message`
        worded."""
        if not result:
            return ""
        words = lang.translations(language)
        forfeit = ""
        forfeited = result.get("forfeited")
        if isinstance(forfeited, int) and not isinstance(forfeited, bool):
            if forfeited == viewer:
                forfeit = words.gettext("You ran out of time and forfeited.") + " "
            else:
                forfeit = words.gettext("%(name)s ran out of time and forfeited.") % {
                    "name": names.get(forfeited) or words.gettext("A player")} + " "
        return forfeit + self.winners_words(result, names, viewer, language)

    def winners_words(self, result: Mapping[str, Any], names: Mapping[int, str], viewer: int | None,
                      language: str = lang.ENGLISH) -> str:
        """"You won.", "Ana and Bo won.", "The game ended without a winner." in `language`."""
        words = lang.translations(language)
        seats = sorted((int(seat) for seat in result.get("winners", [])), key=lambda seat: seat != viewer)
        if not seats:
            return words.gettext("The game ended without a winner.")
        if seats == [viewer]:
            return words.gettext("You won.")
        winners = [words.gettext("You") if seat == viewer
                   else names.get(seat) or words.gettext("seat %(number)s") % {"number": seat} for seat in seats]
        return words.ngettext("%(names)s won.", "%(names)s won.", len(winners)) % {
            "names": lang.and_list(winners, language)}

    def board_words(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Words the board template shows beside the view's data (made by the game's words module)."""
        return {}

    def text_board(self, view: Mapping[str, Any], words: Any) -> str | None:
        """The board as plain text in the language of `words` (the game's Wording for the reader, with the
        players' names: service/views/wording.py); None: the engine's English `render_text` (with the
        players named) serves."""
        return None

    # Whether a seat's view lists its hand as `view["hand"]` (card dicts with a name and a number).
    view_has_hand: bool = False

    def hand_words(self, view: Mapping[str, Any]) -> list[str] | None:
        """The cards of the hand a view shows, in words (for the "every hand" replay after the end);
        None: the game's view has no plain hand, and its text board is shown instead."""
        hand = view.get("hand") if self.view_has_hand else None
        return [card_words(card) for card in hand] if isinstance(hand, list) else None

    # The fields of a move that make its first step: moves that agree on them are one choice made in
    # steps (a card first, then where it goes).  Fields a move lacks are left out.
    first_step_fields: tuple[str, ...] = ("type", "card")

    def first_step(self, move: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
        """The key of a move's first step (see `first_step_fields`)."""
        return tuple((key, move[key]) for key in self.first_step_fields if key in move)

    # Event types whose hidden contents are the mover's own doing, known to them already (a card they
    # discard face down, the action they are taking): a preview of their move may show its outcome.
    # Any other event a spectator may not see as it is (a draw, a shuffle) keeps the outcome hidden until
    # the move is recorded (service/play/batch.py), and so does any reveal of what the game kept hidden.
    preview_own_events: frozenset[str] = frozenset()

    def chart_target(self, view: Mapping[str, Any]) -> float | None:
        """The score that wins, drawn across the score chart (None: no such line)."""
        return None

    # ---- what comes next -------------------------------------------------------------------------

    def follow_up(self, game_options: Mapping[str, Any], result: Mapping[str, Any] | None,
                  state: dict[str, Any]) -> FollowUp | None:
        """The next game a finished game offers (None: nothing)."""
        return None

    def follow_up_options(self, offer: FollowUp, form: FormData) -> dict[str, Any]:
        """The next game's start options with the party's choices from the offer's form; the engine
        judges them when the game starts (raises service.errors.Invalid for a choice that names
        nothing of the offer)."""
        return dict(offer.options)


def _types_and_words(schema: Mapping[str, Any]) -> tuple[set[Any], set[str]]:
    """A property schema's JSON types (its `anyOf` branches' too) and the words its string enums
    list in an `anyOf` branch (those a typed value may be as it is)."""
    branches = [schema, *[b for b in schema.get("anyOf", ()) if isinstance(b, Mapping)]]
    types: set[Any] = set()
    words: set[str] = set()
    for branch in branches:
        found = branch.get("type")
        types |= set(found) if isinstance(found, list) else {found}
        if branch is not schema and found == "string":
            words |= {w for w in branch.get("enum", ()) if isinstance(w, str)}
    return types, words


def count_words(players: Sequence[int]) -> lang.Words:
    """"1 player", "2 players", "3 or 4 players", "1 to 4 players": a `lang.Words` (its English as a
    str; `said` / `lang.in_language` word it in a reader's language, the plural by the highest count)."""
    low, high = min(players), max(players)
    if low == high:
        return lang.Nn_("%(num)d player", "%(num)d players", low)
    if high == low + 1:
        return lang.Nn_("%(low)d or %(num)d players", "%(low)d or %(num)d players", high, low=low)
    return lang.Nn_("%(low)d to %(num)d players", "%(low)d to %(num)d players", high, low=low)


def shorten(name: str, cap: int = NAME_CAP) -> str:
    """A name cut to `cap` characters, with an ellipsis when cut."""
    name = " ".join(name.split())
    return name if len(name) <= cap else name[:cap - 1].rstrip() + "…"


def and_words(items: Sequence[str]) -> str:
    """"Ana", "Ana and Bo", "Ana, Bo and Cy"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def card_words(card: Any) -> str:
    """A card of a view's hand in words: its name and number where it has them, else its name or id."""
    if isinstance(card, dict):
        name, number = card.get("name"), card.get("number")
        if name is not None and number is not None:
            return f"{name} {number}"
        return str(name or card.get("id") or card)
    return str(card)
