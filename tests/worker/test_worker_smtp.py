"""The real worker keeps one SMTP connection per pool process across the emails it sends
(service/mail/smtp.py), and says QUIT on each when it stops."""

from __future__ import annotations

import shutil

from service.play import new_game
from tests.conftest import make_app
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows
from tests.smtp import Sink
from tests.worker.processes import WorkerProcess, procfile_concurrency, wait_until

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")]


class CountingSink(Sink):
    """The service's Maildir sink, counting the connections it accepts (aiosmtpd builds one protocol
    object per connection through `Controller.factory`) and the QUITs it is sent."""

    def __init__(self, directory):
        super().__init__(directory)
        self.connections = 0
        self.quits = 0
        made = self.controller.factory

        def counting():
            self.connections += 1
            return made()

        async def handle_QUIT(server, session, envelope):
            self.quits += 1
            return "221 Bye"

        self.controller.factory = counting
        self.controller.handler.handle_QUIT = handle_QUIT


def test_one_worker_sends_many_emails_over_one_connection_and_quits_when_it_stops(tmp_path, migrated_sqlite):
    sink = CountingSink(tmp_path / "sink")
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    broker = f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=broker, SMTP_URL=sink.url, OUTBOX_KICK=True)
    worker = WorkerProcess(instance=tmp_path, database_url=f"sqlite:///{db}", broker_url=broker,
                           smtp_url=sink.url, base_url=app.config["BASE_URL"], dispatch_seconds=1.0)
    try:
        with app.app_context():
            preconsent(*[email for _, email in PLAYERS])  # the game's own emails
            games = [new_game(toygame.NAME, PLAYERS, seed=seed) for seed in range(4)]
            sink.wait_for(12, timeout=60)
            wait_until(lambda: all(row.status == "sent" for game_id in games for row in outbox_rows(game_id)))
        # One connection per process of the worker's pool that sent (the Procfile's prefork: up to its
        # concurrency), never one per email.
        assert 1 <= sink.connections <= max(1, procfile_concurrency())
        assert sink.quits == 0  # kept open for the next email
        worker.stop()
        wait_until(lambda: sink.quits == sink.connections, timeout=10)
    finally:
        worker.stop()
        sink.stop()
        app.extensions["riftpost.db"].dispose()
