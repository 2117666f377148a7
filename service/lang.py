"""The languages Riftpost speaks (issue #26): English, Ukrainian and Traditional Chinese, their
gettext catalogs (service/translations, compiled by `make i18n-compile`) and how to name them.

A bottom layer of its own: the web layer picks the reader's language (service/web/language.py), the
views and, later, the emails word what they make in a language given to them, so a view of one
person's games can be worded in that person's language without knowing about requests.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.support import NullTranslations, Translations

ENGLISH = "en"
# Babel's identifiers (the catalogs' folder names); `html_tag` gives the BCP 47 tag of each.
LANGUAGES = (ENGLISH, "uk", "zh_Hant")
# Each language named in itself: a choice of language is read by someone who may not read the page's.
NATIVE_NAMES = {ENGLISH: "English", "uk": "Українська", "zh_Hant": "繁體中文"}
CATALOGS = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"


def known(language: str | None) -> str | None:
    """`language` if it is one of LANGUAGES (its BCP 47 spelling "zh-Hant" too), else None."""
    if not language:
        return None
    spelled = language.replace("-", "_")
    return spelled if spelled in LANGUAGES else None


def html_tag(language: str) -> str:
    """The `<html lang>` / Content-Language tag: "en", "uk", "zh-Hant"."""
    return language.replace("_", "-")


@functools.cache
def translations(language: str, domain: str = DOMAIN) -> NullTranslations:
    """The compiled catalog of `language` (English: the message ids themselves) in `domain` (the
    service's "messages", or a game's, e.g. "riftwalker": docs/i18n.md "Game messages").  A missing .mo
    of a known language is an install error (`make i18n-compile`), never a silent fall back to English."""
    if language == ENGLISH:
        return NullTranslations()
    found = Translations.load(str(CATALOGS), [Locale.parse(language)], domain)
    if not isinstance(found, Translations):
        raise RuntimeError(f"No compiled {domain} catalog for {language} in {CATALOGS}: run `make i18n-compile`.")
    return found


def speaker(language: str, domain: str = DOMAIN) -> tuple[Callable[..., str], Callable[..., str]]:
    """gettext and ngettext of `domain` in `language` with their placeholders filled from keywords
    (`gettext("Hi %(name)s", name=...)`; ngettext fills `%(num)d` with its count too): what the text boards
    (service/games/<game>_text.py) word their own lines with."""
    catalog = translations(language, domain)

    def gettext(message: str, **values: Any) -> str:
        found = catalog.gettext(message)
        return found % values if values else found

    def ngettext(singular: str, plural: str, num: int, **values: Any) -> str:
        return catalog.ngettext(singular, plural, num) % {"num": num, **values}

    return gettext, ngettext


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is made (a layer below the request that knows the
    reader's language); the web layer translates it where it is shown (`gettext(exc.message)`)."""
    return message


def and_list(items: list[str], language: str) -> str:
    """A list as a sentence says it: English keeps its own "Bo, Cy and Di" (no serial comma), the
    others are CLDR's by Babel ("Bo, Cy і Di", "Bo、Cy和Di")."""
    if not items:
        return ""
    if language == ENGLISH:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return format_list(items, locale=language)


def sentence_gap(language: str) -> str:
    """What stands between two sentences: a space, none in Chinese (its full stop 。 is full width)."""
    return "" if language.startswith("zh") else " "


def sentences(parts: Iterable[str], language: str) -> str:
    """Sentences one after another in `language` ("Bo picked Fire. You pick first." / "Bo 選了火。你先選。")."""
    return sentence_gap(language).join(part for part in parts if part)


class Words(str):
    """A message made below the request with its numbers and names apart (issue #26): as a `str` it is
    the English sentence (the command line, logs, the JSON API's English fields, comparisons); the web
    layer words it in the reader's language from `msgid` (a singular/plural pair when counted) and
    `params` (service/web/errors.py `said`, `in_language` below).  Made with `Nf_` / `Nn_`, which mark the
    message for the catalogs as `N_` does."""

    msgid: str
    plural: str | None
    params: dict[str, object]

    def __new__(cls, msgid: str, plural: str | None = None, **params: object) -> Words:
        num = params.get("num")
        english = plural if plural is not None and num != 1 else msgid
        made = super().__new__(cls, english % params if params else english)
        made.msgid, made.plural, made.params = msgid, plural, params
        return made

    def __reduce__(self) -> tuple:  # type: ignore[override]  # pickled as made: its English and its fields
        return _words, (self.msgid, self.plural, self.params)

    def said_in(self, catalog: NullTranslations) -> str:
        """The message in the catalog's language (gettext's `%` with the params, as Flask-Babel does)."""
        if self.plural is not None:
            found = catalog.ngettext(self.msgid, self.plural, int(self.params["num"]))  # type: ignore[call-overload]
        else:
            found = catalog.gettext(self.msgid)
        if not self.params:
            return found
        return found % {name: value.said_in(catalog) if isinstance(value, Words) else value
                        for name, value in self.params.items()}


def _words(msgid: str, plural: str | None, params: dict[str, object]) -> Words:
    return Words(msgid, plural, **params)


def Nf_(message: str, **params: object) -> Words:
    """`N_` for a message with placeholders: `Nf_("You have %(num)d tokens.", num=5)`."""
    return Words(message, None, **params)


def Nn_(singular: str, plural: str, num: int, **params: object) -> Words:
    """`N_` for a counted message (`num` picks the plural form, in each language its own)."""
    return Words(singular, plural, num=num, **params)


def in_language(text: str, language: str) -> str:
    """`text` in `language`: a `Words` by its message id and params, a plain marked message by itself."""
    catalog = translations(language)
    if isinstance(text, Words):
        return text.said_in(catalog)
    return catalog.gettext(text) if text else text
