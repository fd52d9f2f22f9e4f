"""The examples in bot/'s docstrings are tests: every module's are collected, as python-babel/babel collects its
own (`python -m pytest` runs them with the rest; `python -m pytest bot` runs them alone)."""

from pathlib import Path

from _pytest.doctest import DoctestModule

BOT = Path(__file__).resolve().parent / "bot"


def pytest_collect_file(file_path: Path, parent):
    """A module of bot/ with an example in it (`>>>`); one without is not imported just to find none."""
    if file_path.suffix == ".py" and BOT in file_path.parents and ">>>" in file_path.read_text(encoding="utf-8"):
        return DoctestModule.from_parent(parent, path=file_path)
    return None
