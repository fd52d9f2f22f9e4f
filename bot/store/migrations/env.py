"""Alembic's environment: runs on the connection `bot.store.migrate` hands over (no alembic.ini needed)."""

from __future__ import annotations

from alembic import context

from bot.store.slack_tables import metadata  # dpscale's tables and slack-sdk's

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
