"""The Riftforce board's cards and guilds as HTML (issue #27): what the `card`, `guild`, `stack` and
`abilities` macros of templates/games/riftforce/_parts.html drew, drawn here, byte for byte the same.

A board draws every card of the rift, the hand and the discard tops, and every guild three or four
times (the guild list, what your guilds do, what every guild does): as Jinja macros each card cost
about 30 µs (a macro call, a nested `icon` call, a `set` block, some ten lookups and escapes), most
of a Riftforce page's templates.  Here a card is one function, a guild's chip is made once a board.

Everything from the view or the game's words is escaped as `markupsafe.escape` escapes it (`html`:
the same five characters, the same entities); what the template hands in already as markup (its
gettext words, a macro's output such as team play's `whose`) is kept as it is, as the template's own
`{{ }}` keeps it.  The HTML is built as plain strings and made `Markup` once a piece: markupsafe's
`Markup.format` and `+` escape and copy at every step, which cost more than the macros did.  `said` carries the board's own words from the
template's gettext (the messages domain), so a page's and an email's catalogs both serve.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import Markup

from engine.riftforce.messages import damage


def html(value: Any) -> str:
    """`value` in HTML as Jinja's autoescape writes it (`markupsafe.escape`, as a plain string): markup
    (anything with `__html__`) as it is, anything else as text with & < > ' " escaped."""
    if hasattr(value, "__html__"):
        return str(value.__html__())
    text = value if isinstance(value, str) else str(value)
    return (text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;")
            .replace('"', "&#34;"))


class Tiles:
    """The cards and guild chips of one board, for one reader: `words` (service/views/wording.py, the
    game's words in the reader's language), `email` (no SVG icons), `sprite` (the icons' URL on
    pages), `said`: the template's words "comma" (", "), "activated" ("activated this turn"),
    "acting" ("acting now") and "empty"."""

    def __init__(self, words: Any, email: bool, sprite: str, said: Mapping[str, str]) -> None:
        self.words = words
        self.email = bool(email)
        self.sprite = html(sprite)
        self.comma = html(said["comma"])
        self.activated = self.comma + html(said["activated"])
        self.acting = self.comma + html(said["acting"])
        self.empty = Markup(f'<span class="muted">{html(said["empty"])}</span>')
        self._kinds: dict[Any, tuple[str, str, str, str]] = {}  # guild -> (its id, icon, letters, name) in HTML
        self._guilds: dict[Any, Markup] = {}
        self._damage: dict[Any, str] = {}

    def _icon(self, name: Any) -> str:
        return "" if self.email else f'<svg class="icon" aria-hidden="true"><use href="{self.sprite}#{html(name)}"></use></svg>'

    def icon(self, name: Any) -> Markup:
        """The icon of `name` in the sprite (nothing in an email)."""
        return Markup(self._icon(name))

    def _kind(self, guild: Any) -> tuple[str, str, str, str]:
        found = self._kinds.get(guild)
        if found is None:
            found = self._kinds[guild] = (html(guild), self._icon(guild), html(self.words.term("letters", guild)),
                                          html(self.words.term("guild", guild)))
        return found

    def card(self, c: Mapping[str, Any], short: bool = False, classes: str = "", own: Any = None,
             whose: Any = None) -> Markup:
        """A card: `short` a tile of the rift (the guild's letters; pages add its name for a wide
        screen), else its name; `classes` "chosen" or "tired"; `own` the owner's initial (team play),
        `whose` the owner in words."""
        guild, icon, letters, name = self._kind(c["guild"])
        hurt = c.get("damage")
        said = html(self.words.card(c["id"]))
        if hurt:
            worded = self._damage.get(hurt)
            if worded is None:
                worded = self._damage[hurt] = self.comma + html(self.words(damage(hurt)))
            said += worded
        if whose:
            said += self.comma + html(whose)
        tired = "tired" in classes
        if tired:
            said += self.activated
        elif "chosen" in classes:
            said += self.acting
        if not short:
            label = name
        elif self.email:
            label = letters
        else:
            label = f'<span class="s">{letters}</span><span class="n">{name}</span>'
        text = (f'<span class="{"tile" if short else "card"} g-{guild}{" " + html(classes) if classes else ""}" '
                f'role="img" aria-label="{said}">{icon}{label} {html(c["number"])}')
        if hurt:
            text += f' <span class="dmg">−{html(hurt)}</span>'
        if own:
            text += f'<span class="own">&thinsp;|{html(own)}</span>'
        if tired:
            text += '<span class="done">✓</span>'
        return Markup(text + "</span>")

    def guild(self, g: Mapping[str, Any]) -> Markup:
        """A summoner (a guild): its colour, icon and name, no number; `g["id"]` is the guild."""
        gid = g["id"]
        found = self._guilds.get(gid)
        if found is None:
            guild, icon, _, name = self._kind(gid)
            found = self._guilds[gid] = Markup(f'<span class="card g-{guild}" role="img" aria-label="{name}">{icon}{name}</span>')
        return found

    def stack(self, cards: Sequence[Mapping[str, Any]], up: bool, marks: Mapping[str, str],
              tags: Any = None, whose: Callable[[Any], Any] | None = None) -> Markup:
        """One stack, front first in the data: the upper side drawn back to front so its front card
        touches the rift line; `marks`: card id -> classes (the Activate or Play in progress); team
        play's `tags` (seat -> initial) and `whose` (seat -> the owner in words, asked once a seat)."""
        if not cards:
            return self.empty
        owners: dict[Any, Any] = {}
        drawn = []
        for c in (reversed(cards) if up else cards):
            said = None
            if whose:
                owner = c["owner"]
                said = owners.get(owner)
                if said is None:
                    said = owners[owner] = whose(owner)
            drawn.append(self.card(c, short=True, classes=marks.get(c["id"], ""),
                                   own=tags[c["owner"]] if tags else None, whose=said))
        return Markup("".join(drawn))

    def hand(self, cards: Sequence[Mapping[str, Any]]) -> Markup:
        """Cards side by side, each followed by a space (the hand)."""
        return Markup("".join(f"{self.card(c)} " for c in cards))

    def abilities(self, summoners: Sequence[Mapping[str, Any]]) -> Markup:
        """Each guild's ability, with its card, for a list of summoners."""
        items = "".join(f'<li>{self.guild(g)} {html(self.words.term("ability", g["id"]))}</li>' for g in summoners)
        return Markup(f'<ul class="abilities">{items}</ul>')
