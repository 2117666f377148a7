"""Whether the web publishes a delivery task after each move (the kick) follows the broker: with the
embedded SQLite broker a publish costs more than the move itself (CPU and a synced commit), so the
web publishes nothing and beat's outbox scan runs every 2 s; with Redis the kick is on and the scan
every 30 s is the safety net.  Both settings can be forced."""

from __future__ import annotations

import pytest

from service import config


@pytest.fixture
def env(monkeypatch, tmp_path):
    for name in ("CELERY_BROKER_URL", "RIFTPOST_OUTBOX_KICK", "RIFTPOST_DISPATCH_SECONDS"):
        monkeypatch.delenv(name, raising=False)

    def settings(**values: str) -> dict:
        for name, value in values.items():
            monkeypatch.setenv(name, value)
        return config.from_env(tmp_path)

    return settings


def test_the_embedded_broker_gets_no_kick_and_a_scan_every_two_seconds(env):
    settings = env()
    assert settings["CELERY_BROKER_URL"].startswith("sqla+sqlite:")
    assert settings["OUTBOX_KICK"] is False and settings["OUTBOX_DISPATCH_SECONDS"] == 2


def test_redis_gets_the_kick_and_the_half_minute_scan(env):
    settings = env(CELERY_BROKER_URL="redis://127.0.0.1:6379/0")
    assert settings["OUTBOX_KICK"] is True and settings["OUTBOX_DISPATCH_SECONDS"] == 30


def test_both_can_be_forced(env):
    settings = env(RIFTPOST_OUTBOX_KICK="on", RIFTPOST_DISPATCH_SECONDS="10")
    assert settings["OUTBOX_KICK"] is True and settings["OUTBOX_DISPATCH_SECONDS"] == 10
    assert env(CELERY_BROKER_URL="redis://x:6379/0", RIFTPOST_OUTBOX_KICK="off")["OUTBOX_KICK"] is False


def test_a_setting_that_is_neither_on_nor_off_is_refused_by_name(env):
    with pytest.raises(ValueError, match="RIFTPOST_OUTBOX_KICK must be on or off"):
        env(RIFTPOST_OUTBOX_KICK="maybe")
