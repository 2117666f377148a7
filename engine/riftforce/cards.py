"""Guild and card data for Riftforce, as data, so a real card list can replace it.

Each guild has one summoner (carrying the ability text) and nine elementals: four 5s, three 6s
and two 7s (rules §2).  Card ids are unique per physical card: "<guild>-<number><copy letter>",
e.g. "fire-5a" .. "fire-5d", "fire-6a" .. "fire-6c", "fire-7a", "fire-7b".
"""

from __future__ import annotations

# (id, English name, set, ability text as printed in words for people).  Order is the rulebook's.
GUILD_TABLE: list[tuple[str, str, str, str]] = [
    ("fire", "Fire", "base",
     "3 damage to the first enemy here, then 1 damage to the ally directly behind this Fire."),
    ("water", "Water", "base",
     "2 damage to the first enemy here, move this Water to an adjacent location, "
     "then 1 damage to the first enemy there."),
    ("air", "Air", "base",
     "Move this Air to any other location, then 1 damage to the first enemy there and at each "
     "location adjacent to it."),
    ("earth", "Earth", "base",
     "On play: 1 damage to every enemy at that location. Activated: 2 damage to the first enemy here."),
    ("ice", "Ice", "base",
     "4 damage to the last enemy here if it is already damaged, otherwise 1 damage to it."),
    ("thunderbolt", "Thunderbolt", "base",
     "2 damage to any enemy here; if that destroys it, do this once more."),
    ("light", "Light", "base",
     "2 damage to the first enemy here, then remove 1 damage from this Light or any ally."),
    ("plant", "Plant", "base",
     "2 damage to the first enemy at an adjacent location, then move that enemy here (to the back)."),
    ("shadow", "Shadow", "base",
     "Move this Shadow to any other location, then 1 damage to the first enemy there; "
     "+1 Riftforce if that destroys it."),
    ("crystal", "Crystal", "base",
     "4 damage to the first enemy here. When a Crystal is destroyed its owner's opponent gains +1 "
     "Riftforce."),
    ("beast", "Beast", "beyond",
     "Move this Beast to an adjacent location, then 3 damage to the first enemy there if this Beast "
     "is damaged, otherwise 2 damage."),
    ("sand", "Sand", "beyond",
     "Move this Sand to any other location, 1 damage to each enemy there, then remove 1 damage from "
     "this Sand."),
    ("lava", "Lava", "beyond",
     "2 damage to the first enemy at each adjacent location, then 1 damage to this Lava and to each "
     "ally in front of it."),
    ("music", "Music", "beyond",
     "2 damage to the first enemy here; if that destroys it, play it on your side at a location "
     "adjacent to this Music instead of discarding it."),
    ("acid", "Acid", "beyond",
     "3 damage to the first enemy here and 1 damage to the second; enemies this Acid destroys give "
     "no Riftforce."),
    ("star", "Star", "beyond",
     "2 damage to the first enemy here, then draw 1 card if you hold fewer than 7."),
    ("love", "Love", "beyond",
     "On play: remove all damage from one ally at that location. Activated: 2 damage to the first "
     "enemy here."),
    ("magnet", "Magnet", "beyond",
     "2 damage to the last enemy here, then move that enemy and this Magnet to the same adjacent "
     "location."),
]

# How many copies of each number a guild has (rules §2: four 5s, three 6s, two 7s).
COPIES: dict[int, int] = {5: 4, 6: 3, 7: 2}

GUILD_NAME: dict[str, str] = {g: name for g, name, _, _ in GUILD_TABLE}
GUILD_ABILITY: dict[str, str] = {g: text for g, _, _, text in GUILD_TABLE}
BASE_GUILDS: list[str] = [g for g, _, s, _ in GUILD_TABLE if s == "base"]
ALL_GUILDS: list[str] = [g for g, _, _, _ in GUILD_TABLE]


def _cards_of(guild: str) -> list[str]:
    return [f"{guild}-{n}{'abcd'[i]}" for n in sorted(COPIES) for i in range(COPIES[n])]


GUILD_CARDS: dict[str, list[str]] = {g: _cards_of(g) for g in ALL_GUILDS}
# card id -> guild, number: the two facts every rule reads.  Plain dicts for speed.
GUILD: dict[str, str] = {c: g for g, cs in GUILD_CARDS.items() for c in cs}
NUMBER: dict[str, int] = {c: int(c.split("-")[1][0]) for c in GUILD}
CARDS: dict[str, tuple[str, int]] = {c: (GUILD[c], NUMBER[c]) for c in GUILD}


def deck_for(guilds: list[str]) -> list[str]:
    """The elementals of these guilds, in a fixed order (shuffling is the caller's, with its rng)."""
    return [c for g in guilds for c in GUILD_CARDS[g]]
