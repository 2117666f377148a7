"""What each seat may see of an event (DESIGN.md hidden information, §2, H7).

Hands are seen by their owner only; the rift-deck order and the element deck below its top card by
nobody; face-down cards beneath a rift by the player who put them there and the owner of the host
rift; cards looked at in a search by the searcher.  `words.describe_event` words the redacted event
only, so a sentence cannot tell what this module hides.
"""

from __future__ import annotations


def redact_event(event, seat) -> dict:
    """The event as `seat` (None: a spectator) may see it; the input is never changed."""
    t = event["type"]
    e = dict(event)
    if t == "setup":
        e["rdeck"] = None
        e["rdeck_size"] = len(event["rdeck"])
        e["edeck"] = event["edeck"][:1]  # the top card is public (§2); the order below is not
        e["edeck_size"] = len(event["edeck"])
        return e
    if t in ("deal", "draw", "look") and seat != event["seat"]:
        e["count"] = len(event["cards"])
        e["cards"] = None
    elif t in ("take", "bottom") and seat != event["seat"]:
        e["card"] = None
    elif t == "discard" and event["zone"] == "hand" and seat != event["owner"]:
        e["card"] = None  # discarded face down
    elif t == "tuck" and event["face"] == "down" and event["src"] != "explored" \
            and seat not in (event["seat"], event["host_owner"]):
        e["card"] = None
    if "beneath" in e and isinstance(e["beneath"], list):
        e["beneath"] = len(e["beneath"])  # cards leaving beneath a rift go face down to the deck
    return e
