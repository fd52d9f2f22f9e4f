"""Slack tokens encrypted at rest, with a key from the environment (DPSCALE_TOKEN_KEYS) that can be rotated.

Every column of slack-sdk's installation tables that holds a credential (`TOKEN_COLUMNS`: bot and user tokens,
their refresh tokens, and an incoming webhook's URL) is stored as a Fernet token (`cryptography`: AES-128-CBC
with an HMAC-SHA256, each value with its own IV and time stamp); a backup, a dump or a read replica holds no
token anyone can use. The keys are a comma-separated list (`MultiFernet`): the first encrypts, every one of them
decrypts, so a key is rotated by putting the new one first, re-encrypting the rows
(`python -m bot.store rotate-keys`) and only then dropping the old one (README, "What is stored").

How it is done: with SQLAlchemy type decorators (`EncryptedToken`), not by changing slack-sdk's store. The store
(bot/store/installations.py) reads and writes through its own copies of the two tables (`encrypted_tables`)
whose token columns encrypt every value bound to them and decrypt every value read from them, so slack-sdk's
`save`, `save_bot`, `find_bot` and `find_installation` run unmodified and always see plain tokens, while the
module's tables (bot/store/tables.py), which the migrations and the uninstall path use, see the stored text.

A value stored in plain text (by a process of an older version, during a deploy) is still read, as what it is:
`rotate-keys` encrypts it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import MetaData, String, Table, TableClause, select, update
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.types import TypeDecorator

from bot.keys import KEYS_VARIABLE, parse_keys

if TYPE_CHECKING:
    from cryptography.fernet import MultiFernet

TOKEN_COLUMNS: Mapping[str, tuple[str, ...]] = {
    "slack_installations": ("bot_token", "bot_refresh_token", "user_token", "user_refresh_token",
                            "incoming_webhook_url"),
    "slack_bots": ("bot_token", "bot_refresh_token"),
}
PLAIN_WIDTH = 200  # slack-sdk's width of each of these columns, so the longest value a token can have
# a Fernet token of n bytes is base64 of 57 + (n // 16 + 1) * 16 bytes: 356 characters for 200
STORED_WIDTH = 400
_PLAIN_PREFIXES = ("xox", "http://", "https://")  # what a Slack token or a webhook URL starts with; Fernet: gAAAAA


class TokenKeyError(Exception):
    """A stored token cannot be read or written: no key is given, or none of the keys decrypts it. The message
    names the setting, never a value."""


class TokenCipher:
    """Encrypts with the first of `keys`, decrypts with any of them (`cryptography.fernet.MultiFernet`)."""

    def __init__(self, keys: Sequence[str]) -> None:
        from cryptography.fernet import Fernet, MultiFernet  # imported only where tokens are stored

        if not keys:
            raise TokenKeyError(f"{KEYS_VARIABLE} holds no key")
        self._fernet: MultiFernet = MultiFernet([Fernet(key) for key in keys])

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> TokenCipher | None:
        """The cipher of DPSCALE_TOKEN_KEYS, or None where it is not set (ValueError where it is malformed)."""
        text = (os.environ if environ is None else environ).get(KEYS_VARIABLE, "")
        return cls(parse_keys(text)) if text.strip() else None

    def encrypt(self, token: str) -> str:
        return self._fernet.encrypt(token.encode()).decode("ascii")

    def decrypt(self, stored: str) -> str:
        if is_plain(stored):
            return stored
        from cryptography.fernet import InvalidToken

        try:
            return self._fernet.decrypt(stored.encode("ascii")).decode()
        except (InvalidToken, UnicodeEncodeError):
            raise TokenKeyError(f"a stored token is not readable with any key in {KEYS_VARIABLE} "
                                "(was the key it was encrypted with removed?)") from None

    def readable(self, stored: str) -> bool:
        """Whether `stored` can be read with these keys."""
        try:
            self.decrypt(stored)
        except TokenKeyError:
            return False
        return True

    def rotate(self, stored: str) -> str:
        """`stored` encrypted with the first key, whether it was plain or encrypted with any of the keys."""
        return self.encrypt(self.decrypt(stored))


def is_plain(stored: str) -> bool:
    return stored.startswith(_PLAIN_PREFIXES)


class EncryptedToken(TypeDecorator[str]):
    """A token column as the store sees it: plain text in Python, a Fernet token in the database."""

    impl = String(STORED_WIDTH)
    cache_ok = True  # `cipher` is part of the cache key: a statement compiled for one cipher is never another's

    def __init__(self, cipher: TokenCipher) -> None:
        super().__init__()
        self.cipher = cipher

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else self.cipher.encrypt(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else self.cipher.decrypt(value)


def encrypted_tables(cipher: TokenCipher, *tables: Table) -> list[Table]:
    """Copies of `tables` (in a metadata of their own) whose token columns encrypt and decrypt with `cipher`."""
    metadata = MetaData()
    copies = []
    for table in tables:
        copy = table.to_metadata(metadata)
        for name in TOKEN_COLUMNS[table.name]:
            copy.c[name].type = EncryptedToken(cipher)  # before any statement is compiled against the copy
        copies.append(copy)
    return copies


def count_tokens(connection: Connection, tables: Iterable[TableClause], which: Callable[[str], bool]) -> int:
    """How many of the tokens stored in `tables` are `which`."""
    return sum(which(row[name]) for table in tables for row in _token_rows(connection, table)
               for name in TOKEN_COLUMNS[table.name] if row[name] is not None)


def _token_rows(connection: Connection, table: TableClause) -> list[Any]:
    columns = [table.c[name] for name in TOKEN_COLUMNS[table.name]]
    return list(connection.execute(select(table.c.id, *columns)).mappings().all())


def rewrite_tokens(connection: Connection, tables: Iterable[TableClause], change: Callable[[str], str]) -> int:
    """Apply `change` (stored text → stored text) to every token stored in `tables`, row by row, through
    `connection` (the caller's transaction); the number of values rewritten."""
    rewritten = 0
    for table in tables:
        for row in _token_rows(connection, table):
            values = {name: change(row[name]) for name in TOKEN_COLUMNS[table.name] if row[name] is not None}
            values = {name: value for name, value in values.items() if value != row[name]}
            if values:
                connection.execute(update(table).where(table.c.id == row["id"]).values(**values))
                rewritten += len(values)
    return rewritten
