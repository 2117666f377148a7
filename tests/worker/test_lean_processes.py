"""What each long-running process loads (bench/memory.py measures what it costs): every process
imports only what it runs.  Each check runs in a fresh interpreter, configured through the
environment like the Procfile's processes, since this test process has imported everything."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.worker.processes import ROOT


def run(tmp_path: Path, code: str, **environ: str) -> str:
    """Run `code` in a new interpreter configured like the Procfile's processes; its last line of output."""
    env = dict(os.environ, RIFTPOST_INSTANCE=str(tmp_path), SECRET_KEY="lean",
               DATABASE_URL=f"sqlite:///{tmp_path / 'app.sqlite'}",
               CELERY_BROKER_URL=f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}")
    env.update(environ)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def loaded(tmp_path: Path, code: str, modules: list[str], **environ: str) -> dict[str, bool]:
    """Run `code` in a new interpreter; which of `modules` it imported (at least one, by prefix)."""
    report = (f"import json, sys; print(json.dumps({{m: any(k == m or k.startswith(m + '.') "
              f"for k in sys.modules) for m in {modules!r}}}))")
    return json.loads(run(tmp_path, f"{code}\n{report}", **environ))


def test_the_web_app_loads_no_migrations_no_email_inliner_no_unused_dialect(tmp_path):
    """Nor, until first needed, what only some requests use: Celery (a kick or a bot's move to publish:
    service/mail/queue.py, ~6 MB) and the feeds' icalendar and feedgen with lxml (~8 MB:
    service/people/feeds.py)."""
    later = ["celery", "kombu", "icalendar", "feedgen", "lxml"]
    found = loaded(tmp_path, "import service; service.create_app()",
                   ["alembic", "css_inline", "sqlalchemy.dialects.postgresql", "flask_wtf", *later])
    assert found == {"alembic": False, "css_inline": False, "sqlalchemy.dialects.postgresql": False,
                     "flask_wtf": True, **dict.fromkeys(later, False)}, found


# The Procfile's beat (worker/beat.py `main`) up to its scheduler, which then publishes every entry of
# the schedule once and stops: `held` is the schedule it held, `transport` its broker connection's.
BEAT_ONCE = """
from celery import beat
held = transport = None
def once(service):
    global held, transport
    scheduler = service.get_scheduler()
    for entry in scheduler.schedule.values():
        scheduler.apply_entry(entry, producer=scheduler.producer)
    held = {name: [e.task, repr(e.schedule), e.options] for name, e in scheduler.schedule.items()}
    transport = scheduler.connection.transport_cls
    scheduler.close()
beat.Service.start = once
{start}
assert held is not None
import sys; sys.stdout = sys.__stdout__  # beat's logging took it over (worker_redirect_stdouts)
"""
LEAN_BEAT = BEAT_ONCE.replace("{start}", "import worker.beat; worker.beat.main(['--loglevel=WARNING'])")
# What `celery -A worker beat` ran (celery/bin/beat.py) before beat was made lean.
CELERY_BEAT = BEAT_ONCE.replace("{start}", "from worker.app import celery; celery.Beat(loglevel='WARNING').run()")
REPORT = "import json; print(json.dumps({'held': held, 'transport': transport}))"
# What beat never loads: the tasks (it publishes them by name), the web, the database layer (it writes
# the embedded broker with sqlite3: worker/broker.py), the templates, the engines, Celery's command line.
BEAT_NEVER = ["worker.tasks", "service.app", "service.web", "service.mail", "service.store", "flask", "sqlalchemy",
              "sqlmodel", "pydantic", "jinja2", "engine", "babel", "celery.bin.celery", "click_repl", "prompt_toolkit"]
# The schedule of worker/app.py with the embedded broker's defaults (service/config.py).
SCHEDULE = {
    "dispatch-outbox": ["riftpost.dispatch_outbox", "<freq: 2.00 seconds>", {}],
    "sweep-deadlines": ["riftpost.sweep_deadlines", "<freq: 1.00 minute>", {}],
    "send-digests": ["riftpost.send_digests", "<freq: 5.00 minutes>", {}],
    "bots-due": ["riftpost.bots_due", "<freq: 1.00 minute>", {}],
    "purge-embedded-broker": ["riftpost.purge_broker", "<freq: 1.00 hour>", {}],
    # Celery's own (result_expires: a no-op without a result backend)
    "celery.backend_cleanup": ["celery.backend_cleanup", "<crontab: 0 4 * * * (m/h/dM/MY/d)>", {"expires": 43200}],
}


def test_beat_loads_neither_the_tasks_nor_the_web_nor_the_database_layer(tmp_path):
    """Beat (~35 MB, from 66: bench/memory.py) publishes a schedule: nothing else of the service."""
    found = loaded(tmp_path, LEAN_BEAT, BEAT_NEVER)
    assert not any(found.values()), found


def consumed(broker_url: str) -> list[dict]:
    """Every message waiting in the broker's `celery` queue, taken as a worker takes it (kombu's SQLAlchemy
    transport for the embedded broker), without what differs per message and process (ids, times)."""
    from kombu import Connection

    found = []
    with Connection(broker_url) as connection:
        queue = connection.SimpleQueue("celery")
        while True:
            try:
                message = queue.get(timeout=0.2)
            except queue.Empty:
                break
            message.ack()
            headers = {k: v for k, v in message.headers.items() if k not in ("id", "root_id", "origin")}
            headers["expires"] = headers["expires"] is not None  # a time
            properties = {k: v for k, v in message.properties.items()
                          if k not in ("correlation_id", "delivery_tag", "reply_to")}  # ids, the process's
            found.append({"headers": headers, "properties": properties, "body": message.body,
                          "content_type": message.content_type, "routing_key": message.delivery_info["routing_key"],
                          "exchange": message.delivery_info["exchange"]})
        queue.close()
    return sorted(found, key=lambda m: m["headers"]["task"])


def test_beat_publishes_the_same_schedule_as_the_same_messages_to_the_same_queue(tmp_path):
    """The lean beat (sqlite3 into the embedded broker) holds the schedule beat held before, and the
    worker takes from the broker the very messages that Celery's beat on kombu's SQLAlchemy transport
    published (task, arguments, queue, exchange, routing key, headers, properties)."""
    brokers = {name: f"sqla+sqlite:///{tmp_path / name / 'broker.sqlite'}" for name in ("lean", "celery")}
    lean = json.loads(run(tmp_path / "lean", LEAN_BEAT + REPORT, CELERY_BROKER_URL=brokers["lean"]))
    before = json.loads(run(tmp_path / "celery", CELERY_BEAT + REPORT, CELERY_BROKER_URL=brokers["celery"]))
    assert lean["held"] == before["held"] == SCHEDULE
    assert (lean["transport"], before["transport"]) == ("worker.broker:Transport", "sqla")
    published = consumed(brokers["lean"])
    assert [m["headers"]["task"] for m in published] == sorted(task for task, _, _ in SCHEDULE.values())
    assert {m["routing_key"] for m in published} == {"celery"}  # the default queue, as before
    assert published == consumed(brokers["celery"])


def test_beat_writes_only_the_embedded_sqlite_broker_itself(tmp_path):
    """Redis (production) and any other broker get kombu's transport with the URL as configured; the
    embedded SQLite broker gets worker/broker.py, on the same file."""
    code = ("from worker.app import celery; celery.publishes_with_sqlite3 = True; "
            "c = celery.connection_for_write(); print(c.transport_cls, c.as_uri(include_password=True))")
    url = "redis://127.0.0.1:6399/5"
    assert run(tmp_path, code, CELERY_BROKER_URL=url) == f"redis {url}"
    url = "sqla+postgresql://u:p@127.0.0.1/broker"
    assert run(tmp_path, code, CELERY_BROKER_URL=url).split()[0] == "sqla"
    url = f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    assert run(tmp_path, code, CELERY_BROKER_URL=url) == f"worker.broker:Transport {url.removeprefix('sqla+')}"
    # The worker's and the web's stay kombu's
    code = code.replace("= True", "= False")
    assert run(tmp_path, code, CELERY_BROKER_URL=url) == f"sqla {url}"


WORKER_START = ("import types, worker; from celery import signals; "
                "signals.celeryd_init.send(sender='w', instance=types.SimpleNamespace(app=worker.celery), "
                "conf=worker.celery.conf, options={}); ")
WEB = ["flask", "service.web", "service.app", "flask_wtf", "flask_limiter"]
# Loaded only when needed: werkzeug (service/paths.py builds links without it, ~3 MB), openskill (a game's
# ratings at its end, service/play/ratings.py, ~1 MB).
LATER = ["werkzeug", "openskill"]
# What only the web, the command line or the sink use, never a task (issue #26): address checks and their
# DNS library (service/mail/addresses.py imports them where used), the feeds' libraries, forms, the web's
# Babel, migrations, the SMTP sink, and on SQLite PostgreSQL's dialect and driver.
NEVER = ["email_validator", "dns", "icalendar", "feedgen", "lxml", "wtforms", "flask_babel", "alembic", "aiosmtpd",
         "service.people.feeds", "service.migrate", "service.cli", "service.mailsink",
         "sqlalchemy.dialects.postgresql", "psycopg"]


def test_the_worker_loads_its_tasks_and_its_app_as_it_starts_and_never_the_web(tmp_path):
    # `celery worker` sends celeryd_init before it consumes (celery/apps/worker.py, on_before_init).
    code = (WORKER_START + "assert 'riftpost.send_email' in worker.celery.tasks; "
            "assert worker.celery.host.extensions['riftpost.celery'] is worker.celery; "
            "assert worker.celery.host.extensions['riftpost.db'] is not None")
    found = loaded(tmp_path, code, ["worker.tasks", *WEB, *LATER, *NEVER])
    assert found == {"worker.tasks": True, **dict.fromkeys([*WEB, *LATER, *NEVER], False)}, found


def test_the_worker_renders_every_kind_of_email_without_flask(tmp_path):
    """Issue #26: the worker renders every kind of email (the snapshot of tests/service/email_snapshot.py:
    turns, reminders, digests, invitation, sign-in, answers to replies, talk, game over, webhooks' bodies),
    byte for byte as main rendered them through the web app, and no Flask app is ever built: Flask
    itself, the web layer and the composition root are never imported.  Emails in English load no
    locale data of Babel's."""
    from service.migrate import upgrade
    from tests.conftest import SECRET

    upgrade(f"sqlite:///{tmp_path / 'app.sqlite'}")
    code = (WORKER_START + "from tests.service import email_snapshot; "
            "found = email_snapshot.snapshot(worker.celery.host); "
            "assert len(found) > 200 and not email_snapshot.differences(found), email_snapshot.differences(found)[:5]; "
            # English emails load none of Babel's locale data (~4 MB in the worker: lists, dates are ours)
            "import babel.localedata; assert not babel.localedata._cache, sorted(babel.localedata._cache)")
    # (but email_validator: the snapshot's setup starts its games with new_game, which checks the
    # players' addresses; service/mail/addresses.py)
    never = [m for m in NEVER if m != "email_validator"]
    found = loaded(tmp_path, code, [*WEB, "werkzeug", *never], SECRET_KEY=SECRET, BASE_URL="http://riftpost.test",
                   MAIL_FROM="")
    assert not any(found.values()), found


def test_the_procfile_web_is_one_process_with_threads():
    """One copy of the app (each web server process holds its own), threads for concurrency; and the
    default in-memory rate limits (RATELIMIT_STORAGE_URL=memory://) count for the whole web only in one
    process.  A process that dies is started again, and stopping waits a bounded time for requests."""
    from tests.procfile import procfile_web

    words = procfile_web(5000)
    options = dict(itertools.pairwise(words))
    assert options["--workers"] == "1" and int(options["--blocking-threads"]) > 1
    assert "--respawn-failed-workers" in words and int(options["--workers-kill-timeout"]) > 0
    assert words[-1] == "service:create_web_app" and "--factory" in words and "--access-log" not in words


def test_the_procfile_worker_starts_without_celerys_command_line_and_warmed_up(tmp_path):
    """`python -m worker` (worker/__main__.py, the Procfile's) makes the same Celery worker as `celery -A
    worker worker`, without the command line's interactive shell libraries (prompt_toolkit, pygments:
    8.7 MB of the worker's memory); as it starts it has loaded its tasks, every engine, the CSS inliner
    and compiled the email and board templates (worker/app.py `warm_up`), never the web."""
    code = ("from celery.apps.worker import Worker; started = []; Worker.start = lambda self: started.append(self); "
            "import worker.__main__ as entry; assert entry.main(['--pool=solo', '--loglevel=WARNING']) == 0; "
            "assert started and started[0].pool_cls.__name__ == 'TaskPool', started; "
            "from service.views import email_render; cached = {t.name for t in email_render.environment().cache.values()}; "
            "assert {'email/turn.html', 'email/turn.txt', 'games/riftforce/board.html'} <= cached, sorted(cached); "
            "import gc; assert gc.get_freeze_count() > 10_000; "
            # Its database's page cache is small; the embedded broker's SQLite journals like the database.
            "import sqlalchemy as sa; from worker.app import celery; "
            "db = celery.host.extensions['riftpost.db'].connect(); "
            "assert db.exec_driver_sql('PRAGMA cache_size').scalar() == -256; db.close(); "
            "channel = celery.connection_for_write().default_channel; "
            "assert channel.session.execute(sa.text('PRAGMA journal_mode')).scalar() == 'wal'; "
            "assert channel.session.execute(sa.text('PRAGMA synchronous')).scalar() == 1; "
            # and as small a page cache as the database's (its messages are read once, by key order)
            "assert channel.session.execute(sa.text('PRAGMA cache_size')).scalar() == -256")
    found = loaded(tmp_path, code, ["worker.tasks", "engine.riftforce", "engine.riftwalker", "css_inline",
                                    "click_repl", "prompt_toolkit", "pygments", "celery.bin.celery", *WEB, *LATER,
                                    *NEVER])
    assert found == {"worker.tasks": True, "engine.riftforce": True, "engine.riftwalker": True, "css_inline": True,
                     "click_repl": False, "prompt_toolkit": False, "pygments": False, "celery.bin.celery": False,
                     **dict.fromkeys([*WEB, *LATER, *NEVER], False)}, found


def test_the_worker_hands_back_what_its_start_freed_once_its_warm_up_is_frozen(tmp_path):
    """worker/app.py `warm_up` ends with malloc_trim (worker/signals.py `trim`): the imports' and the
    templates' garbage (~5 MB of the worker's start, and of every prefork child forked from it:
    bench/memory.py) goes back to the system, after what stays was collected and frozen."""
    code = ("import gc; import worker.signals as s; calls = []; "
            "s.trim = lambda: calls.append(gc.get_freeze_count()); "
            + WORKER_START + "assert len(calls) == 1 and calls[0] > 10_000, calls; print('trimmed')")
    assert run(tmp_path, code) == "trimmed"
