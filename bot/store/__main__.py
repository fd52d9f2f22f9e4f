"""The store's commands, on the database at DATABASE_URL with the keys in DPSCALE_TOKEN_KEYS:

    python -m bot.store upgrade          create or migrate the schema (the server also does it at start)
    python -m bot.store rotate-keys      re-encrypt every stored token with the first key of DPSCALE_TOKEN_KEYS
    python -m bot.store new-key          print a new key for DPSCALE_TOKEN_KEYS
    python -m bot.store downgrade 0005-1 undo the tokens' encryption (0005), decrypting them; nothing else undoes
"""

from __future__ import annotations

import logging
import os
import sys

from bot.keys import KEYS_VARIABLE, new_key

USAGE = "usage: python -m bot.store upgrade | rotate-keys | new-key | downgrade REVISION"


def main(argv: list[str]) -> int:
    if argv == ["new-key"]:
        print(new_key())
        return 0
    if argv not in (["upgrade"], ["rotate-keys"]) and not (len(argv) == 2 and argv[0] == "downgrade"):
        print(USAGE, file=sys.stderr)
        return 2
    from bot.store.db import Database
    from bot.store.installations import rotate_tokens
    from bot.store.migrate import downgrade, upgrade
    from bot.store.tokens import TokenCipher, TokenKeyError

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s %(message)s")
    try:
        tokens = TokenCipher.from_environment()
    except ValueError as problem:
        print(f"{KEYS_VARIABLE} {problem}", file=sys.stderr)
        return 2
    database = Database(os.environ.get("DATABASE_URL"))
    try:
        if argv[0] == "downgrade":
            downgrade(database, argv[1], tokens)
            return 0
        upgrade(database, tokens=tokens)
        if argv == ["rotate-keys"]:
            if tokens is None:
                print(f"{KEYS_VARIABLE} is required: the new key first, then the old ones", file=sys.stderr)
                return 2
            print(f"re-encrypted {rotate_tokens(database, tokens)} stored token(s) with the first key")
    except (TokenKeyError, RuntimeError) as problem:  # no key for the tokens; a migration that is never undone
        print(problem, file=sys.stderr)
        return 1
    finally:
        database.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
