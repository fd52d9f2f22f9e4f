"""The examples in bot/'s docstrings are tests: every module's are collected, as python-babel/babel collects its
own (`python -m pytest` runs them with the rest; `python -m pytest bot` runs them alone)."""

import sys
from pathlib import Path

from _pytest.doctest import DoctestModule

BOT = Path(__file__).resolve().parent / "bot"

# The suite starts some twenty interpreters (a worker a core, the servers the end-to-end tests run): each reads the
# test modules' rewritten bytecode and bot/'s compiled modules from __pycache__ instead of compiling them again,
# also where PYTHONDONTWRITEBYTECODE is set (it only stops the writing; gitignored, and left alone if read-only).
sys.dont_write_bytecode = False


def pytest_collect_file(file_path: Path, parent):
    """A module of bot/ with an example in it (`>>>`); one without is not imported just to find none."""
    if file_path.suffix == ".py" and BOT in file_path.parents and ">>>" in file_path.read_text(encoding="utf-8"):
        return DoctestModule.from_parent(parent, path=file_path)
    return None
