"""Create or bring the schema up to date with Alembic; safe to run from several processes or hosts at once.

    python -m bot.store upgrade      (the server also runs it at start-up, before its workers fork)

Migrations only ever add: no revision drops a table or column that holds data, and none is ever undone.
"""

from __future__ import annotations

import logging

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.store.db import Database

logger = logging.getLogger(__name__)

SCRIPT_LOCATION = "bot.store:migrations"
LOCK_ID = 0x6470_7363  # "dpsc": one PostgreSQL advisory lock serialises concurrent upgrades


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(database: Database) -> str | None:
    with database.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(database: Database, revision: str = "head") -> None:
    """Bring the schema to `revision`; a database already there is left untouched."""
    with database.engine.begin() as connection:
        if database.dialect == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": LOCK_ID})
        command.upgrade(alembic_config(connection), revision)
    logger.info("database schema at revision %s", current_revision(database))
