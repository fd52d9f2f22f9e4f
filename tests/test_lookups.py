"""Users' locales across processes and deploys: what a command costs the database and Slack, counted.

Round trips are counted with SQLAlchemy's `before_cursor_execute` event on the store's engine, on SQLite and on a
real PostgreSQL server. A second app or store on the same database stands for another process, or for the same
process after a deploy."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from slack_bolt import App, BoltRequest
from slack_sdk import WebClient
from sqlalchemy import event

from bot.reader.numbers import resolve_locale
from bot.settings import Settings
from bot.slack.app import create_app
from bot.slack.locales import CACHE_TTL, LOOKUP_THREAD, LocaleDirectory
from bot.store import Store, UserLocales, Workspace, upgrade
from bot.store.cache import WATCH_INTERVAL
from bot.store.locales import TTL
from fake_slack import FakeSlack
from slack_client import BOT_TOKEN, SIGNING_SECRET, signed_headers, slash_command_body

UNKNOWN = "en_US@unknown"
USERS = {"UDE1": "de-DE", "UDE2": "de-DE", "UEN1": "en-US", "UEN2": "en-GB"}
MIX = ["64 2000 90%", "64 2.000 90 %", "8 1500 0,85", "help", "64 2000 actual=115200", "64 zwei 90 %"]
START = datetime(2026, 1, 1)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def wall(self) -> datetime:
        """The same instant as a naive UTC datetime, as the store's rows hold it."""
        return START + timedelta(seconds=self.now)


class RoundTrips:
    """Every statement this store's engine sends to the database, from any thread."""

    def __init__(self, store: Store) -> None:
        self.statements: list[str] = []
        self._lock = threading.Lock()
        event.listen(store.database.engine, "before_cursor_execute", self._seen)

    def _seen(self, _connection, _cursor, statement, *_rest) -> None:  # type: ignore[no-untyped-def]
        with self._lock:
            self.statements.append(statement)

    def __len__(self) -> int:
        with self._lock:
            return len(self.statements)


def lookups_done() -> bool:
    """Every lookup's thread has ended, its store of what Slack said included (a store is then closed safely)."""
    return not any(thread.name == LOOKUP_THREAD for thread in threading.enumerate())


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture
def fake():
    fake = FakeSlack(locales=dict(USERS)).start()
    yield fake
    fake.stop()


def started(database_url: str, fake: FakeSlack) -> tuple[App, Store]:
    """A process's app on the shared database, once it is ready to serve (its cache watching for changes)."""
    settings = Settings.model_validate({
        "slack_bot_token": BOT_TOKEN, "slack_signing_secret": SIGNING_SECRET, "slack_api_url": fake.api_url,
    })
    store = Store.open(database_url)
    upgrade(store.database)
    app = create_app(settings, store)
    assert wait_until(lambda: store.cache.watching)
    return app, store


def command(app: App, user: str, text: str = "64 2000 90%") -> str:
    body = slash_command_body(text, user=user)
    response = app.dispatch(BoltRequest(body=body, headers=signed_headers(body, "application/x-www-form-urlencoded")))
    assert response.status == 200
    return json.dumps(json.loads(response.body), ensure_ascii=False)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_command_of_a_user_the_process_knows_costs_no_database_round_trip(database_url, fake):
    app, store = started(database_url, fake)
    store.preferences.set_number_format(Workspace(team_id="T0TEAM"), "UEN2", "de-CH")
    for user in USERS:
        command(app, user)
    assert wait_until(lookups_done)
    trips = RoundTrips(store)

    def settled() -> bool:
        """On SQLite a lookup's write makes every process read its kept rows once more (the file's change counter
        cannot say which row changed, and one write may move it twice): settled once three rounds of every user's
        commands in a row, each a few of the watcher's looks apart, cost no round trip."""
        for _ in range(3):
            trips.statements.clear()
            for user in USERS:
                command(app, user)
            if trips.statements:
                return False
            time.sleep(3 * WATCH_INTERVAL)
        return True

    assert wait_until(settled, timeout=10)
    for n in range(24):
        command(app, list(USERS)[n % len(USERS)], MIX[n % len(MIX)])
    assert trips.statements == []
    assert "115'200" in command(app, "UEN2")  # the chosen format, from memory
    store.close()


def test_after_a_restart_each_user_costs_one_round_trip_and_no_users_info(database_url, fake):
    """The first process looks every user up once (a read, Slack, then a write after the answer); a restarted one
    reads each user's locale and number format in one round trip, asks Slack nothing, and then reads memory."""
    first, store = started(database_url, fake)
    store.preferences.set_number_format(Workspace(team_id="T0TEAM"), "UEN2", "de-CH")
    trips = RoundTrips(store)
    for user in USERS:
        command(first, user)
    lookups = lambda: [s for s in trips.statements if "dpscale_user_locales" in s]  # noqa: E731
    assert wait_until(lambda: len(lookups()) == 2 * len(USERS))  # a read each, and the write of Slack's answer
    assert len(fake.calls_to("users.info")) == len(USERS)
    assert wait_until(lookups_done)
    store.close()

    second, restarted = started(database_url, fake)
    trips = RoundTrips(restarted)
    replies = {}
    for user in USERS:
        replies[user] = command(second, user)
        assert len(trips) == 1, trips.statements
        trips.statements.clear()
        command(second, user, "64 2.000 90 %")
        assert trips.statements == []
    assert len(fake.calls_to("users.info")) == len(USERS)
    assert "115.200" in replies["UDE1"] and "115,200" in replies["UEN1"] and "115'200" in replies["UEN2"]
    assert wait_until(lookups_done)
    restarted.close()


def directory(fake: FakeSlack, clock: Clock, stored: UserLocales | None, deadline: float = 1.0) -> LocaleDirectory:
    client = WebClient(token="xoxb-1", base_url=fake.api_url, timeout=deadline, retry_handlers=[])
    return LocaleDirectory(client, resolve_locale("en-US"), clock=clock, deadline=deadline, stored=stored)


def process(database_url: str, clock: Clock) -> tuple[Store, UserLocales]:
    store = Store.open(database_url)
    upgrade(store.database)
    return store, UserLocales(store.database, now=clock.wall)


def test_a_users_locale_is_asked_of_slack_once_per_ttl_whatever_the_process(database_url, fake):
    clock = Clock()
    (one, stored_one), (two, stored_two) = process(database_url, clock), process(database_url, clock)
    assert str(directory(fake, clock, stored_one).locale_of("T", "UDE1")) == "de_DE"
    assert wait_until(lambda: stored_two.read(Workspace(team_id="T"), "UDE1").found)
    clock.now += TTL - 60
    assert str(directory(fake, clock, stored_two).locale_of("T", "UDE1")) == "de_DE"  # another process, a day on
    assert len(fake.calls_to("users.info")) == 1
    clock.now += 120  # the day is up: asked again, once, by whichever process needs it first
    later = directory(fake, clock, stored_one)
    assert [str(later.locale_of("T", "UDE1")) for _ in range(3)] == ["de_DE"] * 3
    assert len(fake.calls_to("users.info")) == 2
    assert CACHE_TTL == TTL
    assert wait_until(lambda: stored_two.read(Workspace(team_id="T"), "UDE1").seconds_left > TTL - 10)
    assert wait_until(lookups_done)
    for store in (one, two):
        store.close()


def test_a_rate_limit_pauses_every_process_and_stored_users_are_still_read_in_their_locale(database_url, fake):
    clock = Clock()
    (one, stored_one), (two, stored_two) = process(database_url, clock), process(database_url, clock)
    stored_one.remember(Workspace(team_id="T"), "UDE2", "de-DE")
    fake.behaviour["users.info"] = "ratelimit"
    fake.retry_after = "30"
    assert str(directory(fake, clock, stored_one).locale_of("T", "UDE1")) == UNKNOWN
    assert wait_until(lambda: stored_two.read(Workspace(team_id="T"), "").paused_for > 0)
    fake.behaviour["users.info"] = "ok"
    other = directory(fake, clock, stored_two)
    assert str(other.locale_of("T", "UEN1")) == UNKNOWN  # paused: Slack not asked
    assert str(other.locale_of("T", "UDE2")) == "de_DE"  # stored before the pause
    assert str(other.locale_of("U", "UEN1")) == "en_US"  # another workspace is not paused
    assert wait_until(lambda: stored_one.read(Workspace(team_id="U"), "UEN1").found)
    assert len(fake.calls_to("users.info")) == 2
    clock.now += 31
    assert str(directory(fake, clock, stored_two).locale_of("T", "UEN1")) == "en_US"
    assert wait_until(lambda: stored_one.read(Workspace(team_id="T"), "UEN1").tag == "en-US")
    assert wait_until(lookups_done)
    for store in (one, two):
        store.close()


def test_waiting_requests_of_one_user_share_one_read_and_one_users_info(database_url, fake):
    """A cold burst: 40 new users, 3 requests each at once, Slack taking 0.2 s: one read and one users.info per
    user, and every request answered in its user's locale within the lookup's time, not one after another."""
    clock = Clock()
    store, stored = process(database_url, clock)
    fake.behaviour["users.info"] = 0.2
    users = [f"UB{n:02d}" for n in range(40)]
    fake.locales.update({user: "de-DE" for user in users})
    locales = directory(fake, clock, stored, deadline=2.0)
    trips = RoundTrips(store)
    results: list[tuple[str, float]] = []

    def ask(user: str) -> None:
        began = time.monotonic()
        locale = str(locales.locale_of("T", user))
        results.append((locale, time.monotonic() - began))

    threads = [threading.Thread(target=ask, args=(user,)) for user in users for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {locale for locale, _ in results} == {"de_DE"} and len(results) == 120
    assert len(fake.calls_to("users.info")) == 40
    assert wait_until(lookups_done, timeout=20)
    kinds = [statement.split()[0] for statement in trips.statements]
    assert (kinds.count("SELECT"), kinds.count("INSERT"), len(kinds)) == (40, 40, 80)  # per user: a read, a write
    assert sorted(seconds for _, seconds in results)[-1] < 4.0  # one after another, they would take 8 s
    assert wait_until(lookups_done)
    store.close()


def test_an_unreachable_database_still_gets_the_users_locale_from_slack(fake, tmp_path, caplog):
    store = Store.open(f"sqlite:///{tmp_path / 'missing' / 'dpscale.sqlite3'}")  # no such directory
    locales = directory(fake, Clock(), store.locales)
    with caplog.at_level(logging.WARNING, logger="bot.slack.locales"):
        assert str(locales.locale_of("T", "UDE1")) == "de_DE"
        assert wait_until(lambda: "could not be stored" in caplog.text)
    assert "stored locales could not be read (OperationalError)" in caplog.text


def test_a_number_format_chosen_in_another_process_shows_in_this_ones_next_command(database_url, fake):
    """A process keeps each known user's locale tag in memory; another process's change of the user's number
    format is seen within moments, as before."""
    app, store = started(database_url, fake)
    assert "115,200" in command(app, "UEN1") and "115,200" in command(app, "UEN1")  # known, then from memory
    other = Store.open(database_url)
    other.preferences.set_number_format(Workspace(team_id="T0TEAM"), "UEN1", "de-DE")
    assert wait_until(lambda: "115.200" in command(app, "UEN1"))
    other.preferences.set_number_format(Workspace(team_id="T0TEAM"), "UEN1", None)
    assert wait_until(lambda: "115,200" in command(app, "UEN1"))
    assert wait_until(lookups_done)
    for each in (other, store):
        each.close()
