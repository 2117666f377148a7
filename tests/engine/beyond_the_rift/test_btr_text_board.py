"""The plain-text board (words.render, the plain-text part of every email): it reads as text, aligned in
columns, and no line looks like a form's blank to fill in (a bare label ending in a colon, a run of
underscores), which is what mail filters' FILL_THIS_FORM rules look for."""

from __future__ import annotations

import re

import pytest

import engine

from .helpers import SCENARIOS, G, greedy_chooser, playout

BLANK = re.compile(r"^\s*[^:\n]{0,60}:\s*$|_{3,}|\.{4,}")
ENEMY_ROW = re.compile(r"^    E\d+ +.+?  (A-?\d+ D-?\d+ H-?\d+ R\d+ C\d+)")
HERO_ROW = re.compile(r"^  \S.*?  (\d+ AP)  hand ")


def texts(n: int, scenario: str, seed: int):
    """The board as every seat and a spectator read it, at every tenth event of a playout and at its end."""
    state, log = playout(n, scenario, seed, greedy_chooser)
    replayed = None
    for i, event in enumerate(log):
        replayed = G.apply(replayed, event)
        if i % 10 == 9 or i == len(log) - 1:
            for seat in (None, *range(n)):
                yield G.render_text(G.view(replayed, seat))


def check(text: str) -> None:
    lines = text.split("\n")
    for line in lines:
        assert not BLANK.search(line), f"a line that reads as a form's blank: {line!r}"
        assert line == line.rstrip(), f"trailing spaces: {line!r}"
    enemy_stats = {line.index(m.group(1)) for line in lines if (m := ENEMY_ROW.match(line))}
    assert len(enemy_stats) <= 1, "the enemies' numbers are not in one column\n" + text
    hero_ap = {line.index(m.group(1)) + len(m.group(1)) for line in lines if (m := HERO_ROW.match(line))}
    assert len(hero_ap) == 1, "the heroes' AP are not in one column\n" + text


@pytest.mark.parametrize("scenario", SCENARIOS[:2])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_the_text_board_is_aligned_and_has_no_blank_to_fill_in(n, scenario):
    seen = 0
    for text in texts(n, scenario, seed=n * 7):
        check(text)
        seen += 1
    assert seen > n


def test_the_text_board_groups_enemies_by_area_and_lists_the_own_hand():
    state = engine.replay(G, G.start(2, {"scenario": "tutorial"}, seed=1))
    view = G.view(state, 0)
    text = G.render_text(view)
    quest = [e for e in view["enemies"] if e["area"] == -1]
    assert f"  {len(quest)} in the Quest Area" in text
    for e in view["enemies"]:
        st = e["stats"]
        assert re.search(rf"^    {e['id']} +{re.escape(e['name'])} +A{st['attack']} D{st['defense']} H{e['health']} "
                         rf"R{st['range']} C{st['engage']}", text, re.M)
    assert f"Your hand, {len(view['hand'])} cards ({view['heroes'][0]['ap']} AP to spend)" in text
    for card in view["hand"]:
        assert re.search(rf"^  {card['card']} +{re.escape(card['name'])} +{re.escape(card['text'])}$", text, re.M)
    assert "Waiting on Brannoc Vey (you), Isolde Marr, for the heroes' actions" in text
    spectator = G.render_text(G.view(state, None))
    assert "Your hand" not in spectator and "(you)" not in spectator
