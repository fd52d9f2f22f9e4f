"""Candidate production servers, each serving the same floor app (bench/bare.py, in-line), side by side.

    python bench/servers.py [--duration 3] [--rounds 3] [--levels 1 16 64] [--stalled 32]

The evidence behind the server choice in docs/performance.md. Each candidate serves
`bench.bare:create_wsgi_app(inline=True)` on one process; wrk sends the benchmark's signed slash commands at each
level, candidates taking turns; then each is measured again with `--stalled` connections open that sent headers
announcing a 100,000-byte body and never send it: a server that gives each connection a thread stalls.

  gthread 1x16    gunicorn's threaded worker
  waitress 16     waitress: one I/O thread reads each request in full, then hands it to one of 16 threads (the
                  server dpscale ran before, with a hand-written fork loop around it)
  uvicorn+wsgi    uvicorn (httptools) with a small ASGI front reading the body in full, then 16 threads
  dpscale server  what `python -m bot.server` runs: gunicorn's arbiter, one uvicorn worker (bot/web/workers.py), the
                  ASGI front of bot/web/asgi.py (its own WSGI bridge), 16 threads

With `--app dpscale` the same candidates (less the ASGI sketch) serve dpscale itself instead of the floor, on an
SQLite file. Each row also gives the serving processes' resident memory after the run (RSS, summed over the
process and its children).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench.load import USERS, command_mix, run_wrk, stall, write_wrk_script  # noqa: E402
from fake_slack import FakeSlack  # noqa: E402
from slack_client import BOT_TOKEN, SIGNING_SECRET, free_port, get  # noqa: E402

FLOOR = "bench.bare:create_wsgi_app(inline=True)"
THREADS = 16


def candidates(port: int, app: str = "floor") -> dict[str, list[str]]:
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    me = [sys.executable, str(Path(__file__).resolve()), "--app", app, "--serve"]
    target = FLOOR if app == "floor" else "bot.server:create_wsgi_app()"
    found = {
        "gthread 1x16": [gunicorn, "-k", "gthread", "--threads", str(THREADS), "-w", "1", "-b",
                         f"127.0.0.1:{port}", "--error-logfile", "-", "--log-level", "warning", target],
        "waitress 16": [*me, "waitress", str(port)],
        "uvicorn+wsgi": [*me, "uvicorn", str(port)],
        "dpscale server": [*me, "dpscale", str(port)],
    }
    if app != "floor":
        del found["uvicorn+wsgi"]
    return found


def serve(kind: str, port: int, which: str = "floor") -> None:
    from bench.bare import create_wsgi_app

    if kind == "dpscale":
        from bot.server import serve as serve_dpscale
        from bot.settings import load_settings

        settings = load_settings({**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "1",
                                  "WEB_THREADS": str(THREADS), "LOG_LEVEL": "WARNING"})
        return serve_dpscale(settings, app=create_wsgi_app(inline=True) if which == "floor" else None)
    if which == "floor":
        app = create_wsgi_app(inline=True)
    else:
        from bot.server import create_wsgi_app as create_dpscale

        app = create_dpscale()
    if kind == "waitress":
        from waitress import serve as waitress_serve

        waitress_serve(app, host="127.0.0.1", port=port, threads=THREADS, _quiet=True)
    else:
        import uvicorn

        uvicorn.run(asgi_front(app), host="127.0.0.1", port=port, http="httptools", log_level="warning",
                    access_log=False, lifespan="off")


def asgi_front(wsgi: Callable[..., Any]) -> Callable[..., Any]:
    """Read the body in full on the event loop (10 s, 1 MiB), then run the WSGI app on one of 16 threads."""
    import io
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(THREADS)

    async def app(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        chunks, size = [], 0
        try:
            async with asyncio.timeout(10):
                while True:
                    message = await receive()
                    chunks.append(message.get("body", b""))
                    size += len(chunks[-1])
                    if size > 1 << 20:
                        raise OverflowError
                    if not message.get("more_body"):
                        break
        except (TimeoutError, OverflowError):
            await send({"type": "http.response.start", "status": 413, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        body = b"".join(chunks)
        environ = {
            "REQUEST_METHOD": scope["method"], "PATH_INFO": scope["path"],
            "QUERY_STRING": scope["query_string"].decode(),
            "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body), "SERVER_NAME": "x", "SERVER_PORT": "0",
            "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http", "wsgi.version": (1, 0), "wsgi.errors": sys.stderr,
        }
        for name, value in scope["headers"]:
            key = name.decode().upper().replace("-", "_")
            environ["CONTENT_TYPE" if key == "CONTENT_TYPE" else "HTTP_" + key] = value.decode("latin-1")
        started: list[Any] = []

        def run() -> bytes:
            out = wsgi(environ, lambda status, headers, exc_info=None: started.extend((status, headers)))
            return b"".join(out)

        data = await asyncio.get_running_loop().run_in_executor(pool, run)
        status, headers = started
        await send({"type": "http.response.start", "status": int(status.split()[0]),
                    "headers": [(k.lower().encode(), v.encode()) for k, v in headers]})
        await send({"type": "http.response.body", "body": data})

    return app


def tree_rss_mib(pid: int) -> float:
    """Resident memory of `pid` and every process below it, in MiB."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
        except OSError:
            continue
        total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
        for child in Path("/proc").glob("[0-9]*/stat"):
            try:
                if int(child.read_text().rsplit(")", 1)[1].split()[1]) == current:
                    pending.append(int(child.parent.name))
            except (OSError, ValueError, IndexError):
                continue
    return total / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", nargs=2, metavar=("KIND", "PORT"))
    parser.add_argument("--duration", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--stalled", type=int, default=32)
    parser.add_argument("--app", choices=["floor", "dpscale"], default="floor")
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve[0], int(args.serve[1]), args.app)
    fake = FakeSlack(locales={u: "en-US" for u in USERS}).start()
    data = tempfile.mkdtemp(prefix="dpscale-servers-")
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "SLACK_BOT_TOKEN": BOT_TOKEN,
           "SLACK_SIGNING_SECRET": SIGNING_SECRET, "SLACK_API_URL": fake.api_url, "LOG_LEVEL": "WARNING"}
    ports = {name: free_port() for name in candidates(0, args.app)}
    processes = {}
    for name, port in ports.items():  # each its own database: they never wait on each other's writes
        database = {"DATABASE_URL": f"sqlite:///{data}/{port}.sqlite3"}
        processes[name] = subprocess.Popen(candidates(port, args.app)[name], cwd=ROOT, env={**env, **database})
    script = Path(tempfile.mkdtemp()) / "floor.lua"
    try:
        for port in ports.values():
            deadline = time.monotonic() + 20
            while True:
                try:
                    if get(f"http://127.0.0.1:{port}/healthz").status == 200:
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
        texts = command_mix()
        results: dict[tuple[str, str], list[float]] = {}
        p99s: dict[tuple[str, str], list[float]] = {}
        errors: dict[tuple[str, str], int] = {}
        for _ in range(args.rounds):
            for level in args.levels:
                write_wrk_script(texts, script)
                for name, port in ports.items():
                    for stalled in (0, args.stalled) if level == 16 else (0,):
                        held = stall(port, stalled)
                        run = run_wrk(f"http://127.0.0.1:{port}/slack/events", script, level, args.duration)
                        for s in held:
                            s.close()
                        key = (name, f"{level}" + (f" + {stalled} stalled" if stalled else ""))
                        results.setdefault(key, []).append(run.rps)
                        p99s.setdefault(key, []).append(run.p99_ms)
                        errors[key] = errors.get(key, 0) + run.errors
        print(f"app: {args.app}; median of {args.rounds} rounds of {args.duration} s, candidates taking turns")
        print("| clients | " + " | ".join(ports) + " |")
        print("|---|" + "---:|" * len(ports))
        for label in dict.fromkeys(label for _, label in results):
            cells = [f"{statistics.median(results[(n, label)]):,.0f} req/s, "
                     f"p99 {statistics.median(p99s[(n, label)]):.1f} ms, {errors[(n, label)]} errors" for n in ports]
            print(f"| {label} | " + " | ".join(cells) + " |")
        print("| memory (RSS) | " + " | ".join(f"{tree_rss_mib(processes[n].pid):.0f} MiB" for n in ports) + " |")
    finally:
        for process in processes.values():
            process.terminate()
            process.wait(10)
        fake.stop()


if __name__ == "__main__":
    main()
