"""Rematch seating (service/play/rematch.py `order_for`): kept, swapped (each person to the next person's
seat: a duel swaps, team play swaps sides), random; bots (seats without an address) keep their seats."""

from __future__ import annotations

import pytest

from service.errors import Invalid
from service.play.rematch import order_for
from service.store.models import Player


def _seats(*emails: str) -> list[Player]:
    return [Player(game_id=1, seat=seat, name=f"P{seat}", email=email) for seat, email in enumerate(emails)]


def test_kept_and_swapped_seats_for_a_duel_and_team_play():
    assert order_for("kept", _seats("a@x.org", "b@x.org")) == [0, 1]
    assert order_for("swapped", _seats("a@x.org", "b@x.org")) == [1, 0]
    # Team play ([0, 2] vs [1, 3]): the partners stay together and change sides.
    order = order_for("swapped", _seats("a@x.org", "b@x.org", "c@x.org", "d@x.org"))
    assert order == [3, 0, 1, 2]
    assert {order[0], order[2]} == {1, 3} and {order[1], order[3]} == {0, 2}


def test_bots_keep_their_seats_whatever_the_seating():
    players = _seats("a@x.org", "", "c@x.org", "")  # seats 1 and 3 are bots
    assert order_for("swapped", players) == [2, 1, 0, 3]
    for _ in range(20):
        order = order_for("random", players)
        assert order[1] == 1 and order[3] == 3 and sorted(order) == [0, 1, 2, 3]


def test_random_seats_are_a_permutation_and_an_unknown_seating_is_refused():
    assert sorted(order_for("random", _seats("a@x.org", "b@x.org", "c@x.org"))) == [0, 1, 2]
    with pytest.raises(Invalid):
        order_for("sideways", _seats("a@x.org", "b@x.org"))
