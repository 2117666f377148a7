"""The JSON play API (service/web/play_api.py): every answer code, previews that write nothing and
show nothing hidden, whole turns all or nothing, moves as text forms."""

from __future__ import annotations

import json

import pytest

import engine
from service import links
from service.play import new_game
from service.play.batch import MAX_MOVES
from tests import tokens
from tests.riftforce_helpers import fast as riftforce_fast
from tests.riftwalker_helpers import choose as riftwalker_choose
from tests.service import toygame
from tests.service.helpers import current
from tests.turns import after, counts, decisions, drive

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
JSON = "application/json"


@pytest.fixture
def toy(app):
    return new_game(toygame.NAME, PLAYERS, {"target": 6}, seed=21)


def url(player_id: int, tail: str = "") -> str:
    return f"/api/play/{tokens.page(player_id)}{tail}"


def seat_url(game_id: int, seat: int, tail: str = "") -> str:
    from service import store
    from service.store import get_engine, read_session

    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
    return url(player.id, tail)


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type=JSON)


def answer_text(response) -> str:
    return response.get_data(as_text=True)


# ---- GET ---------------------------------------------------------------------------------------------


def test_get_gives_the_players_own_view_seq_and_decisions_with_text_forms_and_steps(client, toy):
    game, state = current(toy)
    response = client.get(seat_url(toy, 0))
    assert response.status_code == 200 and response.mimetype == JSON
    assert response.headers["Cache-Control"] == "private, no-store"
    got = response.json
    assert (got["id"], got["game"], got["seat"], got["name"], got["seq"]) == (toy, toygame.NAME, 0, "Ann", game.seq)
    assert got["to_act"] == [0] and got["your_turn"] is True and got["status"] == "active"
    assert got["deadline"] is None and got["result"] is None
    assert got["view"] == toygame.GAME.view(state, 0)
    assert [d["move"] for d in got["decisions"]] == toygame.GAME.legal_moves(state, 0)
    for decision in got["decisions"]:
        assert toygame.GAME.parse_move(state, 0, decision["text"]) == decision["move"]
        assert decision["label"] == toygame.GAME.describe_move(decision["move"], state)
        assert decision["step"]["key"] == decision["text"]  # one move per step in the toy game
    assert [s["key"] for s in got["steps"]] == [d["text"] for d in got["decisions"]]
    assert got["settings"] == []
    assert {p["name"] for p in got["players"]} == {"Ann", "Bob"} and "@" not in answer_text(response)


def test_get_never_shows_another_seats_hand_or_the_deck(client, toy):
    _, state = current(toy)
    for seat in (0, 1):
        shown = toygame.cards_in(answer_text(client.get(seat_url(toy, seat))))
        assert shown == set(state["hands"][seat])
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, lambda s, seat, legal: legal[0]["type"] != "pick")
    for viewer in (0, 1):
        text = answer_text(client.get(seat_url(game_id, viewer)))
        secret = set(state["hand"][1 - viewer]) | {card for pile in state["deck"] for card in pile}
        assert secret and not {card for card in secret if f'"{card}"' in text}
        assert all(f'"{card}"' in text for card in state["hand"][viewer])


def test_get_for_the_waiting_seat_offers_nothing(client, toy):
    got = client.get(seat_url(toy, 1)).json
    assert got["your_turn"] is False and got["decisions"] == [] and got["steps"] == []


def test_get_states_the_deadline_in_a_timed_game(client, app):
    game_id = new_game(toygame.NAME, PLAYERS, seed=3, deadline_hours=48, policy="skip")
    got = client.get(seat_url(game_id, 0)).json
    deadline = got["deadline"]
    assert deadline["hours"] == 48 and deadline["policy"] == "skip" and deadline["paused"] is False
    assert deadline["due"].endswith("Z") and deadline["stopped"] is False


def test_standing_settings_are_listed_apart_from_the_decisions(client, app):
    game_id = new_game("beyond-the-rift", PLAYERS, {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}, seed=3)
    got = client.get(seat_url(game_id, 0)).json
    rules = engine.get("beyond-the-rift")
    assert got["settings"] and all(s["section"] for s in got["settings"])
    assert all(rules.move_section(d["move"]) is None for d in got["decisions"])
    assert len({s["key"] for s in got["steps"]}) == len(got["steps"])


# ---- the answer codes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["nonsense", "eyJwIjoxfQ.bad.signature"])
def test_a_token_that_is_not_a_player_link_is_403(client, toy, token):
    for response in (client.get(f"/api/play/{token}"), post(client, f"/api/play/{token}", {"seq": 3, "moves": ["x"]}),
                     post(client, f"/api/play/{token}/preview", {"seq": 3, "moves": []})):
        assert response.status_code == 403 and response.mimetype == JSON
        assert response.json["status"] == 403 and response.json["message"]


def test_links_of_another_purpose_or_of_no_player_here_are_403(client, toy):
    for token in (tokens.move(1, 3, {"type": "end_turn"}), tokens.unsubscribe(1), links.player_token(999, None)):
        response = client.get(f"/api/play/{token}")
        assert response.status_code == 403 and response.mimetype == JSON


def test_a_post_that_is_not_json_is_415(client, toy):
    before = counts(toy)
    for tail in ("", "/preview"):
        for kwargs in ({"data": '{"seq": 3, "moves": ["end_turn"]}', "content_type": "text/plain"},
                       {"data": {"seq": "3", "moves": "end_turn"}}, {}):
            response = client.post(seat_url(toy, 0, tail), **kwargs)
            assert response.status_code == 415 and response.mimetype == JSON, kwargs
    assert counts(toy) == before


@pytest.mark.parametrize("body", [
    "{", "[]", "null", '"moves"', '{"seq": 3, "moves": [NaN]}', '{"seq": NaN, "moves": []}',
    "[" * 1000 + "]" * 1000, '{"seq": 3, "moves": ' + "[" * 1000 + "]" * 1000 + "}",
    '{"seq": 3, "moves": [' + '{"a":' * 1000 + "1" + "}" * 1000 + "]}",
    '{"moves": []}', '{"seq": "3", "moves": []}', '{"seq": true, "moves": []}', '{"seq": -1, "moves": []}',
    '{"seq": 3.5, "moves": []}', '{"seq": 3}', '{"seq": 3, "moves": "end_turn"}', '{"seq": 3, "moves": {}}',
])
def test_malformed_bodies_are_400_on_both_posts(client, toy, body):
    before = counts(toy)
    for tail in ("", "/preview"):
        response = client.post(seat_url(toy, 0, tail), data=body, content_type=JSON)
        assert response.status_code == 400 and response.mimetype == JSON, (tail, body[:40])
        assert response.json["message"]
    assert counts(toy) == before


def test_400_for_no_moves_to_play_too_many_moves_and_bytes_that_are_not_utf8(client, toy):
    assert post(client, seat_url(toy, 0), {"seq": 3, "moves": []}).status_code == 400
    assert post(client, seat_url(toy, 0), {"seq": 3, "moves": ["end_turn"] * (MAX_MOVES + 1)}).status_code == 400
    response = client.post(seat_url(toy, 0), data=b'{"seq": 3, "moves": ["\xff"]}', content_type=JSON)
    assert response.status_code == 400 and response.mimetype == JSON
    assert post(client, seat_url(toy, 0, "/preview"), {"seq": 3, "moves": []}).status_code == 200  # nothing: now


@pytest.mark.parametrize("moves", [[1], [None], [[]], [1e308], ["end_turn", 7]])
def test_a_move_that_is_neither_an_object_nor_a_text_form_is_422_on_both_posts(client, toy, moves):
    before = counts(toy)
    for tail in ("", "/preview"):
        response = post(client, seat_url(toy, 0, tail), {"seq": 3, "moves": moves})
        assert response.status_code == 422 and response.json["code"] == "malformed", (tail, moves)
        assert response.json["index"] == len(moves) - 1
    assert counts(toy) == before


def test_a_body_too_large_is_413_in_json(client, toy):
    response = post(client, seat_url(toy, 0), {"seq": 3, "moves": ["x" * 70_000]})
    assert response.status_code == 413 and response.mimetype == JSON


def test_a_stale_seq_is_409_with_the_current_seq_and_plays_nothing(client, toy):
    game, state = current(toy)
    card = state["hands"][0][0]
    assert post(client, seat_url(toy, 0), {"seq": game.seq, "moves": [f"play card={card}"]}).status_code == 200
    before = counts(toy)
    for tail in ("", "/preview"):
        response = post(client, seat_url(toy, 0, tail), {"seq": game.seq, "moves": ["end_turn"]})
        assert response.status_code == 409 and response.mimetype == JSON
        assert response.json["seq"] == game.seq + 1 and response.json["code"] == "stale"
    assert counts(toy) == before


def test_an_illegal_third_move_is_422_with_its_index_and_nothing_is_played(client, toy):
    game, state = current(toy)
    before = counts(toy)
    moves = [{"type": "play", "card": state["hands"][0][0]}, "end_turn", {"type": "play", "card": state["hands"][1][0]}]
    response = post(client, seat_url(toy, 0), {"seq": game.seq, "moves": moves})
    assert response.status_code == 422 and response.mimetype == JSON
    got = response.json
    assert got["index"] == 2 and got["code"] == "turn_over" and "turn ended" in got["reason"]
    assert counts(toy) == before and current(toy)[0].seq == game.seq
    response = post(client, seat_url(toy, 0), {"seq": game.seq, "moves": ["play card=k999x"]})
    assert response.status_code == 422 and response.json["index"] == 0 and response.json["code"]
    response = post(client, seat_url(toy, 1), {"seq": game.seq, "moves": ["end_turn"]})
    assert response.status_code == 422 and response.json["code"] == "not_your_turn"
    assert counts(toy) == before


def test_a_whole_turn_in_text_forms_is_200_with_the_new_seq_and_needs_no_cookie_or_csrf(client, toy):
    game, state = current(toy)
    card = state["hands"][0][0]
    response = post(client, seat_url(toy, 0), {"seq": game.seq, "moves": [f"play card={card}", "end_turn"]})
    assert response.status_code == 200, response.json
    got = response.json
    assert got["seq"] == game.seq + 2 and got["to_act"] == [1] and got["your_turn"] is False
    assert [p["text"] for p in got["played"]] == [f"play card={card}", "end_turn"]
    game, state = current(toy)
    assert game.seq == got["seq"] and card not in state["hands"][0]
    assert "Set-Cookie" not in response.headers


def test_every_error_under_api_is_json(client, toy):
    for response in (client.get(seat_url(toy, 0, "/preview")), client.get("/api/play/"),
                     client.put(seat_url(toy, 0)), client.get("/api/nothing-here")):
        assert 400 <= response.status_code < 500 and response.mimetype == JSON
        assert response.json["status"] == response.status_code


# ---- previews ----------------------------------------------------------------------------------------


def test_a_preview_shows_the_position_after_the_moves_and_writes_nothing(client, app):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, lambda s, seat, legal: legal[0]["type"] != "pick")
    rules = engine.get("riftforce")
    first_play = next(m for m in decisions(rules, state, seat) if m["type"] == "play")
    now, events = after(rules, state, seat, first_play, game.secret, game.seq)
    before = counts(game_id)
    response = post(client, seat_url(game_id, seat, "/preview"), {"seq": game.seq, "moves": [first_play]})
    assert response.status_code == 200
    got = response.json
    assert counts(game_id) == before and current(game_id)[0].seq == game.seq
    assert got["seq"] == game.seq and got["after_seq"] == game.seq + len(events)
    assert got["hidden"] is None and got["complete"] is False
    assert got["view"] == rules.view(now, seat)
    assert [d["move"] for d in got["decisions"]] == decisions(rules, now, seat)
    assert got["moves"][0]["move"] == first_play and got["moves"][0]["text"] == rules.move_text(state, seat, first_play)
    assert got["board_html"].strip().startswith("<") and len(got["board_html"]) > 200
    # "end the play" ends the turn: the preview says so, and still writes nothing
    end = next(m for m in decisions(rules, now, seat) if m["type"] == "end_play")
    got = post(client, seat_url(game_id, seat, "/preview"), {"seq": game.seq, "moves": [first_play, end]}).json
    assert got["complete"] is True and got["decisions"] == [] and got["to_act"] == [1 - seat]
    assert counts(game_id) == before


def test_a_preview_of_a_turn_ending_draw_in_the_toy_game_hides_the_card(client, toy):
    game, state = current(toy)
    card = state["hands"][0][0]
    drawn = state["deck"][0]
    before = counts(toy)
    response = post(client, seat_url(toy, 0, "/preview"), {"seq": game.seq, "moves": [f"play card={card}", "draw"]})
    got = response.json
    assert response.status_code == 200 and got["hidden"]["index"] == 1 and got["complete"] is None
    assert got["decisions"] == [] and got["steps"] == []
    assert drawn not in toygame.cards_in(answer_text(response))
    assert got["view"]["hand"] == state["hands"][0][1:]  # the board before the draw: the card played
    assert counts(toy) == before
    response = post(client, seat_url(toy, 0, "/preview"), {"seq": game.seq, "moves": [f"play card={card}", "draw", "pass"]})
    assert response.status_code == 422 and response.json["index"] == 2


def test_a_move_after_a_hidden_outcome_is_refused_for_that_reason_alone(client, toy):
    """Whatever the draw led to (the turn passing, the game ending), a move sent after it is refused
    as coming after a hidden outcome: any other answer would tell the outcome before it is recorded."""
    game, state = current(toy)
    card = state["hands"][0][0]
    for tail in ("", "/preview"):
        response = post(client, seat_url(toy, 0, tail), {"seq": game.seq, "moves": [f"play card={card}", "draw", "pass"]})
        assert response.status_code == 422 and response.json["index"] == 2
        assert response.json["code"] == "after_hidden", response.json  # not turn_over: the draw ended the turn
    assert current(toy)[0].seq == game.seq


def hidden_preview(client, game_id, seat, game, moves, secret):
    """Preview `moves` (the last one's outcome hidden): nothing of `secret` shows, nothing is written."""
    before = counts(game_id)
    response = post(client, seat_url(game_id, seat, "/preview"), {"seq": game.seq, "moves": moves})
    assert response.status_code == 200, response.json
    got = response.json
    text = answer_text(response)
    assert got["hidden"]["index"] == len(moves) - 1 and got["hidden"]["message"]
    assert got["decisions"] == [] and got["complete"] is None
    assert secret and not [card for card in secret if card in text]
    assert counts(game_id) == before
    return got


def test_a_preview_of_check_and_draw_in_riftforce_does_not_show_the_cards_drawn(client, app):
    rules = engine.get("riftforce")
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, lambda s, seat, legal: any(m["type"] == "check" for m in legal),
                              policy=riftforce_fast)
    check = next(m for m in decisions(rules, state, seat) if m["type"] == "check")
    _, events = after(rules, state, seat, check, game.secret, game.seq)
    drawn = {card for e in events if e["type"] == "draw" for card in e["cards"]}
    got = hidden_preview(client, game_id, seat, game, ["check"] if rules.move_text(state, seat, check) == "check"
                         else [check], drawn)
    assert got["view"] == rules.view(state, seat)


def test_a_preview_of_the_riftwalker_draw_at_the_end_of_a_turn_does_not_show_the_cards(client, app):
    rules = engine.get("riftwalker")
    game_id = new_game("riftwalker", PLAYERS, seed=3)

    def refresh(state, seat, legal):
        return state["turn"]["step"] == "refresh" and not state["stack"] and {"type": "done"} in legal

    game, state, seat = drive(game_id, refresh, policy=riftwalker_choose)
    _, events = after(rules, state, seat, {"type": "done"}, game.secret, game.seq)
    drawn = {card for e in events if e["type"] == "draw" for card in e["cards"]}
    hidden_preview(client, game_id, seat, game, ["done"], drawn)


def test_a_preview_of_a_riftwalker_element_card_put_down_does_not_reveal_the_next_one(client, app):
    # The top element card is public; putting it on the grid reveals the next.  No event is redacted
    # for that, but the seat would see a card the game had kept from it: the outcome stays hidden.
    rules = engine.get("riftwalker")
    game_id = new_game("riftwalker", PLAYERS, seed=3)
    game, state, seat = drive(game_id, lambda s, seat, legal: legal[0]["type"] == "put", policy=riftwalker_choose)
    revealed = state["edeck"][1]
    got = hidden_preview(client, game_id, seat, game, [decisions(rules, state, seat)[0]], {revealed})
    assert got["view"] == rules.view(state, seat)


def test_a_preview_of_a_beyond_the_rift_draw_does_not_show_the_card_but_other_actions_show(client, app):
    rules = engine.get("beyond-the-rift")
    game_id = new_game("beyond-the-rift", PLAYERS, {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}, seed=3)
    game, state = current(game_id)
    seat = game.to_act[0]
    legal = decisions(rules, state, seat)
    discard = next(m for m in legal if m["type"] == "discard_ap")
    now, events = after(rules, state, seat, discard, game.secret, game.seq)
    draw = next(m for m in decisions(rules, now, seat) if m["type"] == "draw")
    _, drawn_events = after(rules, now, seat, draw, game.secret, game.seq + len(events))
    drawn = {card for e in drawn_events if e["type"] == "draw" for card in e["cards"]}
    got = hidden_preview(client, game_id, seat, game, [discard, draw], drawn)
    assert got["view"] == rules.view(now, seat)  # the discard's outcome is shown, the draw's is not
    # A card that asks for its target opens the hero's own prompt (an event spectators see less of, the
    # adapter's `preview_own_events`): its outcome shows.
    asks = next(m for m in legal if any(e["type"] == "flow" and rules.redact_event(e, None) != e
                                        for e in after(rules, state, seat, m, game.secret, game.seq)[1]))
    got = post(client, seat_url(game_id, seat, "/preview"), {"seq": game.seq, "moves": [asks]}).json
    assert got["hidden"] is None and got["decisions"] and got["view"] != rules.view(state, seat)


def test_a_riftwalker_card_discarded_face_down_from_ones_own_hand_is_previewed(client, app):
    rules = engine.get("riftwalker")
    game_id = new_game("riftwalker", PLAYERS, seed=3)

    def quiet_discard(state, seat):  # one that leaves the refresh going (the last one draws at once)
        return next((m for m in decisions(rules, state, seat) if m["type"] == "discard" and not any(
            e["type"] == "draw" for e in rules.play(state, seat, m, None))), None)

    game, state, seat = drive(game_id, lambda state, seat, legal: state["turn"]["step"] == "refresh"
                              and quiet_discard(state, seat) is not None, policy=riftwalker_choose)
    discard = quiet_discard(state, seat)
    now, _ = after(rules, state, seat, discard, game.secret, game.seq)
    got = post(client, seat_url(game_id, seat, "/preview"), {"seq": game.seq, "moves": [discard]}).json
    assert got["hidden"] is None and got["view"] == rules.view(now, seat)
    assert {"type": "done"} in [d["move"] for d in got["decisions"]]


# ---- one request per turn: the POST answers what a GET after it would -----------------------------------


def _same_as_get(client, path: str, answer: dict) -> dict:
    """`answer` (a POST's) without `played` equals a GET's answer just after it; the GET's answer."""
    got = client.get(path).json
    assert {k: v for k, v in answer.items() if k != "played"} == got
    return got


def test_the_post_answers_the_position_after_its_moves_while_the_seats_turn_goes_on(client, toy):
    """Issue #27: a client goes on from the POST's answer (its view, decisions, steps) with no GET."""
    game, state = current(toy)
    card = state["hands"][0][0]
    response = post(client, seat_url(toy, 0), {"seq": game.seq, "moves": [f"play card={card}"]})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "private, no-store"
    got = response.json
    assert got["your_turn"] is True and got["to_act"] == [0] and got["seq"] == game.seq + 1
    assert [p["text"] for p in got["played"]] == [f"play card={card}"]
    _same_as_get(client, seat_url(toy, 0), got)
    game, state = current(toy)
    assert got["view"] == toygame.GAME.view(state, 0)  # the seat's own view, of the state just written
    assert [d["move"] for d in got["decisions"]] == toygame.GAME.legal_moves(state, 0)
    # and on from it: the answer's decisions and seq are the next request's
    again = post(client, seat_url(toy, 0), {"seq": got["seq"], "moves": [got["decisions"][0]["text"]]})
    assert again.status_code == 200 and again.json["your_turn"] is False


def test_the_post_answers_the_position_after_a_turn_that_passed_and_shows_no_other_hand(client, toy):
    game, state = current(toy)
    card = state["hands"][0][0]
    response = post(client, seat_url(toy, 0), {"seq": game.seq, "moves": [f"play card={card}", "draw"]})
    assert response.status_code == 200, response.json
    got = response.json
    assert got["your_turn"] is False and got["to_act"] == [1] and got["decisions"] == [] and got["steps"] == []
    _same_as_get(client, seat_url(toy, 0), got)
    _, state = current(toy)
    # The acting seat's hand (with the card it drew) and the card it played, never the other seat's
    # nor the deck's.
    assert toygame.cards_in(answer_text(response)) == set(state["hands"][0]) | {card}


def test_the_post_answers_as_get_in_riftforce_a_timed_game_and_through_api_me(client, app):
    """The state the move holds in memory answers as the state read back does (a real engine's own
    state, a deadline running), through the player link and through /api/me alike."""
    from tests.people.helpers import send_csrf_header, sign_in_as

    game_id = new_game("riftforce", PLAYERS, seed=5, deadline_hours=48, policy="skip")
    game, state, seat = drive(game_id, lambda s, seat, legal: legal[0]["type"] != "pick")
    rules = engine.get("riftforce")
    response = post(client, seat_url(game_id, seat), {"seq": game.seq, "moves": [decisions(rules, state, seat)[0]]})
    assert response.status_code == 200, response.json
    got = response.json
    assert got["deadline"] is not None and got["deadline"]["hours"] == 48
    _same_as_get(client, seat_url(game_id, seat), got)
    game, state = current(game_id)
    assert got["view"] == json.loads(json.dumps(rules.view(state, seat)))  # the seat's own view alone
    other_hand = {json.dumps(card, sort_keys=True) for card in state["hand"][1 - seat]}
    assert not other_hand & {json.dumps(card, sort_keys=True) for card in got["view"]["hand"] or []}
    # The same through /api/me (the person's session; the game's seats read once, to find theirs).
    me = app.test_client()
    sign_in_as(me, PLAYERS[game.to_act[0]][1])
    send_csrf_header(me)
    path = f"/api/me/games/{game_id}"
    mine = me.get(path).json
    assert mine["your_turn"], mine
    answer = me.post(f"{path}/moves", json={"seq": mine["seq"], "moves": [mine["decisions"][0]["move"]]})
    assert answer.status_code == 200, answer.json
    assert answer.json["played"] and answer.json["seq"] > mine["seq"]
    _same_as_get(me, path, answer.json)
