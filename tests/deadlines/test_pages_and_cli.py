"""The player page's time settings, the creation form's time control, and the CLI."""

from __future__ import annotations

import pytest

from service import links
from service.store.models import GameClock, Person, Player
from tests.deadlines.helpers import deadline, rows, timed_game
from tests.people.helpers import sign_in_as
from tests.service import toygame
from tests.web.pages import START_FORM, csrf_token, text


@pytest.fixture
def game_id(app):
    return timed_game(hours=48)


def page_url(game_id, seat):
    player = [p for p in rows(Player, game_id=game_id) if p.seat == seat][0]
    return f"/p/{links.player_token(player.id, player.row_key)}"


def test_the_page_shows_the_deadline_the_zone_and_the_allowance(client, game_id):
    people = rows(Person)  # the players' consent (tests/consent.py), written before the page is opened
    page = text(client.get(page_url(game_id, 0)))
    assert "48 hours per turn" in page and "Wed 7 Jan 2026, 12:00 UTC" in page
    assert "Times here and in your emails are in <strong>UTC</strong> (you have not chosen" in page
    assert '<option value="UTC" selected>UTC</option>' in page and "Europe/Paris (UTC+1)" in page
    assert "21 days of this year's allowance are left." in page
    assert rows(Person) == people  # a GET changes nothing


def test_time_zone_post_changes_how_times_are_shown(client, game_id):
    url = page_url(game_id, 0)
    token = csrf_token(text(client.get(url)))
    response = client.post(f"{url}/time-zone", data={"csrf_token": token, "time_zone": "America/New_York"})
    assert response.status_code == 303
    assert "07:00 EST" in text(client.get(url))
    bad = client.post(f"{url}/time-zone", data={"csrf_token": token, "time_zone": "Mars/Olympus"})
    assert bad.status_code == 400 and "not a time zone" in text(bad)
    assert client.post(f"{url}/time-zone", data={"time_zone": "UTC"}).status_code == 400  # no CSRF token


def test_vacation_from_the_settings(client, game_id):
    """The player page only offers a sign-in link; the settings of the signed-in person start and end
    the vacation."""
    url = page_url(game_id, 0)
    page = text(client.get(url))
    assert "Start a vacation" not in page and "Email me a link to manage my account" in page
    sign_in_as(client, "ann@example.org")
    account = "/settings"
    token = csrf_token(text(client.get(account)))
    assert client.get(f"{account}/vacation").status_code == 405  # only a POST acts
    assert client.post(f"{account}/vacation", data={"csrf_token": token, "action": "start"}).status_code == 303
    assert deadline(game_id, 0).due_at is None
    assert "You are on vacation" in text(client.get(url))
    assert "End my vacation" in text(client.get(account))
    again = client.post(f"{account}/vacation", data={"csrf_token": token, "action": "start"})
    assert again.status_code == 409 and "already on vacation" in text(again)
    assert client.post(f"{account}/vacation", data={"csrf_token": token, "action": "nap"}).status_code == 400
    assert client.post(f"{account}/vacation", data={"csrf_token": token, "action": "end"}).status_code == 303
    assert deadline(game_id, 0).due_at is not None


def test_the_creation_form_offers_deadline_and_policy(client):
    page = text(client.get(START_FORM))
    assert 'name="deadline"' in page and 'value="72"' in page and 'name="policy"' in page
    form = {"csrf_token": csrf_token(page), "game": toygame.NAME, "email0": "ann@example.org",
            "email1": "bob@example.org", "options": "target=6", "deadline": "36", "policy": "forfeit"}
    response = client.post("/games/new", data=form)
    assert response.status_code == 303
    clock = rows(GameClock)[-1]
    assert clock.deadline_hours == 36 and clock.policy == "forfeit" and clock.reminders == [24, 2]
    bad = client.post("/games/new", data={**form, "deadline": "soon"})
    assert bad.status_code == 422 and "whole number of hours" in text(bad)
    bad = client.post("/games/new", data={**form, "policy": "coinflip"})
    assert bad.status_code == 422 and "timeout policy" in text(bad)
    assert client.post("/games/new", data={**form, "deadline": ""}).status_code == 303
    assert rows(GameClock)[-1].deadline_hours is None


def test_cli_new_game_with_a_deadline_and_a_sweep_as_of_a_time(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["new-game", toygame.NAME, "ann@example.org", "bob@example.org",
                                 "--option", "target=9", "--deadline", "48", "--policy", "pause",
                                 "--reminders", "12,1"])
    assert result.exit_code == 0, result.output
    game_id = int(result.output.strip())
    clock = rows(GameClock, game_id=game_id)[0]
    assert (clock.deadline_hours, clock.policy, clock.reminders) == (48, "pause", [12, 1])
    started = deadline(game_id, 0).started_at
    late = (started.replace(tzinfo=None) if started.tzinfo else started).isoformat()
    result = runner.invoke(args=["sweep", "--now", late.replace("T", " ")])
    assert result.exit_code == 0 and "nothing was due" in result.output
    result = runner.invoke(args=["sweep", "--now", "2100-01-01T00:00:00+00:00"])
    assert result.exit_code == 0 and "paused 1" in result.output, result.output
    bad = runner.invoke(args=["sweep", "--now", "next tuesday"])
    assert bad.exit_code == 2 and "ISO 8601" in bad.output
    bad = runner.invoke(args=["new-game", toygame.NAME, "a@example.org", "b@example.org", "--deadline", "-3"])
    assert bad.exit_code == 2 and "between 1 and" in bad.output


def test_beat_runs_the_sweep_every_minute():
    import worker.tasks  # noqa: F401 - the worker imports its tasks module at start-up
    from worker.app import celery

    entry = celery.conf.beat_schedule["sweep-deadlines"]
    assert entry["task"] == "riftpost.sweep_deadlines" and entry["schedule"] == 60.0
    assert "riftpost.sweep_deadlines" in celery.tasks and "riftpost.record_end" in celery.tasks
