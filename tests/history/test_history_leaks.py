"""Every historical view of a seeded Riftforce duel, for each seat and for a spectator (pages,
JSON, downloads): no hidden card of another seat before the end; the full record after it."""

from __future__ import annotations

import json

from flask import current_app, render_template

import engine
from engine.riftforce.words import card_name
from service import store
from service.games import adapter
from service.store import get_engine, read_session
from service.views.wording import Wording
from tests import tokens
from tests.history.helpers import (
    PLAYERS,
    card_ids,
    hidden_from,
    history_url,
    player_ids,
    riftforce_game,
    state_at,
)
from tests.web.pages import text

MID_GAME = 150
RULES = engine.get("riftforce")


def _board(game, state: dict, seat: int | None) -> str:
    with current_app.test_request_context("/"):
        view = RULES.view(state, seat)
        names = {seat: name for seat, (name, _) in enumerate(PLAYERS)}
        return render_template("games/riftforce/board.html", view=view, seat=seat, rules=RULES, game=game,
                               names=names, email=False, over=None, words=Wording("riftforce", "en", seat, names),
                               **adapter("riftforce").board_words(view))


def test_no_historical_view_shows_a_hidden_card_before_the_end(client):
    game_id = riftforce_game(MID_GAME)
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
    assert game.status == "active" and game.seq >= MID_GAME
    ids = player_ids(game_id)
    seen_own_hand = 0
    with read_session(get_engine()) as session:
        set_up = store.setup_end(session, game)
    assert set_up == 2  # riftforce: "setup" and "draft"; positions inside it show it as set up
    for seq in range(1, game.seq + 1):
        state = state_at(game_id, max(seq, set_up))
        for seat in (0, 1):
            page = text(client.get(history_url(ids[seat], game_id, at=seq)))
            assert f"step <strong>{seq}</strong>" in page
            leaked = card_ids(page) & hidden_from(state, seat)
            assert not leaked, f"seat {seat} sees {leaked} at event {seq}"
            if seq % 5 == 0:  # the same board with turn navigation: a sample is enough
                turn_page = text(client.get(history_url(ids[seat], game_id, at=seq, by="turn")))
                assert not card_ids(turn_page) & hidden_from(state, seat)
            # The board shows cards by name, not id: the page must hold exactly the board drawn
            # from that seat's own view at that position (which the id checks below cover).
            assert _board(game, state, seat) in page
            if state["phase"] == "play" and state["hand"][seat]:
                assert f"Your hand ({len(state['hand'][seat])})" in page
                seen_own_hand += 1
        public = text(client.get(history_url(None, game_id, at=seq)))
        assert _board(game, state, None) in public
        for seat in (0, 1):  # the views the pages are drawn from hold no hidden card id either
            assert not card_ids(json.dumps(RULES.view(state, seat))) & hidden_from(state, seat)
        assert not card_ids(public) & hidden_from(state, None), f"the public page leaks at {seq}"
        assert "Your hand" not in public
        answer = client.get(f"/api/games/{game_id}?at={seq}")
        assert answer.status_code == 200 and answer.get_json()["seq"] == seq
        assert not card_ids(answer.get_data(as_text=True)) & hidden_from(state, None)
    assert seen_own_hand > 50

    now = state_at(game_id, game.seq)
    for seat in (0, 1):
        landing = client.get(history_url(ids[seat], game_id))  # "since your last move"
        assert landing.status_code == 200 and not card_ids(text(landing)) & hidden_from(now, seat)
        record = client.get(f"/p/{_token(ids[seat])}/history/record.json")
        assert record.status_code == 200 and "attachment" in record.headers["Content-Disposition"]
        data = record.get_json()
        assert data["complete"] is False and "secret" not in data and data["viewpoint"] == seat
        assert len(data["events"]) == game.seq
        assert not card_ids(record.get_data(as_text=True)) & hidden_from(now, seat)
        assert not any(e["event"].get("order") for e in data["events"] if e["type"] in ("deck", "reshuffle"))
        # Another seat's viewpoint and every hand open only after the end.
        assert client.get(history_url(ids[seat], game_id, view=1 - seat)).status_code == 403
        assert client.get(history_url(ids[seat], game_id, view="all")).status_code == 403
        public_view = client.get(history_url(ids[seat], game_id, view="public"))
        assert public_view.status_code == 200 and not card_ids(text(public_view)) & hidden_from(now, None)
    assert client.get(history_url(None, game_id, view="all")).status_code == 403
    for url in (f"/api/games/{game_id}/events", f"/games/{game_id}/history/record.json"):
        answer = client.get(url)
        assert answer.status_code == 200
        assert not card_ids(answer.get_data(as_text=True)) & hidden_from(now, None), url
    events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    draws = [e for e in events if e["type"] == "draw"]
    assert draws and all(e["event"]["cards"] is None for e in draws)


def test_after_the_end_the_full_record_and_every_hand_are_shown(client):
    game_id = riftforce_game(to_end=True)
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        raw = [row.payload for row in store.stored_events(session, game_id)]
    assert game.status == "finished"
    ids = player_ids(game_id)
    every_card = set()
    for event in raw:
        if event["type"] in ("deck", "reshuffle"):
            every_card.update(event["order"])
    for url in (f"/p/{_token(ids[0])}/history/record.json", f"/p/{_token(ids[1])}/history/record.json",
                f"/games/{game_id}/history/record.json"):
        answer = client.get(url)
        data = answer.get_json()
        assert data["complete"] is True and data["secret"] == game.secret and data["viewpoint"] == "all"
        assert [e["event"] for e in data["events"]] == raw  # nothing redacted any more
        assert every_card <= card_ids(answer.get_data(as_text=True))
        assert "complete" in answer.headers["Content-Disposition"]
    # Every hand, at a position in the middle of the game, from either page.
    middle = game.seq // 2
    state = state_at(game_id, middle)
    for url in (history_url(ids[0], game_id, at=middle, view="all"), history_url(None, game_id, at=middle, view="all")):
        page = text(client.get(url))
        assert "Every hand after step" in page
        for hand in state["hand"]:
            if hand:
                assert ", ".join(card_name(card) for card in hand) in page
    other = text(client.get(history_url(ids[0], game_id, at=middle, view=1)))
    assert _board(game, state, 1) in other  # the opponent's viewpoint, after the end
    final = text(client.get(history_url(ids[0], game_id)))
    assert "Scores over the game" in final and "<polyline" in final
    game_page = text(client.get(f"/p/{_token(ids[0])}"))
    assert "<svg" in game_page and "Scores over the game" in game_page  # the game-over page's chart
    assert "<svg" in text(client.get(f"/games/{game_id}"))


def _token(player_id: int) -> str:
    return tokens.page(player_id)
