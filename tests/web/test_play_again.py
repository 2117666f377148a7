"""A finished game's page and email (issue #17, item 8): the result, the final board, the chart and the
history, a "Play again" that starts the same game for the same seats once, and none of the sections
that only matter while a game runs (clock, time zone, vacation, stop turn emails)."""

from __future__ import annotations

import re

import sqlalchemy as sa

from service.mail import outbox
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Game, GameClock, Player
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


def test_play_again_starts_the_same_game_for_the_same_seats_once_and_everyone_is_emailed(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    game_id, (ann, bob) = _finished()
    page = _page(client, bob)
    assert client.get(f"/p/{tokens.page(bob)}/campaign").status_code == 405  # a GET changes nothing
    pressed = client.post(f"/p/{tokens.page(bob)}/campaign", data={"csrf_token": csrf_token(text(page))})
    assert pressed.status_code == 303
    with read_session(get_engine()) as session:
        games = list(session.execute(sa.select(Game).order_by(Game.id)).scalars())
        clock = session.get(GameClock, games[-1].id)
    assert len(games) == 2
    old, new = games
    assert (new.name, new.options, new.status) == (old.name, old.options, "active")
    assert clock is not None and (clock.deadline_hours, clock.reminders) == (48, [24])
    seats = _seats(new.id)
    assert [(p.seat, p.name, p.email) for p in seats] == [(0, "Ann", "ann@example.org"), (1, "Bob", "bob@example.org")]
    # Bob lands on his own seat of the new game.
    assert tokens.links_page_of(pressed.headers["Location"], seats[1])
    # Ann presses too (or Bob twice): the game already started, not a third one.
    again = client.post(f"/p/{tokens.page(ann)}/campaign", data={"csrf_token": csrf_token(text(_page(client, ann)))})
    assert again.status_code == 303 and tokens.links_page_of(again.headers["Location"], seats[0])
    with read_session(get_engine()) as session:
        assert session.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one() == 2
    assert "The new game has started" in text(_page(client, ann))
    # Each player gets the new game's usual first email.
    firsts = [row for row in outbox_rows(new.id) if row.status == "pending"]
    assert sorted(row.player_id for row in firsts) == [seats[0].id, seats[1].id]
    for row in firsts:
        outbox.deliver(row.id)
    assert len(sink.wait_for(2)) == 2


def test_the_game_over_email_offers_play_again(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id, (ann, _) = _finished()
    over = [row for row in outbox_rows(game_id) if row.kind == "game_over" and row.player_id == ann.id]
    assert over and outbox.deliver(over[0].id) == "sent"
    (mail,) = [m for m in sink.wait_for(1) if m["X-Riftpost-Kind"] == "game_over"]
    plain = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()
    assert re.search(r"Play again: .*http://riftpost\.test/p/\S+#again", plain)
    assert re.search(r'<a href="http://riftpost\.test/p/[^"]+#again"[^>]*>Play again</a>', html)


def test_the_last_moves_tell_the_end_once(app, client):
    """#17 item 8: the engine's "The game is over: You win, 12 to 5." is not followed by the recorded
    end's "The game is over: You won." (a Riftforce duel played to its end)."""
    from tests.web.riftforce_boards import finished_game

    game_id, _ = finished_game("duel")
    ann = _seats(game_id)[0]
    page = text(_page(client, ann))
    recent = re.search(r'id="recent-h".*?</section>', page, re.S).group(0)
    assert recent.count("The game is over") == 1 and re.search(r"The game is over: \w+ wins?, \d+ to \d+", recent)
