"""Which names a module promises (encode/httpx's test_exported_members): each core module says so in `__all__`,
every name there exists, and every name another module of bot/, scripts/ or bench/ imports from a module that
declares `__all__` is in it, so that a name used from outside is never an accident of the module's inside."""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the pure core's modules that others build on: each declares its promises, in order
CORE = ["bot.model.calculator", "bot.reader.cldr_numbers", "bot.engine", "bot.errors", "bot.reader.folding",
        "bot.format_choice", "bot.reader.formats", "bot.i18n", "bot.keys", "bot.log_lines", "bot.logs",
        "bot.reader.numbers", "bot.policy", "bot.processes"]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def imported_names() -> dict[str, set[tuple[str, str]]]:
    """For each module of bot/: the names other code imports from it, with the file importing each."""
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for path in sorted((*(ROOT / "bot").rglob("*.py"), *(ROOT / "scripts").rglob("*.py"),
                        *(ROOT / "bench").rglob("*.py"))):
        importer = module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("bot"):
                if node.module != importer:
                    found[str(node.module)] |= {(alias.name, str(path.relative_to(ROOT))) for alias in node.names}
    return found


IMPORTED = imported_names()
DECLARING = sorted(module_name(path) for path in (ROOT / "bot").rglob("*.py")
                   if "__all__" in path.read_text(encoding="utf-8") and "migrations" not in path.parts)


@pytest.mark.parametrize("name", CORE)
def test_each_core_module_declares_its_promises_in_order(name):
    module = importlib.import_module(name)
    assert isinstance(getattr(module, "__all__", None), list), f"{name} says which of its names are promises"
    assert module.__all__ == sorted(module.__all__)


@pytest.mark.parametrize("name", DECLARING)
def test_every_promised_name_exists_once(name):
    module = importlib.import_module(name)
    promised = module.__all__
    assert [n for n in promised if not hasattr(module, n)] == []
    assert len(promised) == len(set(promised))


@pytest.mark.parametrize("name", DECLARING)
def test_every_name_other_code_imports_is_promised(name):
    module = importlib.import_module(name)
    unpromised = sorted(f"{importer} imports {imported}" for imported, importer in IMPORTED[name]
                        if imported not in module.__all__ and not _is_submodule(name, imported))
    assert unpromised == []


def test_the_declaring_modules_are_found():
    """The search above finds what it looks for: the core modules and the packages that re-export names."""
    assert set(CORE) <= set(DECLARING) and {"bot.replies", "bot.store", "bot.model.series"} <= set(DECLARING)
    assert ("answer", "bot/cli.py") in IMPORTED["bot.engine"]


def _is_submodule(package: str, name: str) -> bool:
    """`from bot.store import migrate`: a module of a package, not a name it promises."""
    folder = ROOT.joinpath(*package.split("."), name)
    return folder.with_suffix(".py").is_file() or (folder / "__init__.py").is_file()
