"""The plain-text board (`render_text`), the plain part of every Riftwalker email: short aligned lines
that say everything the view shows, and no line that reads as a form's blank to fill in (SpamAssassin's
FILL_THIS_FORM rules fire on lines like "Location 3:" with nothing after them)."""

from __future__ import annotations

import random
import re

import pytest

from engine.riftwalker import words

from ._helpers import FIRE_LINE, G, arrange, new_state

# A line that is only a label: a few words and a colon, nothing after it.
BARE_LABEL = re.compile(r"^\s*[^:]{1,40}:\s*$")
# The personal-data words of SpamAssassin's fill-in-the-form rules (rulesrc/sandbox/jhardin/20_fillform.cf)
# as a line's first words, followed by a blank.
FORM_FIELD = re.compile(r"^\s*(?:your\s+)?(?:name|address|location|phone|number|position|country|city|state|"
                        r"e-?mail|code|amount|age|occupation)s?\b[^a-z]{0,6}$", re.I)


def flat(text: str) -> str:
    """The text with its wrapped lines joined again."""
    return " ".join(line.strip() for line in text.splitlines())


def positions(players, seed, every=9):
    """(state, view) pairs along a random playout, every `every` decisions, and the end."""
    rng = random.Random(seed)
    state = new_state(players, seed=seed)
    for step in range(3000):
        if state["over"]:
            break
        if step % every == 0:
            yield state
        seat = G.to_act(state)[0]
        for event in G.play(state, seat, rng.choice(G.legal_moves(state, seat)), rng):
            state = G.apply(state, event)
    yield state


def check(text: str, view: dict) -> None:
    lines = text.splitlines()
    for line in lines:
        assert len(line) <= words.WIDTH, f"too long: {line!r}"
        assert not line.rstrip().endswith(":"), f"a label with nothing after it: {line!r}"
        assert not BARE_LABEL.match(line) and not FORM_FIELD.match(line), line
    # The grid: three rows, the faces in slot order, the backs in brackets aligned in columns.
    start = lines.index("Element grid, face up [back]; * marks a card in a line of three")
    rows = lines[start + 1:start + 4]
    lined = {i for ln in view["lines"] for i in ln["slots"]}
    for r, row in enumerate(rows):
        for g in view["grid"][r * 3:r * 3 + 3]:
            mark = "*" if g["slot"] in lined else " "
            assert f"{mark}{g['slot'] + 1} {g['up']:<5} [{g['down']}]" in row
    assert len({tuple(m.start() for m in re.finditer(r"\[", row)) for row in rows}) == 1, rows
    # Every rift in play, by name with its value, and the viewer's own hand with its rules.
    flat = " ".join(line.strip() for line in lines)
    for entry in view["seats"]:
        for rift in entry["explored"] + entry["score_pile"]:
            assert f"{rift['name']} (" in flat and f" {rift['value']}" in flat
        for card in entry.get("hand", []):
            assert card["name"] in flat and card["power"].split(";")[0].split(". ")[0] in flat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_text_board_is_short_lines_with_no_blank_to_fill_in_at_every_stage_of_a_game(players):
    seen = 0
    for state in positions(players, seed=40 + players):
        for viewer in [None, *range(players)]:
            view = G.view(state, viewer)
            check(G.render_text(view), view)
            seen += 1
    assert seen > 50


def test_the_text_board_says_whose_turn_what_is_asked_and_groups_hidden_cards_by_who_put_them():
    s = arrange(new_state(3), grid=FIRE_LINE, hands={1: ["FI-02", "WA-01", "SP-04"]},
                explored={0: [("LI-05", 1, [("ST-03", "down", 0), ("ST-04", "down", 0), ("FI-03", "up", 2)])]})
    spectator = G.render_text(G.view(s, None))
    assert spectator.startswith("Riftwalker, turn 5: Player 1's turn, Element step; waiting for Player 1.\n")
    assert "Heartwood Circle (Life 3->7; beneath: Ashfall Crater, 2 face-down cards from Player 1)" in flat(spectator)
    owner = G.render_text(G.view(s, 0))
    assert owner.startswith("Riftwalker, turn 5: your turn, Element step; waiting for you.\n")
    assert "beneath: Lightning Forge face down, Eye of the Storm face down, Ashfall Crater)" in flat(owner)
    assert "Player 1 (you): 0 points, 0 of 6 rifts burst" in owner
    assert "Lines of three: Fire (slots 1, 2, 3)." in owner
    holder = G.render_text(G.view(s, 1))
    assert "\nYour hand, 3 cards.\n  - Cinder Reach (Fire, track 0/3/7). " in holder
    assert "Your hand, 2 cards." in owner and "Your hand" not in spectator


def test_the_text_board_says_when_the_last_turns_are_played_and_who_still_plays():
    s = arrange(new_state(3), grid=FIRE_LINE)
    s["end"] = {"by": 1, "reason": "bursts", "left": [2]}
    assert ("Last turns: Player 2 triggered the end (enough rifts burst); still to play: Player 3."
            in flat(G.render_text(G.view(s, 0))))
    assert "still to play: you." in flat(G.render_text(G.view(s, 2)))
    s["end"] = {"by": 1, "reason": "deck", "left": []}
    assert ("Last turns: Player 2 triggered the end (the rift deck ran out); this turn is the last."
            in flat(G.render_text(G.view(s, None))))
