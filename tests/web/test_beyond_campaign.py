"""Beyond the Rift's campaign "Old Friends" through the service (service/games/beyond_the_rift.py, service/play/followups.py): a won scenario's
page offers the next scenario with the rewards as its carry-over, one POST starts it for the same party
(a second press leads to the same game), a lost scenario can be replayed with the same carry-over, and
a GET changes nothing.  Equipment and side choices: test_beyond_campaign_equip.py."""

from __future__ import annotations

import html
import random

from sqlmodel import select

from engine.beyond_the_rift.content import CONTENT
from service import links
from service.play import handle, new_game
from service.store import get_engine, read_session
from service.store.models import Campaign, CampaignGame, Game, Player
from tests import tokens
from tests.beyond_helpers import RULES, policy
from tests.engine.beyond_the_rift.helpers import greedy_chooser
from tests.service.helpers import current
from tests.web.pages import csrf_token, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def players(game_id):
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def rows(model):
    with read_session(get_engine()) as session:
        return list(session.exec(select(model)))


def play_out(game_id, choose):
    for _ in range(3000):
        game, state = current(game_id)
        if game.status != "active":
            return game
        seat = game.to_act[0]
        handle(game_id, seat, choose(state, seat, RULES.legal_moves(state, seat)), game.seq)
    raise AssertionError("the scenario did not end")


def press(client, player):
    token = links.player_token(player.id, player.row_key)
    page = text(client.get(f"/p/{token}"))
    return page, client.post(f"/p/{token}/campaign", data={"csrf_token": csrf_token(page)})


# With this seed the greedy engine-test player wins Ashes at Hollowmere with Brannoc and Isolde (most
# seeds lose: of seeds 1-57 only 26, 39 and 57 win).  A change to the rules or the content may move it.
WIN_SEED = 26


def won_game() -> int:
    """A finished, won game of Ashes at Hollowmere, the campaign's first scenario."""
    game_id = new_game("beyond-the-rift", PLAYERS, {"scenario": "old-friends-1", "defense_modes": ["auto", "auto"]},
                       seed=WIN_SEED)
    rng = random.Random(WIN_SEED)
    game = play_out(game_id, lambda state, seat, legal: greedy_chooser(state, seat, legal, rng))
    assert game.result["outcome"] == "win", game.result
    return game_id


def test_win_then_next_scenario_with_the_rewards_then_a_replay_after_a_loss(client, app):
    first = won_game()
    game, _ = current(first)
    rewards = game.result["rewards"]
    assert rewards["won"] == ["old-friends-1"]

    ann, bob = players(first)
    client.get(f"/p/{links.player_token(ann.id, ann.row_key)}")
    assert rows(Campaign) == [] and rows(CampaignGame) == []  # showing the offer records nothing
    page, answer = press(client, ann)
    assert "Ashes at Hollowmere" in page or "Old Friends" in page
    assert "Start The Burrow Road with the rewards" in page
    for drawn in rewards["drawn"]:  # by name, never by id
        assert CONTENT.items[drawn["item"]]["name"] in html.unescape(page)
    assert answer.status_code == 303, text(answer)[:2000]
    second = next(p.game_id for p in rows(Player) if tokens.links_page_of(answer.headers["Location"], p))
    game2, state2 = current(second)
    assert game2.options["scenario"] == "old-friends-2" and game2.options["carry"] == rewards
    assert game2.options["defense_modes"] == ["auto", "auto"]
    assert state2["campaign"]["won"] == ["old-friends-1"]
    assert [(p.name, p.email, p.seat) for p in players(second)] == [(p.name, p.email, p.seat) for p in (ann, bob)]
    # Bob's press leads to the same game, his own seat in it; nothing is started twice.
    page, again = press(client, bob)
    assert "has started" in page and again.status_code == 303
    assert tokens.links_page_of(again.headers["Location"], players(second)[1])
    assert len(rows(Game)) == 2
    linked = sorted((c.game_id, c.scenario, c.follow_up_game_id) for c in rows(CampaignGame))
    assert linked == [(first, "old-friends-1", second), (second, "old-friends-2", None)]
    assert next(c for c in rows(CampaignGame) if c.game_id == first).rewards == rewards

    # The next scenario is lost: its page offers a replay with the same carry-over.
    game2 = play_out(second, policy)
    assert game2.result["outcome"] == "loss"
    page, answer = press(client, players(second)[0])
    assert "Replay The Burrow Road" in page and answer.status_code == 303
    third = max(g.id for g in rows(Game))
    game3, _ = current(third)
    # The replay's carry-over is the campaign as the lost game was played (the win's report left out).
    campaign = {k: v for k, v in rewards.items() if k not in ("drawn", "scenario")}
    assert game3.options["scenario"] == "old-friends-2" and game3.options["carry"] == campaign
    assert len(rows(Campaign)) == 1 and len(rows(CampaignGame)) == 3


def test_no_campaign_offer_outside_a_campaign_and_no_offer_while_playing(client, app):
    tutorial = new_game("beyond-the-rift", PLAYERS, seed=3)
    page, answer = press(client, players(tutorial)[0])
    assert answer.status_code == 409 and "not over yet" in text(answer)
    assert "what next" not in page and "Play again" not in page
    play_out(tutorial, policy)
    # A finished game outside a campaign offers what every game does: play again, asked of every player
    # first (service/play/rematch.py, tests/web/test_play_again.py), never started by one press.
    page, answer = press(client, players(tutorial)[0])
    assert "what next" not in page and ">Play again</button>" in page and 'name="seating"' in page
    assert answer.status_code == 409 and len(rows(Game)) == 1 and rows(Campaign) == []
