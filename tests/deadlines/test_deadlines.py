"""Deadlines with the clock as an input: whole games driven through sweeps at chosen times."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engine
from service import store
from service.errors import Conflict
from service.mail import compose as mail
from service.mail import outbox
from service.people import identity
from service.people import vacations as deadlines
from service.play import ending, handle
from service.store import get_engine, read_session
from service.store.models import Deadline, Event, Outbox, Person, Player
from tests.deadlines.helpers import (
    at,
    clock,
    deadline,
    event_kinds,
    journal_kinds,
    outbox_kinds,
    play_turn,
    reminders_of,
    rows,
    sweep,
    timed_game,
    utc,
)
from tests.service import toygame
from tests.service.helpers import current


class TestReminders:
    def test_a_turn_starts_a_clock_with_the_ladder(self, app):
        game_id = timed_game(hours=48)
        row = deadline(game_id, 0)
        assert utc(row.started_at) == at(0) and utc(row.due_at) == at(48)
        assert utc(row.next_at) == at(24) and row.reminders_done == 0
        assert deadline(game_id, 1) is None  # Bob's clock starts with his turn

    def test_reminders_at_24_and_2_hours_before_each_sent_once(self, app):
        game_id = timed_game(hours=48)
        sweep(23.9)
        assert reminders_of(game_id) == []
        sweep(24)
        assert reminders_of(game_id) == [(0, "reminder-24h")]
        for hours in (24, 24.5, 30, 45.9):  # repeated and later sweeps send nothing more
            sweep(hours)
        assert reminders_of(game_id) == [(0, "reminder-24h")]
        sweep(46)
        sweep(46)
        assert reminders_of(game_id) == [(0, "reminder-24h"), (0, "reminder-2h")]
        assert journal_kinds(game_id) == ["reminder", "reminder"]
        assert event_kinds(game_id).count("timeout") == 0  # reminders are not events: links stay valid

    def test_a_late_sweep_sends_only_the_latest_reminder(self, app):
        game_id = timed_game(hours=48)
        sweep(47)
        assert reminders_of(game_id) == [(0, "reminder-2h")]

    def test_a_short_deadline_skips_steps_before_the_turn_began(self, app):
        game_id = timed_game(hours=12)
        assert deadline(game_id, 0).reminders_done == 1  # 24 h before a 12 h deadline: never
        sweep(10)
        assert reminders_of(game_id) == [(0, "reminder-2h")]

    def test_never_after_the_player_moved(self, app):
        game_id = timed_game(hours=48)
        sweep(24)
        queued = [row for row in rows(Outbox, game_id=game_id) if row.params == {"hours": 24}][0]
        play_turn(game_id, 25)  # Ann plays before the reminder went out
        assert deadline(game_id, 0) is None
        assert outbox.deliver(queued.id) == "skipped"
        sweep(46)
        sweep(47.5)
        assert reminders_of(game_id) == [(0, "reminder-24h")]  # nothing more for Ann
        # Bob's clock started when his turn began.
        assert utc(deadline(game_id, 1).due_at) == at(25 + 48)

    def test_the_email_states_the_deadline_in_the_players_zone_with_the_turn_links(self, app):
        game_id = timed_game(hours=48)
        identity.set_time_zone("ann@example.org", "Europe/Paris", at(0))
        sweep(24)
        row = [row for row in rows(Outbox, game_id=game_id) if row.params == {"hours": 24}][0]
        with read_session(get_engine()) as session:
            message = mail.build(session, row)
        body = message.get_body(("plain",)).get_content()
        # Noon UTC two days later, in Paris: the same words in the first line and the clock's paragraph.
        assert body.startswith(f"Reminder: your turn in Toy #{game_id} is due Wed 7 Jan 2026, 13:00 CET "
                               "(in about 24 hours).\n")
        assert "Your move is due by Wed 7 Jan 2026, 13:00 CET." in body
        assert "If the deadline passes, the game's safe default move is played for you." in body
        # The same choices as the turn email: each opens the player page with it chosen.
        assert "/p/" in body and "?step=" in body and "/m/" not in body
        assert message["Subject"] == f"Toy #{game_id}: Ann vs Bob"  # the thread's one subject
        assert message["In-Reply-To"] and message["References"]
        html = message.get_body(("html",)).get_content()
        assert "13:00 CET" in html


class TestTimeouts:
    def test_auto_plays_the_default_move_once(self, app):
        game_id = timed_game(hours=48)
        seq_before = current(game_id)[0].seq
        sweep(48)
        game, _ = current(game_id)
        assert game.to_act == [1] and game.seq == seq_before + 2
        assert event_kinds(game_id)[-2:] == ["timeout", "timeout"]
        sweep(48)
        sweep(60)
        assert current(game_id)[0].seq == seq_before + 2  # applied once
        assert utc(deadline(game_id, 1).due_at) == at(96)
        with read_session(get_engine()) as session:
            timed_out = [row for row in store.stored_events(session, game_id) if row.kind == "timeout"]
        assert {row.actor for row in timed_out} == {0}

    def test_skip_passes_where_the_engine_offers_it_and_else_plays_the_default(self, app):
        class Passing(engine.Game):
            def legal_moves(self, state, seat):
                return [{"type": "play", "card": "k1x"}, {"type": "pass"}]

            def default_move(self, state, seat):
                return {"type": "play", "card": "k1x"}

        rules = Passing()
        assert rules.timeout_move({}, 0, "skip") == {"type": "pass"}
        assert rules.timeout_move({}, 0, "auto") == {"type": "play", "card": "k1x"}
        # The toy game offers no pass while a card can be played: skip falls back to auto.
        game_id = timed_game(hours=48, policy="skip")
        sweep(48)
        assert current(game_id)[0].to_act == [1]
        assert event_kinds(game_id)[-2:] == ["timeout", "timeout"]

    def test_forfeit_ends_the_game_once_and_the_others_win(self, app):
        game_id = timed_game(hours=48, policy="forfeit")
        sweep(48)
        sweep(48)
        sweep(100)
        game, _ = current(game_id)
        assert game.status == "finished" and game.result["winners"] == [1] and game.result["forfeited"] == 0
        assert event_kinds(game_id).count("system") == 1
        assert len(rows(Outbox, game_id=game_id, kind="game_over")) == 2
        assert rows(Deadline, game_id=game_id) == []
        assert "forfeit" in journal_kinds(game_id)
        with pytest.raises(engine.IllegalMove):
            handle(game_id, 0, {"type": "end_turn"}, game.seq)

    def test_pause_stops_every_clock_and_tells_everyone_until_someone_plays(self, app):
        game_id = timed_game(hours=48, policy="pause")
        seq = current(game_id)[0].seq
        sweep(48)
        sweep(49)
        assert current(game_id)[0].seq == seq  # nothing was played
        assert utc(clock(game_id).paused_at) == at(48)
        assert journal_kinds(game_id) == ["paused"]  # a sweep that finds the deadline passed sends no reminder
        notices = [(seat, kind) for seat, kind in outbox_kinds(game_id) if kind.startswith("notice:")]
        assert sorted(seat for seat, _ in notices) == [0, 1]
        sweep(500)
        assert current(game_id)[0].seq == seq and deadline(game_id, 0).due_at is None
        play_turn(game_id, 600)  # Ann comes back: the game resumes with fresh clocks
        assert clock(game_id).paused_at is None and journal_kinds(game_id)[-1] == "resumed"
        assert utc(deadline(game_id, 1).due_at) == at(648)

    def test_only_timeouts_pause_the_game_after_two_full_rounds(self, app):
        game_id = timed_game(hours=10, reminders=())
        for turn in range(1, 5):
            sweep(10 * turn)
        assert current(game_id)[0].status == "active"
        assert clock(game_id).timeout_streak == 4 and clock(game_id).paused_at is not None
        assert journal_kinds(game_id)[-1] == "paused"
        seq = current(game_id)[0].seq
        sweep(1000)
        assert current(game_id)[0].seq == seq

    def test_a_players_own_move_resets_the_streak(self, app):
        game_id = timed_game(hours=10, reminders=())
        sweep(10)  # Ann times out
        sweep(20)  # Bob times out
        play_turn(game_id, 21)  # Ann plays herself
        assert clock(game_id).timeout_streak == 0


class TestVacation:
    def test_vacation_stops_and_restarts_the_clock_and_others_are_told_in_their_next_turn_email(self, app):
        game_id = timed_game(hours=48)
        deadlines.start_vacation("ann@example.org", at(10))
        row = deadline(game_id, 0)
        assert row.due_at is None and row.next_at is None and row.remaining_seconds == 38 * 3600
        # No email of its own: Bob is waiting, and hears of it with his next turn (below).
        assert [kind for _, kind in outbox_kinds(game_id) if kind.startswith("notice:")] == []
        for hours in (24, 48, 100):
            sweep(hours)
        assert reminders_of(game_id) == [] and event_kinds(game_id).count("timeout") == 0
        deadlines.end_vacation("ann@example.org", at(110))
        assert utc(deadline(game_id, 0).due_at) == at(148)
        assert journal_kinds(game_id) == ["vacation_start", "vacation_end"]
        sweep(123.9)
        assert reminders_of(game_id) == []
        sweep(124)
        assert reminders_of(game_id) == [(0, "reminder-24h")]
        person = rows(Person, email="ann@example.org")[0]
        assert person.allowance_used_seconds == 100 * 3600
        play_turn(game_id, 125)
        turn = [row for row in rows(Outbox, game_id=game_id, kind="turn") if row.player_id == 2][-1]
        with read_session(get_engine()) as session:
            body = mail.build(session, turn).get_body(("plain",)).get_content()
        assert "- Ann is on vacation: their clock is stopped until they are back." in body
        assert "- Ann is back from vacation: their clock runs again." in body
        assert "reminded" not in body  # Ann's reminder is nobody else's news

    def test_a_turn_that_starts_during_a_vacation_waits(self, app):
        game_id = timed_game(hours=48)
        deadlines.start_vacation("bob@example.org", at(1))
        play_turn(game_id, 2)  # Bob's turn starts while he is away
        row = deadline(game_id, 1)
        assert row.due_at is None and row.remaining_seconds == 48 * 3600
        sweep(200)
        assert current(game_id)[0].to_act == [1] and event_kinds(game_id).count("timeout") == 0
        deadlines.end_vacation("bob@example.org", at(210))
        assert utc(deadline(game_id, 1).due_at) == at(258)

    def test_vacation_covers_every_game_of_the_person(self, app):
        first = timed_game(hours=48)
        second = timed_game(hours=24, players=[("Ann", "ann@example.org"), ("Cy", "cy@example.org")])
        deadlines.start_vacation("ann@example.org", at(5))
        assert deadline(first, 0).due_at is None and deadline(second, 0).due_at is None
        assert journal_kinds(first) == ["vacation_start"] and journal_kinds(second) == ["vacation_start"]

    def test_the_allowance_is_tracked_and_runs_out(self, app):
        game_id = timed_game(hours=48)
        deadlines.start_vacation("ann@example.org", at(0))
        with pytest.raises(Conflict, match="already"):
            deadlines.start_vacation("ann@example.org", at(1))
        deadlines.end_vacation("ann@example.org", at(24 * 5))
        with pytest.raises(Conflict, match="not on vacation"):
            deadlines.end_vacation("ann@example.org", at(24 * 5))
        with read_session(get_engine()) as session:
            left = deadlines.allowance_left(store.person_of(session, "ann@example.org"), at(24 * 5))
        assert left == timedelta(days=16)
        deadlines.start_vacation("ann@example.org", at(24 * 6))
        counts = sweep(24 * 6 + 24 * 16)  # the allowance runs out: the sweep ends the vacation
        assert counts["vacations_ended"] == 1
        assert deadline(game_id, 0).due_at is not None
        with pytest.raises(Conflict, match="used up"):
            deadlines.start_vacation("ann@example.org", at(24 * 30))


class TestEndOfGame:
    def finish(self, game_id, hours=1.0):
        for _ in range(500):
            game, _ = current(game_id)
            if game.status != "active":
                return
            play_turn(game_id, hours)
        raise AssertionError("the game did not end")

    def test_the_final_move_shows_the_result_at_once_and_the_task_records_one_end(self, app):
        game_id = timed_game(hours=48, target=4)
        self.finish(game_id)
        game, _ = current(game_id)
        assert game.status == "finished" and game.result is not None
        assert rows(Outbox, game_id=game_id, kind="game_over") == []  # the task sends those
        assert rows(Deadline, game_id=game_id) == []  # no clock runs any more
        assert utc(clock(game_id).end_due_at) is not None
        assert ending.record_end(game_id, at(2)) is True
        assert ending.record_end(game_id, at(2)) is False  # the task run twice records one end
        sweep(3)
        assert event_kinds(game_id).count("system") == 1
        assert len(rows(Outbox, game_id=game_id, kind="game_over")) == 2
        end = [row for row in rows(Event, game_id=game_id) if row.kind == "system"][0]
        assert end.type == "game_finished" and end.payload["result"] == game.result
        assert clock(game_id).end_due_at is None and utc(clock(game_id).ended_at) == at(2)

    def test_the_sweep_records_an_end_whose_task_was_lost(self, app):
        game_id = timed_game(hours=48, target=4)
        self.finish(game_id)
        counts = sweep(5)
        assert counts["games_ended"] == 1 and event_kinds(game_id).count("system") == 1

    def test_engines_never_see_system_events(self, app):
        game_id = timed_game(hours=48, target=4)
        self.finish(game_id)
        ending.record_end(game_id, at(2))
        with read_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            live, _ = store.load_state(session, game)
            assert store.replay_from_start(session, game) == live
            assert toygame.GAME.result(live) == game.result

    def test_game_over_email_has_board_scores_winner_and_history_link(self, app):
        game_id = timed_game(hours=48, target=4)
        self.finish(game_id)
        ending.record_end(game_id, at(2))
        row = rows(Outbox, game_id=game_id, kind="game_over")[0]
        with read_session(get_engine()) as session:
            message = mail.build(session, row)
        body = message.get_body(("plain",)).get_content()
        assert body.startswith("Game over: ") and body.splitlines()[0].endswith(" won.")
        assert message["Subject"] == f"Toy #{game_id}: Ann vs Bob"
        assert "Scores:" in body and "The final board" in body and "/history" in body

    def test_a_forfeit_email_says_who_forfeited(self, app):
        game_id = timed_game(hours=48, policy="forfeit")
        sweep(48)
        row = rows(Outbox, game_id=game_id, kind="game_over")[0]
        with read_session(get_engine()) as session:
            message = mail.build(session, row)
            seat = session.get(Player, row.player_id).seat
        body = message.get_body(("plain",)).get_content()
        # To each player in their own words: "You ran out of time" to Ann, "You won" to Bob.
        assert body.startswith({0: "Game over: You ran out of time and forfeited. Bob won.\n",
                                1: "Game over: Ann ran out of time and forfeited. You won.\n"}[seat])
        assert body.count("forfeited") == 1  # said once, first: not again among the lines since


@pytest.mark.parametrize("name", ["riftwalker", "riftforce"])
def test_real_engines_time_out_through_default_moves_and_the_stall_rule_pauses_them(app, name):
    from service.play import new_game
    from tests.deadlines.helpers import PLAYERS, T0

    game_id = new_game(name, PLAYERS, {}, seed=3, deadline_hours=10, policy="auto", reminders=[], now=T0)
    hour = 0
    while clock(game_id).paused_at is None and current(game_id)[0].status == "active" and hour < 400:
        hour += 10
        sweep(hour)
    game, _ = current(game_id)
    assert game.status == "active" and clock(game_id).paused_at is not None
    assert clock(game_id).timeout_streak == 4 and journal_kinds(game_id)[-1] == "paused"
    assert set(event_kinds(game_id)) == {"setup", "timeout"}


def test_a_solo_turn_that_follows_its_own_restarts_the_clock(app):
    """Riftforce solo: the trainer plays inside the player's move, so the seat to act never changes;
    each new turn still gets a fresh deadline (and timed-out turns count for the stall rule)."""
    from service.play import new_game
    from tests.deadlines.helpers import T0

    game_id = new_game("riftforce", [("Ann", "ann@example.org")], {"mode": "solo"}, seed=5,
                       deadline_hours=10, reminders=[], now=T0)
    assert utc(deadline(game_id, 0).due_at) == at(10)
    sweep(10)  # the whole turn is played by default moves; the next turn starts a fresh clock
    assert current(game_id)[0].to_act == [0] and event_kinds(game_id).count("timeout") > 0
    assert utc(deadline(game_id, 0).due_at) == at(20) and clock(game_id).timeout_streak == 1
    sweep(15)
    assert clock(game_id).timeout_streak == 1
    sweep(20)  # two timed-out turns of the only seat: paused (the stall rule)
    assert clock(game_id).paused_at is not None and clock(game_id).timeout_streak == 2


def test_a_beyond_defense_prompt_has_its_own_shorter_deadline_and_times_out_to_the_plan(app):
    """Rules H7 / section 3.3: the hero phase gets the game's 48 hours, a defense prompt (which the
    whole table waits on) 12 of them; when it runs out the hero's standing plan defends."""
    from service.play import new_game
    from tests.beyond_helpers import RULES, policy
    from tests.deadlines.helpers import PLAYERS, T0

    game_id = new_game("beyond-the-rift", PLAYERS, {"defense_modes": ["ask", "ask"]}, seed=3,
                       deadline_hours=48, reminders=[], now=T0)
    assert utc(deadline(game_id, 0).due_at) == at(48)
    hour = 0
    for _ in range(300):
        game, state = current(game_id)
        if state["prompt"] and state["prompt"]["kind"] == "defense":
            break
        hour += 1
        seat = game.to_act[0]
        handle(game_id, seat, policy(state, seat, RULES.legal_moves(state, seat)), game.seq, now=at(hour))
    else:
        raise AssertionError("no defense prompt came up")
    defender, asked = state["defense"]["hero"], state["prompt"]["seats"]  # the defender and any aider
    for seat in asked:
        row = deadline(game_id, seat)
        assert utc(row.due_at) - utc(row.started_at) == timedelta(hours=12)
    sweep(hour + 11)
    assert current(game_id)[1]["defense"]["hero"] == defender  # not yet
    sweep(hour + 12)
    with read_session(get_engine()) as session:
        timeouts = [e for e in store.stored_events(session, game_id) if e.kind == "timeout"]
    # the defender's plan (and the aiders' no-aid) answered, and the attack resolved
    assert {e.actor for e in timeouts} == set(asked) and defender in asked
    assert "enemy_attack" in [e.type for e in timeouts]


def test_a_beyond_hero_who_reopens_after_done_rejoins_the_phase_deadline(app):
    """Rules 3.2: UNDONE puts a hero back among those the phase waits on, and their clock runs again,
    but to the phase's deadline, not a fresh 48 hours: DONE then UNDONE, again and again, can never
    hold the phase open past it (review finding)."""
    from service.play import new_game
    from tests.deadlines.helpers import PLAYERS, T0

    game_id = new_game("beyond-the-rift", PLAYERS, {}, seed=3, deadline_hours=48, reminders=[], now=T0)
    for hour in (1, 10, 30):
        handle(game_id, 1, {"type": "done"}, current(game_id)[0].seq, now=at(hour))
        assert deadline(game_id, 1) is None and 1 not in current(game_id)[0].to_act
        handle(game_id, 1, {"type": "undone"}, current(game_id)[0].seq, now=at(hour + 1))
        assert 1 in current(game_id)[0].to_act and utc(deadline(game_id, 1).due_at) == at(48)
    sweep(47)
    assert current(game_id)[1]["round"] == 1
    sweep(48)  # both clocks ran out at the phase's deadline: the phase closes, the next round begins
    assert current(game_id)[1]["round"] == 2


def test_every_beyond_hero_gets_a_full_clock_when_a_prompt_answer_starts_the_round(app):
    """A defense answer that runs the rest of the round starts the next hero phase: each hero's clock
    restarts with the whole 48 hours, not what was left of the 12-hour prompt (review finding)."""
    from service.play import new_game
    from tests.beyond_helpers import RULES, policy
    from tests.deadlines.helpers import PLAYERS, T0

    game_id = new_game("beyond-the-rift", PLAYERS, {"defense_modes": ["ask", "ask"]}, seed=3,
                       deadline_hours=48, reminders=[], now=T0)
    checked = 0
    for hour in range(1, 401):
        game, state = current(game_id)
        if game.status != "active":
            break
        seat = game.to_act[0]
        from_prompt = state["prompt"] is not None
        handle(game_id, seat, policy(state, seat, RULES.legal_moves(state, seat)), game.seq, now=at(hour))
        game, after = current(game_id)
        if from_prompt and after["round"] > state["round"] and game.status == "active":
            for s in game.to_act:
                assert utc(deadline(game_id, s).due_at) == at(hour + 48), (s, hour)
            checked += 1
    assert checked
