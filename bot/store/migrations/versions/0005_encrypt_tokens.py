"""Slack tokens encrypted at rest: the token columns widened to hold Fernet tokens, and every stored token
encrypted with the first key of DPSCALE_TOKEN_KEYS (bot/store/tokens.py).

The key comes from `bot.store.migrate.upgrade` (its `tokens`, or DPSCALE_TOKEN_KEYS). Without one, the
migration stops if any token is stored, and nothing is changed (it runs in the upgrade's transaction); with no
token stored (single-workspace mode) it needs none. Undone, it decrypts every token again (with the same key).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import context, op

from bot.store.tokens import (
    PLAIN_WIDTH,
    STORED_WIDTH,
    TOKEN_COLUMNS,
    TokenCipher,
    TokenKeyError,
    count_tokens,
    is_plain,
    rewrite_tokens,
)

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tokens = _key_for("encrypt", is_plain)  # asked first: stopped, the migration leaves the tables as they are
    _resize(PLAIN_WIDTH, STORED_WIDTH)
    if tokens is not None:
        _rewrite(is_plain, tokens.encrypt)


def downgrade() -> None:
    tokens = _key_for("decrypt", _encrypted)
    if tokens is not None:
        _rewrite(_encrypted, tokens.decrypt)
    _resize(STORED_WIDTH, PLAIN_WIDTH)


def _rewrite(due: Callable[[str], bool], change: Callable[[str], str]) -> None:
    rewrite_tokens(op.get_bind(), _tables(), lambda stored: change(stored) if due(stored) else stored)


def _encrypted(stored: str) -> bool:
    return not is_plain(stored)


def _key_for(verb: str, due: Callable[[str], bool]) -> TokenCipher | None:
    """The upgrade's key; None where there is none and no stored token is `due` for `verb` (TokenKeyError where
    one is)."""
    tokens: TokenCipher | None = context.config.attributes.get("tokens")
    if tokens is None:
        waiting = count_tokens(op.get_bind(), _tables(), due)
        if waiting:
            raise TokenKeyError(f"DPSCALE_TOKEN_KEYS is needed to {verb} the {waiting} token(s) stored; set it "
                                "(`python -m bot.store new-key` makes a key) and start again")
    return tokens


def _tables() -> list[sa.TableClause]:
    return [sa.table(name, sa.column("id"), *(sa.column(column) for column in columns))
            for name, columns in TOKEN_COLUMNS.items()]


def _resize(width: int, new_width: int) -> None:
    for name, columns in TOKEN_COLUMNS.items():
        with op.batch_alter_table(name) as batch:
            for column in columns:
                batch.alter_column(column, existing_type=sa.String(width), type_=sa.String(new_width))
