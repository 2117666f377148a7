"""History pages, the JSON API's past positions and event list, the creator's switch, "since your
last move", journal entries and service events in the history, and the score chart."""

from __future__ import annotations

import re

from service import links, store
from service.mail import compose as mail
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.views import charts, history
from tests import tokens
from tests.history.helpers import history_url, player_ids
from tests.service import toygame
from tests.service.helpers import current, outbox_rows, play_one, play_to_end
from tests.web.pages import csrf_token, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def toy_game(moves: int, target: int = 30) -> int:
    game_id = new_game(toygame.NAME, PLAYERS, {"target": target}, seed=21)
    for _ in range(moves):
        play_one(game_id, lambda legal: legal[-1])  # draws when it can: hands change hands often
    return game_id


def board_of(page: str) -> str:
    return page.split('id="board-h"', 1)[1].split("</section>", 1)[0]


def toy_hidden(state: dict, viewer: int | None) -> set[str]:
    hidden = set(state["deck"])
    for seat, hand in enumerate(state["hands"]):
        if seat != viewer:
            hidden.update(hand)
    return hidden


def test_toy_pages_json_and_downloads_show_no_hidden_card_at_any_step(client):
    """The toy game prints card ids on its pages, so here every text is searched for them."""
    game_id = toy_game(14)
    game, _ = current(game_id)
    ids = player_ids(game_id)
    assert game.status == "active"
    with read_session(get_engine()) as session:
        raw = [row.payload for row in store.stored_events(session, game_id)]
    rules = toygame.GAME
    # What each viewer may know by now: what their own redaction of the log shows.  The page at
    # an early step also lists the later events "since your last move" (the viewer knows them
    # now), so the whole page is held to today's knowledge and its board to that step's.
    known = {seat: toygame.cards_in(str([rules.redact_event(e, seat) for e in raw])) for seat in (0, 1, None)}
    for seq in range(1, game.seq + 1):
        with read_session(get_engine()) as session:
            state, _ = store.load_state(session, game, seq)
        for seat in (0, 1):
            for by in ("event", "turn"):
                page = text(client.get(history_url(ids[seat], game_id, at=seq, by=by)))
                shown = toygame.cards_in(page)
                assert not toygame.cards_in(board_of(page)) & toy_hidden(state, seat), (seat, seq)
                assert shown & toy_hidden(state, seat) <= known[seat], (seat, seq)
            assert set(state["hands"][seat]) <= toygame.cards_in(board_of(page))  # their own hand
        public = text(client.get(history_url(None, game_id, at=seq)))
        assert not toygame.cards_in(public) & toy_hidden(state, None) - known[None]
        assert not toygame.cards_in(board_of(public)) & toy_hidden(state, None)
        api = client.get(f"/api/games/{game_id}?at={seq}").get_data(as_text=True)
        assert not toygame.cards_in(api) & toy_hidden(state, None)
    _, now = current(game_id)
    for seat in (0, 1):
        record = client.get(f"/p/{tokens.page(ids[seat])}/history/record.json").get_data(as_text=True)
        assert not toygame.cards_in(record) & toy_hidden(now, seat)
    for url in (f"/api/games/{game_id}/events", f"/games/{game_id}/history/record.json"):
        assert not toygame.cards_in(client.get(url).get_data(as_text=True)) & toy_hidden(now, None)


def test_api_at_n_keeps_the_live_fields_and_refuses_anything_but_1_to_seq(client):
    game_id = toy_game(5)
    game, state = current(game_id)
    live = client.get(f"/api/games/{game_id}").get_json()
    for n in (1, game.seq // 2, game.seq):
        past = client.get(f"/api/games/{game_id}?at={n}").get_json()
        assert set(live) <= set(past)  # every live field, for that position
        assert past["seq"] == past["at"] == n and past["latest_seq"] == game.seq
        assert past["status"] == "active" and past["players"] == live["players"]
    assert client.get(f"/api/games/{game_id}?at={game.seq}").get_json()["view"] == live["view"]
    first = client.get(f"/api/games/{game_id}?at=1").get_json()
    # Inside the setup (a setup event and a deal per seat, made in one step) the game is drawn
    # as set up.
    assert first["seq"] == 1 and first["view"] == client.get(f"/api/games/{game_id}?at=3").get_json()["view"]
    assert first["view"]["scores"] == [0, 0] and first["view"]["hand_counts"] == [3, 3]
    for bad, status in (("0", 404), (str(game.seq + 1), 404), ("-1", 400), ("x", 400), ("1.5", 400),
                        ("", 400), ("1e3", 400), ("٣", 400), ("9" * 40, 400)):
        answer = client.get(f"/api/games/{game_id}?at={bad}")
        assert answer.status_code == status, bad
        assert answer.get_json()["status"] == status  # a JSON error, never a 500
    assert client.get("/api/games/999?at=1").status_code == 404
    events = client.get(f"/api/games/{game_id}/events").get_json()
    assert [e["seq"] for e in events["events"]] == list(range(1, game.seq + 1))
    assert events["events"][0]["event"]["deck"] is None  # the deck order, redacted
    assert [e["seq"] for e in client.get(f"/api/games/{game_id}/events?after=4").get_json()["events"]][0] == 5
    assert client.get(f"/api/games/{game_id}/events?after=x").status_code == 400


def test_bad_history_parameters_are_clear_4xx(client):
    game_id = toy_game(3)
    ids = player_ids(game_id)
    for params, status in (({"at": "0"}, 404), ({"at": "abc"}, 400), ({"by": "round"}, 400),
                           ({"view": "7"}, 400), ({"view": "x"}, 400), ({"view": "all"}, 403),
                           ({"view": "1"}, 403)):
        assert client.get(history_url(ids[0], game_id, **params)).status_code == status, params
        assert client.get(history_url(None, game_id, **params)).status_code in (status, 400), params
    assert client.get("/p/not-a-token/history").status_code == 400
    assert client.get("/games/999/history").status_code == 404
    assert client.get(f"/p/{links.player_token(999, None)}/history").status_code == 404


def test_a_finished_games_history_opens_at_its_end_and_speaks_in_turns(client):
    """#17 item 9: after the end a player wants the end, not their last move; and the status line
    leads with the turn ("Turn 7 of 9"), the step number after it."""
    game_id = toy_game(0, target=5)
    ids = player_ids(game_id)
    play_to_end(game_id)
    game, _ = current(game_id)
    page = text(client.get(history_url(ids[0], game_id)))
    assert f"step <strong>{game.seq}</strong> of {game.seq}." in page
    where = re.search(r'id="hist-where">(.*?)</p>', page, re.S).group(1)
    assert re.match(r"Turn <strong>\d+</strong> of \d+ \(", where) and "event" not in where


def test_the_history_opens_at_your_last_move_with_what_happened_since(client):
    game_id = toy_game(0)
    ids = player_ids(game_id)
    play_one(game_id, lambda legal: legal[0])  # Ann plays a card
    play_one(game_id, lambda legal: legal[0])  # and ends her turn
    ann_done, _ = current(game_id)
    play_one(game_id, lambda legal: legal[0])  # Bob plays a card
    play_one(game_id, lambda legal: legal[-1])  # and draws
    game, _ = current(game_id)
    page = text(client.get(history_url(ids[0], game_id)))
    assert f"step <strong>{ann_done.seq}</strong>" in page
    since = page.split('id="since-h"')[1]
    # The engine says "Seat 2"; the history names the player (service/views/sentences.py).
    assert "Bob played" in since and "Bob drew a card." in since and "Seat 2" not in since
    assert 'class=" affects"' not in since or "(affected you)" in since
    # Bob's view: he moved last, so nothing happened since.
    bob = text(client.get(history_url(ids[1], game_id)))
    assert "Nothing happened since your last move." in bob
    assert f"step <strong>{game.seq}</strong>" in bob
    # A spectator's history opens at the latest position, without a "since" part.
    public = text(client.get(history_url(None, game_id)))
    assert f"step <strong>{game.seq}</strong>" in public and 'id="since-h"' not in public


def test_steps_by_event_and_turn_link_without_javascript(client):
    game_id = toy_game(6)
    game, _ = current(game_id)
    ids = player_ids(game_id)
    with read_session(get_engine()) as session:
        timeline = history.timeline(session, game, 0)
    turn_ends = timeline.turn_steps()
    assert turn_ends[-1] == game.seq and len(turn_ends) >= 4
    page = text(client.get(history_url(ids[0], game_id, at=turn_ends[1], by="turn")))
    assert re.search(rf'id="hist-next" href="/p/[^"/]+/history\?at={turn_ends[2]}&amp;by=turn"', page)
    assert re.search(rf'id="hist-prev" href="/p/[^"/]+/history\?at={turn_ends[0]}&amp;by=turn"', page)
    assert 'rel="next"' in page and 'rel="prev"' in page and 'type="range"' in page
    first = text(client.get(history_url(ids[0], game_id, at=timeline.event_steps()[0])))
    assert 'rel="prev"' not in first  # nothing before the first step
    last = text(client.get(history_url(ids[0], game_id, at=game.seq)))
    assert 'rel="next"' not in last


def test_only_the_creator_turns_the_public_history_off_and_a_get_changes_nothing(client):
    game_id = toy_game(3)
    ids = player_ids(game_id)
    ann_page = text(client.get(history_url(ids[0], game_id)))
    bob_page = text(client.get(history_url(ids[1], game_id)))
    assert "Turn the public history off" in ann_page and "Turn the public history off" not in bob_page
    switch = f"/p/{tokens.page(ids[1])}/history/public"
    assert client.post(switch, data={"csrf_token": csrf_token(ann_page), "history_public": "off"}).status_code == 403
    assert client.get(f"/p/{tokens.page(ids[0])}/history/public").status_code == 405
    assert client.post(f"/p/{tokens.page(ids[0])}/history/public", data={"history_public": "off"}).status_code == 400
    answer = client.post(f"/p/{tokens.page(ids[0])}/history/public",
                         data={"csrf_token": csrf_token(ann_page), "history_public": "off"})
    assert answer.status_code == 303
    for url in (history_url(None, game_id), f"/games/{game_id}/history/record.json",
                f"/api/games/{game_id}?at=1", f"/api/games/{game_id}/events"):
        assert client.get(url).status_code == 403, url
    assert client.get(f"/api/games/{game_id}").status_code == 200  # the live public view stays
    assert client.get(history_url(ids[1], game_id)).status_code == 200  # players keep theirs
    assert "public history is off" in text(client.get(history_url(ids[0], game_id)))
    page = text(client.get(history_url(ids[0], game_id)))
    client.post(f"/p/{tokens.page(ids[0])}/history/public",
                data={"csrf_token": csrf_token(page), "history_public": "on"})
    assert client.get(history_url(None, game_id)).status_code == 200


def test_journal_entries_and_service_events_are_in_the_history_in_words(client):
    game_id = toy_game(4, target=3)
    ids = player_ids(game_id)
    with write_session(get_engine()) as session:
        store.journal_record(session, game_id, 2, "reminder", 1, {"hours": 24})
    page = text(client.get(history_url(ids[0], game_id, at=2)))
    assert "Bob was reminded: 24 hours left to move." in page
    play_to_end(game_id)
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        if not any(row.kind == "system" for row in store.stored_events(session, game_id)):
            # The end as the service records it (service/play/ending.py), once, when not yet recorded.
            store.append(session, game, game.seq, [{"type": "game_finished", "result": game.result}],
                         actor=None, kind="system", read_model={})
        last = game.seq
    winners = current(game_id)[0].result["winners"]
    events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    assert events[-1]["kind"] == "system" and events[-1]["text"].startswith("The game is over")
    page = text(client.get(history_url(ids[0], game_id, at=last)))
    expected = " and ".join(["You", "Bob"][w] for w in winners)  # Ann's page: she is "You"
    assert f"The game is over: {expected} won." in page
    record = client.get(f"/p/{tokens.page(ids[0])}/history/record.json").get_json()
    assert record["journal"][0]["text"] == "Bob was reminded: 24 hours left to move."
    assert record["events"][-1]["event"]["type"] == "game_finished"


def test_the_turn_email_links_to_the_history(app):
    game_id = toy_game(2)
    rows = [row for row in outbox_rows(game_id) if row.kind == "turn"]
    with read_session(get_engine()) as session:
        message = mail.build(session, rows[-1])
    body = message.get_body(("plain",)).get_content()
    assert re.search(r"http://riftpost\.test/p/[^/\s]+/history\b", body)
    assert "/history" in message.get_body(("html",)).get_content()


def test_score_chart_is_svg_and_degrades_without_scores(client):
    game_id = toy_game(10)
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        series = history.score_series(session, game)
    assert series and series[-1][0] == game.seq and len(series[-1][1]) == 2
    svg = charts.score_chart(series, {0: "Ann <x>", 1: "Bob"}, marker=3, target=30)
    assert svg.startswith("<svg") and svg.count("<polyline") == 2 and "Ann &lt;x&gt;" in svg
    # Its axis counts turns, as players do (issue #22 item 9), not the store's events.
    assert ">start</text>" in svg and f">turn {len(series) - 1}</text>" in svg and "event" not in svg
    assert charts.score_chart(None, {}) is None and charts.score_chart([], {}) is None
    cooperative = new_game("beyond-the-rift", PLAYERS[:2], {"scenario": "tutorial"}, seed=3)
    with read_session(get_engine()) as session:  # a game without scores to chart has no series
        assert history.score_series(session, store.get_game(session, cooperative)) is None
    walker = new_game("riftwalker", PLAYERS, seed=3)
    page = client.get(f"/games/{walker}/history")
    assert page.status_code == 200  # a game whose view may have no plain score list still renders
    assert "<svg" in text(page) or "no simple score to chart" in text(page)
