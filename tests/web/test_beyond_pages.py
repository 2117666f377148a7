"""Beyond the Rift in the service: the party's board on the player, spectator and confirm pages (all from
`view`, so no seat sees another hero's hand), which emails the simultaneous hero phase causes (one per
player per need, none for other heroes' actions, a digest of the party's doings in the next one), and
starting games from the web form and the CLI with the engine's option checks as clear 4xx messages."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC

from sqlmodel import select

from service import links, store
from service.mail import compose as mail
from service.mail import kinds
from service.play import handle, new_game
from service.store import get_engine, read_session
from service.store.models import Event, Player
from tests.beyond_helpers import RULES, leaks, policy
from tests.service.helpers import current, outbox_rows
from tests.web.pages import START_FORM, csrf_token, move_values, setting_values, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def players(game_id):
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def step(game_id, seat=None):
    """One decision by the policy for `seat` (default: the first seat to act)."""
    game, state = current(game_id)
    seat = game.to_act[0] if seat is None else seat
    return handle(game_id, seat, policy(state, seat, RULES.legal_moves(state, seat)), game.seq)


def pages(client, game_id):
    found = {p.seat: text(client.get(f"/p/{links.player_token(p.id, p.row_key)}")) for p in players(game_id)}
    found[None] = text(client.get(f"/games/{game_id}"))
    return found


def check_pages(client, game_id):
    game, state = current(game_id)
    for seat, page in pages(client, game_id).items():
        assert not leaks(page, state, seat), f"seat {seat} sees hidden cards"
        view = RULES.view(state, seat)
        assert "<caption" in page and '<th scope="row"' in page and '<th scope="col"' in page
        assert view["scenario"]["title"] in page
        for hero in view["heroes"]:
            assert hero["name"] in page
        if seat is None:
            assert "Your hand" not in page and 'name="move"' not in page
        else:
            assert f"Your hand ({len(view['hand'])}) — you have {view['heroes'][seat]['ap']} AP" in page
            for card in view["hand"]:
                assert card["card"] in page
            # decisions as radio buttons, standing settings as drop-downs: exactly the legal moves,
            # for a DONE hero too (UNDONE and the settings), though nobody waits on them
            legal = RULES.legal_moves(state, seat)
            offered = [json.loads(v) for v in move_values(page) + setting_values(page)]
            assert sorted(json.dumps(mv, sort_keys=True) for mv in offered) == sorted(
                json.dumps(mv, sort_keys=True) for mv in legal)
            assert bool(move_values(page)) == any(RULES.move_section(mv) is None for mv in legal)
    api = client.get(f"/api/games/{game_id}").get_json()
    assert not leaks(json.dumps(api), state, None)
    return state


def test_board_for_each_hero_and_a_spectator_through_a_whole_tutorial(client, app):
    game_id = new_game("beyond-the-rift", PLAYERS, seed=3)
    seen = Counter()
    for _ in range(200):
        state = check_pages(client, game_id)
        if state["result"] is not None:
            break
        seen["attack" if state["attack"] else "defense" if state["defense"] else state["phase"]] += 1
        if state["attack"] or state["defense"]:
            # The prompts speak to whoever they concern.
            page = pages(client, game_id)
            for seat in current(game_id)[0].to_act:
                if state["attack"] and seat != state["attack"]["by"]:
                    assert "Aid request" in page[seat]
                if state["defense"]:
                    assert "Chance to be hit" in page[seat]
        step(game_id)
    else:
        raise AssertionError("the tutorial did not end")
    assert seen["attack"] and seen["defense"] and seen["hero"]
    game, state = current(game_id)
    assert game.status == "finished"
    for page in pages(client, game_id).values():
        assert "The scenario is over" in page

    # The confirm page of an emailed move link hides the same cards.
    other = new_game("beyond-the-rift", PLAYERS, seed=5)
    game, state = current(other)
    ann = players(other)[0]
    move = RULES.legal_moves(state, 0)[0]
    confirm = client.get(f"/m/{links.move_token(ann.id, ann.row_key, game.seq, move)}")
    assert confirm.status_code == 200 and "Your hand" in text(confirm)
    assert not leaks(text(confirm), state, 0)
    assert current(other)[0].seq == game.seq  # a GET changes nothing


def turn_rows(game_id):
    return [(r.seq, r.player_id) for r in outbox_rows(game_id) if r.kind == "turn"]


def test_one_email_per_hero_per_need_and_none_for_other_heroes_actions(client, app):
    game_id = new_game("beyond-the-rift", PLAYERS, seed=3)
    seat_of = {p.id: p.seat for p in players(game_id)}
    # Both heroes act in the first hero phase: both are told.
    assert sorted(seat_of[p] for _, p in turn_rows(game_id)) == [0, 1]
    done_checked = False
    for _ in range(300):
        game, state = current(game_id)
        if game.status != "active":
            break
        before_rows = len(turn_rows(game_id))
        seat = game.to_act[0]
        done_before = {s for s, h in enumerate(state["heroes"]) if h["status"] == "done"}
        outcome = step(game_id, seat)
        new = [seat_of[p] for _, p in turn_rows(game_id)[before_rows:]]
        assert len(new) == len(set(new)), "two emails to one hero for one change"
        _, after = current(game_id)
        for other in done_before - {seat}:
            # A DONE hero hears nothing of the others' actions unless the engine asks them again
            # (DONE cleared, an aid request, a defense prompt, a new round).
            if other in new:
                assert other in outcome.to_act
            elif after["phase"] == "hero" and not after["attack"] and other not in outcome.to_act:
                done_checked = True
    else:
        raise AssertionError("the tutorial did not end")
    assert done_checked

    # Never two turn emails to a hero without a decision of theirs in between: no storms.
    with read_session(get_engine()) as session:
        own = {(e.actor, e.seq) for e in session.exec(select(Event).where(Event.game_id == game_id))}
    last = {}
    for seq, pid in turn_rows(game_id):
        seat = seat_of[pid]
        if seat in last:
            assert any((seat, s) in own for s in range(last[seat] + 1, seq + 1)), (seat, last[seat], seq)
        last[seat] = seq
        _, state = current(game_id)
    # Each email was about a decision that hero really had.
    with read_session(get_engine()) as session:
        from service import store

        game = store.get_game(session, game_id)
        for seq, pid in turn_rows(game_id):
            state, _ = store.load_state(session, game, seq)
            assert seat_of[pid] in RULES.to_act(state)


def test_a_hero_is_not_emailed_again_when_another_heros_choice_briefly_holds_the_table(client, app):
    """Bob attacks while Ann still acts: the target choice asks Bob alone (Ann leaves the seats to act),
    then both act again.  Ann still has her round's email, unanswered: no second one."""
    game_id = new_game("beyond-the-rift", PLAYERS, seed=3)
    ann, bob = players(game_id)
    held = False
    for _ in range(12):
        game, state = current(game_id)
        if state["phase"] != "hero" or 1 not in game.to_act:
            break
        before = len(turn_rows(game_id))
        outcome = step(game_id, 1)
        held = held or outcome.to_act == [1]
        assert [p for _, p in turn_rows(game_id)[before:]] == [], "an email for another hero's action"
    assert held, "Bob's attack never asked him alone"
    assert sorted(p for _, p in turn_rows(game_id)) == sorted([ann.id, bob.id])


def to_round_two(game_id):
    """Ann attacks until she runs dry and says DONE; Bob then does the same, which runs the enemy
    phase and the next round."""
    for _ in range(100):
        game, state = current(game_id)
        if state["round"] > 1 or game.status != "active":
            return
        step(game_id)


def test_the_next_email_tells_what_the_party_did(client, app):
    game_id = new_game("beyond-the-rift", PLAYERS, seed=3)
    to_round_two(game_id)  # both heroes are emailed, each with what happened since their last move
    rows = [r for r in outbox_rows(game_id) if r.kind == "turn"]
    with read_session(get_engine()) as session:
        for row in rows[-2:]:
            body = mail.build(session, row).get_body(("plain",)).get_content()
            assert "Round" in body or "round" in body
            state = current(game_id)[1]
            assert not leaks(body, state, next(p.seat for p in players(game_id) if p.id == row.player_id))
    assert {r.player_id for r in rows[-2:]} == {p.id for p in players(game_id)}


def test_a_heros_own_done_that_starts_the_round_is_told_from_their_own_run_of_decisions(client, app):
    """The last hero's DONE runs the enemy phase into the next round: their turn email tells their own
    decisions and what answered them, not the other heroes' moves before them (those came in their own
    emails), although the previous turn (the round) began earlier."""

    game_id = new_game("beyond-the-rift", PLAYERS, seed=3)
    to_round_two(game_id)
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        last = store.actor_at(session, game_id, game.seq)
        (row,) = [r for r in outbox_rows(game_id) if r.kind == "turn" and r.seq == game.seq
                  and r.player_id == players(game_id)[last].id]
        mail_of = mail.mail_of(session, row)
        own_run = store.run_start(session, game_id, row.seq, last)
        round_start = store.turn_starts(session, game_id, last, row.seq)[1]
        assert round_start < own_run == kinds.get("turn").since(session, mail_of)
        others = {p.seat for p in players(game_id)} - {last}
        earlier = [e for e in store.stored_events(session, game_id, round_start, own_run) if e.actor in others]
        assert earlier  # the other hero did act in that round, before the last DONE: left out
        body = mail.build(session, row).get_body(("plain",)).get_content()
    assert "\nSince your last turn:\n" in body


def start_form(client, fields):
    page = text(client.get(START_FORM))
    data = {"csrf_token": csrf_token(page), "name0": "Ann", "email0": "ann@example.org",
            "name1": "Bob", "email1": "bob@example.org", **fields}
    return client.post("/games/new", data=data)


def test_starting_from_the_web_form_with_scenario_and_heroes(client, app):
    answer = start_form(client, {"game": "beyond-the-rift", "btr_scenario": "tutorial",
                                 "btr_hero0": "tamsin", "btr_hero1": "osric"})
    assert answer.status_code in (302, 303), text(answer)[:2000]
    game_id = int(answer.headers["Location"].rstrip("/").split("/")[-2])
    game, state = current(game_id)
    assert game.name == "beyond-the-rift" and game.options == {"scenario": "tutorial", "heroes": ["tamsin", "osric"]}
    assert [h["hero"] for h in state["heroes"]] == ["tamsin", "osric"]
    # The options box spells the same.
    answer = start_form(client, {"game": "beyond-the-rift", "options": 'heroes=["isolde","brannoc"]'})
    assert answer.status_code in (302, 303)
    # The engine's refusals, word for word, with a 4xx.
    for fields, words in [
        ({"btr_scenario": "old-friends-2"}, "needs Ashes at Hollowmere won first"),
        ({"btr_scenario": "nowhere"}, "unknown scenario"),
        ({"btr_hero0": "brannoc", "btr_hero1": "brannoc"}, "brannoc"),
        ({"btr_hero0": "brannoc"}, "choose the heroes of all 2 players"),
    ]:
        answer = start_form(client, {"game": "beyond-the-rift", **fields})
        assert 400 <= answer.status_code < 500 and words in text(answer), (fields, text(answer)[:3000])


def test_starting_from_the_cli(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["new-game", "beyond-the-rift", "Ann=ann@example.org", "bob@example.org",
                                 "--option", "scenario=old-friends-1", "--option", "heroes=brannoc,osric"])
    assert result.exit_code == 0, result.output
    game, state = current(int(result.output.strip()))
    assert state["scenario"] == "old-friends-1" and [h["hero"] for h in state["heroes"]] == ["brannoc", "osric"]
    result = runner.invoke(args=["new-game", "beyond-the-rift", "ann@example.org", "--option", "heroes=gandalf"])
    assert result.exit_code != 0 and "unknown hero 'gandalf'" in result.output


def test_every_heros_clock_restarts_with_a_new_round(client, app):
    """The last DONE runs the enemy phase into the next round inside one move: that hero stays to act
    yet starts a new turn, so their clock restarts with everyone's (and their email goes out)."""
    from datetime import datetime, timedelta

    from service.store.models import Deadline

    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    game_id = new_game("beyond-the-rift", PLAYERS, seed=3, deadline_hours=48, now=start)
    when = start
    for _ in range(100):
        game, state = current(game_id)
        if state["round"] > 1:
            break
        when += timedelta(hours=1)
        seat = game.to_act[0]
        handle(game_id, seat, policy(state, seat, RULES.legal_moves(state, seat)), game.seq, now=when)
    assert current(game_id)[1]["phase"] == "hero"
    with read_session(get_engine()) as session:
        clocks = {d.seat: d.started_at.replace(tzinfo=UTC) for d in
                  session.exec(select(Deadline).where(Deadline.game_id == game_id))}
    assert clocks == {0: when, 1: when}


def test_a_done_hero_edits_standing_orders_and_reopens_from_the_page(client, app):
    """Section 3.2/3.3: DONE takes a hero out of `to_act`, yet the page still offers UNDONE and the
    standing orders (one drop-down per setting), and the service accepts them; turn emails carry the
    decisions only."""
    game_id = new_game("beyond-the-rift", PLAYERS, seed=3)
    game, _ = current(game_id)
    handle(game_id, 1, {"type": "done"}, game.seq)
    bob = players(game_id)[1]
    url = f"/p/{links.player_token(bob.id, bob.row_key)}"
    page = text(client.get(url))
    game, state = current(game_id)
    assert 1 not in game.to_act and "Standing orders" in page and "Defense target: enemy attack + N" in page
    assert [json.loads(v) for v in move_values(page)] == [{"type": "undone"}]
    choice = {"type": "setting", "key": "margin", "value": 5}
    assert choice in [json.loads(v) for v in setting_values(page)]
    answer = client.post(f"{url}/move", data={"csrf_token": csrf_token(page), "seq": game.seq,
                                               "move": json.dumps(choice)})
    assert answer.status_code == 303
    game, state = current(game_id)
    assert state["heroes"][1]["plan"]["margin"] == 5 and state["heroes"][1]["status"] == "done"
    assert "Defense target: enemy attack + N: attack + 5" in text(client.get(url))  # the board's summary
    page = text(client.get(url))
    turns_before = len([r for r in outbox_rows(game_id) if r.kind == "turn"])
    answer = client.post(f"{url}/move", data={"csrf_token": csrf_token(page), "seq": game.seq,
                                               "move": json.dumps({"type": "undone"})})
    assert answer.status_code == 303 and 1 in current(game_id)[0].to_act
    # reopened from the page: no "your turn" email about it (it was Bob's own choice)
    assert len([r for r in outbox_rows(game_id) if r.kind == "turn"]) == turns_before
    with read_session(get_engine()) as session:  # the turn emails offer no setting as a link
        for row in [r for r in outbox_rows(game_id) if r.kind == "turn"]:
            body = mail.build(session, row).get_body(("plain",)).get_content()
            assert "Defense target" not in body and "Party:" not in body
