"""The templates' static addresses, made once per file (service/web/static_urls.py), are Flask's own:
under the request's script root, and any other form of url_for left to Flask."""

from __future__ import annotations

from flask import render_template_string, url_for


def test_static_addresses_are_flasks_under_each_script_root(app):
    template = ("{{ url_for('static', filename='talk.css') }}|{{ url_for('static', filename='talk.css', v=2) }}|"
                "{{ url_for('static', filename='talk.css', _external=True) }}|{{ url_for('games.index') }}")
    for root in ("", "/riftpost", "", "/other"):
        with app.test_request_context("/", base_url=f"http://localhost{root}/"):
            expected = "|".join([url_for("static", filename="talk.css"), url_for("static", filename="talk.css", v=2),
                                 url_for("static", filename="talk.css", _external=True), url_for("games.index")])
            assert expected.startswith(f"{root}/static/talk.css|")
            assert render_template_string(template) == render_template_string(template) == expected.replace("&", "&amp;")
