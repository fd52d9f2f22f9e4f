"""The keys Slack tokens are stored encrypted with (DPSCALE_TOKEN_KEYS): their shape, and a new one.

Fernet keys (`cryptography.fernet`): 32 bytes in URL-safe base64, comma-separated, the one that encrypts first.
Checked here without importing `cryptography`, so that the settings can be validated before anything is loaded.
"""

from __future__ import annotations

import base64
import binascii

__all__ = ["KEYS_VARIABLE", "new_key", "parse_keys"]

KEYS_VARIABLE = "DPSCALE_TOKEN_KEYS"
NEW_KEY_HINT = "generate one with `python -m bot.store new-key`"


def parse_keys(text: str) -> list[str]:
    """The keys of a DPSCALE_TOKEN_KEYS value, in order; ValueError saying which one is not a Fernet key,
    without showing it.

    >>> [key[:4] for key in parse_keys(" " + "A" * 43 + "=, " + "B" * 43 + "=")]
    ['AAAA', 'BBBB']
    """
    keys = [key.strip() for key in text.split(",") if key.strip()]
    if not keys:
        raise ValueError(f"must hold at least one key ({NEW_KEY_HINT})")
    for number, key in enumerate(keys, 1):
        if not _is_fernet_key(key):
            raise ValueError(f"key {number} of {len(keys)} is not a Fernet key, 32 bytes in URL-safe base64 "
                             f"({NEW_KEY_HINT})")
    return keys


def _is_fernet_key(key: str) -> bool:
    try:
        return len(base64.b64decode(key.encode("ascii"), altchars=b"-_", validate=True)) == 32
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return False


def new_key() -> str:
    """A new random key, as `python -m bot.store new-key` prints it."""
    from cryptography.fernet import Fernet

    return Fernet.generate_key().decode("ascii")
