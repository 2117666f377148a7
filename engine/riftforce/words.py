"""Every word Riftforce says: sentences for events, labels for moves, prompts, the last action, and
the plain-text board.  The only module of the package with prose (events are facts, views are
data), so wording can change, or be translated, without touching a stored log.

Events are worded from the state they were applied to (`describe_event(event, viewer, state)`):
the mode ("Your partner", "The trainer") and the draft's options come from there, never from the
event.  Nothing hidden from the viewer is ever named (a teammate's draw, the base draft's dealt
summoners before the draft ends: house rule Q16).
"""

from __future__ import annotations

from typing import Any

from . import solo, team
from .cards import GUILD, GUILD_NAME, NUMBER
from .state import State, controls, locate

Event = dict[str, Any]


# ---- names ----------------------------------------------------------------------------------------

def card_name(card: str) -> str:
    """"Fire 5" for "fire-5b": the words a player reads (copies are indistinguishable)."""
    return f"{GUILD_NAME[GUILD[card]]} {NUMBER[card]}"


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


def team_words(team_: int, viewer: int | None) -> str:
    """A team (team play's score): "Your team", "The opposing team" or "Team 1"."""
    if viewer is None:
        return f"Team {team_ + 1}"
    return "Your team" if viewer & 1 == team_ else "The opposing team"


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


def _mode(s: State | None) -> str | None:
    """The mode as the describers name it: None for the duel (who() says "Opponent")."""
    if s is None or s["mode"] == "duel":
        return None
    return s["mode"]


# ---- words carried by views (their shapes keep a sentence or two) ----------------------------------

def summary_words(summary: dict | None, viewer: int | None, mode: str | None = None) -> str | None:
    """The view's `last_action`: the last completed action, for this viewer."""
    if summary is None:
        return None
    seat = summary["seat"]
    subject = who(seat, viewer, None if mode == "duel" else mode)
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


def ask_prompt(ask: dict, for_plan: bool = False) -> str:
    """The `prompt` of a pending choice: inside an ability, or (`for_plan`) for the trainer's plan."""
    if for_plan and ask["what"] != "bot":
        return _bot_prompt(ask)
    return _ask_prompt(ask)


def plan_words(plan: str) -> str:
    """A plan card in words (the view's plan `words`)."""
    info = solo.PLANS[plan]
    loc = solo.plan_loc(plan)
    if info["kind"] == "control":
        return f"control: a bot at {loc_name(loc)}, then 1 Riftforce per location the trainer controls"
    numbers = list(info.get("numbers", []))
    return (f"attack {'-'.join(map(str, numbers))}: a bot at {loc_name(loc)}, then a bot of "
            f"each number in turn")


# ---- moves in words -------------------------------------------------------------------------------

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


# ---- events in words ------------------------------------------------------------------------------

def describe_event(e: Event, viewer: int | None, s: State | None) -> str | None:
    """`e` as a sentence for `viewer` (None: a spectator), worded from `s`, the state `e` was
    applied to (None only for the setup event); None for bookkeeping events."""
    t = e["type"]
    if s is None or t in ("setup", "pending", "turn", "action_end", "plan_end"):
        return None
    mode = _mode(s)

    def who_(seat: int) -> str:
        return who(seat, viewer, mode)

    def whose_(seat: int) -> str:
        return whose(seat, viewer, mode)

    if mode == "solo":
        words = _solo_event(e, viewer)
        if words is not None:
            return words
    if t == "draft":
        return _draft_words(e, viewer, s, who_)
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


def _draft_words(e: Event, viewer: int | None, s: State, who_) -> str:
    dealt = e["dealt"]
    offer = _and([GUILD_NAME[g] for g in e["offer"]])
    first = who_(e["first"])
    picks = f"{first} {_verb(first, 'pick')} first."
    if s["mode"] == "team":
        got = "; ".join(f"{_lc(who_(seat))} got {GUILD_NAME[g]}" for seat, g in enumerate(dealt))
        return f"Draft: {got + '; ' if got else ''}on offer: {offer}. {picks}"
    if s["options"].get("guilds") == "base":
        # House rule Q16: a dealt summoner is known only to its player until the draft ends.
        if viewer in (0, 1):
            got = (f"you got {GUILD_NAME[dealt[viewer]]}, {_lc(who_(1 - viewer))} got a summoner "
                   f"you will see when the draft ends")
        else:
            got = "each player got a summoner only they know until the draft ends"
        return f"Draft: {got}; on offer: {offer}. {picks}"
    return (f"Draft: {_lc(who_(0))} got {GUILD_NAME[dealt[0]]}, {_lc(who_(1))} got "
            f"{GUILD_NAME[dealt[1]]}; on offer: {offer}. {picks}")


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
        return f"The trainer carries out its plan: {plan_words(e['plan'])}."
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


# ---- the plain-text board (emails, screen readers: no layout tricks, no colour) ---------------------

def _card(c: dict) -> str:
    hurt = f" ({c['damage']} damage)" if c.get("damage") else ""
    return f"{c['name']} {c['number']}{hurt}"


def _stack(cards: list[dict]) -> str:
    return ", ".join(_card(c) for c in cards) if cards else "-"


def render_text(v: dict) -> str:
    if v["mode"] == "team":
        return _render_team(v)
    if v["mode"] == "solo":
        return _render_solo(v)
    me = v["seat"]
    # The viewer's own side is listed last, nearest to them, as at the table; spectators see
    # Player 2 above Player 1.
    top, bottom = (1, 0) if me is None or me == 0 else (0, 1)
    lines = []
    first = 1 if me == 1 else 0  # the viewer's own score first
    score = f"{who(first, me)} {v['scores'][first]}, {who(1 - first, me)} {v['scores'][1 - first]}"
    lines.append(f"Riftforce. Score: {score} (the end is triggered at {v['target']}).")
    if v["phase"] == "over":
        r = v["result"]
        winners = r["winners"] if r else []
        if len(winners) == 1:
            w = who(winners[0], me)
            lines.append(f"Game over: {w} {'win' if w == 'You' else 'wins'}.")
        else:
            lines.append("Game over: a tie.")
    elif v["turn"] is not None:
        t = who(v["turn"], me)
        lines.append("Your turn." if t == "You" else f"{t}'s turn.")
    if v["end_triggered"] and v["phase"] != "over":
        lines.append("The end is triggered: the round is being finished.")
    if v["last_action"]:
        lines.append(f"Last action: {v['last_action']}")
    lines.append("")

    if v["draft"] is not None:
        d = v["draft"]
        lines.append("GUILD DRAFT")
        for s in (0, 1):
            known = ", ".join(g.capitalize() for g in d["picks"][s]) or "-"
            # Q16: a dealt summoner this viewer may not see is a null in `dealt`.
            secret = " (and a dealt summoner you will see when the draft ends)" \
                if d["dealt"] and d["dealt"][s] is None else ""
            lines.append(f"  {who(s, me)}: {known}{secret}")
        lines.append("  On offer:")
        for g in d["offer"]:
            lines.append(f"    {g['name']}: {g['ability']}")
        return "\n".join(lines) + "\n"

    lines.append("THE RIFT (each stack front to back; front = first, nearest the location)")
    for loc in v["locations"]:
        lines.append(f"{loc_name(loc['loc']).capitalize()}:")
        for s in (top, bottom):
            lines.append(f"  {who(s, me) + ':':<10} {_stack(loc['sides'][s])}")
    lines.append("")
    for p in (v["players"][top], v["players"][bottom]):
        s = p["seat"]
        lines.append(f"{who(s, me)}: {p['score']} Riftforce; {_piles(p)}")
        lines.extend(_summoner_lines(p))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"])) + "\n"


def _piles(p: dict) -> str:
    """A player's card counts, said the same way in every mode."""
    pile = _card(p["discard_top"]) if p["discard_top"] else "empty"
    return (f"{p['hand_count']} in hand, {p['deck_count']} in draw pile, "
            f"{p['discard_count']} discarded (top: {pile})")


def _summoner_lines(p: dict) -> list[str]:
    return [f"  {g['name']}: {g['ability']}" for g in p["summoners"]]


def _hand_lines(v: dict) -> list[str]:
    if v["hand"] is None:  # a spectator
        return []
    return ["", "Your hand: " + (", ".join(_card(c) for c in v["hand"]) or "empty")]


def _pending_lines(p: dict | None) -> list[str]:
    if p is None:
        return []
    lines = [""]
    if p["kind"] == "play":
        placed = ", ".join(f"{_card(c)} at {loc_name(l)}" for c, l in zip(p["cards"], p["locs"]))
        lines.append(f"Play in progress: {placed}.")
    elif p["kind"] == "activate":
        acts = ", ".join(_card(c) for c in p["activated"]) or "none yet"
        lines.append(f"Activation in progress: discarded {_card(p['discarded'])}; activated {acts}.")
    else:
        lines.append(f"The trainer's plan is waiting for you: {p['plan']['words']}.")
    if p["ask"] is not None:
        lines.append(p["ask"]["prompt"])
    return lines


def _draft_lines(v: dict, me, mode: str) -> list[str]:
    d = v["draft"]
    lines = ["GUILD DRAFT"]
    for s, picks in enumerate(d["picks"]):
        if mode == "solo" and s == 1:
            continue
        lines.append(f"  {who(s, me, mode)}: {', '.join(g.capitalize() for g in picks) or '-'} "
                     f"(keeps {d['quota'][s]})")
    if "trainer" in d:
        lines.append("  The trainer: " + ", ".join(g["name"] for g in d["trainer"]))
    lines.append("  On offer:")
    for g in d["offer"]:
        lines.append(f"    {g['name']}: {g['ability']}")
    return lines


def _header(v: dict, me, mode: str, score: str) -> list[str]:
    lines = [f"Riftforce ({'team play' if mode == 'team' else 'solo against the trainer'}). "
             f"Score: {score} (the end is triggered at {v['target']})."]
    if v["phase"] == "over":
        r = v["result"]
        if mode == "solo":
            lines.append("Game over: " + ("you beat the trainer." if r["winners"] else
                                          "the trainer wins."))
        elif r["teams"][0]["score"] != r["teams"][1]["score"]:
            best = max(r["teams"], key=lambda x: x["score"])["team"]
            lines.append(f"Game over: {_lc(team_words(best, me))} wins.")
        else:
            lines.append("Game over: a tie.")
    elif v["turn"] is not None:
        t = who(v["turn"], me, mode)
        lines.append("Your turn." if t == "You" else f"{t}'s turn.")
    if v["end_triggered"] and v["phase"] != "over":
        lines.append("The end is triggered: the round is being finished.")
    if v["last_action"]:
        lines.append(f"Last action: {v['last_action']}")
    lines.append("")
    return lines


def _render_team(v: dict) -> str:
    me = v["seat"]
    mine = 0 if me is None else me & 1
    a, b = v["team_scores"][mine], v["team_scores"][1 - mine]
    names = [" and ".join(f"Player {s + 1}" for s in t["seats"]) for t in v["teams"]]
    score = (f"your team {a}, the opposing team {b}" if me is not None else
             f"Team 1 ({names[0]}) {v['team_scores'][0]}, Team 2 ({names[1]}) {v['team_scores'][1]}")
    lines = _header(v, me, "team", score)
    order = ", ".join(f"{i + 1}: {who(s, me, 'team')}" for i, s in enumerate(v["turn_order"]))
    lines.append(f"Turn order: {order}.")
    lines.append("")
    if v["draft"] is not None:
        return "\n".join(lines + _draft_lines(v, me, "team")) + "\n"
    top, bottom = 1 - mine, mine
    lines.append("THE RIFT (each stack front to back; front = first, nearest the location)")
    for loc in v["locations"]:
        lines.append(f"{loc_name(loc['loc']).capitalize()} ({loc['zone']} zone):")
        for side in (top, bottom):
            label = team_words(side, me) if me is not None else f"Team {side + 1}"
            cards = ", ".join(f"{_card(c)} [P{c['owner'] + 1}]" for c in loc["sides"][side]) or "-"
            lines.append(f"  {label + ':':<19} {cards}")
    lines.append("")
    for p in v["players"]:
        s = p["seat"]
        zone = "all six locations" if p["zone"] == "all" else f"the {p['zone']} zone"
        name = who(s, me, "team")
        ident = "" if name.startswith("Player") else f"Player {s + 1}, "
        pos = p["positions"]
        lines.append(f"{name} ({ident}position{'s' if len(pos) > 1 else ''} "
                     f"{' and '.join(map(str, pos))}, checks {zone}): {_piles(p)}")
        lines.extend(_summoner_lines(p))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"])) + "\n"


def _render_solo(v: dict) -> str:
    me = v["seat"]
    you = "You" if me == 0 else "Player 1"
    lines = _header(v, me, "solo", f"{you} {v['scores'][0]}, the trainer {v['scores'][1]}")
    if v["draft"] is not None:
        return "\n".join(lines + _draft_lines(v, me, "solo")) + "\n"
    tr, plan = v["trainer"], v["plan"]
    lines.append("THE TRAINER")
    lines.append("  Guilds (bots use only their challenge): " + ", ".join(g["name"] for g in tr["guilds"]))
    for c in tr["challenges"]:
        flag = " [unverified]" if c["unverified"] else ""
        lines.append(f"  Bots {c['number']} ({'*' * c['stars']}){flag}: {c['text']}")
    if tr["and"] is not None:
        lines.append(f"  & card, end {tr['and']['end']}, bots {tr['and']['number']}: "
                     f"{tr['and']['text']}")
    nxt = plan["next"]
    tag = " (placeholder plan deck)" if plan["placeholder"] else ""
    lines.append(f"  Next plan{tag}: {nxt['words'] if nxt else 'none'}; "
                 f"{plan['pile_count']} in the pile, {plan['discard_count']} done.")
    lines.append(f"  {tr['deck_count']} bots in the pile, {tr['discard_count']} destroyed.")
    lines.append("")
    lines.append("THE RIFT (each stack front to back; front = first, nearest the location)")
    for loc in v["locations"]:
        lines.append(f"{loc_name(loc['loc']).capitalize()}:")
        lines.append(f"  {'Trainer:':<10} {_stack(loc['sides'][1])}")
        lines.append(f"  {you + ':':<10} {_stack(loc['sides'][0])}")
    lines.append("")
    p = v["players"][0]
    lines.append(f"{you}: {_piles(p)}")
    lines.extend(_summoner_lines(p))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"])) + "\n"
