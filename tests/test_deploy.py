"""The deploy recipes hold together: the lock is pyproject's, the buildpack's file is the lock, app.json brings
PostgreSQL, the image runs the Procfile's command as an unprivileged user, and the Slack CLI finds the manifest."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.settings import Settings
from bot.slack.ids import COMMAND, MESSAGE_SHORTCUT

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# what each extra that pyproject asks for brings, which the lock must hold too
EXTRAS = {("sqlalchemy", "asyncio"): "greenlet", ("psycopg", "binary"): "psycopg-binary"}
# settings other parts of dpscale read, which .env.example names beside Settings' own
MORE_SETTINGS = {"DPSCALE_TOKEN_KEYS", "HOST", "LOG_FORMAT"}


def locked() -> dict[str, tuple[str, str]]:
    """requirements.txt: each package's pinned version and its environment marker ('' for every platform)."""
    text = (ROOT / "requirements.txt").read_text()
    entries = re.split(r"\n(?=\S)", text)
    pins = {}
    for entry in entries:
        line = entry.split("\\", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        assert "--hash=sha256:" in entry, f"{line}: no hash, so pip's --require-hashes would refuse the file"
        requirement = Requirement(line)
        (version,) = (spec.version for spec in requirement.specifier if spec.operator == "==")
        pins[canonicalize_name(requirement.name)] = (version, str(requirement.marker or ""))
    return pins


def test_the_lock_pins_every_dependency_within_pyprojects_bounds():
    pins = locked()
    for line in PYPROJECT["project"]["dependencies"]:
        wanted = Requirement(line)
        name = canonicalize_name(wanted.name)
        assert name in pins, f"{wanted.name} is in pyproject.toml but not locked: run scripts/lock.sh"
        assert wanted.specifier.contains(pins[name][0]), f"{name}=={pins[name][0]} is outside {wanted.specifier}"
        for extra in wanted.extras & {extra for known, extra in EXTRAS if known == name}:
            assert canonicalize_name(EXTRAS[(name, extra)]) in pins


def test_the_lock_is_what_scripts_lock_sh_writes_for_every_platform():
    header = (ROOT / "requirements.txt").read_text().splitlines()[:2]
    assert header[1].strip() == "#    scripts/lock.sh"
    script = (ROOT / "scripts" / "lock.sh").read_text()
    assert "--universal" in script and "--generate-hashes" in script and "--check" in script
    assert "scripts/lock.sh --check" in (ROOT / ".ci" / "run").read_text()  # CI resolves it again and compares


def test_the_buildpacks_dependency_file_is_the_lock_and_the_only_one():
    """Heroku's Python buildpack installs requirements.txt when it is the one package manager file: the same file
    the container and CI install, so all three run the same versions."""
    assert not any((ROOT / name).exists() for name in ("Pipfile.lock", "poetry.lock", "uv.lock", "Pipfile"))
    install = (ROOT / "scripts" / "install.sh").read_text()
    assert '--require-hashes --no-deps -r "$src/requirements.txt"' in install
    assert (ROOT / ".python-version").read_text().strip() >= "3.11"


def test_app_json_provisions_postgresql_and_a_process_count_it_can_serve():
    app = json.loads((ROOT / "app.json").read_text())
    plans = [addon["plan"] if isinstance(addon, dict) else addon for addon in app["addons"]]
    assert any(plan.startswith("heroku-postgresql") for plan in plans)
    assert app["buildpacks"] == [{"url": "heroku/python"}]
    assert app["formation"]["web"]["quantity"] >= 1
    # essential-0 takes 20 connections; a process may hold its pool of 5, 10 overflow and one listener
    assert int(app["env"]["WEB_CONCURRENCY"]["value"]) * 16 <= 20
    assert "DPSCALE_TOKEN_KEYS" in app["env"] and app["env"]["SLACK_SIGNING_SECRET"].get("required", True)


def test_the_image_runs_the_procfiles_web_command_unprivileged_with_a_health_check():
    dockerfile = (ROOT / "Dockerfile").read_text()
    web = re.search(r"^web:\s*(.+)$", (ROOT / "Procfile").read_text(), re.M).group(1)
    cmd = json.loads(re.search(r"^CMD (\[.+\])$", dockerfile, re.M).group(1))
    assert cmd == shlex.split(web)
    assert re.search(r"^USER (?!root\b|0\b)\S+$", dockerfile, re.M)
    assert "HEALTHCHECK" in dockerfile and "/healthz" in dockerfile
    assert "install.sh deps" in dockerfile and "install.sh app" in dockerfile  # the steps CI runs outside it
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    for copied in re.findall(r"^COPY (?!--from)(.+) \S+$", dockerfile, re.M):
        for path in copied.split():
            assert f"!{path}" in ignored or f"!{path}/" in ignored, f"{path} is copied but left out of the context"


def test_compose_starts_dpscale_with_postgresql():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    dpscale, postgres = compose["services"]["dpscale"], compose["services"]["postgres"]
    assert dpscale["environment"]["DATABASE_URL"].startswith("postgresql://")
    assert dpscale["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert postgres["image"].startswith("postgres:") and "healthcheck" in postgres


def test_the_slack_cli_manifest_is_the_socket_mode_twin_of_manifest_yaml():
    manifest = json.loads((ROOT / "manifest.json").read_text())
    expected = yaml.safe_load((ROOT / "manifest.yaml").read_text())
    expected["settings"]["socket_mode_enabled"] = True
    for place in (expected["settings"]["event_subscriptions"], expected["settings"]["interactivity"]):
        place.pop("request_url")
    for command in expected["features"]["slash_commands"]:
        command.pop("url")
    assert {key: value for key, value in manifest.items() if key != "_metadata"} == expected


def test_every_manifest_has_the_command_and_the_message_shortcut():
    for name in ("manifest.yaml", "manifest-distribution.yaml", "manifest.json"):
        text = (ROOT / name).read_text()
        manifest = json.loads(text) if name.endswith(".json") else yaml.safe_load(text)
        features = manifest["features"]
        assert [c["command"] for c in features["slash_commands"]] == [COMMAND]
        assert [(s["type"], s["callback_id"]) for s in features["shortcuts"]] == [("message", MESSAGE_SHORTCUT)]
        assert all(len(s["name"]) <= 24 and len(s["description"]) <= 150 for s in features["shortcuts"])


def test_the_slack_cli_hooks_print_the_manifest_and_start_socket_mode():
    hooks = json.loads((ROOT / ".slack" / "hooks.json").read_text())
    assert hooks["config"]["sdk-managed-connection-enabled"] is True
    assert shlex.split(hooks["hooks"]["start"])[1:] == ["-m", "bot"]  # Socket Mode with the CLI's SLACK_APP_TOKEN
    command = [sys.executable, *shlex.split(hooks["hooks"]["get-manifest"])[1:]]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == json.loads((ROOT / "manifest.json").read_text())


def test_env_example_names_real_settings():
    named = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(), re.M))
    known = {name.upper() for name in Settings.model_fields} | MORE_SETTINGS
    assert named <= known, named - known
    assert {"SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "DATABASE_URL", "DPSCALE_TOKEN_KEYS"} <= named


def test_the_license_is_the_one_pyproject_names():
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def env_example() -> dict[str, str]:
    """The settings .env.example sets (its commented lines left out), as `set -a && . ./.env` reads them."""
    lines = (ROOT / ".env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if re.match(r"^[A-Z][A-Z0-9_]*=", line))


def test_env_example_filled_in_as_the_readme_says_selects_the_mode_it_promises():
    from bot.settings import SettingsError, load_settings

    given = env_example()
    assert given == {"SLACK_BOT_TOKEN": "", "SLACK_APP_TOKEN": "", "SLACK_SIGNING_SECRET": ""}
    with pytest.raises(SettingsError, match="SLACK_BOT_TOKEN is required"):  # a copy not yet filled in says so
        load_settings(given)
    terminal = load_settings({**given, "SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"})
    public_url = load_settings({**given, "SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "secret"})
    assert terminal.socket_mode and not public_url.socket_mode


def test_compose_serves_http_in_few_enough_processes_for_postgresqls_default_connections():
    from bot.settings import load_settings

    dpscale = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["dpscale"]
    filled = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "SLACK_SIGNING_SECRET": "secret"}
    settings = load_settings({**filled, **dpscale["environment"]})  # compose's environment wins over .env
    assert not settings.socket_mode and settings.web_concurrency is not None
    assert settings.web_concurrency * 16 <= 100 - 3  # PostgreSQL's max_connections, less its reserved superuser ones


def test_ci_ends_by_building_and_running_the_image_with_a_real_engine():
    steps = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    assert steps[-1].startswith("bash .ci/container")
    container = (ROOT / ".ci" / "container").read_text()
    for needed in ("--storage-driver=vfs", "--iptables=false", "--bridge=none", "debootstrap", "docker import",
                   "--build-arg PYTHON=", '"id", "-u") == "10001"', '["ExitCode"] == 0', '"healthy"'):
        assert needed in container, needed
