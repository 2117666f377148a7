"""`{{ c.guild }}` on a dict, found by its key first (issue #27: the player page's CPU).

Jinja's `obj.name` tries the attribute first and the key second; a view's cards, players and asks are
dicts (the engines' JSON shapes), so each such lookup raised and caught an AttributeError first: some
700 a Riftforce page, about a tenth of its CPU.  A dict's keys that are not the names of dict's own
attributes (`items`, `get`, `update`...) are found by key at once; every other lookup is Jinja's, so
what a template reads is what it read before (a dict's methods still win over its keys).
"""

from __future__ import annotations

import types
from typing import Any

from flask import Flask
from jinja2 import Environment

_DICT_ATTRIBUTES = frozenset(dir(dict))


def _getattr(environment: Environment, obj: Any, attribute: str) -> Any:
    if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
        try:
            return obj[attribute]
        except KeyError:
            pass
    return Environment.getattr(environment, obj, attribute)


def install(app: Flask) -> None:
    """On the app's environment, made already (service/app.py sets a filter first); its compiled
    templates call `environment.getattr` for every `a.b`."""
    env = app.jinja_env
    env.getattr = types.MethodType(_getattr, env)  # type: ignore[method-assign]
