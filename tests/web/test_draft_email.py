"""Riftforce's draft in the turn email: each summoner (guild) on offer is its own link, which opens the
player page with that pick chosen (#22 item 7), not one "Pick…" link to a list."""

from __future__ import annotations

import html
import json
import re
import urllib.parse

from engine.riftforce.cards import GUILD_NAME
from service.play import new_game
from tests.consent import preconsent
from tests.service.helpers import current, outbox_rows
from tests.web.pages import text
from tests.web.test_riftforce_modes import CHOICE, rendered

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def test_the_draft_email_links_each_summoner_on_offer(app, client):
    preconsent(*[email for _, email in PLAYERS])
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state = current(game_id)
    assert state["phase"] == "draft"
    seat = game.to_act[0]
    offer = state["draft"]["offer"]
    assert len(offer) > 1
    row = next(r for r in outbox_rows(game_id) if r.kind in ("turn", "invite") and r.seq == game.seq
               and r.player_id == next(p.id for p in _players(game_id) if p.seat == seat))
    _, body = rendered(row)
    links = dict(CHOICE.findall(body))
    assert list(links) == [f"Pick {GUILD_NAME[g]}" for g in offer]
    assert "Pick…" not in body
    for guild in offer:
        url = urllib.parse.urlsplit(links[f"Pick {GUILD_NAME[guild]}"])
        page = text(client.get(url.path, query_string=urllib.parse.parse_qs(url.query)))
        assert "not open any more" not in page
        chosen = re.findall(r'value="([^"]*)" required checked>', page)
        assert [json.loads(html.unescape(v)) for v in chosen] == [{"type": "pick", "guild": guild}]


def _players(game_id):
    from service import store
    from service.store import get_engine, read_session

    with read_session(get_engine()) as session:
        return store.players_of(session, game_id)
