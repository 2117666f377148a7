"""What people see: views, words for moves and events, and redaction of hidden facts.

Hidden information in Riftforce: each hand (its owner sees it), every draw pile's order (nobody),
the base draft's unseen removed summoner (nobody), and discard piles below the top card (rules
§4C: they may not be browsed; only their size and top card are shown).
"""

from __future__ import annotations

from typing import Any

from .cards import GUILD, GUILD_ABILITY, GUILD_NAME, NUMBER, card_name
from .state import TARGET, State, controls, locate

Event = dict[str, Any]


# ---- small word helpers ------------------------------------------------------------------------------

def loc_name(loc: int) -> str:
    return f"location {loc + 1}"


def who(seat: int, viewer: int | None) -> str:
    """Subject: "You", "Opponent" or (for spectators) "Player 1"."""
    if viewer is None:
        return f"Player {seat + 1}"
    return "You" if seat == viewer else "Opponent"


def whose(seat: int, viewer: int | None) -> str:
    """Possessive at the start of a sentence: "Your", "Opponent's", "Player 1's"."""
    if viewer is None:
        return f"Player {seat + 1}'s"
    return "Your" if seat == viewer else "Opponent's"


def _lc(words: str) -> str:
    return words if words.startswith("Player") else words[0].lower() + words[1:]


def _and(items: list[str]) -> str:
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ordinal(i: int) -> str:
    return {0: "first", 1: "second", 2: "third"}.get(i, f"{i + 1}th")


# ---- card and summoner objects -----------------------------------------------------------------------

def card_obj(card: str, damage: int = 0) -> dict:
    g = GUILD[card]
    return {"id": card, "guild": g, "name": GUILD_NAME[g], "number": NUMBER[card], "damage": damage}


def summoner_obj(guild: str) -> dict:
    return {"id": guild, "name": GUILD_NAME[guild], "ability": GUILD_ABILITY[guild]}


# ---- the last action in words -------------------------------------------------------------------------

def summary_words(summary: dict | None, viewer: int | None) -> str | None:
    if summary is None:
        return None
    seat = summary["seat"]
    subject = who(seat, viewer)
    kind = summary["action"]
    if kind == "pick":
        return f"{subject} picked {GUILD_NAME[summary['guild']]}."
    if kind == "play":
        parts = [f"{card_name(c)} at {loc_name(l)}" for c, l in zip(summary["cards"], summary["locs"])]
        return f"{subject} played {_and(parts)}."
    if kind == "activate":
        acts = [card_name(c) for c in summary["activated"]]
        return f"{subject} discarded {card_name(summary['discarded'])} and activated {_and(acts)}."
    scored = summary["scored"]
    where = f" for {_and([loc_name(l) for l in summary['locs']])}" if scored else ""
    return (f"{subject} checked and drew: {scored} Riftforce{where}, "
            f"drew {summary['drew']} card{'s' if summary['drew'] != 1 else ''}.")


# ---- view ---------------------------------------------------------------------------------------------

def _ask_prompt(ask: dict) -> str:
    actor = card_name(ask["card"])
    return {
        "move_to": f"Choose where {actor} moves.",
        "aim": f"Choose the adjacent location {actor} strikes.",
        "place": f"Choose where to play the enemy captured by {actor}.",
        "target": f"Choose the enemy {actor} strikes.",
        "heal": f"Choose the ally {actor} heals.",
    }[ask["what"]]


def pending_view(p: dict | None) -> dict | None:
    if p is None:
        return None
    ask = p["ask"]
    ask_v = None
    if ask is not None:
        ask_v = {"what": ask["what"], "card": card_obj(ask["card"]), "prompt": _ask_prompt(ask)}
        if "captured" in ask["data"]:
            ask_v["captured"] = card_obj(ask["data"]["captured"])
    if p["kind"] == "play":
        return {"kind": "play", "seat": p["seat"], "cards": [card_obj(c) for c in p["cards"]],
                "locs": list(p["locs"]), "ask": ask_v}
    return {"kind": "activate", "seat": p["seat"], "discarded": card_obj(p["discarded"]),
            "activated": [card_obj(c) for c in p["activated"]], "by": list(p["by"]), "ask": ask_v}


def view(s: State, seat: int | None) -> dict:
    dmg = s["damage"]
    locations = [
        {"loc": l, "sides": [[card_obj(c, dmg.get(c, 0)) for c in side] for side in sides]}
        for l, sides in enumerate(s["board"])
    ]
    players = []
    for p in (0, 1):
        pile = s["discard"][p]
        players.append({
            "seat": p,
            "summoners": [summoner_obj(g) for g in s["guilds"][p]],
            "score": s["score"][p],
            "actions": s["actions"][p],
            "hand_count": len(s["hand"][p]),
            "deck_count": len(s["deck"][p]),
            "discard_count": len(pile),
            "discard_top": card_obj(pile[-1]) if pile else None,
            "controls": controls(s, p),
        })
    draft = None
    if s["draft"] is not None:
        d = s["draft"]
        draft = {"offer": [summoner_obj(g) for g in d["offer"]],
                 "picks": [d["picks"][0][:], d["picks"][1][:]],
                 "dealt": d["dealt"][:], "first": d["first"],
                 "removed": []}  # the base draft's removal is unseen by everyone
    return {
        "game": "riftforce",
        "seat": seat,
        "mode": s["mode"],
        "options": dict(s["options"]),
        "phase": s["phase"],
        "turn": s["turn"],
        "start_player": s["start"],
        "scores": s["score"][:],
        "target": TARGET,
        "end_triggered": s["ending"],
        "locations": locations,
        "players": players,
        "hand": [card_obj(c) for c in s["hand"][seat]] if seat in (0, 1) else None,
        "draft": draft,
        "pending": pending_view(s["pending"]),
        "last_action": summary_words(s["last"], seat),
        "result": result(s),
    }


def result(s: State) -> dict | None:
    r = s["result"]
    if r is None:
        return None
    return {"scores": {0: r["scores"][0], 1: r["scores"][1]}, "winners": list(r["winners"]),
            "score_list": list(r["scores"]), "reason": r["reason"], "actions": s["actions"][:]}


# ---- moves in words -------------------------------------------------------------------------------------

def _position(s: State, card: str) -> str:
    try:
        loc, side = locate(s, card)
    except ValueError:
        return ""
    i = s["board"][loc][side].index(card)
    d = s["damage"].get(card, 0)
    hurt = f", {d} damage" if d else ""
    return f" ({_ordinal(i)} at {loc_name(loc)}{hurt})"


def describe_move(move: Any, s: State | None = None) -> str:
    if not isinstance(move, dict):
        return str(move)
    t = move.get("type")
    p = s["pending"] if s is not None else None
    ask = p["ask"] if p is not None else None
    try:
        if t == "pick":
            return f"Pick {GUILD_NAME[move['guild']]}"
        if t == "play":
            verb = "Also play" if p is not None else "Play"
            return f"{verb} {card_name(move['card'])} at {loc_name(move['loc'])}"
        if t == "end_play":
            return "End the play here"
        if t == "activate":
            return f"Activate: discard {card_name(move['card'])}"
        if t == "activate_elemental":
            where = _position(s, move["card"]) if s is not None else ""
            return f"Activate {card_name(move['card'])}{where}"
        if t == "done":
            if p is not None and not p.get("activated"):
                return "Activate nothing (the discard alone)"
            return "Stop activating"
        if t == "check":
            if s is None or s["turn"] is None:
                return "Check & Draw"
            seat = s["turn"]
            return (f"Check & Draw (score {len(controls(s, seat))}, "
                    f"draw {7 - len(s['hand'][seat])})")
        actor = card_name(ask["card"]) if ask is not None else "The elemental"
        if t == "move_to":
            return f"Move {actor} to {loc_name(move['loc'])}"
        if t == "aim":
            return f"{actor} strikes {loc_name(move['loc'])}"
        if t == "place":
            captured = ask["data"].get("captured") if ask is not None else None
            what = card_name(captured) if captured else "the captured enemy"
            return f"Play {what} at {loc_name(move['loc'])}"
        if t == "target":
            where = _position(s, move["card"]) if s is not None else ""
            return f"{actor} strikes {card_name(move['card'])}{where}"
        if t == "heal":
            where = _position(s, move["card"]) if s is not None else ""
            return f"{actor} heals {card_name(move['card'])}{where}"
    except (KeyError, TypeError, IndexError):
        pass
    return str(move)


# ---- events in words, and redaction ------------------------------------------------------------------

def describe_event(e: Event, viewer: int | None = None) -> str | None:
    t = e["type"]
    if t in ("setup", "pending", "turn", "action_end"):
        return None
    if t == "draft":
        dealt = e["dealt"]
        return (f"Draft: {_lc(who(0, viewer))} got {GUILD_NAME[dealt[0]]}, {_lc(who(1, viewer))} got "
                f"{GUILD_NAME[dealt[1]]}; on offer: {_and([GUILD_NAME[g] for g in e['offer']])}. "
                f"{who(e['first'], viewer)} pick{'' if who(e['first'], viewer) == 'You' else 's'} first.")
    if t == "pick":
        return f"{who(e['seat'], viewer)} picked {GUILD_NAME[e['guild']]}."
    if t == "draft_end":
        left = _and([GUILD_NAME[g] for g in e["removed"]])
        starter = who(e["start"], viewer)
        return f"The draft is over ({left} left out). {starter} {'take' if starter == 'You' else 'takes'} the first turn."
    if t == "deck":
        return f"{whose(e['seat'], viewer)} {e['count']} elementals were shuffled into a draw pile."
    if t == "reshuffle":
        return f"{whose(e['seat'], viewer)} discard pile ({e['count']} cards) was shuffled into a new draw pile."
    if t == "draw":
        n = e["count"]
        words = f"{who(e['seat'], viewer)} drew {n} card{'s' if n != 1 else ''}"
        if viewer == e["seat"] and e.get("cards"):
            words += ": " + _and([card_name(c) for c in e["cards"]])
        return words + "."
    if t == "enter":
        subj, card, where = who(e["seat"], viewer), card_name(e["card"]), loc_name(e["loc"])
        if e["from"] == "deck":
            return f"{subj} put {card} from the top of the draw pile at {where}."
        if e["from"] == "capture":
            return f"{subj} played the captured {card} at {where}."
        return f"{subj} played {card} at {where}."
    if t == "discard":
        return f"{who(e['seat'], viewer)} discarded {card_name(e['card'])} to activate."
    if t == "activated":
        return f"{who(e['seat'], viewer)} activated {card_name(e['card'])} at {loc_name(e['loc'])}."
    if t == "damage":
        if e["by"] == e["card"]:
            victim = "itself"
        elif e["seat"] == e["by_seat"]:  # Fire's and Lava's self-damage
            victim = f"{'your' if viewer == e['seat'] else 'their'} own {card_name(e['card'])}"
        else:
            victim = f"{_lc(whose(e['seat'], viewer))} {card_name(e['card'])}"
        return (f"{whose(e['by_seat'], viewer)} {card_name(e['by'])} dealt {e['amount']} damage to "
                f"{victim}.")
    if t == "heal":
        return (f"{whose(e['seat'], viewer)} {card_name(e['by'])} removed {e['amount']} damage from "
                f"{'itself' if e['by'] == e['card'] else card_name(e['card'])}.")
    if t == "move":
        return (f"{whose(e['seat'], viewer)} {card_name(e['card'])} moved from {loc_name(e['from'])} "
                f"to {loc_name(e['to'])}.")
    if t == "destroyed":
        return f"{whose(e['seat'], viewer)} {card_name(e['card'])} at {loc_name(e['loc'])} was destroyed."
    if t == "captured":
        return (f"{whose(e['seat'], viewer)} {card_name(e['by'])} captured "
                f"{_lc(whose(1 - e['seat'], viewer))} {card_name(e['card'])}.")
    if t == "score":
        why = "for controlled locations" if e["reason"] == "check" else "for a destroyed enemy"
        return (f"{who(e['seat'], viewer)} gained {e['points']} Riftforce {why} "
                f"(now {e['total']}).")
    if t == "game_over":
        a, b = e["scores"]
        if len(e["winners"]) == 1:
            w = who(e["winners"][0], viewer)
            return f"The game is over: {w} {'win' if w == 'You' else 'wins'}, {max(a, b)} to {min(a, b)}."
        return f"The game is over: a tie at {a}."
    return None


def redact_event(e: Event, viewer: int | None) -> Event:
    """Remove what `viewer` may not see; the original event is left untouched."""
    t = e["type"]
    if t in ("deck", "reshuffle"):
        return {**e, "order": None}
    if t == "draft" and e.get("removed"):
        return {**e, "removed": None}
    if t == "draw" and viewer != e["seat"]:
        return {**e, "cards": None}
    return e
