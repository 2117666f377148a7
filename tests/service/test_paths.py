"""The links emails carry come from service/paths.py, the one place the linked pages' paths are written:
the web routes those pages from the same rules, and builds the same URLs from them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import url_for

from service import paths
from service.views import email_render

ROOT = Path(__file__).resolve().parents[2]
VALUES = {"token": "eyJwIjo5fQ.ab-c_d/e f?g&h", "filename": "board/riftwalker-icons.svg"}


def sample_values(endpoint: str) -> dict[str, str]:
    names = re.findall(r"<(?:[a-z]+:)?([a-z_]+)>", paths.RULES[endpoint])
    return {name: VALUES[name] for name in names}


def test_the_web_routes_every_linked_page_with_the_rule_of_service_paths(app):
    rules = {rule.endpoint: rule.rule for rule in app.url_map.iter_rules()}
    for endpoint, path in paths.RULES.items():
        assert rules.get(endpoint) == path, endpoint


@pytest.mark.parametrize("base_url", ["http://riftpost.test", "https://example.org/games"])
def test_paths_builds_every_url_as_the_web_app_builds_it(app, base_url):
    for endpoint in paths.RULES:
        values = {**sample_values(endpoint), "step": "2 b", "why": "never"}
        with app.test_request_context("/", base_url=base_url):
            expected = url_for(endpoint, _external=True, **values)
            relative = url_for(endpoint, **values)
        assert paths.url(endpoint, base_url=base_url, **values) == expected
        assert paths.path(endpoint, base_url=base_url, **values) == relative


HARD_VALUES = [
    {"token": "Ünï cödé/ü?#%20+", "filename": "a b/ç.svg"},
    {"token": 42, "filename": "x", "step": None, "why": ["a b", None, "ü&=?"], "n": 3, "flag": ("x", "y")},
    {"token": "~-._!$&'()*+,;=:@", "filename": "~-._!$&'()*+,;=:@", "q": "~-._!$&'()*+,;=:@ /?#[]"},
    {"token": "", "filename": "/lead", "empty": "", "set": {"one"}},
]


@pytest.mark.parametrize("base_url", ["http://riftpost.test", "https://Example.ORG:8443/games/", "HTTP://bücher.example",
                                      "ftp://x.test//deep//", "//nohost", "https://example.org/a b/ü"])
def test_paths_builds_every_url_byte_for_byte_as_werkzeugs_routing(base_url):
    """service/paths.py builds links without werkzeug (the worker never loads it): the same bytes as the
    werkzeug Map that Flask's url_for builds with, for values that need quoting, lists, None, numbers."""
    from urllib.parse import urlsplit

    from werkzeug.routing import Map, Rule

    parts = urlsplit(base_url)
    adapter = Map([Rule(path, endpoint=endpoint) for endpoint, path in paths.RULES.items()]).bind(
        parts.netloc, script_name=parts.path or "/", url_scheme=parts.scheme or "http")
    for endpoint in paths.RULES:
        for values in HARD_VALUES:
            assert paths.url(endpoint, base_url=base_url, **values) == adapter.build(
                endpoint, values, force_external=True), (endpoint, values)
            assert paths.path(endpoint, base_url=base_url, **values) == adapter.build(endpoint, values), (endpoint, values)


def test_a_link_to_an_endpoint_paths_does_not_know_fails_loudly_and_says_where_to_add_it(app):
    with pytest.raises(paths.UnknownEndpoint, match=r"service/paths.py RULES"):
        paths.url("lobby.page", token="x")
    with pytest.raises(paths.UnknownEndpoint, match=r"token"):
        paths.url("play.page")  # a value the rule needs
    with pytest.raises(paths.UnknownEndpoint, match=r"token"):
        paths.url("play.page", token=None)  # None is no value
    template = email_render.environment().from_string("{{ url_for('lobby.page', token='x', _external=True) }}")
    with pytest.raises(paths.UnknownEndpoint):
        template.render()


def test_email_templates_url_for_is_the_web_apps(app):
    env = email_render.environment()
    text = env.from_string("{{ url_for('play.page', token='a b', _external=True) }} "
                           "{{ url_for('static', filename='board/common.css') }}").render()
    with app.test_request_context("/", base_url=app.config["BASE_URL"]):
        assert text == (url_for("play.page", token="a b", _external=True) + " "
                        + url_for("static", filename="board/common.css"))


def endpoints_named() -> dict[str, set[str]]:
    """Every endpoint the email templates (and the board templates they draw) name in `url_for`, and
    every one the code below the web names in `paths.url` / `paths.path`, by file."""
    found: dict[str, set[str]] = {}
    games = ROOT / "templates" / "games"
    drawn = [*games.rglob("board.html"), *games.rglob("*_email.*"), games / "_text_board.html"]
    for template in [*(ROOT / "templates" / "email").rglob("*.*"), *drawn]:
        found[str(template.relative_to(ROOT))] = set(re.findall(r"url_for\(\s*['\"]([\w.]+)['\"]", template.read_text()))
    for module in (ROOT / "service").rglob("*.py"):
        if "web" in module.relative_to(ROOT).parts or module.name == "paths.py":  # its docstring's example
            continue
        found[str(module.relative_to(ROOT))] = set(re.findall(r"paths\.(?:url|path|rule)\(\s*['\"]([\w.]+)['\"]",
                                                              module.read_text()))
    return found


def test_every_endpoint_an_email_names_is_in_paths():
    """A helper adding an email that links a new page adds its endpoint to service/paths.py RULES."""
    missing = {where: sorted(names - paths.RULES.keys()) for where, names in endpoints_named().items()
               if names - paths.RULES.keys()}
    assert not missing, f"add these endpoints to service/paths.py RULES: {missing}"
    assert "service/mail/compose.py" in endpoints_named() and endpoints_named()["service/mail/compose.py"]


def test_the_mail_code_builds_no_link_with_flask():
    """Emails are rendered without the web app: no module below the web imports Flask's `url_for`,
    `render_template` or `current_app` as it loads (a web page's board draws with Flask's, importing it
    when drawn: service/views/positions.py), and none makes a fake request."""
    for module in (ROOT / "service").rglob("*.py"):
        parts = module.relative_to(ROOT).parts
        if "web" in parts or parts[-1] in ("app.py", "cli.py") or "migrations" in parts:
            continue
        text = module.read_text()
        assert not re.search(r"^from flask import .*\b(url_for|render_template|current_app)\b", text, re.M), module
        assert "test_request_context" not in text, module
