"""Security headers on every response, and the session cookie's flags.

Player links carry bearer tokens in their paths (/p/<token>, /m/<token>, /u/<token>), so no page
ever sends a Referer (`no-referrer`, also in base.html's meta tag): a click from a player page to
anywhere would otherwise hand the token to that site.

The Content-Security-Policy of the pages is as strict as they allow, which is strict: every script
is a file under /static (composer.js, history.js, timezone.js, devmail.js) and every style a stylesheet there.
No page carries a `style="..."` attribute, an inline <style> or <script>, or an event handler
attribute; the only style set at run time is devmail.js's frame height, through the CSSOM, which a
CSP does not govern.  So `style-src 'self'` with no 'unsafe-inline' and no hashes: a template
that adds an inline style breaks visibly in the browser tests (tests/web/test_csp_browser.py)
instead of loosening the policy for everyone.  Nothing needs `data:` images either.

Under https (BASE_URL https://..., or a request that came over TLS) every response also says
Strict-Transport-Security: a browser that has seen the site once never again asks for it over plain
http, where a network in between could read the token of a player's link or rewrite the page.
Browsers ignore the header on a plain-http answer, so sending it whenever BASE_URL is https is safe.

A response that is not HTML (the JSON API, static files, the favicon) gets a policy that lets
nothing run or load, in case one is ever opened as a document.  A view may set its own policy
(the dev mailbox's framed email does); the hook never overwrites one.
"""

from __future__ import annotations

from flask import Flask, Response, request

PAGE_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
OTHER_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
# One year (what the browsers' preload lists ask for), and the site's own subdomains with it.
HSTS = "max-age=31536000; includeSubDomains"

# The history's endpoints reached only through a player's signed link.
PRIVATE = {"history.player", "history.player_record", "history.set_public", "invitations.page",
           "invitations.accept", "invitations.decline"}


def register(app: Flask) -> None:
    https = app.config["BASE_URL"].startswith("https://")
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        # Lax: the cookie (the CSRF token, flashed messages and who is signed in: service/web/auth.py)
        # goes with a top-level GET from an email link, never with another site's POST or in its frames.
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=https,
        # Flask-WTF's strict check refuses an HTTPS form POST without a same-origin Referer, and
        # these pages send none (see above), so every form would fail under https.  Authority here
        # is the signed token in the URL, not the cookie; the CSRF token in a SameSite=Lax, Secure
        # cookie still guards the forms.
        WTF_CSRF_SSL_STRICT=False,
    )

    @app.after_request
    def security_headers(response: Response) -> Response:
        current = request._get_current_object()  # type: ignore[attr-defined]  # (one proxy look-up, not five)
        html = response.mimetype == "text/html"
        # Pages (and the play API's JSON) opened by a player's own links: keep them private.
        private = current.blueprint in PRIVATE_BLUEPRINTS or current.endpoint in PRIVATE
        headers = response.headers
        present = {name.lower() for name, _ in headers}
        for name, lowered, value in WANTED[html, https or current.is_secure, private]:
            if lowered not in present:  # (a view's own header stays)
                headers.add(name, value)
        return response


PRIVATE_BLUEPRINTS = frozenset({"play", "play_api", "account"})


def _wanted(html: bool, hsts: bool, private: bool) -> tuple[tuple[str, str, str], ...]:
    """The headers a response gets unless it has them, in this order: (name, its lower case, value)."""
    wanted = [("Content-Security-Policy", PAGE_POLICY if html else OTHER_POLICY), ("Referrer-Policy", "no-referrer"),
              ("X-Content-Type-Options", "nosniff"),
              # For browsers older than CSP's frame-ancestors, which newer ones obey instead.
              ("X-Frame-Options", "DENY")]
    if hsts:
        wanted.append(("Strict-Transport-Security", HSTS))
    if private:
        wanted.append(("Cache-Control", "private, no-store"))
    return tuple((name, name.lower(), value) for name, value in wanted)


# Made once, not on every response: setdefault looked each header up in the list (~15 µs a response,
# a sixteenth of GET /healthz in process, issue #27).
WANTED = {(html, hsts, private): _wanted(html, hsts, private)
          for html in (False, True) for hsts in (False, True) for private in (False, True)}
