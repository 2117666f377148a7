"""One scenario per guild ability: rules §7 (base guilds) and §8 (Beyond guilds), with the house
rules Q1-Q3 and Q15 where an ability depends on them.  Seat 0 acts; its elementals are "allies"."""

from __future__ import annotations

from engine.riftforce import abilities, effects

from .scenario import MV, A, D, P, board, dmg, do, legal, stack, types

E = [[], [], [], [], []]


def at(loc, *cards):
    """Five stacks with `cards` at `loc` (front first)."""
    b = [[] for _ in range(5)]
    b[loc] = list(cards)
    return b


def merge(*boards):
    out = [[] for _ in range(5)]
    for b in boards:
        for l in range(5):
            out[l] += b[l]
    return out


# ---- §7 base guilds -----------------------------------------------------------------------------------

def test_fire_hits_first_enemy_and_ally_directly_behind():
    """§7 Fire: 3 damage to the first enemy here, then 1 to the ally directly behind this Fire."""
    s = board(me=at(1, "fire-5a", "water-5a", "water-6a"), foe=at(1, "ice-6a", "ice-5a"),
              hand=["fire-6a"])
    s, ev = do(s, D("fire-6a"), A("fire-5a"))
    assert dmg(s, "ice-6a") == 3 and dmg(s, "ice-5a") == 0
    assert dmg(s, "water-5a") == 1 and dmg(s, "water-6a") == 0
    assert s["turn"] == 1 and s["pending"] is None  # nothing else to activate: the turn passed


def test_fire_self_kill_scores_for_opponent_with_crystal_bonus():
    """§5 / §7 Fire: destroying an own Crystal behind the Fire gives the opponent 1+1 RF."""
    s = board(me=at(0, "fire-5a", "crystal-5a"), hand=["fire-6a"], damage={"crystal-5a": 4})
    s, ev = do(s, D("fire-6a"), A("fire-5a"))
    assert "crystal-5a" in s["discard"][0]
    assert s["score"] == [0, 2]


def test_water_hits_moves_adjacent_and_hits_again():
    """§7 Water: 2 damage here, mandatory move to an adjacent location, 1 damage there."""
    s = board(me=at(2, "water-5a"), foe=merge(at(2, "ice-5a"), at(3, "ice-6a", "ice-7a")),
              hand=["water-6a"])
    s, _ = do(s, D("water-6a"), A("water-5a"))
    assert legal(s) == [MV(1), MV(3)]  # adjacent only, cannot stay
    s, _ = do(s, MV(3))
    assert dmg(s, "ice-5a") == 2 and dmg(s, "ice-6a") == 1 and dmg(s, "ice-7a") == 0
    assert stack(s, 3, 0) == ["water-5a"] and stack(s, 2, 0) == []


def test_water_at_an_end_has_one_destination_resolved_automatically():
    """§1 no wrap-around; §7 Water from an end location has only one choice (no decision asked)."""
    s = board(me=at(0, "water-5a"), foe=at(1, "ice-6a"), hand=["water-6a"])
    s, _ = do(s, D("water-6a"), A("water-5a"))
    assert stack(s, 1, 0) == ["water-5a"] and dmg(s, "ice-6a") == 1
    assert s["turn"] == 1


def test_air_moves_anywhere_else_and_hits_three_locations():
    """§7 Air: move to any other location, then 1 damage to the first enemy there and next to it."""
    foe = merge(at(0, "ice-5a"), at(1, "ice-5b"), at(2, "ice-5c"), at(3, "ice-6a", "ice-6b"),
                at(4, "ice-7a"))
    s = board(me=at(2, "air-5a"), foe=foe, hand=["air-6a"])
    s, _ = do(s, D("air-6a"), A("air-5a"))
    assert legal(s) == [MV(0), MV(1), MV(3), MV(4)]
    s, _ = do(s, MV(3))
    assert [dmg(s, c) for c in ("ice-5a", "ice-5b", "ice-5c", "ice-6a", "ice-6b", "ice-7a")] == \
        [0, 0, 1, 1, 0, 1]
    assert stack(s, 3, 0) == ["air-5a"]


def test_earth_on_play_hits_every_enemy_there_and_activation_hits_first():
    """§7 Earth: on play 1 damage to every enemy at that location; activated 2 to the first."""
    s = board(foe=at(2, "ice-5a", "ice-6a", "ice-7a"), hand=["earth-5a", "earth-6a"],
              damage={"ice-6a": 5})
    s, ev = do(s, P("earth-5a", 2))
    assert dmg(s, "ice-5a") == 1 and dmg(s, "ice-7a") == 1
    assert "ice-6a" in s["discard"][1] and s["score"] == [1, 0]
    s, _ = do(s, {"type": "end_play"})
    s["turn"] = 0
    s, _ = do(s, D("earth-6a"), A("earth-5a"))
    assert dmg(s, "ice-5a") == 3 and dmg(s, "ice-7a") == 1


def test_ice_four_to_damaged_last_enemy_else_one():
    """§7 Ice: 4 damage to the last enemy if it is damaged, otherwise 1."""
    s = board(me=merge(at(0, "ice-5a"), at(1, "ice-5b")),
              foe=merge(at(0, "plant-5a", "plant-6a"), at(1, "plant-7a", "plant-6b")),
              hand=["ice-6a"], damage={"plant-6a": 1})
    s, _ = do(s, D("ice-6a"), A("ice-5a"), A("ice-5b"))
    assert dmg(s, "plant-6a") == 5 and dmg(s, "plant-5a") == 0
    assert dmg(s, "plant-6b") == 1 and dmg(s, "plant-7a") == 0


def test_thunderbolt_any_enemy_and_repeats_only_once():
    """§7 Thunderbolt: 2 damage to any enemy here; if destroyed, once more (never a third time)."""
    s = board(me=at(1, "thunderbolt-5a"), foe=at(1, "ice-5a", "ice-6a", "ice-7a"),
              hand=["thunderbolt-6a"], damage={"ice-6a": 4, "ice-7a": 5})
    s, _ = do(s, D("thunderbolt-6a"), A("thunderbolt-5a"))
    assert legal(s) == [{"type": "target", "card": c} for c in ("ice-5a", "ice-6a", "ice-7a")]
    s, _ = do(s, {"type": "target", "card": "ice-6a"})
    assert legal(s) == [{"type": "target", "card": "ice-5a"}, {"type": "target", "card": "ice-7a"}]
    s, ev = do(s, {"type": "target", "card": "ice-7a"})
    assert len(types(ev, "destroyed")) == 1 and dmg(s, "ice-5a") == 0
    assert s["score"] == [2, 0] and s["turn"] == 1  # no third strike


def test_light_damages_then_heals_any_damaged_ally_anywhere():
    """§7 Light: 2 damage to the first enemy, then remove 1 damage from this Light or any ally."""
    s = board(me=merge(at(0, "light-5a"), at(3, "water-5a")), foe=at(0, "ice-6a"),
              hand=["light-6a"], damage={"light-5a": 1, "water-5a": 2})
    s, _ = do(s, D("light-6a"), A("light-5a"))
    assert dmg(s, "ice-6a") == 2
    assert legal(s) == [{"type": "heal", "card": "light-5a"}, {"type": "heal", "card": "water-5a"}]
    s, _ = do(s, {"type": "heal", "card": "water-5a"})
    assert dmg(s, "water-5a") == 1 and dmg(s, "light-5a") == 1


def test_plant_hits_adjacent_first_enemy_and_pulls_it_here():
    """§7 Plant: 2 damage to the first enemy at a chosen adjacent location, then move it here."""
    s = board(me=at(2, "plant-5a"), foe=merge(at(1, "ice-5a"), at(2, "fire-5a"), at(3, "ice-6a", "ice-7a")),
              hand=["plant-6a"])
    s, _ = do(s, D("plant-6a"), A("plant-5a"))
    assert legal(s) == [{"type": "aim", "loc": 1}, {"type": "aim", "loc": 3}]
    s, _ = do(s, {"type": "aim", "loc": 3})
    assert stack(s, 2, 1) == ["fire-5a", "ice-6a"] and dmg(s, "ice-6a") == 2
    assert stack(s, 3, 1) == ["ice-7a"]


def test_q15_plant_must_aim_at_an_adjacent_location_holding_an_enemy():
    """House rule Q15: Plant aims only at adjacent locations holding an enemy; with one such
    location it strikes there without asking (the strike is never lost), with none nothing
    happens."""
    s = board(me=at(2, "plant-5a"), foe=at(3, "ice-6a"), hand=["plant-6a"])
    s, ev = do(s, D("plant-6a"), A("plant-5a"))
    assert {"type": "aim", "loc": 1} not in legal(s, 0)
    assert stack(s, 2, 1) == ["ice-6a"] and dmg(s, "ice-6a") == 2 and s["turn"] == 1
    s = board(me=at(0, "plant-5a"), foe=at(2, "ice-6a"), hand=["plant-6a"])
    s, ev = do(s, D("plant-6a"), A("plant-5a"))
    assert not types(ev, "damage") and not types(ev, "move") and s["turn"] == 1


def test_q15_light_and_love_heal_a_damaged_ally_when_there_is_one():
    """House rule Q15 (same reading as Plant): Light's heal and Love's on-play heal are offered
    only damaged allies; a lone one is healed without asking; with none nothing is asked."""
    s = board(me=merge(at(0, "light-5a"), at(1, "water-5a"), at(3, "water-6a")), foe=at(0, "ice-7a"),
              hand=["light-6a"], damage={"water-6a": 2})
    s, _ = do(s, D("light-6a"), A("light-5a"))
    assert dmg(s, "water-6a") == 1 and s["turn"] == 1
    s = board(me=at(0, "water-5a", "fire-6a"), hand=["love-5a"])
    s, ev = do(s, P("love-5a", 0))
    assert not types(ev, "heal") and s["turn"] == 1


def test_q15_mandatory_moves_keep_free_destinations():
    """House rule Q15 leaves mandatory moves alone: Water may move where no enemy stands (its
    second strike is then lost), and Air, Shadow and Sand may go to any other location."""
    s = board(me=at(2, "water-5a"), foe=at(3, "ice-6a"), hand=["water-6a"])
    s, _ = do(s, D("water-6a"), A("water-5a"))
    assert legal(s) == [MV(1), MV(3)]
    s = board(me=at(2, "shadow-5a"), hand=["shadow-6a"])
    s, _ = do(s, D("shadow-6a"), A("shadow-5a"))
    assert legal(s) == [MV(0), MV(1), MV(3), MV(4)]


def test_plant_does_not_move_a_destroyed_enemy():
    """§7 Plant with Q2: if the enemy is destroyed, nothing moves."""
    s = board(me=at(2, "plant-5a"), foe=at(3, "ice-6a", "ice-7a"), hand=["plant-6a"],
              damage={"ice-6a": 4})
    s, _ = do(s, D("plant-6a"), A("plant-5a"))  # Q15: the only location with an enemy, unasked
    assert "ice-6a" in s["discard"][1] and stack(s, 3, 1) == ["ice-7a"] and stack(s, 2, 1) == []


def test_shadow_moves_and_kill_gives_extra_point_three_for_crystal():
    """§7 Shadow: move anywhere else, 1 damage there; a Shadow kill gives +1 (3 for a Crystal)."""
    s = board(me=merge(at(0, "shadow-5a"), at(4, "shadow-5b")),
              foe=merge(at(3, "crystal-5a"), at(1, "ice-5a")),
              hand=["shadow-6a"], damage={"crystal-5a": 4, "ice-5a": 4})
    s, _ = do(s, D("shadow-6a"), A("shadow-5a"))
    assert legal(s) == [MV(1), MV(2), MV(3), MV(4)]
    s, _ = do(s, MV(3))
    assert s["score"] == [3, 0]
    s, _ = do(s, A("shadow-5b"), MV(1))
    assert s["score"] == [5, 0]


def test_crystal_four_damage_and_its_destruction_gives_two():
    """§7 Crystal: 4 damage to the first enemy; a destroyed Crystal gives its destroyer 2 RF."""
    s = board(me=at(0, "crystal-5a"), foe=at(0, "crystal-6a", "ice-5a"), hand=["crystal-6b"],
              damage={"crystal-6a": 2})
    s, _ = do(s, D("crystal-6b"), A("crystal-5a"))
    assert "crystal-6a" in s["discard"][1] and s["score"] == [2, 0] and dmg(s, "ice-5a") == 0


# ---- §8 Beyond guilds -------------------------------------------------------------------------------

def test_beast_moves_adjacent_then_two_or_three_damage_checked_after_move():
    """§8 Beast: mandatory adjacent move; then 3 damage if this Beast is damaged, else 2."""
    s = board(me=merge(at(0, "beast-5a"), at(4, "beast-5b")), foe=merge(at(1, "ice-7a"), at(3, "ice-7b")),
              hand=["beast-6a"], damage={"beast-5b": 1})
    s, _ = do(s, D("beast-6a"), A("beast-5a"))  # from an end: forced to location 2
    assert stack(s, 1, 0) == ["beast-5a"] and dmg(s, "ice-7a") == 2
    s, _ = do(s, A("beast-5b"))
    assert dmg(s, "ice-7b") == 3


def test_sand_moves_hits_each_enemy_and_heals_itself():
    """§8 Sand: move to any other location, 1 damage to each enemy there, remove 1 from itself."""
    s = board(me=at(0, "sand-5a"), foe=merge(at(4, "ice-5a", "ice-6a"), at(0, "ice-7a")),
              hand=["sand-6a"], damage={"sand-5a": 2})
    s, _ = do(s, D("sand-6a"), A("sand-5a"))
    assert legal(s) == [MV(1), MV(2), MV(3), MV(4)]
    s, _ = do(s, MV(4))
    assert dmg(s, "ice-5a") == 1 and dmg(s, "ice-6a") == 1 and dmg(s, "ice-7a") == 0
    assert dmg(s, "sand-5a") == 1


def test_lava_hits_both_adjacent_then_itself_and_allies_in_front():
    """§8 Lava: 2 damage to the first enemy at each adjacent location, then 1 to itself and each ally
    in front of it; an own Crystal destroyed that way scores 2 for the opponent."""
    s = board(me=at(2, "crystal-5a", "lava-5a", "water-5a"),
              foe=merge(at(1, "ice-5a"), at(2, "ice-7a"), at(3, "ice-6a")),
              hand=["lava-6a"], damage={"crystal-5a": 4})
    s, _ = do(s, D("lava-6a"), A("lava-5a"))
    assert dmg(s, "ice-5a") == 2 and dmg(s, "ice-6a") == 2 and dmg(s, "ice-7a") == 0
    assert dmg(s, "lava-5a") == 1 and dmg(s, "water-5a") == 0
    assert "crystal-5a" in s["discard"][0] and s["score"] == [0, 2]


def test_lava_destroying_itself_scores_for_opponent():
    """§8 Lava: its self-damage can destroy it; the opponent gains the RF."""
    s = board(me=at(0, "lava-5a"), hand=["lava-6a"], damage={"lava-5a": 4})
    s, _ = do(s, D("lava-6a"), A("lava-5a"))
    assert "lava-5a" in s["discard"][0] and s["score"] == [0, 1]


def test_music_captures_plays_adjacent_on_play_fires_and_can_be_activated_by_number():
    """§8 Music + Q3: a destroyed enemy is captured (RF 1), loses its damage, is played adjacent to
    the Music (Earth's on-play effect fires) and, with the number option, may be activated too."""
    s = board(me=at(2, "music-5a"), foe=merge(at(2, "earth-5a", "ice-6a"), at(1, "ice-5a")),
              hand=["music-5b"], damage={"earth-5a": 3})
    s, ev = do(s, D("music-5b"), A("music-5a"))
    assert s["limbo"] == "earth-5a" and s["score"] == [1, 0]
    assert legal(s) == [{"type": "place", "loc": 1}, {"type": "place", "loc": 3}]
    s, ev = do(s, {"type": "place", "loc": 1})
    assert stack(s, 1, 0) == ["earth-5a"] and dmg(s, "earth-5a") == 0 and s["limbo"] is None
    assert dmg(s, "ice-5a") == 1  # the captured Earth's on-play effect
    assert A("earth-5a") in legal(s)
    s, _ = do(s, A("earth-5a"))
    assert dmg(s, "ice-5a") == 3


def test_music_captured_card_not_activated_with_symbol_option_and_crystal_gives_two():
    """§8 Music: the captured card may be activated only under the number option; a captured
    Crystal scores 2 (Q3)."""
    s = board(me=at(0, "music-5a"), foe=at(0, "crystal-5a"), hand=["music-6a"],
              damage={"crystal-5a": 4})
    s, _ = do(s, D("music-6a"), A("music-5a"))  # symbol option; location 2 is the only neighbour
    assert stack(s, 1, 0) == ["crystal-5a"] and s["score"] == [2, 0]
    assert s["turn"] == 1  # nothing left to activate: crystal-5a does not share the Music symbol


def test_music_captured_card_later_goes_to_captors_discard():
    """Q3: a captured elemental belongs to its captor; destroyed later, it goes to the captor's pile."""
    s = board(me=at(0, "music-5a"), foe=at(0, "ice-5a"), hand=["music-6a"],
              foe_hand=["fire-5b"], damage={"ice-5a": 3})
    s, _ = do(s, D("music-6a"), A("music-5a"))
    s["board"][1][1] = ["fire-5a"]
    s["damage"]["ice-5a"] = 2
    s, _ = do(s, D("fire-5b"), A("fire-5a"))
    assert "ice-5a" in s["discard"][0] and s["score"] == [1, 1]


def test_acid_three_and_one_no_rf_and_fixed_second_target():
    """§8 Acid with Q1: 3 to the first enemy, 1 to the one that was second at activation; enemies it
    destroys give no RF, not even a Crystal."""
    s = board(me=at(0, "acid-5a"), foe=at(0, "crystal-5a", "ice-6a", "ice-7a"), hand=["acid-6a"],
              damage={"crystal-5a": 2})
    s, ev = do(s, D("acid-6a"), A("acid-5a"))
    assert "crystal-5a" in s["discard"][1] and s["score"] == [0, 0]
    assert dmg(s, "ice-6a") == 1 and dmg(s, "ice-7a") == 0
    assert not types(ev, "score")


def test_star_draws_only_below_seven_and_reshuffles():
    """§8 Star: 2 damage to the first enemy, then draw 1 if fewer than 7 in hand (reshuffling)."""
    hand = ["star-6a", "fire-5a", "fire-5b", "fire-5c", "fire-5d", "fire-6a", "fire-6b"]
    s = board(me=at(0, "star-5a", "star-5b"), foe=at(0, "ice-7a"), hand=hand, deck=[],
              discard=["water-7a"])
    s, ev = do(s, D("star-6a"), A("star-5a"))
    assert dmg(s, "ice-7a") == 2
    assert types(ev, "reshuffle") and "water-7a" in s["hand"][0] and len(s["hand"][0]) == 7
    s, ev = do(s, A("star-5b"))
    assert not types(ev, "draw") and len(s["hand"][0]) == 7


def test_love_on_play_removes_all_damage_from_one_chosen_ally_and_activation_hits():
    """§8 Love: on play remove all damage from one ally at that location; activated 2 damage."""
    s = board(me=at(0, "water-5a", "fire-6a"), foe=at(0, "ice-7a"), hand=["love-5a", "love-6a"],
              damage={"water-5a": 3, "fire-6a": 1})
    s, _ = do(s, P("love-5a", 0))
    assert legal(s) == [{"type": "heal", "card": "water-5a"}, {"type": "heal", "card": "fire-6a"}]
    s, _ = do(s, {"type": "heal", "card": "water-5a"})
    assert dmg(s, "water-5a") == 0 and dmg(s, "fire-6a") == 1
    s, _ = do(s, {"type": "end_play"})
    s["turn"] = 0
    s, _ = do(s, D("love-6a"), A("love-5a"))
    assert dmg(s, "ice-7a") == 2


def test_magnet_hits_last_enemy_and_moves_with_it():
    """§8 Magnet: 2 damage to the last enemy, then it and this Magnet move to the same adjacent
    location (each to the back of its side)."""
    s = board(me=merge(at(2, "magnet-5a"), at(3, "fire-5a")), foe=merge(at(2, "ice-5a", "ice-6a"), at(3, "ice-7a")),
              hand=["magnet-6a"])
    s, _ = do(s, D("magnet-6a"), A("magnet-5a"))
    assert legal(s) == [MV(1), MV(3)]
    s, _ = do(s, MV(3))
    assert stack(s, 3, 1) == ["ice-7a", "ice-6a"] and stack(s, 3, 0) == ["fire-5a", "magnet-5a"]
    assert dmg(s, "ice-6a") == 2 and stack(s, 2, 1) == ["ice-5a"]


def test_magnet_moves_alone_when_its_target_is_destroyed():
    """§8 Magnet with Q2: a destroyed enemy is not moved; the Magnet still must move."""
    s = board(me=at(4, "magnet-5a"), foe=at(4, "ice-5a"), hand=["magnet-6a"], damage={"ice-5a": 3})
    s, _ = do(s, D("magnet-6a"), A("magnet-5a"))
    assert stack(s, 3, 0) == ["magnet-5a"] and "ice-5a" in s["discard"][1]


def test_each_earth_played_triggers_separately():
    """§7 Earth: two Earths played at one location each deal their on-play damage."""
    s = board(foe=at(1, "ice-6a", "ice-7a"), hand=["earth-5a", "earth-5b"])
    s, _ = do(s, P("earth-5a", 1), P("earth-5b", 1))
    assert dmg(s, "ice-6a") == 2 and dmg(s, "ice-7a") == 2


def test_love_captured_by_music_fires_its_on_play_heal():
    """§8 Love: its on-play effect also fires when it is captured by Music (Q3: counts as played)."""
    s = board(me=merge(at(0, "music-5a"), at(1, "water-5a", "fire-5a")), foe=at(0, "love-5a"),
              hand=["music-6a"], damage={"love-5a": 4, "water-5a": 2, "fire-5a": 3})
    s, ev = do(s, D("music-6a"), A("music-5a"))  # the only neighbour of location 1 is location 2
    assert stack(s, 1, 0) == ["water-5a", "fire-5a", "love-5a"]
    assert legal(s) == [{"type": "heal", "card": "water-5a"}, {"type": "heal", "card": "fire-5a"}]
    s, _ = do(s, {"type": "heal", "card": "fire-5a"})
    assert dmg(s, "fire-5a") == 0 and dmg(s, "water-5a") == 2 and s["turn"] == 1


def test_acid_second_target_reading_is_a_flag(monkeypatch):
    """Q1 (config flag): with ACID_TARGETS_FIXED_AT_START off, the new second card takes the 1."""
    monkeypatch.setattr(abilities, "ACID_TARGETS_FIXED_AT_START", False)
    s = board(me=at(0, "acid-5a"), foe=at(0, "ice-5a", "ice-6a", "ice-7a"), hand=["acid-6a"],
              damage={"ice-5a": 2})
    s, _ = do(s, D("acid-6a"), A("acid-5a"))
    assert dmg(s, "ice-6a") == 0 and dmg(s, "ice-7a") == 1


def test_captured_card_can_return_to_first_owner_by_flag(monkeypatch):
    """Q3 (config flag): with CAPTURED_CARDS_STAY_WITH_CAPTOR off, a captured card destroyed later
    goes to the discard pile of the player whose guild it is; the RF still goes to its destroyer."""
    monkeypatch.setattr(effects, "CAPTURED_CARDS_STAY_WITH_CAPTOR", False)
    s = board(me=at(0, "music-5a"), foe=at(0, "ice-5a"), hand=["music-6a"], foe_hand=["fire-5b"],
              damage={"ice-5a": 3}, guilds=[["music", "fire", "air", "earth"], ["ice", "plant", "light", "shadow"]])
    s, _ = do(s, D("music-6a"), A("music-5a"))
    s["board"][1][1] = ["fire-5a"]
    s["damage"]["ice-5a"] = 2
    s, _ = do(s, D("fire-5b"), A("fire-5a"))
    assert "ice-5a" in s["discard"][1] and s["score"] == [1, 1]
