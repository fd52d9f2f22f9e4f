"""What a starting process does before its first answer, and what it leaves for later (docs/performance.md).

A process that starts on a database already at the newest revision loads nothing its first answer does not use:
not Alembic, not psycopg on SQLite, not slack-sdk's SQLAlchemy stores (SQLAlchemy's ORM) in one workspace, not
Babel's `.po` reader. Its warm-up runs in each worker once it serves, a step at a time while no request is in
flight (`bot.web.asgi.Front`'s idle work).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.policy import Limits, Pacing
from bot.settings import Settings
from bot.store import Database, upgrade
from bot.web.asgi import Front
from fake_slack import FakeSlack
from slack_client import BOT_TOKEN, SIGNING_SECRET

ROOT = Path(__file__).resolve().parent.parent
NOT_FOR_A_FIRST_ANSWER = ("alembic", "psycopg", "sqlalchemy.orm", "sqlalchemy.ext.asyncio",
                          "slack_sdk.oauth.installation_store.sqlalchemy", "babel.messages.pofile",
                          "sqlalchemy.dialects.postgresql",
                          # a series' chart: drawn in a process of its own, started where a chart is drawn
                          "matplotlib", "numpy", "bot.replies.chart", "multiprocessing", "bot.model.forecast")

FIRST_ANSWER = """
import json, sys
import bot.server
from slack_bolt.request import BoltRequest
from bot.settings import load_settings
from bot.slack.app import create_app, create_services
from slack_client import signed_headers, slash_command_body

settings = load_settings()
app = create_app(settings, services=create_services(settings))
body = slash_command_body("64 2.000 90 %", user="UDE")
response = app.dispatch(BoltRequest(body=body, headers=signed_headers(body, "application/x-www-form-urlencoded")))
print(json.dumps({"status": response.status, "body": response.body,
                  "loaded": sorted(m for m in sys.argv[1:] if m in sys.modules)}))
"""

DRAIN = Settings.model_fields["web_drain_timeout"].default  # as the server builds its front


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_start_on_a_current_database_loads_only_what_its_first_answer_uses(tmp_path):
    database_url = f"sqlite:///{tmp_path}/dpscale.sqlite3"
    upgrade(Database(database_url))  # as a previous start left it
    fake = FakeSlack(locales={"UDE": "de-DE"}).start()
    try:
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}", "DATABASE_URL": database_url,
               "SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET, "SLACK_API_URL": fake.api_url}
        done = subprocess.run([sys.executable, "-c", FIRST_ANSWER, *NOT_FOR_A_FIRST_ANSWER], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
    finally:
        fake.stop()
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout.splitlines()[-1])
    assert first["status"] == 200 and "115.200" in first["body"]  # read and answered in German
    assert first["loaded"] == []


def run_front(front: Front, requests: list[float], until: threading.Event,
              happened: list[str] | None = None) -> list[str]:
    """Serve `front` on a loop: start its lifespan, send a request at each of `requests` (seconds after start,
    each held in flight 0.3 s by the app), stop once `until` is set; what happened, in order (into `happened`)."""
    happened = [] if happened is None else happened

    async def main() -> None:
        inbox: asyncio.Queue[dict[str, object]] = asyncio.Queue()
        await inbox.put({"type": "lifespan.startup"})

        async def send_lifespan(message: dict[str, object]) -> None:
            happened.append(str(message["type"]))

        lifespan = asyncio.create_task(front({"type": "lifespan"}, inbox.get, send_lifespan))

        async def request(after: float) -> None:
            await asyncio.sleep(after)
            body = [{"type": "http.request", "body": b"", "more_body": False}]

            async def receive() -> dict[str, object]:
                return body.pop() if body else {"type": "http.disconnect"}

            async def send(message: dict[str, object]) -> None:
                if message["type"] == "http.response.body":
                    happened.append("answered")

            scope = {"type": "http", "method": "POST", "path": "/slack/events", "headers": []}
            await front(scope, receive, send)

        await asyncio.gather(*(request(after) for after in requests))
        while not until.is_set():
            await asyncio.sleep(0.01)
        await inbox.put({"type": "lifespan.shutdown"})
        await lifespan

    asyncio.run(main())
    return happened


def slow_app(environ, start_response):  # type: ignore[no-untyped-def]
    import time

    time.sleep(0.3)
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


def test_idle_work_runs_step_by_step_once_the_worker_serves_and_never_beside_a_request():
    finished = threading.Event()
    happened: list[str] = []

    def step(name: str):  # type: ignore[no-untyped-def]
        def run() -> None:
            happened.append(name)
            if name == "last":
                finished.set()
        return run

    front = Front(slow_app, threads=4, lifespan=None, drain=DRAIN, idle=[step("first"), step("second"), step("last")],
                  limits=Limits(), pacing=Pacing())
    run_front(front, requests=[0.0], until=finished, happened=happened)
    # the request that came as the worker started went first; the steps followed it, each once, in order
    assert happened == ["lifespan.startup.complete", "answered", "first", "second", "last",
                        "lifespan.shutdown.complete"]


# requests overlapping one another for twice the patience: a worker that never pauses
NEVER_PAUSING = [i * 0.1 for i in range(int(Pacing().idle_patience * 2 / 0.1))]


@pytest.mark.parametrize(("requests", "beside_a_request"), [
    ([0.0, 0.05], False),  # the step waits until both are answered
    (NEVER_PAUSING, True),  # the step goes ahead after its patience, beside one of them
], ids=["two requests", "load that never pauses"])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_idle_work_waits_for_requests_in_flight_but_not_forever(requests, beside_a_request):
    finished = threading.Event()
    happened: list[str] = []
    seen_in_flight: list[int] = []
    front = Front(slow_app, threads=8, lifespan=None, drain=DRAIN, limits=Limits(), pacing=Pacing())

    def step() -> None:
        seen_in_flight.append(front.in_flight)
        happened.append("step")
        finished.set()

    front._idle = (step,)
    run_front(front, requests=requests, until=finished, happened=happened)
    assert len(seen_in_flight) == 1 and (seen_in_flight[0] >= 1) is beside_a_request
    answered_before = happened[:happened.index("step")].count("answered")
    assert (answered_before < len(requests)) is beside_a_request  # waited for every answer, or went ahead


def test_a_failing_step_is_logged_in_one_line_and_the_next_one_runs(caplog):
    finished = threading.Event()

    def broken() -> None:
        raise RuntimeError("a secret that must not be logged")

    front = Front(slow_app, threads=2, lifespan=None, drain=DRAIN, idle=[broken, finished.set], limits=Limits(),
                  pacing=Pacing())
    with caplog.at_level(logging.WARNING, logger="bot.server"):
        run_front(front, requests=[], until=finished)
    assert [r.getMessage() for r in caplog.records] == [
        "idle work failed (RuntimeError); serving goes on without it"]


@pytest.mark.parametrize("text", ["64 2000 90%", "help"])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_server_logs_its_warm_up_once_it_serves(server, text):
    """Through the real server: the worker that answered warms up while idle and says so once."""
    from slack_client import send_command

    response = send_command(server, text, user="UWARM")
    assert response.status == 200
    assert server.wait_for_log("INFO bot.server warmed up: 22 locales loaded and the heap frozen in ") == 1
