"""Every kind of email renders byte for byte as main rendered it through the web app (a fake request on
BASE_URL) before email had an environment of its own (issue #26): tests/service/email_snapshot.py."""

from __future__ import annotations

import shutil

from service.mail import kinds
from tests.conftest import make_app
from tests.service import email_snapshot


def test_every_kind_of_email_renders_as_main_rendered_it_through_the_web_app(tmp_path, migrated_sqlite):
    shutil.copy(migrated_sqlite, tmp_path / "app.sqlite")
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'app.sqlite'}")
    try:
        found = email_snapshot.snapshot(app)
    finally:
        app.extensions["riftpost.db"].dispose()
    rendered = {text.split("X-Riftpost-Kind: ", 1)[1].split("\n", 1)[0] for text in found.values()
                if "X-Riftpost-Kind: " in text}
    # Every registered kind is in the snapshot (the webhooks' bodies are too: keys "webhook ...").
    assert set(kinds.KINDS) <= rendered, set(kinds.KINDS) - rendered
    assert any(key.startswith("webhook ") for key in found)
    changed = email_snapshot.differences(found)
    if changed:
        email_snapshot.write(found, tmp_path / "emails")
    assert not changed, (f"{len(changed)} emails differ from tests/service/email_snapshot.json (written to "
                         f"{tmp_path / 'emails'}; a meant change rewrites the file with `python -m "
                         f"tests.service.email_snapshot --digests`): {changed[:5]}")
