"""The 18 guild abilities (rules §7, §8) and the two on-play effects (Earth, Love).

Each ability is a resumable step function `fn(fx, actor, seat, stage, data, choice)`:
it runs on the `Effects` context from `stage`, and either finishes (returns None) or stops at a
choice the acting player must make, returning an *ask*:

    {"what": "move_to" | "aim" | "place" | "target" | "heal", "fn": name, "card": actor,
     "stage": next stage, "data": {...}, "options": [loc or card id, ...]}

The ask is stored in the pending action (plain JSON), and the player's answer resumes `fn` at
`stage` with `choice` set.  `run` takes a lone option by itself (a forced continuation is not a
decision).  Steps that cannot happen are skipped, as the rules say ("as far as possible").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import GUILD, NUMBER
from .effects import Effects
from .state import locate

Ask = dict[str, Any]

# House rule Q1 (rules §13): Acid fixes both of its targets when the ability starts, so its 1
# damage goes to the card that was second at activation even if the first is destroyed.
# False gives the other reading (the new second card, formerly third, is hit).
ACID_TARGETS_FIXED_AT_START = True


def _ask(what: str, fn: str, actor: str, stage: int, options: list, data: dict | None = None) -> Ask:
    return {"what": what, "fn": fn, "card": actor, "stage": stage, "data": data or {},
            "options": options}


def _here(fx: Effects, actor: str) -> int:
    return locate(fx.s, actor)[0]


def _damaged_allies(fx: Effects, seat: int, locs) -> list[str]:
    """Damaged elementals on `seat`'s side (a teammate's count as allies: house rule Q5)."""
    dmg = fx.s["damage"]
    return [c for l in locs for c in fx.stack(l, seat) if dmg.get(c, 0) > 0]


# ---- base guilds (rules §7) ------------------------------------------------------------------------

def fire(fx, actor, seat, stage, data, choice):
    loc = _here(fx, actor)
    fx.hit(fx.first_enemy(loc, seat), 3, actor)
    mine = fx.stack(loc, seat)
    i = mine.index(actor)
    if i + 1 < len(mine):  # the ally directly behind; if it dies, the opponent scores (§5)
        fx.hit(mine[i + 1], 1, actor)
    return None


def water(fx, actor, seat, stage, data, choice):
    if stage == 0:
        loc = _here(fx, actor)
        fx.hit(fx.first_enemy(loc, seat), 2, actor)
        return _ask("move_to", "water", actor, 1, fx.adjacent(loc))
    fx.move(actor, choice)
    fx.hit(fx.first_enemy(choice, seat), 1, actor)
    return None


def air(fx, actor, seat, stage, data, choice):
    if stage == 0:
        return _ask("move_to", "air", actor, 1, fx.others(_here(fx, actor)))
    fx.move(actor, choice)
    for l in [choice] + fx.adjacent(choice):
        fx.hit(fx.first_enemy(l, seat), 1, actor)
    return None


def earth(fx, actor, seat, stage, data, choice):
    fx.hit(fx.first_enemy(_here(fx, actor), seat), 2, actor)
    return None


def ice(fx, actor, seat, stage, data, choice):
    target = fx.last_enemy(_here(fx, actor), seat)
    if target is not None:
        fx.hit(target, 4 if fx.damage_of(target) >= 1 else 1, actor)
    return None


def thunderbolt(fx, actor, seat, stage, data, choice):
    loc = _here(fx, actor)
    if stage == 0:
        enemies = fx.enemies(loc, seat)[:]
        return _ask("target", "thunderbolt", actor, 1, enemies, {"repeat": False}) if enemies else None
    killed = fx.hit(choice, 2, actor)
    if killed and not data["repeat"]:  # repeat exactly once (§7 Thunderbolt)
        enemies = fx.enemies(loc, seat)[:]
        if enemies:
            return _ask("target", "thunderbolt", actor, 1, enemies, {"repeat": True})
    return None


def light(fx, actor, seat, stage, data, choice):
    if stage == 0:
        fx.hit(fx.first_enemy(_here(fx, actor), seat), 2, actor)
        # House rule Q15: the heal must land on a damaged elemental when one exists (the step
        # happens "as far as possible"); which one, this Light or any ally anywhere, is the
        # player's choice.
        hurt = _damaged_allies(fx, seat, range(fx.n))
        return _ask("heal", "light", actor, 1, hurt) if hurt else None
    fx.heal(choice, 1, actor)
    return None


def plant(fx, actor, seat, stage, data, choice):
    loc = _here(fx, actor)
    if stage == 0:
        # House rule Q15: the strike must land where it can, so only adjacent locations holding an
        # enemy are offered (one is taken without asking; none: nothing happens).
        aims = [l for l in fx.adjacent(loc) if fx.enemies(l, seat)]
        return _ask("aim", "plant", actor, 1, aims) if aims else None
    target = fx.first_enemy(choice, seat)
    if target is not None and not fx.hit(target, 2, actor):
        fx.move(target, loc)  # Q2: a destroyed enemy is not moved
    return None


def shadow(fx, actor, seat, stage, data, choice):
    if stage == 0:
        return _ask("move_to", "shadow", actor, 1, fx.others(_here(fx, actor)))
    fx.move(actor, choice)
    fx.hit(fx.first_enemy(choice, seat), 1, actor)  # kill bonus: effects.kill_points
    return None


def crystal(fx, actor, seat, stage, data, choice):
    fx.hit(fx.first_enemy(_here(fx, actor), seat), 4, actor)
    return None


# ---- Beyond guilds (rules §8) ------------------------------------------------------------------------

def beast(fx, actor, seat, stage, data, choice):
    if stage == 0:
        return _ask("move_to", "beast", actor, 1, fx.adjacent(_here(fx, actor)))
    fx.move(actor, choice)
    # The damage check is made after the move, on the Beast itself (§8 Beast).
    fx.hit(fx.first_enemy(choice, seat), 3 if fx.damage_of(actor) >= 1 else 2, actor)
    return None


def sand(fx, actor, seat, stage, data, choice):
    if stage == 0:
        return _ask("move_to", "sand", actor, 1, fx.others(_here(fx, actor)))
    fx.move(actor, choice)
    for enemy in fx.enemies(choice, seat)[:]:
        fx.hit(enemy, 1, actor)
    fx.heal(actor, 1, actor)
    return None


def lava(fx, actor, seat, stage, data, choice):
    loc = _here(fx, actor)
    for l in fx.adjacent(loc):
        fx.hit(fx.first_enemy(l, seat), 2, actor)
    mine = fx.stack(loc, seat)
    # This Lava and every ally in front of it; kills score for the opponent (§8 Lava).
    for ally in mine[: mine.index(actor) + 1]:
        fx.hit(ally, 1, actor)
    return None


def music(fx, actor, seat, stage, data, choice):
    if stage == 0:
        loc = _here(fx, actor)
        target = fx.first_enemy(loc, seat)
        if target is None:
            return None
        if fx.damage_of(target) + 2 < NUMBER[target]:
            fx.hit(target, 2, actor)
            return None
        # Destroyed: captured instead of discarded (§8 Music); Q3: normal kill RF for the Music
        # player (Crystal +1), the captured card loses all damage.
        victim = fx.owner(target, 1 - (seat & 1))
        fx.emit({"type": "damage", "card": target, "seat": victim, "amount": 2, "by": actor,
                 "by_seat": seat})
        captured = {"type": "captured", "card": target, "seat": seat, "from": loc, "by": actor}
        if fx.mode == "team":
            captured["owner"] = victim  # with four seats the victim is not simply "the other"
        fx.emit(captured)
        # A Crystal *bot* gives no bonus in solo (rules §11).
        bonus = GUILD[target] == "crystal" and fx.mode != "solo"
        fx.score(seat & 1, 1 + bonus, "kill")
        return _ask("place", "music", actor, 1, fx.adjacent(loc), {"captured": target})
    captured = data["captured"]
    fx.emit({"type": "enter", "seat": seat, "card": captured, "loc": choice, "from": "capture"})
    return on_play(fx, captured, seat, choice)  # it counts as just played (Earth, Love fire)


def acid(fx, actor, seat, stage, data, choice):
    loc = _here(fx, actor)
    enemies = fx.enemies(loc, seat)
    first = enemies[0] if enemies else None
    second = enemies[1] if len(enemies) > 1 else None
    fx.hit(first, 3, actor)
    if not ACID_TARGETS_FIXED_AT_START:
        enemies = fx.enemies(loc, seat)
        second = enemies[1] if len(enemies) > 1 else None
    fx.hit(second, 1, actor)  # kill_points gives 0 for any Acid kill
    return None


def star(fx, actor, seat, stage, data, choice):
    fx.hit(fx.first_enemy(_here(fx, actor), seat), 2, actor)
    if len(fx.s["hand"][seat]) < 7:
        fx.draw(seat, 1)
    return None


def love(fx, actor, seat, stage, data, choice):
    fx.hit(fx.first_enemy(_here(fx, actor), seat), 2, actor)
    return None


def magnet(fx, actor, seat, stage, data, choice):
    loc = _here(fx, actor)
    if stage == 0:
        target = fx.last_enemy(loc, seat)
        if target is not None and fx.hit(target, 2, actor):
            target = None  # Q2: a destroyed enemy is not moved; the Magnet still moves
        return _ask("move_to", "magnet", actor, 1, fx.adjacent(loc), {"enemy": target})
    if data["enemy"] is not None:
        fx.move(data["enemy"], choice)
    fx.move(actor, choice)
    return None


# ---- on-play effects ---------------------------------------------------------------------------------

def love_play(fx, actor, seat, stage, data, choice):
    if stage == 0:
        # House rule Q15: "remove all damage from one ally here" must pick a damaged ally if there
        # is one.
        hurt = _damaged_allies(fx, seat, [_here(fx, actor)])
        return _ask("heal", "love_play", actor, 1, hurt) if hurt else None
    fx.heal(choice, None, actor)
    return None


def on_play(fx: Effects, card: str, seat: int, loc: int) -> Ask | None:
    """Effects of an elemental just played (from hand or captured by Music): Earth, Love."""
    g = GUILD[card]
    if g == "earth":
        for enemy in fx.enemies(loc, seat)[:]:
            fx.hit(enemy, 1, card)
        return None
    if g == "love":
        return run(fx, "love_play", card, seat)
    return None


ABILITIES: dict[str, Callable[..., Ask | None]] = {
    "fire": fire, "water": water, "air": air, "earth": earth, "ice": ice,
    "thunderbolt": thunderbolt, "light": light, "plant": plant, "shadow": shadow,
    "crystal": crystal, "beast": beast, "sand": sand, "lava": lava, "music": music,
    "acid": acid, "star": star, "love": love, "magnet": magnet, "love_play": love_play,
}


def run(fx: Effects, fn: str, actor: str, seat: int, stage: int = 0, data: dict | None = None,
        choice: Any = None) -> Ask | None:
    """Run a step function until it finishes or needs a real choice (two or more options)."""
    while True:
        ask = ABILITIES[fn](fx, actor, seat, stage, data or {}, choice)
        if ask is None:
            return None
        opts = ask["options"]
        if len(opts) > 1:
            return ask
        if not opts:  # the step cannot happen: skip the rest of it
            return None
        fn, actor, stage, data, choice = ask["fn"], ask["card"], ask["stage"], ask["data"], opts[0]
