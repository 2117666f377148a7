"""`GET /healthz`: 200 when the database answers (for load balancers and process managers, and the
benchmarks' do-nothing baseline); 503 when it does not.

The check is one `SELECT 1` on a pooled connection's DB-API cursor, outside any transaction
(service/store/db.py `unbound`): through a SQLAlchemy connection it cost ~60 µs of Python in process
(its begin, execution context, result and rollback), most of the route, and on PostgreSQL a BEGIN and
a ROLLBACK around the query (issue #27).  A checkout still runs the pool's check of an idle
connection, and a connection lost on the way is invalidated as SQLAlchemy would."""

from __future__ import annotations

import logging

import sqlalchemy as sa
from flask import Blueprint
from flask.typing import ResponseReturnValue

from service.store.db import get_engine, unbound
from service.store.prepared import execute_text

bp = Blueprint("health", __name__)
log = logging.getLogger(__name__)
HEADERS = {"Content-Type": "text/plain", "Cache-Control": "no-store"}


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    engine = get_engine()
    try:
        with unbound(engine) as connection:
            execute_text(connection, "SELECT 1")
    # (a checkout's own failure, such as a database that cannot be opened, is the driver's error)
    except (sa.exc.SQLAlchemyError, engine.dialect.loaded_dbapi.Error):
        log.warning("health check: the database does not answer", exc_info=True)
        return "database unavailable\n", 503, HEADERS
    return "ok\n", 200, HEADERS
