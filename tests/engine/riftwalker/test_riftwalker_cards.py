"""The card data (§2, §9.3–9.5): loaded and validated from the package's cards.json."""

import json
from collections import Counter
from itertools import combinations

import pytest

from engine.riftwalker import cards
from engine.riftwalker.cards import CARDS, CardDataError


def raw():
    return json.loads(cards.DATA_FILE.read_text(encoding="utf-8"))


def test_fifteen_element_cards_cover_every_pair_once_2():
    pairs = [frozenset(f) for f in CARDS.element_cards.values()]
    assert len(pairs) == 15 and set(pairs) == {frozenset(p) for p in combinations(CARDS.elements, 2)}
    assert Counter(e for f in CARDS.element_cards.values() for e in f) == dict.fromkeys(CARDS.elements, 5)


def test_the_52_card_set_distribution_9_5():
    rifts = CARDS.rifts.values()
    assert len(CARDS.rifts) == 52
    normal = Counter(r.elements[0] for r in rifts if len(r.elements) == 1 and not r.wild)
    assert normal == dict.fromkeys(CARDS.elements, 8)
    special = [r for r in rifts if r.track == (0, 2, 5)]
    assert sorted(r.name for r in special) == ["Shadowlands", "Venture", "Venture", "Venture"]
    named = {r.name: r for r in rifts}
    assert named["Burn Memory"].elements == ("Fire",) and named["Rolling Dunes"].elements == ("Earth",)
    assert named["False Story Echoes"].elements == ("Wind",) and named["Shadowlands"].wild
    assert sum(1 for r in rifts if r.bonus) == 13
    assert named["Bedrock Hollow"].protect == {"discard", "return", "force_burst"}


def _broken(mutate):
    doc = raw()
    mutate(doc)
    return doc


BAD = {
    "unknown op": lambda d: d["rift_cards"][0]["power"].append({"op": "teleport"}),
    "unknown element": lambda d: d["rift_cards"][1].update(elements=["Aether"]),
    "duplicate id": lambda d: d["rift_cards"][2].update(id=d["rift_cards"][3]["id"]),
    "bad track": lambda d: d["rift_cards"][4].update(track=[0, 3]),
    "bad bonus": lambda d: d["rift_cards"][4].update(bonus={"values": [1], "when": "always"}),
    "unknown bonus": lambda d: d["rift_cards"][4].update(bonus={"values": [1, 2], "when": "full_moon"}),
    "unknown field": lambda d: d["rift_cards"][5].update(colour="red"),
    "bad parameter": lambda d: d["rift_cards"][6]["power"][0].update(n=0),
    "unknown parameter": lambda d: d["rift_cards"][6]["power"][0].update(speed=2),
    "empty power": lambda d: d["rift_cards"][7].update(power=[]),
    "bad cost": lambda d: d["rift_cards"][2]["power"][0].pop("then"),
    "bad static": lambda d: d["rift_cards"][19].update(static=[{"op": "glow"}]),
    "hidden hand chooser": lambda d: d["rift_cards"][14]["power"][0].update(chooser="active"),
}


@pytest.mark.parametrize("what", sorted(BAD))
def test_a_bad_record_is_rejected_naming_the_card_9_4(what):
    doc = _broken(BAD[what])
    with pytest.raises(CardDataError) as err:
        cards.parse(doc)
    assert "rift card" in str(err.value)  # the message names the card


def test_bad_element_cards_are_rejected_9_4():
    doc = raw()
    doc["element_cards"][0]["faces"] = ["Fire", "Fire"]
    with pytest.raises(CardDataError, match="E01"):
        cards.parse(doc)


def test_a_different_card_list_loads_from_data_alone_H10(tmp_path):
    doc = raw()
    doc["rift_cards"][0] = {"id": "XX-01", "name": "New Card", "elements": ["Fire"], "track": [0, 4, 8],
                            "power": [{"op": "choose", "options": [[{"op": "draw", "n": 2}],
                                                                   [{"op": "flip", "n": 3}]]}],
                            "bonus": {"values": [1, 3], "when": "always"}}
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(doc))
    loaded = cards.load(path)
    assert loaded.rifts["XX-01"].track == (0, 4, 8) and "FI-01" not in loaded.rifts
