"""The code stays readable by a newcomer: each module says its one job, none grows past ~300 lines, no function
past ~40, the pure core never imports Slack, and docs/layout.md's table is today's tree."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted((ROOT / "bot").rglob("*.py"))
# the Slack layer, the server (its start-up and arbiter too), and the store (a database, with slack-sdk's
# installation tables) are not pure
SERVER = {"server.py", "workers.py", "asgi.py", "http.py", "__main__.py", "startup.py", "arbiter.py"}
PURE_CORE = [p for p in MODULES if not {"slack", "store"} & set(p.relative_to(ROOT).parts) and p.name not in SERVER]
MAX_MODULE_LINES = 300
MAX_FUNCTION_LINES = 40


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_module_says_its_job_and_stays_small(path):
    tree = parsed(path)
    assert ast.get_docstring(tree), "a module says its one job in its docstring"
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_MODULE_LINES
    long = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
            and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert long == []


@pytest.mark.parametrize("path", PURE_CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_pure_core_never_imports_slack_or_reads_the_environment(path):
    imported = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    allowed_outside = {"bot/settings.py", "bot/cli.py", "bot/processes.py"}
    assert not {name for name in imported if name.split(".")[0] in {"slack_bolt", "slack_sdk"}}
    assert not [name for name in imported if name == "bot.slack" or name.startswith("bot.slack.")]
    if str(path.relative_to(ROOT)) not in allowed_outside:
        assert "os" not in imported


def test_the_layout_table_is_todays_tree():
    done = subprocess.run([sys.executable, "scripts/layout.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _base_names(node: ast.ClassDef) -> list[str]:
    return [base.id if isinstance(base, ast.Name) else base.attr for base in node.bases
            if isinstance(base, ast.Name | ast.Attribute)]


def test_every_exception_class_says_error_in_its_name():
    """An exception of dpscale's own is named `...Error` (`FieldErrors` holds several): `except LeaseLostError`
    reads as what it catches, where `except LeaseLost` could be a flag."""
    classes = [(path, node) for path in MODULES for node in ast.walk(parsed(path)) if isinstance(node, ast.ClassDef)]
    exceptions = {"Exception", "BaseException"}
    while True:  # an exception's subclasses are exceptions too, whatever their bases are called
        found = {node.name for _, node in classes
                 if any(name in exceptions or name.endswith("Error") for name in _base_names(node))}
        if found <= exceptions:
            break
        exceptions |= found
    unnamed = sorted(f"{path.relative_to(ROOT)}: {node.name}" for path, node in classes
                     if node.name in exceptions and not node.name.endswith(("Error", "Errors")))
    assert unnamed == []
