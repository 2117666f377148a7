"""The session cookie's serializer, kept per set of keys (service/web/channels.py KeptSigning): the
same cookies as Flask's own, and a key rotation honoured at once."""

from __future__ import annotations

import pytest
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature


def test_the_session_serializer_is_flasks_kept_until_the_keys_change(app):
    interface = app.session_interface
    flasks = SecureCookieSessionInterface().get_signing_serializer(app)
    first = interface.get_signing_serializer(app)
    assert interface.get_signing_serializer(app) is first
    cookie = first.dumps({"lang": "uk"})
    assert flasks.loads(cookie) == {"lang": "uk"} and first.loads(flasks.dumps({"a": 1})) == {"a": 1}
    old, fallbacks = app.config["SECRET_KEY"], app.config["SECRET_KEY_FALLBACKS"]
    app.config.update(SECRET_KEY="a-new-key-for-the-rotation-test", SECRET_KEY_FALLBACKS=[old])
    try:
        second = interface.get_signing_serializer(app)
        assert second is not first and second.loads(cookie) == {"lang": "uk"}  # the old key still reads
        with pytest.raises(BadSignature):
            first.loads(second.dumps({"lang": "en"}))  # signed with the new key
    finally:
        app.config.update(SECRET_KEY=old, SECRET_KEY_FALLBACKS=fallbacks)
    assert interface.get_signing_serializer(app).loads(cookie) == {"lang": "uk"}
