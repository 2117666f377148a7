"""A tiny scripted browser (urllib + a cookie jar + an HTML form reader) for the e2e tests:
each player has their own, and it only GETs links and submits the forms pages contain."""

from __future__ import annotations

import html
import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)  # hidden and text inputs
    radios: dict[str, list[str]] = field(default_factory=dict)  # name -> values


class _FormReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._current: Form | None = None
        self._select: str | None = None  # the name of the <select> being read
        self._option: str | None = None  # the select whose value-less option text is being read

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._current = Form(attrs.get("action") or "", (attrs.get("method") or "get").lower())
            self.forms.append(self._current)
        elif tag == "input" and self._current is not None:
            kind = (attrs.get("type") or "text").lower()
            name = attrs.get("name")
            if not name:
                return
            if kind == "radio":
                self._current.radios.setdefault(name, []).append(attrs.get("value") or "")
            elif kind == "checkbox":  # as a browser does: only a ticked box is submitted
                if "checked" in attrs:
                    self._current.fields[name] = attrs.get("value") or "on"
            elif kind != "submit":
                self._current.fields[name] = attrs.get("value") or ""
        elif tag == "select" and self._current is not None and attrs.get("name"):
            self._select = attrs["name"]
        elif tag == "option" and self._current is not None and self._select is not None:
            # A select submits its selected option, else its first one; an option without a
            # value attribute submits its text.
            self._option = None
            if self._select not in self._current.fields or "selected" in attrs:
                if "value" in attrs:
                    self._current.fields[self._select] = attrs["value"] or ""
                else:
                    self._option = self._select
                    self._current.fields[self._select] = ""

    def handle_data(self, data):
        if self._option is not None and self._current is not None:
            self._current.fields[self._option] += data.strip()

    def handle_endtag(self, tag):
        if tag == "form":
            self._current = None
        elif tag == "select":
            self._select = None
        if tag in ("option", "select"):
            self._option = None


@dataclass
class Response:
    url: str
    status: int
    text: str

    def forms(self) -> list[Form]:
        reader = _FormReader()
        reader.feed(self.text)
        return reader.forms


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    def __init__(self):
        self.last_confirm: tuple[Response, Form] | None = None  # the latest "Confirm turn" submitted
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect)

    def _open(self, request) -> Response:
        try:
            with self.opener.open(request, timeout=30) as answer:
                return Response(answer.url, answer.status, answer.read().decode())
        except urllib.error.HTTPError as error:  # 3xx (not followed here) and 4xx/5xx
            if 300 <= error.code < 400:
                return Response(error.headers["Location"], error.code, "")
            return Response(request.full_url, error.code, error.read().decode(errors="replace"))

    def get(self, url: str) -> Response:
        return self._open(urllib.request.Request(url))

    def head(self, url: str) -> int:
        return self._open(urllib.request.Request(url, method="HEAD")).status

    def submit(self, page: Response, form: Form, choices: dict[str, str] | None = None,
               follow: bool = True) -> Response:
        data = dict(form.fields)
        data.update(choices or {})
        target = urllib.parse.urljoin(page.url, form.action or page.url)
        if form.method == "get":
            return self._step(target, data, follow)
        answer = self._open(urllib.request.Request(target, data=urllib.parse.urlencode(data).encode()))
        if follow and answer.status in (302, 303):
            return self.get(urllib.parse.urljoin(target, answer.url))
        return answer


    def _step(self, target: str, data: dict[str, str], follow: bool) -> Response:
        """A GET form: the player page's step form adds the chosen step to the turn being composed
        (nothing is recorded); the page that answers offers "Confirm turn", which this player presses
        at once (a turn of one step at a time, as the old one-move form played it)."""
        url = urllib.parse.urldefrag(target).url
        page = self.get(f"{url}{'&' if '?' in url else '?'}{urllib.parse.urlencode(data)}")
        confirm = next((f for f in page.forms() if f.method == "post" and "turn" in f.fields), None)
        if page.status != 200 or "move" not in data or confirm is None:
            return page
        self.last_confirm = (page, confirm)
        return self.submit(page, confirm, follow=follow)


def unescape(value: str) -> str:
    return html.unescape(value)
