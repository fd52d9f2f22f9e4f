"""Create or bring the schema up to date with Alembic; safe to run from several processes or hosts at once.

    python -m bot.store upgrade      (the server also runs it at start-up, before its workers fork)

Migrations only ever add: no revision drops a table or column that holds data, and none is ever undone (but
0005, which encrypts stored tokens, can be, to decrypt them again).

A database already at `HEAD` costs one query and never imports Alembic (a tenth of a second at start-up);
Alembic is loaded only to migrate.

Migration 0005 encrypts the tokens already stored and needs the key for it: `tokens`, or the one in
DPSCALE_TOKEN_KEYS (as `python -m bot.store upgrade` and a server that migrates before it builds its app find
it). Without a key it stops, and changes nothing, only where a token is stored: a single-workspace deployment,
which stores none, needs no key.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from bot.store.db import Database
from bot.store.tokens import TokenCipher

if TYPE_CHECKING:
    from alembic.config import Config

logger = logging.getLogger(__name__)

SCRIPT_LOCATION = "bot.store:migrations"
HEAD = "0007"  # the newest revision in migrations/versions (a test holds it to Alembic's own head)
LOCK_ID = 0x6470_7363  # "dpsc": one PostgreSQL advisory lock serialises concurrent upgrades


def alembic_config(connection: Connection | None = None, tokens: TokenCipher | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    config.attributes["tokens"] = tokens if tokens is not None else TokenCipher.from_environment()
    return config


def current_revision(database: Database) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with database.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def at_head(database: Database) -> bool:
    """True when the schema is at `HEAD`, read from Alembic's own version table without Alembic; False when it
    is behind, or not there at all."""
    try:
        with database.engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except SQLAlchemyError:  # no version table yet: a new database
        return False
    return versions == [HEAD]


def upgrade(database: Database, revision: str = "head", tokens: TokenCipher | None = None) -> None:
    """Bring the schema to `revision`; a database already there is left untouched. `tokens` encrypts the
    tokens stored before 0005 (None: DPSCALE_TOKEN_KEYS, where it is set)."""
    if revision in ("head", HEAD) and at_head(database):
        logger.debug("database schema at revision %s", HEAD)
        return
    from alembic import command

    with database.engine.begin() as connection:
        if database.dialect == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": LOCK_ID})
        command.upgrade(alembic_config(connection, tokens), revision)
    logger.info("database schema upgraded to revision %s", current_revision(database))


def downgrade(database: Database, revision: str, tokens: TokenCipher | None = None) -> None:
    """Take the schema back to `revision`: only 0005 can be undone (its tokens decrypted with `tokens`, or
    DPSCALE_TOKEN_KEYS); every other revision refuses, and the transaction leaves the database as it was."""
    from alembic import command

    with database.engine.begin() as connection:
        if database.dialect == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": LOCK_ID})
        command.downgrade(alembic_config(connection, tokens), revision)
    logger.info("database schema upgraded to revision %s", current_revision(database))
