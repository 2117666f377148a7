"""What each long-running process loads (bench/memory.py measures what it costs): every process
imports only what it runs.  Each check runs in a fresh interpreter, configured through the
environment like the Procfile's processes, since this test process has imported everything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.worker.processes import ROOT


def loaded(tmp_path: Path, code: str, modules: list[str], **environ: str) -> dict[str, bool]:
    """Run `code` in a new interpreter; which of `modules` it imported (at least one, by prefix)."""
    env = dict(os.environ, RIFTPOST_INSTANCE=str(tmp_path), SECRET_KEY="lean",
               DATABASE_URL=f"sqlite:///{tmp_path / 'app.sqlite'}",
               CELERY_BROKER_URL=f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}")
    env.update(environ)
    report = (f"import json, sys; print(json.dumps({{m: any(k == m or k.startswith(m + '.') "
              f"for k in sys.modules) for m in {modules!r}}}))")
    done = subprocess.run([sys.executable, "-c", f"{code}\n{report}"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_web_app_loads_no_migrations_no_email_inliner_no_unused_dialect(tmp_path):
    found = loaded(tmp_path, "import service; service.create_app()",
                   ["alembic", "css_inline", "sqlalchemy.dialects.postgresql", "flask_wtf"])
    assert found == {"alembic": False, "css_inline": False, "sqlalchemy.dialects.postgresql": False,
                     "flask_wtf": True}


def test_beat_loads_neither_the_tasks_nor_the_flask_app(tmp_path):
    # What `celery -A worker beat` runs before its scheduler: the app module, then the loader's
    # default modules (celery/apps/beat.py, init_loader).
    code = ("import worker; worker.celery.loader.init_worker(); "
            "assert worker.celery.settings['DATABASE_URL'].endswith('app.sqlite')")
    found = loaded(tmp_path, code, ["worker.tasks", "service.app", "service.web", "service.mail", "flask"])
    assert not any(found.values()), found


WORKER_START = ("import types, worker; from celery import signals; "
                "signals.celeryd_init.send(sender='w', instance=types.SimpleNamespace(app=worker.celery), "
                "conf=worker.celery.conf, options={}); ")
WEB = ["flask", "service.web", "service.app", "flask_wtf", "flask_limiter"]
# Loaded only when needed: werkzeug (service/paths.py builds links without it, ~3 MB), openskill (a game's
# ratings at its end, service/play/ratings.py, ~1 MB).
LATER = ["werkzeug", "openskill"]


def test_the_worker_loads_its_tasks_and_its_app_as_it_starts_and_never_the_web(tmp_path):
    # `celery worker` sends celeryd_init before it consumes (celery/apps/worker.py, on_before_init).
    code = (WORKER_START + "assert 'riftpost.send_email' in worker.celery.tasks; "
            "assert worker.celery.host.extensions['riftpost.celery'] is worker.celery; "
            "assert worker.celery.host.extensions['riftpost.db'] is not None")
    found = loaded(tmp_path, code, ["worker.tasks", *WEB, *LATER])
    assert found == {"worker.tasks": True, **dict.fromkeys(WEB, False), **dict.fromkeys(LATER, False)}, found


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
    found = loaded(tmp_path, code, [*WEB, "werkzeug"], SECRET_KEY=SECRET, BASE_URL="http://riftpost.test",
                   MAIL_FROM="")
    assert not any(found.values()), found


def test_the_procfile_web_is_one_process_with_threads():
    """One copy of the app (each gunicorn worker process holds its own), threads for concurrency; and
    the default in-memory rate limits (RATELIMIT_STORAGE_URL=memory://) count for the whole web only
    in one process."""
    web = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    assert "-c gunicorn.conf.py" in web and "--workers" not in web and "--preload" not in web
    settings: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings)
    assert settings["workers"] == 1 and settings["threads"] > 1


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
            "assert channel.session.execute(sa.text('PRAGMA synchronous')).scalar() == 1")
    found = loaded(tmp_path, code, ["worker.tasks", "engine.riftforce", "engine.riftwalker", "css_inline",
                                    "click_repl", "prompt_toolkit", "pygments", "celery.bin.celery", *WEB, *LATER])
    assert found == {"worker.tasks": True, "engine.riftforce": True, "engine.riftwalker": True, "css_inline": True,
                     "click_repl": False, "prompt_toolkit": False, "pygments": False, "celery.bin.celery": False,
                     **dict.fromkeys(WEB, False), **dict.fromkeys(LATER, False)}, found
