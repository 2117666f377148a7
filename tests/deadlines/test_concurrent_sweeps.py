"""Two real sweep processes at once on PostgreSQL: each reminder is sent once, each timeout
applied once.  Runs `flask --app service sweep --now ...`, exactly what an operator (and, as of
the wall clock, beat) runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from service.migrate import upgrade
from tests import services
from tests.conftest import SECRET, make_app
from tests.consent import preconsent
from tests.deadlines.helpers import PLAYERS, T0, at, deadline, reminders_of, rows, utc
from tests.service.helpers import current

GAMES = 40
FLASK = Path(sys.executable).with_name("flask")


def two_sweeps_at_once(url: str, tmp_path: Path, hours: float) -> list[str]:
    env = dict(os.environ, DATABASE_URL=url, RIFTPOST_INSTANCE=str(tmp_path), SECRET_KEY=SECRET,
               CELERY_BROKER_URL="memory://")
    command = [str(FLASK), "--app", "service", "sweep", "--now", at(hours).isoformat()]
    processes = [subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        assert "errors" not in out, out
        outputs.append(out)
    return outputs


@pytest.mark.postgres
def test_two_concurrent_sweeps_never_remind_twice_nor_time_out_twice(tmp_path):
    url = services.postgres_database()
    app = None
    try:
        upgrade(url)
        app = make_app(tmp_path, url)
        with app.app_context():
            from service.play import new_game

            preconsent(*[email for _, email in PLAYERS])  # about the sweeps, not the invitations
            games = [new_game("riftforce", PLAYERS, {}, seed=n, deadline_hours=48, now=T0) for n in range(GAMES)]
            first = {game_id: list(current(game_id)[0].to_act) for game_id in games}
            seqs = {game_id: current(game_id)[0].seq for game_id in games}

        two_sweeps_at_once(url, tmp_path, 24)
        with app.app_context():
            for game_id in games:
                assert Counter(reminders_of(game_id)) == Counter(
                    (seat, "reminder-24h") for seat in first[game_id]), game_id

        outputs = two_sweeps_at_once(url, tmp_path, 48)
        with app.app_context():
            from service.store.models import Event

            for game_id in games:
                game, _ = current(game_id)
                timed_out = [row for row in rows(Event, game_id=game_id) if row.kind == "timeout"]
                assert timed_out and game.seq == seqs[game_id] + len(timed_out)
                # Only the seats whose deadline had passed were played for, and their turn once:
                # the next seats' clocks started at the sweep's time and are not due.
                assert {row.actor for row in timed_out} <= set(first[game_id])
                for seat in game.to_act:
                    assert utc(deadline(game_id, seat).due_at) == at(96), (game_id, seat)
                assert not set(game.to_act) & set(first[game_id]) or all(
                    utc(deadline(game_id, seat).due_at) == at(96) for seat in game.to_act)
        done = sum(int(part.split()[-1]) for out in outputs for part in out.split(": ", 1)[1].split(", ")
                   if part.startswith("timeouts"))
        assert done == sum(len(seats) for seats in first.values())  # together, each deadline once
    finally:
        if app is not None:
            app.extensions["riftpost.db"].dispose()
        services.drop_postgres(url)
