"""Running the Alembic migrations that ship inside this package (service/migrations)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config


def alembic_config(url: str) -> Config:
    config = Config()
    # A package resource, so an installed riftpost finds its migrations wherever it lives.
    config.set_main_option("script_location", "service:migrations")
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "heads") -> None:
    # "heads", not "head": migrations written side by side may branch from one parent until a
    # merge revision joins them; an upgrade must apply every branch.
    command.upgrade(alembic_config(url), revision)
