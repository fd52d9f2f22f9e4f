"""The README's two commands stay true: CI runs the test one verbatim, and the Procfile names real things."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_readme_starts_with_a_run_command_and_a_test_command():
    run, test = readme_commands()[:2]
    assert "dpscale " in run
    assert test.endswith("python -m pytest")


def test_ci_runs_the_readmes_test_command_verbatim():
    assert readme_commands()[1] in (ROOT / ".ci" / "run").read_text().splitlines()


def test_procfile_has_web_and_worker_processes():
    procfile = (ROOT / "Procfile").read_text()
    assert "web: python -m bot.server" in procfile
    assert "worker: python -m bot" in procfile


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_committed_language_samples_are_todays_replies():
    done = subprocess.run([sys.executable, "scripts/render_samples.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


def test_the_first_command_installs_only_what_the_cli_needs_after_checking_python():
    run = readme_commands()[0]
    guard, rest = run.split(" && ", 1)
    assert "pip install -e . &&" in rest and "[test]" not in run
    assert rest.index("pip install") > 0  # the version is checked before pip backtracks on an older Python


def test_the_first_command_stops_an_older_python_with_a_clear_message():
    guard = shlex.split(readme_commands()[0].split(" && ", 1)[0])
    assert guard[:2] == ["python3", "-c"]
    older = "import sys; sys.version_info = (3, 10, 12, 'final', 0); sys.version = '3.10.12 (main)'; "
    done = subprocess.run([sys.executable, "-c", older + guard[2]], capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr == "dpscale needs Python 3.11 or newer, not 3.10.12\n"
    assert subprocess.run([sys.executable, "-c", guard[2]]).returncode == 0  # this one passes


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_readmes_picture_of_a_reply_is_the_reply():
    text = (ROOT / "README.md").read_text()
    picture = text.split("```\n/dpscale 64 2000 90%\n", 1)[1].split("```", 1)[0]
    shown = subprocess.run([sys.executable, "-m", "bot.cli", "64 2000 90%"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout
    figures = [part.strip() for line in picture.splitlines() if ":" in line and "…" not in line
               for part in re.split(r"\s{2,}", line.strip()) if part.strip()]
    assert len(figures) >= 8
    for figure in figures:
        assert figure in shown, figure


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_reading_kit_renders_every_input_and_view_of_a_language(tmp_path):
    """scripts/render_reading.py, what a native reader of a language reads: every input answered (a result, an
    error or a question, never a crash), and the views' own texts."""
    done = subprocess.run([sys.executable, "scripts/render_reading.py", str(tmp_path), "--locale", "fr-FR"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "fr-FR.txt").read_text(encoding="utf-8")
    sections = text.split("\n## ")[1:]
    assert len(sections) >= 60
    assert all(len(section.strip().splitlines()) >= 2 for section in sections), [s[:60] for s in sections]
    assert "Traceback" not in text and "Exception" not in text
    assert "## the Home tab" in text and "## the series form" in text
    run_in_german = text.split("## another number format for this run\n", 1)[1].split("\n## ", 1)[0]
    assert "115.200" in run_in_german and "format=de-DE" not in run_in_german.split("\n", 1)[1]  # as Slack takes it
