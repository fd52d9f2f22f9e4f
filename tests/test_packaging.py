"""The built package is complete: every subpackage of bot/ and the catalogs ship in it.

`.ci/run` also builds the wheel, installs it in a fresh virtualenv outside the checkout, and runs the command-line
tool and the Procfile's server from there (`.ci/smoke-wheel`).
"""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_under_bot_is_listed_for_the_wheel():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    in_tree = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "bot").rglob("__init__.py")}
    assert set(config["packages"]) == in_tree | {"bot.locales"}
    assert config["package-dir"]["bot.locales"] == "locales"


def test_the_catalogs_listed_for_the_wheel_are_the_ones_in_locales():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config["package-data"]["bot.locales"]
    shipped = {p for pattern in patterns for p in (ROOT / "locales").glob(pattern)}
    assert shipped >= set((ROOT / "locales").glob("*/LC_MESSAGES/messages.po"))
    assert ROOT / "locales" / "messages.pot" in shipped
