"""The README's two commands stay true: CI runs the test one verbatim, and the Procfile names real things."""

import subprocess
import sys
from pathlib import Path

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


def test_the_committed_language_samples_are_todays_replies():
    done = subprocess.run([sys.executable, "scripts/render_samples.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
