"""What users wait for when many of them are new at once, and what a command costs the database: the cold burst and
the round-trip count, for bench/load.py to report beside the floor.

The cold burst: 200 signed `/dpscale` commands from 100 users this process has never seen (two each, 5 ms apart,
one user every 10 ms, so 1 s in all), with Slack's `users.info` taking 200 ms, sent to a running server by a thread
and over a connection of its own each, as Slack sends them. Half the users read en-US, half de-DE, and the commands
cycle through six texts (`MIX`): a result, the help, the three inverse questions, and one with decimals (German
ones for the German users). A slash command's reply is its acknowledgement, so the ack's time is the reply's; a
good reply is the one the engine gives in the user's own locale (its text compared), any other came in the
unknown reader's format because the lookup was late.

The round trips: SQLAlchemy's `before_cursor_execute` counted on the store's engine while one process's app
dispatches commands of users it knows (the warm path), and while a second app on the same database (a restarted
process) answers those users for the first time.
"""

from __future__ import annotations

import functools
import json
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from fake_slack import FakeSlack
from slack_client import BOT_TOKEN, SIGNING_SECRET, post, signed_headers, slash_command_body

BURST_USERS = 100
PER_USER = 2
SPACING = 0.01  # seconds between two users' first commands
SECOND_AFTER = 0.005  # seconds between a user's two commands
LOOKUP_DELAY = 0.2  # users.info's answer time
LATE = 3.0  # Slack gives up on an acknowledgement after 3 s
LOCALES = ("en-US", "de-DE")  # the burst's users in turn
MIX = {  # what each locale's users type, in turn
    "en-US": ("64 2,000 90%", "help", "64 2000 actual=115200", "throughput=2000 efficiency=90% actual=1M",
              "devices=64 efficiency=90% actual=115200", "64 2000 0.9"),
    "de-DE": ("64 2.000 90 %", "help", "64 2000 actual=115200", "throughput=2000 efficiency=90% actual=1M",
              "devices=64 efficiency=90% actual=115200", "64 2000 0,9"),
}


@dataclass
class Burst:
    ack_ms: list[float]  # per command, from when it was due to its acknowledgement (reply included)
    own_format: int  # replies in the user's own number format
    late: int  # acknowledgements after Slack's 3 s, or none at all
    lookups: int  # users.info calls the burst caused

    def p(self, share: float) -> float:
        ordered = sorted(self.ack_ms)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Planned:
    """A burst's commands, made before the server they go to starts (so that it is sent to a server that has only
    just answered its first command): each one's time after the start, the reply it should get, body and headers."""

    commands: list[tuple[float, str, str, dict[str, str]]]
    locales: dict[str, str]  # each user's Slack locale, for the fake Slack to tell


def plan_burst(run: int, users: int = BURST_USERS, locales: tuple[str, ...] = LOCALES) -> Planned:
    """The commands of a burst of `users` users new to a server; `run` makes them new to it."""
    ids = [f"UC{run:02d}{n:03d}" for n in range(users)]
    tags = {user: locales[n % len(locales)] for n, user in enumerate(ids)}
    commands = []
    for n, user in enumerate(ids):
        for k in range(PER_USER):
            text = MIX[tags[user]][(n * PER_USER + k) % len(MIX[tags[user]])]
            body = slash_command_body(text, user=user)
            commands.append((n * SPACING + k * SECOND_AFTER, own_reply(text, tags[user]), body,
                             signed_headers(body, "application/x-www-form-urlencoded")))
    return Planned(commands, tags)


def cold_burst(url: str, fake: FakeSlack, run: int, users: int = BURST_USERS,
               locales: tuple[str, ...] = LOCALES) -> Burst:
    """One burst of new users' commands against the server at `url`; `run` makes the users new to it."""
    return send_burst(url, fake, plan_burst(run, users, locales))


def send_burst(url: str, fake: FakeSlack, planned: Planned) -> Burst:
    """Send a planned burst, each command from a thread and over a connection of its own, when it is due."""
    fake.locales.update(planned.locales)
    before = len(fake.calls_to("users.info"))
    results: list[tuple[float, bool]] = []
    lock = threading.Lock()
    start = time.monotonic() + 0.2  # every thread waiting before the first is due

    def send(due: float, expected: str, body: str, headers: dict[str, str]) -> None:
        time.sleep(max(0.0, start + due - time.monotonic()))
        try:
            response = post(url, body, headers, timeout=LATE + 2)
            elapsed = time.monotonic() - (start + due)
            own = response.status == 200 and json.loads(response.body).get("text") == expected
        except OSError:
            elapsed, own = LATE + 2, False
        with lock:
            results.append((elapsed * 1000, own))

    threads = [threading.Thread(target=send, args=item) for item in planned.commands]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Burst([ms for ms, _ in results], sum(own for _, own in results),
                 sum(ms > LATE * 1000 for ms, _ in results), len(fake.calls_to("users.info")) - before)


@functools.cache
def own_reply(text: str, tag: str) -> str:
    """The text of the reply a reader of `tag` gets once their locale is known (the engine's, in this process)."""
    from bot.engine import answer
    from bot.reader.recipient import Recipient

    return answer(text, Recipient.parse(tag)).text


def median_of(bursts: list[Burst], what: Callable[[Burst], float]) -> float:
    return statistics.median(what(burst) for burst in bursts)


@dataclass
class RoundTrips:
    warm: float  # per command of a user the process knows
    restart: float  # per user, on a restarted process's first command of that user
    restart_lookups: int  # users.info calls the restarted process made
    database: str


def count_round_trips(database_url: str, fake: FakeSlack, label: str) -> RoundTrips:
    """Statements sent to the database per command: warm, and after a restart (a second app, the same database)."""
    from slack_bolt import BoltRequest
    from sqlalchemy import event

    from bench.load import USERS, command_mix
    from bot.settings import Settings
    from bot.slack.app import create_app
    from bot.store import Store, upgrade

    settings = Settings.model_validate({"slack_bot_token": BOT_TOKEN, "slack_signing_secret": SIGNING_SECRET,
                                        "slack_api_url": fake.api_url, "log_level": "WARNING"})
    texts, users = command_mix(), USERS[:8]

    def started() -> tuple[object, Store, list[str]]:
        store = Store.open(database_url)
        upgrade(store.database)
        app = create_app(settings, store)
        statements: list[str] = []
        event.listen(store.database.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        _wait(lambda: store.cache.watching)
        return app, store, statements

    def dispatch(app: object, n: int) -> None:
        body = slash_command_body(texts[n % len(texts)], user=users[n % len(users)])
        app.dispatch(BoltRequest(body=body, headers=signed_headers(body, "application/x-www-form-urlencoded")))  # type: ignore[attr-defined]

    app, store, statements = started()
    for n in range(3 * len(users)):  # every user looked up, and the lookups' writes seen by the cache
        dispatch(app, n)
    _wait(lambda: not any(t.name == "dpscale-lookup" for t in threading.enumerate()))

    def settled() -> bool:
        """On SQLite a lookup's write makes the process read its kept rows once more (the file's change counter
        cannot say which row changed): settled once three rounds of every user, apart, cost nothing."""
        for _ in range(3):
            statements.clear()
            for n in range(len(users)):
                dispatch(app, n)
            if statements:
                return False
            time.sleep(0.15)
        return True

    _wait(settled)
    statements.clear()
    for n in range(200):
        dispatch(app, n)
    warm = len(statements) / 200
    store.close()
    before = len(fake.calls_to("users.info"))
    app, store, statements = started()
    for n in range(len(users)):
        dispatch(app, n)
    restart = len(statements) / len(users)
    lookups = len(fake.calls_to("users.info")) - before
    store.close()
    return RoundTrips(warm, restart, lookups, label)


def _wait(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
