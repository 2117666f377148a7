"""What every request pays before and after its view (issue #27, "the request floor"): GET /healthz
asks the database one SELECT outside any transaction; a request that meets no rate limit leaves no
limiter state behind and gets no rate-limit headers; a request without a cookie gets Flask's new
session, and a response without a session change sets no cookie."""

from __future__ import annotations

from flask import request
from flask.globals import request_ctx
from flask.sessions import SecureCookieSession

from service.store import get_engine
from service.web import limits
from tests.service.statements import counted


def test_healthz_is_one_select_outside_any_transaction(backend_app):
    client = backend_app.test_client()
    client.get("/healthz")  # (the pool's first connection)
    with counted(get_engine()) as sent:
        answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.get_data(as_text=True) == "ok\n"
    assert answer.headers["Cache-Control"] == "no-store" and answer.mimetype == "text/plain"
    assert sent.statements == ["SELECT"], sent.statements


def test_a_request_that_meets_no_limit_leaves_the_limiter_untouched(backend_app):
    seen = []

    @backend_app.after_request
    def look(response):
        seen.append(hasattr(request_ctx._get_current_object(), "_limiter_request_context"))
        return response

    answer = backend_app.test_client().get("/healthz")
    assert answer.status_code == 200 and seen == [False]
    assert not [name for name, _ in answer.headers if name.lower().startswith(("x-ratelimit", "retry-after"))]


def test_a_limited_view_still_meets_the_limiter(backend_app):
    with backend_app.test_request_context("/"):
        limits.limiter.current_limits  # noqa: B018 - asking makes the limiter's state
        assert limits._counted()
    with backend_app.test_request_context("/"):
        assert not limits._counted()


def test_a_request_without_a_cookie_gets_a_new_empty_session_and_sets_none(backend_app):
    opened = []

    @backend_app.after_request
    def look(response):
        # (the context's own: Flask marks a session accessed whenever its proxy is used)
        opened.append((request_ctx._get_current_object()._session, "HTTP_COOKIE" in request.environ))
        return response

    answer = backend_app.test_client().get("/healthz")
    [(found, cookie)] = opened
    assert type(found) is SecureCookieSession and not cookie
    assert len(found) == 0 and not found.accessed and not found.modified
    assert "Set-Cookie" not in answer.headers and "Cookie" not in answer.headers.get("Vary", "")
