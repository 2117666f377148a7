"""A finished game's page and email (issue #17, item 8): the result, the final board, the chart and the
history, a "Play again" that asks the others and starts the new game once all accept (#25 part 4: seats
kept, swapped or random), and none of the sections
that only matter while a game runs (clock, time zone, vacation, stop turn emails)."""

from __future__ import annotations

import re

import sqlalchemy as sa

from service.mail import outbox
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Game, GameClock, Player, Rematch, utcnow
from tests import tokens
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_to_end
from tests.web.pages import csrf_token, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def _seats(game_id: int) -> list[Player]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(Player).where(Player.game_id == game_id).order_by(Player.seat)).scalars())


def _finished() -> tuple[int, list[Player]]:
    preconsent("ann@example.org", "bob@example.org")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3, deadline_hours=48, reminders=[24])
    play_to_end(game_id)
    return game_id, _seats(game_id)


def _page(client, player: Player):
    return client.get(f"/p/{tokens.page(player)}")


def test_a_finished_games_page_shows_the_result_and_play_again_not_the_running_games_settings(app, client):
    game_id, (ann, _) = _finished()
    page = text(_page(client, ann))
    assert "The game is over." in page and 'id="again-h"' in page and ">Play again</button>" in page
    assert 'id="board-h"' in page and "Review the game's history" in page
    assert 'id="clock-h"' not in page and 'name="time_zone"' not in page and "vacation" not in page.lower()
    assert "Stop turn emails" not in page and "no more turn emails" in page


def test_a_game_under_way_offers_no_play_again_and_keeps_its_settings(app, client):
    preconsent("ann@example.org", "bob@example.org")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    ann = _seats(game_id)[0]
    page = text(_page(client, ann))
    assert 'id="again-h"' not in page and 'id="clock-h"' in page and "Stop turn emails" in page
    token = tokens.page(ann)
    refused = client.post(f"/p/{token}/campaign", data={"csrf_token": csrf_token(page)})
    assert refused.status_code == 409 and "not over yet" in text(refused)
    with read_session(get_engine()) as session:
        assert session.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one() == 1


def _press(client, player: Player, path: str, **data):
    page = text(_page(client, player))
    return client.post(f"/p/{tokens.page(player)}/again{path}", data={"csrf_token": csrf_token(page), **data})


def _games() -> list[Game]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(Game).order_by(Game.id)).scalars())


def test_play_again_asks_the_others_and_starts_once_all_accept_with_the_same_seats(app, client, sink):
    """Rematch, seats kept (#25 part 4): Bob asks, Ann is emailed and accepts with one press; the new game
    has the same game, options, clock and seats; a second press starts no third game."""
    app.config["SMTP_URL"] = sink.url
    game_id, (ann, bob) = _finished()
    assert client.get(f"/p/{tokens.page(bob)}/again").status_code == 200  # a GET changes nothing
    assert len(_games()) == 1
    # The old one-press follow-up no longer starts a game behind the others' backs.
    old_way = client.post(f"/p/{tokens.page(bob)}/campaign", data={"csrf_token": csrf_token(text(_page(client, bob)))})
    assert old_way.status_code == 409 and len(_games()) == 1
    asked = _press(client, bob, "", seating="kept")
    assert asked.status_code == 303 and len(_games()) == 1
    (question,) = [row for row in outbox_rows(game_id) if row.kind == "rematch"]
    assert question.player_id == ann.id and outbox.deliver(question.id) == "sent"
    (mail,) = [m for m in sink.wait_for(1) if m["X-Riftpost-Kind"] == "rematch"]
    plain = mail.get_body(("plain",)).get_content()
    assert plain.startswith("Bob asks to play") and re.search(r"http://riftpost\.test/p/\S+/again", plain)
    assert "You are in" in text(client.get(f"/p/{tokens.page(bob)}/again"))
    assert "Accept and play again" in text(_page(client, ann))
    accepted = _press(client, ann, "/accept")
    assert accepted.status_code == 303
    old, new = _games()
    with read_session(get_engine()) as session:
        clock = session.get(GameClock, new.id)
    assert (new.name, new.options, new.status) == (old.name, old.options, "active")
    assert clock is not None and (clock.deadline_hours, clock.reminders) == (48, [24])
    seats = _seats(new.id)
    assert [(p.seat, p.name, p.email) for p in seats] == [(0, "Ann", "ann@example.org"), (1, "Bob", "bob@example.org")]
    again = _press(client, ann, "/accept")
    assert again.status_code == 303 and len(_games()) == 2
    # Links both ways: the old game's page leads to the new seat, the new game's page back.
    assert f"game #{new.id}" in text(_page(client, ann))
    assert f"/games/{old.id}" in text(_page(client, seats[0]))
    # Everyone gets the new game's first email at once (they consented by asking and accepting).
    firsts = [row for row in outbox_rows(new.id) if row.status == "pending"]
    assert sorted(row.player_id for row in firsts) == [seats[0].id, seats[1].id]


def test_play_again_with_seats_swapped_seats_each_at_the_others_place(app, client):
    game_id, (ann, bob) = _finished()
    _press(client, ann, "", seating="swapped")
    _press(client, bob, "/accept")
    new = _games()[-1]
    assert [(p.seat, p.name) for p in _seats(new.id)] == [(0, "Bob"), (1, "Ann")]
    # Both emailed at once, whoever is the new first player: both accepted.
    assert {row.status for row in outbox_rows(new.id)} == {"pending"}


def test_play_again_at_random_draws_the_seats_when_asked_and_shows_them(app, client):
    game_id, (ann, bob) = _finished()
    _press(client, ann, "", seating="random")
    with read_session(get_engine()) as session:
        asked = session.execute(sa.select(Rematch)).scalar_one()
    assert asked.seating == "random" and sorted(asked.order) == [0, 1]
    shown = text(_page(client, bob))
    names = ["Ann", "Bob"]
    assert f"seat 1 {names[asked.order[0]]}, seat 2 {names[asked.order[1]]}" in shown
    _press(client, bob, "/accept")
    new = _games()[-1]
    assert [p.name for p in _seats(new.id)] == [names[old] for old in asked.order]


def test_play_again_refuses_a_seating_it_does_not_know_and_a_game_under_way(app, client):
    game_id, (ann, bob) = _finished()
    assert _press(client, ann, "", seating="sideways").status_code == 422
    preconsent("ann@example.org", "bob@example.org")
    running = _seats(new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3))[0]
    assert _press(client, running, "", seating="kept").status_code == 409


def test_a_person_who_asked_never_to_be_emailed_gets_no_rematch_email_but_sees_it_on_the_page(app, client):
    from service.people.identity import person
    from service.store import write_session

    game_id, (ann, bob) = _finished()
    with write_session(get_engine()) as session:
        who = person(session, "ann@example.org", lock=True)
        who.never_email_at = utcnow()
        session.add(who)
    _press(client, bob, "", seating="kept")
    (question,) = [row for row in outbox_rows(game_id) if row.kind == "rematch"]
    assert outbox.deliver(question.id) == "skipped"
    assert "Accept and play again" in text(_page(client, ann))


def test_the_game_over_email_offers_play_again(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id, (ann, _) = _finished()
    over = [row for row in outbox_rows(game_id) if row.kind == "game_over" and row.player_id == ann.id]
    assert over and outbox.deliver(over[0].id) == "sent"
    (mail,) = [m for m in sink.wait_for(1) if m["X-Riftpost-Kind"] == "game_over"]
    plain = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()
    assert re.search(r"Play again: .*http://riftpost\.test/p/\S+/again", plain)
    assert re.search(r'<a href="http://riftpost\.test/p/[^"]+/again"[^>]*>Play again</a>', html)


def test_the_last_moves_tell_the_end_once(app, client):
    """#17 item 8: the engine's "The game is over: You win, 12 to 5." is not followed by the recorded
    end's "The game is over: You won." (a Riftforce duel played to its end)."""
    from tests.web.riftforce_boards import finished_game

    game_id, _ = finished_game("duel")
    ann = _seats(game_id)[0]
    page = text(_page(client, ann))
    recent = re.search(r'id="recent-h".*?</section>', page, re.S).group(0)
    assert recent.count("The game is over") == 1 and re.search(r"The game is over: \w+ wins?, \d+ to \d+", recent)


def _three_finished() -> tuple[int, list[Player]]:
    players = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")]
    preconsent(*(email for _, email in players))
    game_id = new_game(toygame.NAME, players, {"target": 5}, seed=3)
    play_to_end(game_id)
    return game_id, _seats(game_id)


def test_no_thanks_closes_the_rematch_tells_the_others_and_a_later_play_again_asks_anew(app, client, sink):
    """#25 part 4: a rematch can be declined with one press (a POST from the rematch page the email
    links to); the asker and the others are emailed, the pages say it is closed, and anyone may ask
    anew (a new question, its own emails)."""
    app.config["SMTP_URL"] = sink.url
    game_id, (ann, bob, cy) = _three_finished()
    _press(client, ann, "", seating="swapped")
    questions = [row for row in outbox_rows(game_id) if row.kind == "rematch"]
    assert sorted(row.player_id for row in questions) == [bob.id, cy.id]
    # Bob's email leads to his rematch page; its GET changes nothing; the page has "No thanks".
    assert outbox.deliver(next(r.id for r in questions if r.player_id == bob.id)) == "sent"
    (mail,) = [m for m in sink.wait_for(1) if m["X-Riftpost-Kind"] == "rematch"]
    plain = mail.get_body(("plain",)).get_content()
    assert "says no thanks" in plain.splitlines()[0] and "Accept or say no thanks" in plain
    url = re.search(r"http://riftpost\.test(/p/\S+/again)", plain).group(1)
    page = text(client.get(url))
    assert "No thanks" in page and "Accept and play again" in page
    declined = client.post(f"{url}/decline", data={"csrf_token": csrf_token(page)})
    assert declined.status_code == 303 and len(_games()) == 1
    with read_session(get_engine()) as session:
        assert session.execute(sa.select(Rematch)).scalars().all() == []
    # Cy's question, not sent yet, is no longer wanted; Ann (the asker) and Cy are told, Bob is not.
    assert outbox.deliver(next(r.id for r in questions if r.player_id == cy.id)) == "skipped"
    notices = [row for row in outbox_rows(game_id) if row.kind == "rematch_declined"]
    assert sorted(row.player_id for row in notices) == [ann.id, cy.id]
    assert [outbox.deliver(row.id) for row in notices] == ["sent", "sent"]
    told = {m["To"]: m for m in sink.wait_for(3) if m["X-Riftpost-Kind"] == "rematch_declined"}
    assert sorted(told) == ["Ann <ann@example.org>", "Cy <cy@example.org>"]
    ann_plain = told["Ann <ann@example.org>"].get_body(("plain",)).get_content()
    assert ann_plain.startswith("Bob said no thanks to your rematch of Toy: it is closed.\n")
    assert told["Cy <cy@example.org>"].get_body(("plain",)).get_content().startswith(
        "Bob said no thanks to the rematch of Toy that Ann asked for: it is closed.\n")
    # The pages say so, to each their way, and offer to ask again.
    assert "Bob said no thanks to your rematch: it is closed." in text(_page(client, ann))
    assert "Bob said no thanks to the rematch Ann asked for" in text(client.get(f"/p/{tokens.page(cy)}/again"))
    bob_page = text(client.get(url))
    assert "You said no thanks to the rematch" in bob_page and ">Play again</button>" in bob_page
    # A second "No thanks" finds nothing to decline: a clear 409, not a 500.
    again = client.post(f"{url}/decline", data={"csrf_token": csrf_token(bob_page)})
    assert again.status_code == 409 and "Nobody is asking" in text(again)
    # Asking anew: a new question, emailed to the two others, and all accepting starts the game.
    _press(client, cy, "", seating="kept")
    fresh = [row for row in outbox_rows(game_id) if row.kind == "rematch" and row.status == "pending"]
    assert sorted(row.player_id for row in fresh) == [ann.id, bob.id]
    assert "said no thanks" not in text(_page(client, ann))
    _press(client, ann, "/accept")
    _press(client, bob, "/accept")
    assert len(_games()) == 2
    # Once started, nobody can decline it.
    late = client.post(f"{url}/decline", data={"csrf_token": csrf_token(bob_page)})
    assert late.status_code == 409 and len(_games()) == 2


def test_no_thanks_is_a_post_and_needs_the_seats_link(app, client):
    game_id, (ann, bob) = _finished()
    _press(client, ann, "", seating="kept")
    assert client.get(f"/p/{tokens.page(bob)}/again/decline").status_code == 405
    assert client.post("/p/not-a-token/again/decline", data={}).status_code in (400, 404)
    with read_session(get_engine()) as session:
        assert session.execute(sa.select(Rematch)).scalar_one() is not None
