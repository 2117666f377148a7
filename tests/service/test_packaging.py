"""The wheel is the service: its templates, static files, migrations and card data travel inside the
packages, so an installed riftpost works from any directory (the product owner's top-level templates/
folder is linked in as service/templates)."""

from __future__ import annotations

import fcntl
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Two xdist workers may each build it (the fixture is per worker): setuptools writes build/ and the
    # egg-info into the source tree, so one build at a time.
    with open(tmp_path_factory.getbasetemp().parent / "riftpost-wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                        str(out), str(ROOT)], check=True, capture_output=True)
    (found,) = out.glob("riftpost-*.whl")
    return found


def test_the_wheel_carries_every_template_static_file_migration_and_card_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {str(p.relative_to(ROOT)) for p in (ROOT / "templates").rglob("*") if p.is_file()}
    assert templates and {f"service/{t}" for t in templates} <= names
    for data in ("service/static/history.js", "service/static/site.css", "service/static/devmail.js",
                 "service/static/favicon.svg", "service/static/favicon.ico", "service/migrations/versions/0006_kinds_turns.py",
                 "engine/riftwalker/cards.json", "engine/beyond_the_rift/data/heroes.json"):
        assert data in names


def test_an_unpacked_wheel_serves_its_pages_from_anywhere(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = (
        "import service, sys\n"
        "assert service.__file__.startswith(sys.argv[1]), service.__file__\n"
        "app = service.create_app({'INSTANCE_PATH': sys.argv[2], 'DATABASE_URL': 'sqlite://', 'SECRET_KEY': 'x'})\n"
        "page = app.test_client().get('/games/new/riftwalker')\n"
        "assert page.status_code == 200 and b'Start the game' in page.data, page.status_code\n"
        "rules = app.test_client().get('/rules/riftforce')\n"
        "assert rules.status_code == 200 and b'Check &amp; Draw' in rules.data, rules.status_code\n"
    )
    run = subprocess.run([sys.executable, "-c", script, str(site), str(tmp_path / "instance")],
                         cwd=tmp_path, env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
