"""Installations for multi-workspace mode, in slack-sdk's own SQLAlchemy stores, and forgetting a workspace.

Only bot tokens are stored (dpscale asks for no user scopes), encrypted with DPSCALE_TOKEN_KEYS: the store reads
and writes through copies of slack-sdk's tables whose token columns encrypt and decrypt (bot/store/tokens.py), so
slack-sdk's own code stays as it is and never sees anything but plain tokens.

Token rotation (Slack's expiring tokens, not the key's) stays off: Bolt refreshes an expiring token inside
whichever request notices it first, with no lock, so two processes may both refresh, and the refresh token one
of them saved is then already spent — the workspace would lose its installation.
"""

from __future__ import annotations

import logging

from slack_sdk.oauth.installation_store import Bot, Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import ColumnElement, Table, and_, delete, or_, select, true

from bot.store.cache import SharedCache
from bot.store.db import Database
from bot.store.events import utcnow
from bot.store.slack_tables import bots, installations, oauth_states
from bot.store.tables import answers, handled, preferences, user_locales, work
from bot.store.tokens import TokenCipher, encrypted_tables, rewrite_tokens
from bot.store.workspace import Workspace

logger = logging.getLogger(__name__)


class InstallationStore(SQLAlchemyInstallationStore):
    """slack-sdk's store on dpscale's database (its tables are created by the migrations, not by the store), its
    tokens encrypted with `tokens`, its `find_bot` — read on every request — kept in each process until any
    process changes an installation."""

    def __init__(self, database: Database, client_id: str, tokens: TokenCipher, cache: SharedCache) -> None:
        super().__init__(client_id=client_id, engine=database.engine)
        self.installations, self.bots = encrypted_tables(tokens, installations, bots)
        self._cache = cache
        self._tokens = tokens

    def find_bot(self, *, enterprise_id: str | None, team_id: str | None,
                 is_enterprise_install: bool | None = False) -> Bot | None:
        key = f"bot:{self.client_id}:{enterprise_id or ''}:{team_id or ''}:{bool(is_enterprise_install)}"
        return self._cache.get(key, lambda: super(InstallationStore, self).find_bot(
            enterprise_id=enterprise_id, team_id=team_id, is_enterprise_install=is_enterprise_install))

    def save(self, installation: Installation) -> None:
        super().save(installation)
        self._changed()

    def save_bot(self, bot: Bot) -> None:
        super().save_bot(bot)
        self._changed()

    def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        super().delete_bot(enterprise_id=enterprise_id, team_id=team_id)
        self._changed()

    def delete_installation(self, *, enterprise_id: str | None, team_id: str | None,
                            user_id: str | None = None) -> None:
        super().delete_installation(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)
        self._changed()

    def check_keys(self) -> int:
        """How many stored bot tokens no key of the store's decrypts (a key dropped before `rotate-keys`, say):
        those workspaces' requests fail, and only theirs (`find_bot` raises TokenKeyError for them). TokenKeyError
        here if there are tokens and none is readable: the keys are another deployment's, and so is every token."""
        c = bots.c  # the stored text, tried here one by one
        with self.engine.connect() as connection:
            stored = connection.execute(select(c.bot_token).where(c.client_id == self.client_id,
                                                                  c.bot_token.is_not(None))).scalars().all()
        unreadable = sum(not self._tokens.readable(token) for token in stored)
        if stored and unreadable == len(stored):
            self._tokens.decrypt(stored[0])  # raises, naming the setting
        return unreadable

    def _changed(self) -> None:
        with self.engine.begin() as connection:
            self._cache.changed(connection)


def installation_store(database: Database, client_id: str, tokens: TokenCipher,
                       cache: SharedCache | None = None) -> InstallationStore:
    return InstallationStore(database, client_id, tokens, cache or SharedCache(database))


def rotate_tokens(database: Database, tokens: TokenCipher) -> int:
    """Re-encrypt every stored token with the first of `tokens`' keys (and encrypt any stored in plain text), in
    one transaction; the number of values rewritten. Afterwards the other keys may be dropped."""
    with database.engine.begin() as connection:
        return rewrite_tokens(connection, (installations, bots), tokens.rotate)


class OAuthStateStore(SQLAlchemyOAuthStateStore):
    """slack-sdk's state store, with a consume that is one DELETE: a state replayed at the same moment on two
    processes is accepted by one of them only (the stock consume reads, then deletes)."""

    def __init__(self, database: Database, expiration_seconds: int) -> None:
        super().__init__(expiration_seconds=expiration_seconds, engine=database.engine)
        self.oauth_states = oauth_states

    def consume(self, state: str) -> bool:
        c = oauth_states.c
        with self.engine.begin() as connection:
            deleted = connection.execute(
                delete(oauth_states).where(and_(c.state == state, c.expire_at > utcnow()))
            ).rowcount
            connection.execute(delete(oauth_states).where(c.expire_at <= utcnow()))  # clean up on the way
        return deleted == 1


def forget_workspace(database: Database, workspace: Workspace, client_id: str | None,
                     cache: SharedCache | None = None, keep: tuple[str, str] | None = None) -> dict[str, int]:
    """Delete, in one transaction, the installation (if any) and every row dpscale keeps about `workspace`;
    an org-wide installation takes every workspace of its organisation with it. Returns rows deleted per table.
    `keep` names the piece of follow-up work doing the deletion (kind, key), whose row it leaves to be finished."""
    deleted: dict[str, int] = {}
    with database.engine.begin() as connection:
        if cache is not None:
            cache.changed(connection)
        for table in (preferences, handled, answers, work, user_locales):
            which = _ours(table, workspace)
            if table is work and keep is not None:
                which = and_(which, or_(work.c.kind != keep[0], work.c.key != keep[1]))
            deleted[table.name] = connection.execute(delete(table).where(which)).rowcount
        if client_id is not None:
            for table in (installations, bots):
                deleted[table.name] = connection.execute(
                    delete(table).where(and_(table.c.client_id == client_id, _installed(table, workspace)))
                ).rowcount
    logger.info("forgot workspace: %s", " ".join(f"{name}={count}" for name, count in sorted(deleted.items())))
    return deleted


def _ours(table: Table, workspace: Workspace) -> ColumnElement[bool]:
    same_org = table.c.enterprise_id == workspace.enterprise_key
    if workspace.is_enterprise_install:
        return same_org
    return and_(same_org, table.c.team_id == workspace.team_key)


def _installed(table: Table, workspace: Workspace) -> ColumnElement[bool]:
    c = table.c
    org = c.enterprise_id == workspace.enterprise_id if workspace.enterprise_id else c.enterprise_id.is_(None)
    if workspace.is_enterprise_install:
        return and_(org, c.is_enterprise_install == true())
    return and_(org, c.team_id == workspace.team_id)
