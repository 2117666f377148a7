"""A small game implementing the whole engine contract, for fast service tests.

Each seat holds a hidden hand of cards worth 1-3 points.  A turn is two decisions of the same seat
(so follow-up decisions can be told apart from turn changes): play a card from the hand (its
points score), then either end the turn or draw a card (which also ends it).  The best score
wins when, at the end of a round, someone reached the target or every hand is empty.  Card ids are unique and unguessable-looking
("k7x"), so leak tests can search any text for another seat's cards.
"""

from __future__ import annotations

import random
import re

import engine
from engine import kit
from engine.kit import plural

NAME = "toy-hidden"
CARDS = [f"k{n}x" for n in range(1, 41)]
CARD_ID = re.compile(r"(?<![\w-])(k\d+x)(?![\w-])")
# Signed tokens (in links and CSRF fields) are random-looking base64 that can spell "k9x": a leak
# test once failed on a card nobody had seen.  They never carry a card, so they are left out.
TOKENS = re.compile(r'https?://[^\s"\'<>]+|(?:href|action|src)="[^"]*"|name="csrf_token" value="[^"]*"')


def cards_in(text: str) -> set[str]:
    """The card ids a text shows its reader (tokens left out)."""
    return set(CARD_ID.findall(TOKENS.sub(" ", text)))


def value(card: str) -> int:
    return int(card[1:-1]) % 3 + 1


class ToyGame(engine.Game):
    name = NAME
    title = "Toy"
    rules_version = "1"
    min_players = 2
    max_players = 3

    def start(self, players, options=None, seed=0):
        options = dict(options or {})
        target = options.pop("target", 8)
        if options or not isinstance(target, int) or not 1 <= target <= 60:
            raise engine.IllegalMove("the toy game takes only a target of 1 to 60 points", "bad_options")
        order = list(CARDS)
        random.Random(seed).shuffle(order)
        events = [{"type": "setup", "players": players, "target": target, "deck": order[3 * players:]}]
        for seat in range(players):
            events.append({"type": "deal", "seat": seat, "cards": order[3 * seat: 3 * seat + 3]})
        return events

    def evolve(self, state, event):
        kind = event["type"]
        if kind == "setup":
            n = event["players"]
            return {"players": n, "target": event["target"], "deck": list(event["deck"]),
                    "hands": [[] for _ in range(n)], "scores": [0] * n, "turn": 0,
                    "stage": "play", "over": False, "winners": None, "round_start": 0, "turns": 1}
        if kind == "deal":
            state["hands"][event["seat"]] = list(event["cards"])
        elif kind == "played":
            state["hands"][event["seat"]].remove(event["card"])
            state["scores"][event["seat"]] += event["points"]
            state["stage"] = "after"
        elif kind == "drew":
            for card in event["cards"]:
                state["deck"].remove(card)
                state["hands"][event["seat"]].append(card)
        elif kind == "turn":
            state["turn"] = event["seat"]
            state["stage"] = "play"
            state["turns"] += 1
        elif kind == "over":
            state["over"] = True
            state["winners"] = event["winners"]
            state["stage"] = "over"
        return state

    def copy_state(self, state):
        if state is None:
            return None
        new = dict(state)
        new["deck"] = list(state["deck"])
        new["hands"] = [list(hand) for hand in state["hands"]]
        new["scores"] = list(state["scores"])
        return new

    def to_act(self, state):
        return [] if state["over"] else [state["turn"]]

    def turn(self, state):
        return engine.Turn(state["turns"], state["stage"], () if state["over"] else (state["turn"],))

    def legal_moves(self, state, seat):
        if state["over"] or seat != state["turn"]:
            return []
        if state["stage"] == "play":
            moves = [{"type": "play", "card": card} for card in state["hands"][seat]]
            return moves or [{"type": "pass"}]
        moves = [{"type": "end_turn"}]
        if state["deck"]:
            moves.append({"type": "draw"})
        return moves

    def play(self, state, seat, move, rng):
        if state["over"]:
            raise engine.IllegalMove("the game is over", "game_over")
        if seat != state["turn"]:
            raise engine.IllegalMove("it is not your turn", "not_your_turn")
        if not isinstance(move, dict) or move not in self.legal_moves(state, seat):
            raise engine.IllegalMove("that is not one of your choices now", "illegal")
        if move["type"] == "play":
            return [{"type": "played", "seat": seat, "card": move["card"], "points": value(move["card"])}]
        events = []
        if move["type"] == "draw":
            events.append({"type": "drew", "seat": seat, "cards": [state["deck"][0]]})
        following = (seat + 1) % state["players"]
        if following == 0:  # a round is complete: someone reached the target, or nobody can play
            scores = state["scores"]
            best = max(scores)
            empty = not any(state["hands"]) and not events
            if best >= state["target"] or empty:
                winners = [s for s, score in enumerate(scores) if score == best]
                return events + [{"type": "over", "winners": winners}]
        return events + [{"type": "turn", "seat": following}]

    def view(self, state, seat):
        return {
            "game": NAME, "seat": seat, "scores": list(state["scores"]), "target": state["target"],
            "turn": None if state["over"] else state["turn"], "stage": state["stage"],
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_counts": [len(hand) for hand in state["hands"]], "deck_count": len(state["deck"]),
            "result": self.result(state),
        }

    def result(self, state):
        if not state["over"]:
            return None
        return kit.result(state["scores"], state["winners"])

    def public_scores(self, view):
        return dict(enumerate(view["scores"]))

    def seats_affected(self, event, state):
        return [event["seat"]] if event["type"] in ("deal", "played", "drew") else []

    def render_text(self, view):
        lines = [f"Scores: {', '.join(f'seat {s + 1}: {v}' for s, v in enumerate(view['scores']))} "
                 f"(target {view['target']})"]
        lines.append("Game over." if view["turn"] is None else f"Seat {view['turn'] + 1} to play.")
        lines.append(f"Cards in hand: {', '.join(str(n) for n in view['hand_counts'])}; deck {view['deck_count']}.")
        if view["hand"] is not None:
            lines.append("Your hand: " + (", ".join(f"{c} ({value(c)})" for c in view["hand"]) or "empty"))
        return "\n".join(lines)

    def describe_move(self, move, state=None):
        kind = move.get("type")
        if kind == "play":
            return f"Play {move['card']} for {plural(value(move['card']), 'point')}"
        return {"end_turn": "End your turn", "draw": "Draw a card and end your turn", "pass": "Pass"}.get(
            kind, str(move))

    def redact_event(self, event, seat):
        if event["type"] == "setup":
            return {**event, "deck": None}
        if event["type"] in ("deal", "drew") and event["seat"] != seat:
            return {**event, "cards": None, "count": len(event["cards"])}
        return event

    def describe_event(self, event, seat, state):
        kind = event["type"]
        if kind == "played":
            return f"Seat {event['seat'] + 1} played {event['card']} for {plural(event['points'], 'point')}."
        if kind == "drew":
            if event["seat"] == seat:
                return f"You drew {', '.join(event['cards'])}."
            return f"Seat {event['seat'] + 1} drew a card."
        if kind == "over":
            return "The game is over: " + " and ".join(f"seat {w + 1}" for w in event["winners"]) + " won."
        return None


GAME = engine.register(ToyGame())
