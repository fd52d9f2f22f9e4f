import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import examples  # noqa: E402  (importable once tests/ is on the path)
import postgres_server  # noqa: E402
from slack_client import running_app  # noqa: E402

REQUIRE_POSTGRES = os.environ.get("DPSCALE_REQUIRE_POSTGRES") == "1"


def pytest_configure(config):
    """The fast loop (`-m "not slow"`) draws fewer examples in its property tests (tests/examples.py)."""
    examples.fast = "not slow" in (config.option.markexpr or "")


# most of the suite's time is a real server waiting (on Slack's answers, leases, windows): on 2 cores, the whole
# suite used 54 % of them with two workers a core (3 m 47 s) and finished in 3 m 2 s with three
WORKERS_PER_CORE = 3
MAX_WORKERS = 8  # each worker starts servers and PostgreSQL databases of its own


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject.toml): three workers a core, at most eight, since the end-to-end tests mostly wait."""
    return max(2, min(MAX_WORKERS, WORKERS_PER_CORE * (os.cpu_count() or 1)))


def pytest_collection_modifyitems(config, items):
    """Under xdist, each worker's share begins with its part of the slow tests."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        items[:] = slow_first_in_each_share(items, workers, lambda item: item.get_closest_marker("slow") is not None)


def slow_first_in_each_share(items, workers, is_slow):
    """`items` reordered so that xdist's work-stealing scheduler (`--dist worksteal`), which first hands worker k
    the next `left // (workers - k)` items in order, starts every worker on slow ones: the slow tests dealt out in
    turn, each share filled up with the rest in their order (a module's tests stay together, sharing its server).
    The others steal from the end of the longest queue, so the slow tests stay where they began.

    >>> slow_first_in_each_share(list("abcdefXY"), 2, str.isupper)
    ['X', 'a', 'b', 'c', 'Y', 'd', 'e', 'f']
    """
    slow = [item for item in items if is_slow(item)]
    rest = [item for item in items if not is_slow(item)]
    ordered, left, taken = [], len(items), 0
    for k in range(workers):
        share = left // (workers - k)
        dealt = slow[k::workers]
        fill = max(0, share - len(dealt))
        ordered += dealt + rest[taken:taken + fill]
        taken += fill
        left -= share
    return ordered + rest[taken:]


@pytest.fixture(scope="module")
def world(request):
    """One fake Slack Web API and one real server for a test module; its USER_LOCALES name the known users."""
    with running_app(getattr(request.module, "USER_LOCALES", {})) as pair:
        yield pair


@pytest.fixture(scope="module")
def fake(world):
    return world[0]


@pytest.fixture(scope="module")
def server(world):
    return world[1]


@pytest.fixture
def slack_api(request):
    """A fake Slack Web API of the test's own, in this process; its module's USER_LOCALES name the known users (a
    user whose locale is None is one Slack tells no locale of)."""
    from fake_slack import FakeSlack

    fake = FakeSlack(locales=dict(getattr(request.module, "USER_LOCALES", {}))).start()
    yield fake
    fake.stop()


@pytest.fixture
def app(slack_api, tmp_path):
    """dpscale's Bolt app on `slack_api` and an SQLite file of the test's own, for requests through `app.dispatch`
    (bolt-python's scenario tests), with no server."""
    from bot.settings import Settings
    from bot.slack.app import create_app
    from bot.store import Store, upgrade
    from slack_client import BOT_TOKEN, SIGNING_SECRET

    settings = Settings.model_validate({
        "slack_bot_token": BOT_TOKEN, "slack_signing_secret": SIGNING_SECRET, "slack_api_url": slack_api.api_url,
    })
    store = Store.open(f"sqlite:///{tmp_path / 'dpscale.sqlite3'}")
    upgrade(store.database)
    yield create_app(settings, store)
    store.close()


@pytest.fixture(scope="session")
def postgres_server_url(tmp_path_factory):
    """A PostgreSQL server: DPSCALE_TEST_POSTGRES_URL, or one started here from the distribution's packages, shared
    by the run's workers (the first to need it starts it, the last to finish stops it; each test has its own
    database on it)."""
    given = os.environ.get("DPSCALE_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    shared = tmp_path_factory.getbasetemp()  # the run's own; under xdist, its parent is the same for every worker
    shared = shared.parent if os.environ.get("PYTEST_XDIST_WORKER") else shared
    with _locked(shared / "postgres.lock"):
        users, url_file = shared / "postgres.users", shared / "postgres.url"
        if not url_file.exists():
            directory = Path(tempfile.mkdtemp(prefix="dpscale-pg-"))
            try:
                url_file.write_text(f"{directory}\n{postgres_server.start(directory)}")
            except (OSError, LookupError, subprocess.SubprocessError) as error:  # no binaries, no postgres user …
                message = f"no PostgreSQL server could be started here: {type(error).__name__}: {error}"
                if REQUIRE_POSTGRES:
                    pytest.fail(message)
                pytest.skip(message)
        directory_text, url = url_file.read_text().split("\n")
        users.write_text(str((int(users.read_text()) if users.exists() else 0) + 1))
    try:
        yield url
    finally:
        with _locked(shared / "postgres.lock"):
            left = int(users.read_text()) - 1
            users.write_text(str(left))
            if left == 0:
                postgres_server.stop(Path(directory_text))
                shutil.rmtree(directory_text, ignore_errors=True)
                url_file.unlink()


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """One worker at a time, across the run's processes."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty database of each kind dpscale supports, one per test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'dpscale.sqlite3'}"
        return
    with postgres_server.fresh_database(request.getfixturevalue("postgres_server_url")) as url:
        yield url


@pytest.fixture(scope="session", autouse=True)
def server_logs_hold_nothing_private():
    """After all tests: no server's log holds a traceback (unless a test caused a crash on purpose), a logging
    error, a token, a response_url or a user's text, and each of its lines is one event."""
    from slack_client import SERVER_LOGS, log_problems

    yield
    found = []
    for command, log, crash, texts in SERVER_LOGS:
        problems = log_problems(log, crash, texts)
        if problems:
            with tempfile.NamedTemporaryFile("w", prefix="dpscale-server-", suffix=".log", delete=False) as kept:
                kept.write(log)
            found += [f"{command} ({kept.name}): {problem}" for problem in problems]
    if found:
        pytest.fail("server logs:\n" + "\n".join(dict.fromkeys(found)), pytrace=False)
