"""Card data: loading and validating cards.json (element cards and rift cards).

The rift set is data so that a real card list can replace ours by editing cards.json only
(rules/riftwalker.md H10).  Every record is checked on load against the power language of §9.3;
a bad record raises CardDataError naming the card, so a typo never surfaces mid-game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("cards.json")
WILD = "*"
WHOSE = ("you", "opp", "each_opp", "any")


class CardDataError(ValueError):
    """cards.json (or a replacement) holds a record the engine cannot use."""


@dataclass(frozen=True)
class Rift:
    id: str
    name: str
    elements: tuple[str, ...]  # one element, two for a Venture, ("*",) for a wild rift
    track: tuple[int, int, int]  # printed value at orientation 0, 1, 2
    power: tuple  # the steps (plain dicts, treated as read-only)
    bonus: dict | None
    protect: frozenset  # what other players' powers cannot do to this rift
    text: str

    @property
    def wild(self) -> bool:
        return self.elements == (WILD,)

    def matches(self, element: str) -> bool:
        """Can this rift be explored, shifted or burst with `element`?  (§9.4: wild matches all.)"""
        return element == "any" or element in self.elements or self.elements[0] == WILD

    def bonus_elements(self) -> tuple[str, ...]:
        """Elements for bonus conditions: a Venture counts as both, a wild rift as none (A20)."""
        return () if self.wild else self.elements


@dataclass(frozen=True)
class CardSet:
    elements: tuple[str, ...]
    element_cards: dict  # id -> (face0, face1)
    rifts: dict  # id -> Rift, in file order

    def rift(self, cid: str) -> Rift:
        return self.rifts[cid]


# ---- the power language (§9.3): parameter name -> validator ------------------------------------

def _is_int(v, lo=0):
    return type(v) is int and v >= lo


def _check_params(step: dict, allowed: dict, where: str, elements) -> None:
    for key, value in step.items():
        if key in ("op", "mandatory"):
            continue
        if key not in allowed:
            raise CardDataError(f"{where}: unknown parameter {key!r} for op {step['op']!r}")
        if not allowed[key](value, elements):
            raise CardDataError(f"{where}: bad value {value!r} for {key!r} in op {step['op']!r}")
    if "mandatory" in step and type(step["mandatory"]) is not bool:
        raise CardDataError(f"{where}: 'mandatory' must be true or false")


_n = lambda v, els: _is_int(v, 1)  # noqa: E731
_bool = lambda v, els: type(v) is bool  # noqa: E731
_el = lambda v, els: v in els or v in ("any", "this")  # noqa: E731
_worth = lambda v, els: v is None or _is_int(v)  # noqa: E731
_whose = lambda v, els: v in WHOSE  # noqa: E731

OPS: dict[str, dict] = {
    "flip": {"n": _n},
    "place": {"n": _n},
    "grow": {"el": _el, "n": _n},
    "swap": {"n": _n},
    "explore": {"el": _el, "activate": _bool},
    "shift": {"whose": _whose, "el": _el, "worth": _worth, "other": _bool, "activate": _bool},
    "activate": {"whose": _whose, "el": _el, "worth": _worth, "other": _bool},
    "return": {"whose": _whose, "el": _el, "worth": _worth, "other": _bool},
    "discard": {"zone": lambda v, e: v in ("hand", "explored", "score"), "whose": _whose,
                "worth": _worth, "el": _el, "n": _n, "other": _bool,
                "chooser": lambda v, e: v in ("active", "owner")},
    "force_burst": {"whose": _whose, "el": _el, "worth": _worth, "other": _bool},
    "burst_step": {"el": _el, "worth": _worth, "line": _bool},
    "extra_burst": {"n": _n},
    "draw": {"n": _n},
    "search": {"n": _n, "el": _el, "take": _n},
    "tuck": {"src": lambda v, e: v in ("hand", "explored", "deck_top"),
             "whose": lambda v, e: v in ("you", "opp", "any"),
             "el": _el, "worth": _worth, "n": _n, "other": _bool,
             "face": lambda v, e: v in ("up", "down"), "under": lambda v, e: v == "this"},
}


def _check_step(step: Any, where: str, elements) -> None:
    if not isinstance(step, dict) or not isinstance(step.get("op"), str):
        raise CardDataError(f"{where}: every power step must be an object with an 'op'")
    op = step["op"]
    if op == "cost":
        if set(step) - {"op", "pay", "then"} or "pay" not in step or "then" not in step:
            raise CardDataError(f"{where}: 'cost' needs exactly 'pay' (one step) and 'then' (steps)")
        _check_step(step["pay"], where + " cost", elements)
        _check_steps(step["then"], where + " cost-then", elements)
        return
    if op == "choose":
        if set(step) - {"op", "options", "mandatory"} or not isinstance(step.get("options"), list) \
                or len(step["options"]) < 2:
            raise CardDataError(f"{where}: 'choose' needs 'options', a list of at least two step lists")
        for i, option in enumerate(step["options"]):
            _check_steps(option, f"{where} option {i + 1}", elements)
        return
    if op not in OPS:
        raise CardDataError(f"{where}: unknown op {op!r}")
    _check_params(step, OPS[op], where, elements)
    whose = step.get("whose", "you")
    if op == "discard" and step.get("zone") == "hand" and whose != "you" \
            and step.get("chooser", "owner") == "active":
        raise CardDataError(f"{where}: the active player cannot choose from another player's hidden hand")
    if op == "discard" and whose == "any" and step.get("chooser") == "owner":
        raise CardDataError(f"{where}: whose=any needs chooser=active")
    if step.get("whose") == "each_opp" and op != "discard":
        raise CardDataError(f"{where}: whose=each_opp is only defined for discard")
    if op == "tuck" and ("face" not in step or "src" not in step):
        raise CardDataError(f"{where}: tuck needs 'src' and 'face'")
    if op in ("discard",) and "zone" not in step:
        raise CardDataError(f"{where}: discard needs 'zone'")
    if op in ("grow", "search") and "el" not in step:
        raise CardDataError(f"{where}: {op} needs 'el'")


def _check_steps(steps: Any, where: str, elements) -> None:
    if not isinstance(steps, list) or not steps:
        raise CardDataError(f"{where}: a power is a non-empty list of steps")
    for i, step in enumerate(steps):
        _check_step(step, f"{where} step {i + 1}", elements)


BONUS = {
    "always": {},
    "per_beneath": {"max": lambda v, e: v is None or _is_int(v, 1)},
    "score_count": {"el": lambda v, e: v in e, "min": _n, "other": _bool},
    "per_score": {"el": lambda v, e: v in e, "other": _bool, "max": lambda v, e: v is None or _is_int(v, 1)},
    "distinct_elements": {"min": _n},
    "most_burst": {},
}


def _check_bonus(bonus: Any, where: str, elements) -> None:
    if not isinstance(bonus, dict):
        raise CardDataError(f"{where}: bonus must be an object")
    values = bonus.get("values")
    if not (isinstance(values, list) and len(values) == 2 and all(_is_int(v) for v in values)):
        raise CardDataError(f"{where}: bonus 'values' must be two whole numbers (first, second shift)")
    when = bonus.get("when")
    if when not in BONUS:
        raise CardDataError(f"{where}: unknown bonus condition {when!r}")
    for key, value in bonus.items():
        if key in ("values", "when"):
            continue
        if key not in BONUS[when] or not BONUS[when][key](value, elements):
            raise CardDataError(f"{where}: bad bonus parameter {key}={value!r} for {when!r}")
    for key in ("el", "min"):
        if key in BONUS[when] and key not in bonus:
            raise CardDataError(f"{where}: bonus condition {when!r} needs {key!r}")


def _rift(record: Any, elements, seen: set) -> Rift:
    if not isinstance(record, dict):
        raise CardDataError(f"rift record {record!r} is not an object")
    cid = record.get("id")
    where = f"rift card {cid!r} ({record.get('name', '?')})"
    if not isinstance(cid, str) or not cid:
        raise CardDataError(f"{where}: needs a string id")
    if cid in seen:
        raise CardDataError(f"{where}: duplicate id (one record per physical card)")
    seen.add(cid)
    extra = set(record) - {"id", "name", "elements", "track", "power", "bonus", "static", "text"}
    if extra:
        raise CardDataError(f"{where}: unknown fields {sorted(extra)}")
    if not isinstance(record.get("name"), str) or not record["name"]:
        raise CardDataError(f"{where}: needs a name")
    els = record.get("elements")
    if not (isinstance(els, list) and els and (els == [WILD] or all(e in elements for e in els))
            and len(set(els)) == len(els)):
        raise CardDataError(f"{where}: 'elements' must list known elements, or be [\"*\"]")
    track = record.get("track")
    if not (isinstance(track, list) and len(track) == 3 and all(_is_int(v) for v in track)
            and track[0] == 0 and 0 < track[1] <= track[2]):
        raise CardDataError(f"{where}: 'track' must be three values 0 < a <= b, starting at 0")
    _check_steps(record.get("power"), where + " power", elements)
    bonus = record.get("bonus")
    if bonus is not None:
        _check_bonus(bonus, where, elements)
    protect: set = set()
    for st in record.get("static", []):
        if not (isinstance(st, dict) and st.get("op") == "protect" and st.get("by") == "other_players"
                and isinstance(st.get("from"), list)
                and set(st["from"]) <= {"discard", "return", "force_burst", "tuck"}
                and set(st) == {"op", "from", "by"}):
            raise CardDataError(f"{where}: unknown static effect {st!r}")
        protect |= set(st["from"])
    text = record.get("text", "")
    if not isinstance(text, str):
        raise CardDataError(f"{where}: 'text' must be a string")
    return Rift(cid, record["name"], tuple(els), tuple(track), tuple(record["power"]), bonus,
                frozenset(protect), text)


def parse(doc: Any) -> CardSet:
    """Validate a card document (the parsed JSON) and build the card set."""
    if not isinstance(doc, dict) or doc.get("format") != 1:
        raise CardDataError("card data must be an object with \"format\": 1")
    elements = doc.get("elements")
    if not (isinstance(elements, list) and len(elements) >= 2 and all(isinstance(e, str) for e in elements)
            and len(set(elements)) == len(elements) and WILD not in elements):
        raise CardDataError("'elements' must list the distinct element names")
    element_cards: dict = {}
    for record in doc.get("element_cards", []):
        cid = record.get("id") if isinstance(record, dict) else None
        faces = record.get("faces") if isinstance(record, dict) else None
        if not isinstance(cid, str) or cid in element_cards:
            raise CardDataError(f"element card {cid!r}: needs a unique string id")
        if not (isinstance(faces, list) and len(faces) == 2 and faces[0] != faces[1]
                and all(f in elements for f in faces)):
            raise CardDataError(f"element card {cid!r}: 'faces' must be two different known elements")
        element_cards[cid] = (faces[0], faces[1])
    if len(element_cards) < 10:
        raise CardDataError("need at least 10 element cards (9 for the grid and a deck)")
    seen: set = set()
    rifts = {}
    for record in doc.get("rift_cards", []):
        rift = _rift(record, elements, seen)
        if rift.id in element_cards:
            raise CardDataError(f"rift card {rift.id!r}: id clashes with an element card")
        rifts[rift.id] = rift
    if len(rifts) < 12:
        raise CardDataError("need at least 12 rift cards (3 per player for 4 players)")
    return CardSet(tuple(elements), element_cards, rifts)


def load(path: Path | str = DATA_FILE) -> CardSet:
    with open(path, encoding="utf-8") as fh:
        return parse(json.load(fh))


CARDS = load()
