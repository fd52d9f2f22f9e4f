"""Start-up as a newcomer meets it: `slack run`'s start hook answers in Slack; each bad setting stops the process
with one line naming the setting to change (JSON under LOG_FORMAT=json); a healthy start says in one line what
serves where, and warns of nothing."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from test_socket_mode import FakeSocketModeServer, slash_envelope

from bot.startup import describe_database
from fake_slack import FakeSlack
from slack_client import ROOT, AppServer, free_port, procfile_command, send_command

pytestmark = pytest.mark.e2e
CLI_BOT_TOKEN, CLI_APP_TOKEN = "xoxb-made-by-the-cli", "xapp-1-made-by-the-cli"
# what `slack run` needs of a checkout: the hooks, the manifest they print, the code and its catalogs
CHECKOUT = (".slack", "manifest.json", "bot", "locales")


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_slack_run_starts_socket_mode_with_the_tokens_the_cli_hands_its_start_hook(tmp_path):
    """The CLI runs .slack/hooks.json's start hook through the shell, in the project's directory, with the new
    development app's tokens as SLACK_CLI_XOXB and SLACK_CLI_XAPP, and the activated virtualenv's python3 first
    on PATH; nothing else of dpscale's is set."""
    checkout = tmp_path / "dpscale"
    checkout.mkdir()
    for name in CHECKOUT:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, checkout / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, checkout / name)
    start = json.loads((checkout / ".slack" / "hooks.json").read_text())["hooks"]["start"]
    socket_mode = FakeSocketModeServer()
    fake = FakeSlack(socket_mode_url=socket_mode.url).start()
    unset = dict.fromkeys(("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "DATABASE_URL", "PORT", "PYTHONPATH",
                           "LOG_LEVEL"))
    env = {**unset, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path),
           "SLACK_CLI_XOXB": CLI_BOT_TOKEN, "SLACK_CLI_XAPP": CLI_APP_TOKEN,
           "SLACK_API_URL": fake.api_url}  # the one stand-in: the fake Web API in Slack's place
    app = AppServer(fake, env=env, command=[os.environ.get("SHELL", "/bin/sh"), "-c", start], cwd=checkout)
    try:
        app.start(http=False)
        assert socket_mode.wait_connections(1), app.log_so_far()
        socket_mode.send(slash_envelope("env-cli", "64 2000 90%", fake.response_url("cli")))
        answer = socket_mode.wait_ack("env-cli")["payload"]
    finally:
        log = app.output()
        fake.stop()
        socket_mode.stop()
    assert "115,200 samples/s" in answer["text"]
    assert {call.headers.get("Authorization") for call in fake.calls_to("auth.test")} == {f"Bearer {CLI_BOT_TOKEN}"}
    assert fake.calls_to("apps.connections.open")[0].headers["Authorization"] == f"Bearer {CLI_APP_TOKEN}"
    assert (checkout / "dpscale.sqlite3").exists()  # state in the checkout, as docs/deploy.md says
    assert f"serving over Socket Mode (a connection to Slack, no port): 1 process, SQLite file {checkout}" in log
    assert " WARNING " not in log and CLI_BOT_TOKEN not in log and CLI_APP_TOKEN not in log


def _closed_port_url() -> str:
    return f"postgresql://dpscale:s3cret-pw@127.0.0.1:{free_port()}/dpscale"


def _start(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The Procfile's web command with `env` (a bot token, a signing secret, a Slack that cannot be reached)."""
    command = [sys.executable, *procfile_command("web")[1:]]
    base = {"PATH": os.environ["PATH"], "SLACK_BOT_TOKEN": "xoxb-startup", "SLACK_SIGNING_SECRET": "startup-secret",
            "SLACK_API_URL": f"http://127.0.0.1:{free_port()}/api/", "PYTHONPATH": str(ROOT), "HOST": "127.0.0.1"}
    return subprocess.run(command, cwd=cwd, env={**base, **env}, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("log_format", ["text", "json"])
@pytest.mark.parametrize(("setting", "env", "status", "says"), [
    ("WEB_CONCURRENCY", {"WEB_CONCURRENCY": "two"}, 2, "WEB_CONCURRENCY Input should be a valid integer"),
    ("DATABASE_URL", {"DATABASE_URL": _closed_port_url()}, 1, "could not be reached (connection refused)"),
    ("PORT", {}, 1, "is in use on 127.0.0.1 by another process: stop it, or set PORT to a free port"),
])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_each_bad_setting_stops_start_up_with_one_line_naming_it(tmp_path, log_format, setting, env, status, says):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1]) if setting == "PORT" else str(free_port())
        done = _start({**env, "PORT": port, "LOG_FORMAT": log_format}, tmp_path)
    assert done.returncode == status and done.stdout == ""
    (line,) = done.stderr.splitlines()
    message = json.loads(line)["message"] if log_format == "json" else line.split(" bot.server ", 1)[1]
    assert message.startswith("not serving: ") and setting in message and says in message, message
    assert "Traceback" not in done.stderr and "s3cret-pw" not in done.stderr and "startup-secret" not in done.stderr


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_database_that_does_not_exist_is_named_with_how_to_make_it(tmp_path, postgres_server_url):
    missing = postgres_server_url.rsplit("/", 1)[0] + "/no_such_dpscale"
    done = _start({"DATABASE_URL": missing, "PORT": str(free_port()), "LOG_FORMAT": "json"}, tmp_path)
    (line,) = done.stderr.splitlines()
    assert done.returncode == 1 and json.loads(line)["message"].endswith(
        'has no database "no_such_dpscale": create it (createdb no_such_dpscale), or name an existing one in '
        "DATABASE_URL")


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_http_without_a_signing_secret_names_it_even_beside_an_app_token(tmp_path):
    done = _start({"SLACK_SIGNING_SECRET": "", "SLACK_APP_TOKEN": "xapp-1-startup", "PORT": str(free_port())},
                  tmp_path)
    (line,) = done.stderr.splitlines()
    assert done.returncode == 2 and "SLACK_SIGNING_SECRET is required over HTTP" in line


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_healthy_start_says_mode_address_processes_and_database_in_one_line_and_warns_of_nothing():
    fake = FakeSlack().start()
    server = AppServer(fake)
    try:
        assert send_command(server.start(), "64 2000 90%").status == 200
    finally:
        log = server.output()
        fake.stop()
    database = server.env["DATABASE_URL"].removeprefix("sqlite:///")
    started = [line for line in log.splitlines() if " bot.server serving " in line]
    assert len(started) == 1 and started[0].endswith(
        f"serving over HTTP on 0.0.0.0:{server.port}: 1 process, 128 threads each, SQLite file {database}")
    assert not [line for line in log.splitlines() if " WARNING " in line or " ERROR " in line or "alembic" in line]


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql://dpscale:s3cret@db.internal:5432/dpscale", "PostgreSQL dpscale@db.internal:5432/dpscale"),
    ("postgres://u:p@localhost/x", "PostgreSQL u@localhost/x"),
    ("sqlite:////var/lib/dpscale/state.db", "SQLite file /var/lib/dpscale/state.db"),
])
def test_the_start_line_shows_the_database_without_its_password(url, shown):
    assert describe_database(url) == shown



@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_slack_out_of_reach_at_start_up_is_one_line_too(tmp_path):
    """The client's own lines about each failed try and retry of `auth.test` are left out: the one line says it."""
    done = _start({"PORT": str(free_port())}, tmp_path)  # _start's SLACK_API_URL is a port no one listens on
    migrated, line = done.stderr.splitlines()  # a fresh SQLite file was made first, and says so
    assert migrated.endswith("INFO bot.store.migrate database schema upgraded to revision " + migrated[-4:])
    assert done.returncode == 1 and "ERROR bot.server not serving: Slack's auth.test could not be reached" in line
