"""`GET /healthz`: 200 when the database answers (for load balancers and process managers, and the
benchmarks' do-nothing baseline); 503 when it does not."""

from __future__ import annotations

import logging

import sqlalchemy as sa
from flask import Blueprint
from flask.typing import ResponseReturnValue

from service.store.db import get_engine

bp = Blueprint("health", __name__)
log = logging.getLogger(__name__)


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    try:
        with get_engine().connect() as connection:
            connection.execute(sa.text("SELECT 1"))
    except sa.exc.SQLAlchemyError:
        log.warning("health check: the database does not answer", exc_info=True)
        return "database unavailable\n", 503, {"Content-Type": "text/plain", "Cache-Control": "no-store"}
    return "ok\n", 200, {"Content-Type": "text/plain", "Cache-Control": "no-store"}
