"""ORM rows from a statement run on the DB-API cursor (service/store/prepared.py), as the session's own
loading would have made them.

An ORM read costs ~0.3 ms of SQLAlchemy's Python per statement (building it, its cache key, the ORM's
execution and loading), whatever the row; a `Prepared` statement ~30 µs.  Where the rest of the code
wants the ORM objects (`session.get` finds them, attributes read as always), a statement selects a
model's `columns()` and `attached` makes each row the object the ORM would have loaded: made without
`__init__`, its values as SQLAlchemy converts them, persistent in the session and unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, SQLModel

Row = TypeVar("Row", bound=SQLModel)


def table(model: type[SQLModel]) -> sa.Table:
    return model.__table__  # type: ignore[attr-defined,no-any-return]  # SQLModel declares no type for it


def columns(model: type[SQLModel]) -> list[sa.Column[Any]]:
    """The model's columns, in the order `attached` takes their values."""
    return list(table(model).c)


@cache
def _shape(model: type[SQLModel]) -> tuple[list[str], list[int]]:
    """The model's attribute names in `columns` order, and the places of its primary key among them."""
    keys = [column.key for column in table(model).c]
    return keys, [keys.index(column.key) for column in sa.inspect(model).primary_key]


def attached(session: Session, model: type[Row], values: Sequence[Any]) -> Row:
    """`model`'s row of these values (of its `columns`) as `session` would have loaded it: persistent in
    it, unchanged.  The session's own object when it holds that row already (as its loading keeps it,
    without overwriting what it holds)."""
    keys, key_places = _shape(model)
    mapper = sa.inspect(model)
    found = session.identity_map.get(mapper.identity_key_from_primary_key([values[place] for place in key_places]))
    if found is not None:
        return found  # type: ignore[no-any-return]
    instance = mapper.class_manager.new_instance()  # as loading makes it: no __init__, no defaults
    sa.inspect(instance).dict.update(zip(keys, values, strict=True))
    make_transient_to_detached(instance)  # as if loaded: its identity, nothing changed
    session.add(instance)  # (a detached object joins the session as it is: nothing to write)
    return instance  # type: ignore[no-any-return]
