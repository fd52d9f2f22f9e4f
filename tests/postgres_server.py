"""A throwaway PostgreSQL server from the distribution's packages, on a free loopback port, for the tests.

    python tests/postgres_server.py start DIR    # prints its URL; `stop DIR` shuts it down

The tests use DPSCALE_TEST_POSTGRES_URL when it is set (a role that may create databases); otherwise they start
such a server themselves. They skip PostgreSQL only when no server can be started here, and never when
DPSCALE_REQUIRE_POSTGRES=1 (CI sets it), which makes that a failure instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from slack_client import free_port

ROLE = "dpscale"


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_owner(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the `postgres` user the packages create."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


def start(directory: Path) -> str:
    """Create a cluster in `directory`, start it on a free port, and return a URL for a superuser role."""
    binaries = _binaries()
    if binaries is None:
        raise FileNotFoundError("no PostgreSQL server binaries (apt-get install postgresql)")
    directory.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    data, port = directory / "data", free_port()
    run = {"check": True, "capture_output": True, "timeout": 120}
    subprocess.run(_as_owner([str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", ROLE,
                              "--no-sync", "-E", "UTF8"]), **run)  # type: ignore[call-overload]
    (directory / "port").write_text(str(port))
    resume(directory)
    return f"postgresql://{ROLE}@127.0.0.1:{port}/postgres"


def resume(directory: Path) -> None:
    """Start the server of `directory` (made by `start`, since stopped) again, on its port."""
    binaries = _binaries()
    assert binaries is not None
    port = (directory / "port").read_text()
    options = f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run(_as_owner([str(binaries / "pg_ctl"), "-D", str(directory / "data"), "-l", str(directory / "log"),
                              "-w", "-o", options, "start"]), check=True, capture_output=True, timeout=120)


def stop(directory: Path) -> None:
    binaries = _binaries()
    if binaries is not None and (directory / "data").exists():
        subprocess.run(_as_owner([str(binaries / "pg_ctl"), "-D", str(directory / "data"), "-m", "fast", "-w",
                                  "stop"]), capture_output=True, timeout=60)


@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """A new, empty database on the server for one test (or one module); dropped afterwards."""
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = server_url.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(server_url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    action, where = sys.argv[1], Path(sys.argv[2])
    if action == "start":
        print(start(where))
    else:
        stop(where)
