"""The scale drill, small (issue #25; `bench/scale.py` runs it at 200 games): two web processes, two
workers and two beats at once on one PostgreSQL and one Redis, a game of every game and mode played to
the end by outside bot clients over the bearer JSON API, late seats timed out by the beat's sweep
while some race it with a late move.  The machinery and its checks: tests/worker/scale.py."""

from __future__ import annotations

import pytest

from tests import services
from tests.worker import scale

# Every game, a mode of each kind (duel, team with the draft, solo; simultaneous heroes), kept short:
# random play makes Riftwalker and the larger parties long (docs/scale.md).
SETUPS = ("riftforce duel", "riftforce team 4p (draft)", "riftforce solo", "riftwalker 2p",
          "beyond-the-rift 1 hero", "beyond-the-rift 3 heroes")

pytestmark = [pytest.mark.slow, pytest.mark.drill, pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def stack_urls():
    url = services.postgres_database()
    broker = services.redis_database()
    yield url, broker
    services.drop_postgres(url)


def drill(tmp_path, stack_urls, **changes) -> scale.Report:
    layout = scale.Layout(games=len(SETUPS), only=SETUPS, webs=2, workers=2, beats=2, clients=6, late=0.08,
                          sweep_seconds=1.0, dispatch_seconds=1.0, play_timeout=900, settle_timeout=90,
                          quiet=True, **changes)
    report = scale.run(layout, *stack_urls, tmp_path)
    report.print()
    return report


def test_every_game_and_mode_at_scale_records_each_move_email_and_timeout_once(tmp_path, stack_urls):
    report = drill(tmp_path, stack_urls)
    assert not report.failures, report.failures
    # The drill drilled: every game and mode ended, deadlines passed and were applied, emails went.
    assert report.figures["games (finished)"] == f"{len(SETUPS)} ({len(SETUPS)})"
    runs = int(report.figures["timeouts applied (turns, events)"].split(",")[0])
    assert runs > 0
    assert report.figures["emails delivered"] > 11
    assert report.figures["beats that waited on the lock"] == 1
