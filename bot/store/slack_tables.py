"""slack-sdk's installation and OAuth-state tables, built by slack-sdk itself, in the metadata of
bot/store/tables.py.

A module of their own because slack-sdk's SQLAlchemy stores load SQLAlchemy's ORM and asyncio extension, a tenth
of a second that only multi-workspace mode, the expiry sweep and migrations need: a single-workspace process
starts without them.

The token columns are wider than slack-sdk makes them: they hold Fernet tokens (bot/store/tokens.py), which the
installation store reads and writes through copies of these tables.
"""

from __future__ import annotations

from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import String

from bot.store.tables import metadata
from bot.store.tokens import STORED_WIDTH, TOKEN_COLUMNS

installations = SQLAlchemyInstallationStore.build_installations_table(metadata, "slack_installations")
bots = SQLAlchemyInstallationStore.build_bots_table(metadata, "slack_bots")
for _table in (installations, bots):
    for _name in TOKEN_COLUMNS[_table.name]:
        _table.c[_name].type = String(STORED_WIDTH)  # an encrypted token (migration 0005), before any use
oauth_states = SQLAlchemyOAuthStateStore.build_oauth_states_table(metadata, "slack_oauth_states")
