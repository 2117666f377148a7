"""What people see: views, words for moves and events, and redaction of hidden facts.

Hidden information in Riftforce: each hand (its owner sees it), every draw pile's order (nobody),
the base draft's unseen removed summoner (nobody), and discard piles below the top card (rules
§4C: they may not be browsed; only their size and top card are shown).
"""

from __future__ import annotations

from typing import Any

from .cards import GUILD, GUILD_ABILITY, GUILD_NAME, NUMBER, card_name
from . import solo, team, trainer
from .state import TARGET, State, controls, locate, owner

Event = dict[str, Any]


# ---- small word helpers ------------------------------------------------------------------------------

def loc_name(loc: int) -> str:
    return f"location {loc + 1}"


def who(seat: int, viewer: int | None, mode: str | None = None) -> str:
    """Subject: "You", "Opponent" or (for spectators) "Player 1".  Team play: "Your partner" or
    "Player 2" (there may be two opponents); solo: seat 1 is "The trainer"."""
    if mode == "solo" and seat == 1:
        return "The trainer"
    if viewer is None:
        return f"Player {seat + 1}"
    if seat == viewer:
        return "You"
    if mode == "team":
        return "Your partner" if seat & 1 == viewer & 1 else f"Player {seat + 1}"
    return "Opponent"


def whose(seat: int, viewer: int | None, mode: str | None = None) -> str:
    """Possessive at the start of a sentence: "Your", "Opponent's", "Player 1's"."""
    w = who(seat, viewer, mode)
    return "Your" if w == "You" else w + "'s"


def team_words(team: int, viewer: int | None) -> str:
    """A team (team play's score): "Your team", "The opposing team" or "Team 1"."""
    if viewer is None:
        return f"Team {team + 1}"
    return "Your team" if viewer & 1 == team else "The opposing team"


def _verb(subject: str, verb: str) -> str:
    """"You gain" but "Player 2 gains": English agreement for the subjects `who` returns."""
    return verb if subject == "You" else verb + "s"


def _lc(words: str) -> str:
    return words if words.startswith(("Player", "Team")) else words[0].lower() + words[1:]


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


def board_card_obj(s: State, card: str, side: int) -> dict:
    """A card on the board; in team play also its `owner` seat (teammates share a side)."""
    c = card_obj(card, s["damage"].get(card, 0))
    if s["mode"] == "team":
        c["owner"] = owner(s, card, side)
    return c


def summoner_obj(guild: str) -> dict:
    return {"id": guild, "name": GUILD_NAME[guild], "ability": GUILD_ABILITY[guild]}


# ---- the last action in words -------------------------------------------------------------------------

def summary_words(summary: dict | None, viewer: int | None, mode: str | None = None) -> str | None:
    if summary is None:
        return None
    seat = summary["seat"]
    subject = who(seat, viewer, mode)
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
    if ask["what"] == "bot":
        return (f"Choose which of the trainer's {ask['data']['number']}s acts "
                f"(each would damage one of your elementals).")
    actor = card_name(ask["card"])
    return {
        "move_to": f"Choose where {actor} moves.",
        "aim": f"Choose the adjacent location {actor} strikes.",
        "place": f"Choose where to play the enemy captured by {actor}.",
        "target": f"Choose the enemy {actor} strikes.",
        "heal": f"Choose the ally {actor} heals.",
        "push": f"Choose where the trainer's {actor} pushes your elemental.",
    }[ask["what"]]


def _bot_prompt(ask: dict) -> str:
    """Words for a choice inside a bot's ability (the player decides for the trainer, Q6)."""
    actor = card_name(ask["card"])
    return {
        "aim": f"Choose which adjacent location the trainer's {actor} strikes (and pulls from).",
        "target": f"Choose which of your equally damaged elementals the trainer's {actor} strikes.",
        "push": f"Choose where the trainer's {actor} pushes your elemental.",
    }.get(ask["what"], _ask_prompt(ask))


def plan_obj(plan: str | None) -> dict | None:
    """A plan card: {"id", "kind": "attack"|"control", "loc", "numbers", "known", "words"}."""
    if plan is None:
        return None
    info = solo.PLANS[plan]
    loc = solo.plan_loc(plan)
    numbers = list(info.get("numbers", []))
    if info["kind"] == "control":
        words = f"control: a bot at {loc_name(loc)}, then 1 Riftforce per location the trainer controls"
    else:
        words = (f"attack {'-'.join(map(str, numbers))}: a bot at {loc_name(loc)}, then a bot of "
                 f"each number in turn")
    return {"id": plan, "kind": info["kind"], "loc": loc, "numbers": numbers,
            "known": info["known"], "words": words}


def pending_view(p: dict | None) -> dict | None:
    if p is None:
        return None
    ask = p["ask"]
    ask_v = None
    if p["kind"] == "plan":
        if ask is not None:
            ask_v = {"what": ask["what"], "card": card_obj(ask["card"]) if ask["card"] else None,
                     "prompt": _ask_prompt(ask) if ask["what"] == "bot" else _bot_prompt(ask)}
            if ask["what"] == "bot":
                ask_v["number"] = ask["data"]["number"]
        return {"kind": "plan", "seat": p["seat"], "plan": plan_obj(p["plan"]), "step": p["step"],
                "used": [card_obj(c) for c in p["used"]], "ask": ask_v}
    if ask is not None:
        ask_v = {"what": ask["what"], "card": card_obj(ask["card"]), "prompt": _ask_prompt(ask)}
        if "captured" in ask["data"]:
            ask_v["captured"] = card_obj(ask["data"]["captured"])
    if p["kind"] == "play":
        return {"kind": "play", "seat": p["seat"], "cards": [card_obj(c) for c in p["cards"]],
                "locs": list(p["locs"]), "ask": ask_v}
    return {"kind": "activate", "seat": p["seat"], "discarded": card_obj(p["discarded"]),
            "activated": [card_obj(c) for c in p["activated"]], "by": list(p["by"]), "ask": ask_v}


def _player_obj(s: State, p: int, held: list[int]) -> dict:
    pile = s["discard"][p]
    return {
        "seat": p,
        "summoners": [summoner_obj(g) for g in s["guilds"][p]],
        "score": s["score"][p & 1],
        "actions": s["actions"][p],
        "hand_count": len(s["hand"][p]),
        "deck_count": len(s["deck"][p]),
        "discard_count": len(pile),
        "discard_top": card_obj(pile[-1]) if pile else None,
        "controls": held,
    }


def view(s: State, seat: int | None) -> dict:
    mode = s["mode"]
    if mode == "team":
        return _team_view(s, seat)
    if mode == "solo":
        return _solo_view(s, seat)
    dmg = s["damage"]
    locations = [
        {"loc": l, "sides": [[card_obj(c, dmg.get(c, 0)) for c in side] for side in sides]}
        for l, sides in enumerate(s["board"])
    ]
    players = [_player_obj(s, p, controls(s, p)) for p in (0, 1)]
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


def _quota_draft_view(s: State) -> dict | None:
    d = s["draft"]
    if d is None:
        return None
    v = {"offer": [summoner_obj(g) for g in d["offer"]], "picks": [x[:] for x in d["picks"]],
         "dealt": d["dealt"][:], "first": d["first"], "removed": [],
         "order": d["order"][:], "quota": d["quota"][:]}
    if "trainer" in d:
        v["trainer"] = [summoner_obj(g) for g in d["trainer"]]
    return v


def _team_view(s: State, seat: int | None) -> dict:
    n = s["players"]
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        seat = None
    locations = [
        {"loc": l, "zone": "green" if l in team.GREEN else "grey",
         "sides": [[board_card_obj(s, c, side) for c in cards] for side, cards in enumerate(sides)]}
        for l, sides in enumerate(s["board"])
    ]
    players = []
    for p in range(n):
        obj = _player_obj(s, p, team.scored_locations(s, p) if s["phase"] != "draft" else [])
        zone = s["zones"][p] if s["zones"] else []
        obj.update({"team": p & 1, "partner": (team.teammates(n, p) or [None])[0],
                    "zone": "all" if len(zone) == 6 else ("green" if zone == team.GREEN else "grey"),
                    "zone_locs": zone[:],
                    "positions": [i + 1 for i, x in enumerate(s["order"]) if x == p]})
        players.append(obj)
    teams = [{"team": t, "seats": [p for p in range(n) if p & 1 == t], "score": s["score"][t],
              "controls": controls(s, t)} for t in (0, 1)]
    return {
        "game": "riftforce",
        "seat": seat,
        "mode": "team",
        "options": dict(s["options"]),
        "phase": s["phase"],
        "turn": s["turn"],
        "start_player": s["start"],
        "scores": [s["score"][p & 1] for p in range(n)],
        "team_scores": s["score"][:],
        "teams": teams,
        "target": TARGET,
        "end_triggered": s["ending"],
        "zones": {"green": team.GREEN[:], "grey": team.GREY[:]},
        "turn_order": s["order"][:],
        "position": s["pos"] if s["phase"] == "play" else None,
        "locations": locations,
        "players": players,
        # Only the viewer's own hand: a teammate's stays private (rules §10).
        "hand": [card_obj(c) for c in s["hand"][seat]] if seat is not None else None,
        "draft": _quota_draft_view(s),
        "pending": pending_view(s["pending"]),
        "last_action": summary_words(s["last"], seat, "team"),
        "result": result(s),
    }


def challenge_objs(s: State) -> list[dict]:
    out = []
    for n in (5, 6, 7):
        c = trainer.challenge(s, n)
        out.append({"number": n, "stars": s["options"]["stars"][str(n)], "text": c["text"],
                    "unverified": bool(c.get("unverified"))})  # Q8: 6 at 4 stars
    return out


def _solo_view(s: State, seat: int | None) -> dict:
    if seat != 0:
        seat = None
    dmg = s["damage"]
    locations = [
        {"loc": l, "sides": [[card_obj(c, dmg.get(c, 0)) for c in side] for side in sides]}
        for l, sides in enumerate(s["board"])
    ]
    amp = s["options"].get("and")
    coach_pile = s["discard"][1]
    coach = {
        "guilds": [summoner_obj(g) for g in s["guilds"][1]],
        "score": s["score"][1],
        "deck_count": len(s["deck"][1]),
        "discard_count": len(coach_pile),
        "discard_top": card_obj(coach_pile[-1]) if coach_pile else None,
        "controls": controls(s, 1),
        "challenges": challenge_objs(s),
        "and": None if amp is None else {**amp, "text": trainer.AND_ENDS[amp["end"]]["text"]},
    }
    plans = {
        "next": plan_obj(s["plans"][0]) if s["plans"] else plan_obj(
            s["plan_discard"][0] if s["plan_discard"] else None),
        "current": plan_obj(s["plan"]),
        "last": plan_obj(s["plan_discard"][-1]) if s["plan_discard"] else None,
        "pile_count": len(s["plans"]),
        "discard_count": len(s["plan_discard"]),
        "done": s["plans_done"],
        "placeholder": solo.PLANS_PLACEHOLDER,  # Q7: not the printed deck
    }
    return {
        "game": "riftforce",
        "seat": seat,
        "mode": "solo",
        "options": dict(s["options"]),
        "phase": s["phase"],
        "turn": s["turn"] if s["phase"] != "over" else None,
        "start_player": s["start"],
        "scores": s["score"][:],  # [you, trainer]
        "target": TARGET,
        "end_triggered": s["ending"],
        "locations": locations,  # sides: [yours, the trainer's bots]
        "players": [_player_obj(s, 0, controls(s, 0) if s["phase"] != "draft" else [])],
        "trainer": coach,
        "plan": plans,
        "hand": [card_obj(c) for c in s["hand"][0]] if seat == 0 else None,
        "draft": _quota_draft_view(s),
        "pending": pending_view(s["pending"]),
        "last_action": summary_words(s["last"], seat, "solo"),
        "result": result(s),
    }


def result(s: State) -> dict | None:
    r = s["result"]
    if r is None:
        return None
    if s["mode"] == "team":
        n = s["players"]
        a, b = r["scores"]
        return {"scores": {p: r["scores"][p & 1] for p in range(n)}, "winners": list(r["winners"]),
                "score_list": [r["scores"][p & 1] for p in range(n)],
                "teams": [{"team": t, "seats": [p for p in range(n) if p & 1 == t],
                           "score": r["scores"][t]} for t in (0, 1)],
                "reason": r["reason"], "actions": s["actions"][:]}
    if s["mode"] == "solo":
        return {"scores": {0: r["scores"][0]}, "trainer": r["scores"][1],
                "winners": list(r["winners"]), "score_list": [r["scores"][0]],
                "reason": r["reason"], "actions": [s["actions"][0]], "plans": s["plans_done"]}
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
            held = team.scored_locations(s, seat) if s["mode"] == "team" else controls(s, seat)
            return (f"Check & Draw (score {len(held)}, "
                    f"draw {7 - len(s['hand'][seat])})")
        if t == "bot":
            where = _position(s, move["card"]) if s is not None else ""
            return f"The trainer's {card_name(move['card'])}{where} acts"
        actor = card_name(ask["card"]) if ask is not None and ask["card"] else "The elemental"
        if p is not None and p["kind"] == "plan":  # the player decides for a bot (Q6)
            if t == "aim":
                return f"The trainer's {actor} strikes {loc_name(move['loc'])}"
            if t == "push":
                return f"The trainer's {actor} pushes your elemental to {loc_name(move['loc'])}"
            if t == "target":
                where = _position(s, move["card"]) if s is not None else ""
                return f"The trainer's {actor} strikes your {card_name(move['card'])}{where}"
        if t == "push":
            return f"Push to {loc_name(move['loc'])}"
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
    mode = e.get("mode")  # team and solo events carry their mode (effects.Effects.emit)

    def who_(seat: int) -> str:
        return who(seat, viewer, mode)

    def whose_(seat: int) -> str:
        return whose(seat, viewer, mode)

    t = e["type"]
    if t in ("setup", "pending", "turn", "action_end", "plan_end"):
        return None
    if mode == "solo":
        words = _solo_event(e, viewer)
        if words is not None:
            return words
    if t == "draft":
        dealt = e["dealt"]
        offer = _and([GUILD_NAME[g] for g in e["offer"]])
        if mode is not None:
            got = "; ".join(f"{_lc(who_(s))} got {GUILD_NAME[g]}" for s, g in enumerate(dealt))
            first = who_(e["first"])
            return (f"Draft: {got + '; ' if got else ''}on offer: {offer}. "
                    f"{first} {_verb(first, 'pick')} first.")
        return (f"Draft: {_lc(who_(0))} got {GUILD_NAME[dealt[0]]}, {_lc(who_(1))} got "
                f"{GUILD_NAME[dealt[1]]}; on offer: {offer}. "
                f"{who_(e['first'])} pick{'' if who_(e['first']) == 'You' else 's'} first.")
    if t == "pick":
        return f"{who_(e['seat'])} picked {GUILD_NAME[e['guild']]}."
    if t == "draft_end":
        left = _and([GUILD_NAME[g] for g in e["removed"]])
        starter = who_(e["start"])
        return f"The draft is over ({left} left out). {starter} {'take' if starter == 'You' else 'takes'} the first turn."
    if t == "deck":
        return f"{whose_(e['seat'])} {e['count']} elementals were shuffled into a draw pile."
    if t == "reshuffle":
        return f"{whose_(e['seat'])} discard pile ({e['count']} cards) was shuffled into a new draw pile."
    if t == "draw":
        n = e["count"]
        words = f"{who_(e['seat'])} drew {n} card{'s' if n != 1 else ''}"
        if viewer == e["seat"] and e.get("cards"):
            words += ": " + _and([card_name(c) for c in e["cards"]])
        return words + "."
    if t == "enter":
        subj, card, where = who_(e["seat"]), card_name(e["card"]), loc_name(e["loc"])
        if e["from"] == "deck":
            return f"{subj} put {card} from the top of the draw pile at {where}."
        if e["from"] == "capture":
            return f"{subj} played the captured {card} at {where}."
        return f"{subj} played {card} at {where}."
    if t == "discard":
        return f"{who_(e['seat'])} discarded {card_name(e['card'])} to activate."
    if t == "activated":
        return f"{who_(e['seat'])} activated {card_name(e['card'])} at {loc_name(e['loc'])}."
    if t == "damage":
        if e["by"] == e["card"]:
            victim = "itself"
        elif e["seat"] == e["by_seat"]:  # Fire's and Lava's self-damage
            victim = f"{'your' if viewer == e['seat'] else 'their'} own {card_name(e['card'])}"
        else:
            victim = f"{_lc(whose_(e['seat']))} {card_name(e['card'])}"
        return (f"{whose_(e['by_seat'])} {card_name(e['by'])} dealt {e['amount']} damage to "
                f"{victim}.")
    if t == "heal":
        return (f"{whose_(e['seat'])} {card_name(e['by'])} removed {e['amount']} damage from "
                f"{'itself' if e['by'] == e['card'] else card_name(e['card'])}.")
    if t == "move":
        return (f"{whose_(e['seat'])} {card_name(e['card'])} moved from {loc_name(e['from'])} "
                f"to {loc_name(e['to'])}.")
    if t == "destroyed":
        return f"{whose_(e['seat'])} {card_name(e['card'])} at {loc_name(e['loc'])} was destroyed."
    if t == "captured":
        victim = e.get("owner", 1 - e["seat"])
        return (f"{whose_(e['seat'])} {card_name(e['by'])} captured "
                f"{_lc(whose_(victim))} {card_name(e['card'])}.")
    if t == "score":
        why = "for controlled locations" if e["reason"] == "check" else "for a destroyed enemy"
        subject = team_words(e["team"], viewer) if "team" in e else who_(e["seat"])
        return f"{subject} gained {e['points']} Riftforce {why} (now {e['total']})."
    if t == "game_over":
        a, b = e["scores"]
        if mode == "team":
            if len(e["winners"]) and len({w & 1 for w in e["winners"]}) == 1:
                w = team_words(e["winners"][0] & 1, viewer)
                return f"The game is over: {_lc(w)} wins, {max(a, b)} to {min(a, b)}."
            return f"The game is over: a tie at {a}."
        if len(e["winners"]) == 1:
            w = who_(e["winners"][0])
            return f"The game is over: {w} {'win' if w == 'You' else 'wins'}, {max(a, b)} to {min(a, b)}."
        return f"The game is over: a tie at {a}."
    return None


def _solo_event(e: Event, viewer: int | None) -> str | None:
    """Words for the trainer's side of a solo game; None falls back to the common wording."""
    t = e["type"]
    if t == "draft":
        return (f"Solo setup: keep 4 of {_and([GUILD_NAME[g] for g in e['offer']])}. "
                f"The trainer plays {_and([GUILD_NAME[g] for g in e['trainer']])}.")
    if t == "plans":
        note = " (our placeholder plan deck, not the printed one)" if e.get("placeholder") else ""
        return f"The trainer's {e['count']} plans lie face up{note}."
    if t == "plan":
        words = plan_obj(e["plan"])["words"]
        return f"The trainer carries out its plan: {words}."
    if t == "plans_recycled":
        return "The trainer's plan pile is turned face up again, in the same order."
    if t == "enter" and e["seat"] == 1:
        return f"The trainer put a bot, {card_name(e['card'])}, at {loc_name(e['loc'])}."
    if t == "activated" and e["seat"] == 1:
        n, stars = e["challenge"].split("-")
        return (f"The trainer's bot {card_name(e['card'])} at {loc_name(e['loc'])} acts "
                f"({n} {'*' * int(stars)}).")
    if t == "damage" and e["by_seat"] == 1:
        return (f"The trainer's bot {card_name(e['by'])} dealt {e['amount']} damage to "
                f"{'your' if viewer == 0 else 'the player' + chr(39) + 's'} {card_name(e['card'])}.")
    if t == "score" and e["seat"] == 1:
        why = {"control": "for controlled locations", "kill": "for a destroyed elemental"}
        return (f"The trainer gained {e['points']} Riftforce {why.get(e['reason'], '')} "
                f"(now {e['total']}).")
    if t == "game_over":
        a, b = e["scores"]
        if e["winners"]:
            return f"The game is over: {_lc(who(0, viewer, 'solo'))} beat the trainer, {a} to {b}."
        return f"The game is over: the trainer wins, {b} to {a}."
    return None


def redact_event(e: Event, viewer: int | None) -> Event:
    """Remove what `viewer` may not see; the original event is left untouched."""
    t = e["type"]
    if t in ("deck", "reshuffle", "plans"):  # draw piles, and the plan pile below its top card
        return {**e, "order": None}
    if t == "draft" and e.get("removed"):
        return {**e, "removed": None}
    if t == "draw" and viewer != e["seat"]:
        return {**e, "cards": None}
    return e
