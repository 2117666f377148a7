"""What people see: views (data; their few sentences come from words.py) and the result.

Hidden information in Riftforce: each hand (its owner sees it), every draw pile's order (nobody),
the base draft's unseen removed summoner (nobody), the summoner dealt to each player in the base
draft until the draft ends (its player only: house rule Q16), and discard piles below the top card
(rules §4C: they may not be browsed; only their size and top card are shown).
"""

from __future__ import annotations

from engine import kit
from engine.core import Result

from . import solo, team, trainer
from .cards import GUILD, GUILD_ABILITY, GUILD_NAME, NUMBER
from .messages import ask_message, plan_message, summary_message
from .state import TARGET, State, controls, owner
from .words import ask_prompt, plan_words, summary_words

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


# ---- view ---------------------------------------------------------------------------------------------

def plan_obj(plan: str | None) -> dict | None:
    """A plan card: {"id", "kind": "attack"|"control", "loc", "numbers", "known", "words"}."""
    if plan is None:
        return None
    info = solo.PLANS[plan]
    return {"id": plan, "kind": info["kind"], "loc": solo.plan_loc(plan),
            "numbers": list(info.get("numbers", [])), "known": info["known"],
            "words": plan_words(plan), "message": plan_message(plan).to_json()}


def pending_view(p: dict | None) -> dict | None:
    if p is None:
        return None
    ask = p["ask"]
    ask_v = None
    if p["kind"] == "plan":
        if ask is not None:
            ask_v = {"what": ask["what"], "card": card_obj(ask["card"]) if ask["card"] else None,
                     "prompt": ask_prompt(ask, for_plan=True),
                     "message": ask_message(ask, for_plan=True).to_json()}
            if ask["what"] == "bot":
                ask_v["number"] = ask["data"]["number"]
        return {"kind": "plan", "seat": p["seat"], "plan": plan_obj(p["plan"]), "step": p["step"],
                "used": [card_obj(c) for c in p["used"]], "ask": ask_v}
    if ask is not None:
        ask_v = {"what": ask["what"], "card": card_obj(ask["card"]), "prompt": ask_prompt(ask),
                 "message": ask_message(ask).to_json()}
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
        picks, dealt = [d["picks"][0][:], d["picks"][1][:]], d["dealt"][:]
        if s["options"].get("guilds") == "base":
            # House rule Q16: a dealt summoner is its player's secret until the draft ends; `dealt`
            # has null for it and `picks` leaves it out (it is always the first of the picks).
            for p in (0, 1):
                if p != seat:
                    dealt[p] = None
                    picks[p] = picks[p][1:]
        draft = {"offer": [summoner_obj(g) for g in d["offer"]], "picks": picks,
                 "dealt": dealt, "first": d["first"],
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
        "last": kit.jcopy(s["last"]),  # the last completed action's public facts (words: last_action)
        # The same as a message (engine/messages.py JSON), for the service to word in the reader's language.
        "last_message": summary_message(s["last"], s).to_json() if s["last"] is not None else None,
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
    if "trainer" in d:  # solo: the trainer's guilds so far
        v["trainer"] = [summoner_obj(g) for g in d["trainer"]]
    if "trainer_offer" in d:  # solo, after the keep: the guilds the player may give it
        v["trainer_offer"] = [summoner_obj(g) for g in d["trainer_offer"]]
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
        partners = team.teammates(n, p)  # none for the lone player of a 3-player game
        obj.update({"team": p & 1, "partner": partners[0] if partners else None,
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
        "last": kit.jcopy(s["last"]),  # the last completed action's public facts (words: last_action)
        # The same as a message (engine/messages.py JSON), for the service to word in the reader's language.
        "last_message": summary_message(s["last"], s).to_json() if s["last"] is not None else None,
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
        "last": kit.jcopy(s["last"]),  # the last completed action's public facts (words: last_action)
        # The same as a message (engine/messages.py JSON), for the service to word in the reader's language.
        "last_message": summary_message(s["last"], s).to_json() if s["last"] is not None else None,
        "last_action": summary_words(s["last"], seat, "solo"),
        "result": result(s),
    }


def result(s: State) -> Result | None:
    """None while the game runs; then scores by seat (team play: each seat its team's score; solo:
    the player's, with the trainer's under "trainer"), winners, and the game's extra keys."""
    r = s["result"]
    if r is None:
        return None
    if s["mode"] == "team":
        n = s["players"]
        return kit.result([r["scores"][p & 1] for p in range(n)], r["winners"],
                          teams=[{"team": t, "seats": [p for p in range(n) if p & 1 == t],
                                  "score": r["scores"][t]} for t in (0, 1)],
                          reason=r["reason"], actions=s["actions"][:])
    if s["mode"] == "solo":
        return kit.result([r["scores"][0]], r["winners"], trainer=r["scores"][1],
                          reason=r["reason"], actions=[s["actions"][0]], plans=s["plans_done"])
    return kit.result(r["scores"], r["winners"], reason=r["reason"], actions=s["actions"][:])


def public_scores(v: dict) -> dict[int, float]:
    """Each seat's Riftforce as a (spectator) view shows it: team play gives each seat its team's
    score (`scores` is by seat there); solo has one seat (the trainer is not a seat)."""
    if v["mode"] == "solo":
        return {0: v["scores"][0]}
    return dict(enumerate(v["scores"]))
