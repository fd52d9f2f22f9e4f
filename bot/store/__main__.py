"""`python -m bot.store upgrade`: create or migrate the schema at DATABASE_URL (the server also does it at start)."""

from __future__ import annotations

import logging
import os
import sys

from bot.store.db import Database
from bot.store.migrate import upgrade


def main(argv: list[str]) -> int:
    if argv != ["upgrade"]:
        print("usage: python -m bot.store upgrade", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s %(message)s")
    upgrade(Database(os.environ.get("DATABASE_URL")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
