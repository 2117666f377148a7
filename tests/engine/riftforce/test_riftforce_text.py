"""The plain-text board (the text part of every email) and the words the HTML boards take from the
engine: guild letters, players named from the service's names, what the seat to act is asked, the
last action from the view's public facts.  No line may read as a form to fill in (issue 13)."""

from __future__ import annotations

import random
import re

import pytest

from engine.riftforce.cards import ALL_GUILDS, GUILD_NAME
from engine.riftforce.words import GUILD_LETTERS, asked_words, last_words, name_tags, named

from .scenario import CHECK, GAME, A, D, P, board, do

NAMES = {0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan"}
MODES = [(2, {}), (2, {"guilds": "all"}), (3, {"mode": "team"}), (4, {"mode": "team"}), (1, {"mode": "solo"})]

# SpamAssassin's fill-in-a-form rules (rulesrc/sandbox/jhardin/20_fillform.cf) count lines that are
# a personal-data label ("Location 3", "Name", "Address (home)") followed by a colon and nothing,
# or by a run of blanks or dots; five of them make FILL_THIS_FORM.  These patterns are that test,
# narrowed to what a board could say, plus any line that ends in a bare colon.
FIELD = r"(?:location|address|name|e-?mail|phone|country|city|age|position|occupation|amount)"
FORM_LINE = re.compile(rf"^\s?(?:\d{{1,3}}\W{{1,3}}\s?)?(?:your\s)?{FIELD}(?:\s\d)?:?(?:\s?\([^)]{{1,30}}\))?"
                       rf"(?:[\s:;]{{0,4}}[-=_.,:;*\s]{{3,}}|[-=_.,:;*\s]{{1,4}}$)", re.I | re.M)
FORM_RUN = re.compile(rf"(?:{FIELD}(?:\s\d)?\W{{1,4}}(?:and\s|or\s)?){{5}}", re.I)


def bare_labels(text: str) -> list[str]:
    """The lines of `text` a spam filter would take for blanks of a form."""
    found = [line for line in text.splitlines() if line.rstrip().endswith(":")]
    found += [m.group(0) for m in FORM_LINE.finditer(text)]
    found += [m.group(0) for m in FORM_RUN.finditer(" ".join(text.split()))]
    return found


def test_the_form_checker_catches_what_the_old_board_said():
    old = "THE RIFT\nLocation 1:\n  Opponent:  Ice 5\nLocation 2 (green zone):\n  On offer:\n"
    assert len(bare_labels(old)) >= 4
    assert bare_labels("You played Fire 5 at location 1, location 2, location 3, location 4, location 5.")
    assert not bare_labels("  1  Bob  Ice 5 (2 damage)\nLast action: Ann played Fire 5 at location 3.\n")


def playout_views(players: int, options: dict, seed: int, steps: int = 400):
    """(state, view per viewer) at every step of a seeded random game, to the end."""
    rnd = random.Random(seed)
    state = None
    for event in GAME.start(players=players, options=options, seed=seed):
        state = GAME.apply(state, event)
    viewers = [None, *range(players)]
    for step in range(steps):
        yield state, {viewer: GAME.view(state, viewer) for viewer in viewers}
        if GAME.result(state) is not None:
            return
        seat = GAME.to_act(state)[0]
        move = rnd.choice(GAME.legal_moves(state, seat))
        for event in GAME.play(state, seat, move, random.Random(step)):
            state = GAME.apply(state, event)


@pytest.mark.parametrize(("players", "options"), MODES)
def test_no_line_of_the_text_board_reads_as_a_form_and_players_are_named(players, options):
    reached_over = False
    for state, views in playout_views(players, options, seed=7):
        for viewer, view in views.items():
            for names in (None, {s: NAMES[s] for s in range(players)}):
                text = GAME.render_text(view, names)
                assert not bare_labels(text), (viewer, bare_labels(text), text)
                if names:
                    others = [NAMES[s] for s in range(players) if s != viewer]
                    assert all(name in text for name in others), (viewer, text)
                    assert "Player " not in text and "Opponent" not in text, text
        reached_over = reached_over or state["phase"] == "over"
    assert reached_over


def test_the_text_board_never_names_a_hidden_card():
    """With or without names: another seat's hand and every draw pile stay out of the text."""
    for players, options in MODES:
        for state, views in playout_views(players, options, seed=3, steps=120):
            for viewer, view in views.items():
                text = GAME.render_text(view, NAMES)
                shown = {f"{GUILD_NAME[c.split('-')[0]]} {c.split('-')[1][0]}" for c in _hand_and_board(view)}
                hidden = {c for s, hand in enumerate(state["hand"]) if s != viewer for c in hand}
                hidden |= {c for deck in state["deck"] for c in deck}
                for card in hidden:
                    name = f"{GUILD_NAME[card.split('-')[0]]} {card.split('-')[1][0]}"
                    if name not in shown:  # the same guild and number may be public elsewhere
                        assert name not in text, (viewer, card, text)


def _hand_and_board(view: dict) -> set[str]:
    ids = {c["id"] for loc in view["locations"] for side in loc["sides"] for c in side}
    ids |= {c["id"] for c in view["hand"] or []}
    for p in view["players"]:
        if p["discard_top"]:
            ids.add(p["discard_top"]["id"])
    if view.get("trainer") and view["trainer"]["discard_top"]:
        ids.add(view["trainer"]["discard_top"]["id"])
    pending = view["pending"] or {}
    for key in ("cards", "activated", "used"):
        ids |= {c["id"] for c in pending.get(key, [])}
    if pending.get("discarded"):
        ids.add(pending["discarded"]["id"])
    if view["last"]:
        ids |= {c for key in ("cards", "activated") for c in view["last"].get(key, [])}
        if view["last"].get("discarded"):
            ids.add(view["last"]["discarded"])
    return ids


def test_every_guild_has_its_own_two_letters():
    assert sorted(GUILD_LETTERS) == sorted(ALL_GUILDS) and len(ALL_GUILDS) == 18
    assert len(set(GUILD_LETTERS.values())) == 18
    for guild, letters in GUILD_LETTERS.items():
        assert len(letters) == 2 and GUILD_NAME[guild].startswith(letters)


def test_players_are_named_you_first_and_tagged_apart():
    assert named(1, 0, None, NAMES) == "Bob" and named(0, 0, None, NAMES) == "You"
    assert named(1, 0) == "Opponent" and named(1, None) == "Player 2"  # without the service's names
    assert named(1, 0, "solo", NAMES) == "The trainer"
    # A partner is named like everyone else (the service puts the name where "Player 3" stands).
    assert named(2, 0, "team") == "Player 3" and named(2, 0, "team", NAMES) == "Cat"
    assert name_tags(4, NAMES) == {0: "A", 1: "B", 2: "C", 3: "D"}
    assert name_tags(3, {0: "Ann", 1: "abe", 2: "Cat"}) == {0: "An", 1: "Ab", 2: "Ca"}
    assert name_tags(2, {0: "Ann", 1: "Ann"}) == {0: "P1", 1: "P2"}
    assert name_tags(3, None) == {0: "P1", 1: "P2", 2: "P3"}


def test_what_the_seat_to_act_is_asked():
    s = board(me=[[], ["water-5a"], [], [], []], foe=[[], ["ice-6a"], [], [], []],
              hand=["fire-5a", "fire-5b", "water-6a"])
    assert asked_words(GAME.view(s, 0)) == "Play, Activate, or Check & Draw"
    played, _ = do(s, P("fire-5a", 0))
    assert asked_words(GAME.view(played, 1)) == "add another card to the Play, or end it"
    activating, _ = do(s, D("water-6a"))
    assert asked_words(GAME.view(activating, 0)) == "activate another of your elementals (0 of 3 so far), or stop"
    asking, _ = do(s, D("water-6a"), A("water-5a"))
    assert asked_words(GAME.view(asking, 0)) == "Choose where Water 5 moves."
    draft = GAME.apply(None, GAME.start(players=2, options={}, seed=1)[0])
    for event in GAME.start(players=2, options={}, seed=1)[1:]:
        draft = GAME.apply(draft, event)
    assert asked_words(GAME.view(draft, None)) == "pick a summoner from those on offer"


def test_the_last_action_is_public_facts_worded_with_names():
    s = board(hand=["fire-5a"], foe_hand=["ice-5a"])
    s, _ = do(s, P("fire-5a", 2))
    s, _ = do(s, {"type": "end_play"}) if s["pending"] else (s, [])
    view = GAME.view(s, 1)
    assert view["last"] == {"seat": 0, "action": "play", "cards": ["fire-5a"], "locs": [2]}
    assert view["last_action"] == "Opponent played Fire 5 at location 3."
    assert last_words(view, NAMES) == "Ann played Fire 5 at location 3."
    assert last_words(GAME.view(s, 0), NAMES) == "You played Fire 5 at location 3."
    checked, _ = do(s, CHECK)
    assert last_words(GAME.view(checked, 0), NAMES).startswith("Bob checked: scored ")


def test_what_is_asked_names_only_the_actions_open_now():
    """Rules §4: Check & Draw needs fewer than 7 cards in hand (#17 item 9: "Your turn: Play,
    Activate, or Check & Draw" was said with 7 in hand)."""
    seven = ["fire-5a", "fire-5b", "fire-6a", "fire-6b", "water-5a", "water-6a", "water-7a"]
    s = board(hand=seven, deck=["air-5a"])
    assert {m["type"] for m in GAME.legal_moves(s, 0)} == {"play", "activate"}
    assert asked_words(GAME.view(s, 0)) == "Play or Activate"
    empty = board(hand=[], deck=["air-5a"])
    assert asked_words(GAME.view(empty, 0)) == "Check & Draw"


def test_check_and_draw_says_what_it_will_really_draw():
    """Rules §4C, Q13: a Check draws up to 7 in hand, only what the pile and the discard hold
    (#17 item 9: "draw 6" was offered with 1 card left)."""
    s = board(hand=["fire-5a"], deck=["air-5a"], discard=[])
    assert GAME.describe_move(CHECK, s) == "Check & Draw (score 0, draw 1)"
    s = board(hand=["fire-5a"], deck=["air-5a"], discard=["air-6a", "air-7a"])
    assert GAME.describe_move(CHECK, s) == "Check & Draw (score 0, draw 3)"
    s = board(hand=["fire-5a"], deck=["air-5a"] * 9)
    assert GAME.describe_move(CHECK, s) == "Check & Draw (score 0, draw 6)"
