"""The templates' `url_for('static', filename=...)` made once per file (issue #27: the player page asks
for 11 static addresses, ~7 µs each through Flask's URL adapter).

Only the plain form is kept: the static endpoint with its `filename` alone, in a request (where Flask
answers the path under the request's script root, while no app-wide `url_defaults` callback could
add anything), keyed by that root and the file.  Everything else — other endpoints, `_external`,
`_anchor`, any other value, no request — is Flask's `url_for` itself, so every address is the same.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, has_request_context, request


def install(app: Flask) -> None:
    """Over the environment's `url_for` global (Flask's `app.url_for`)."""
    real = app.url_for
    kept: dict[tuple[str, str], str] = {}

    def url_for(endpoint: str, /, **values: Any) -> str:
        if (endpoint == "static" and len(values) == 1 and "filename" in values and has_request_context()
                and not app.url_default_functions.get(None)):
            key = (request.script_root, str(values["filename"]))
            found = kept.get(key)
            if found is None:
                if len(kept) > 1000:  # (file names come from templates, not requests: a bound anyway)
                    kept.clear()
                found = kept[key] = real(endpoint, **values)
            return found
        return real(endpoint, **values)

    app.jinja_env.globals["url_for"] = url_for
