"""What reaches the log: one line per event, stamped with its time, and nothing a request carried.

Bolt and the Slack SDK write request bodies, replies and Web API arguments into some of their messages (an
invalid signature is logged with the whole body at INFO; DEBUG lines carry replies and `chat.postMessage`
text). Their records keep only the message's opening words, up to the first detail; dpscale's own lines never
hold a token, a `response_url` or a user's text to begin with, and what an unsigned request sent (the `error=`
of an OAuth redirect) is logged as one of the codes it may be, or as its length (`known_or_length`).

Every line, a traceback included, is written on one physical line with every control character escaped, as
text or JSON (LOG_FORMAT), with its time in UTC (bot/log_lines.py).

`logging_config(settings)` is the whole configuration as `logging.config.dictConfig` takes it, so that a process
manager (gunicorn's `logconfig_dict`, uvicorn's `log_config`) gives its own loggers the same handler and format.
"""

from __future__ import annotations

import atexit
import logging
import logging.config
import logging.handlers
import queue
import re
import sys
import threading
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from bot.settings import Settings

__all__ = ["LineWriter", "configure_logging", "hold_writer_for_fork", "logging_config", "release_writer_after_fork",
           "restart_writer_in_child", "stop_writer"]

# loggers whose messages may quote a request, a reply or Web API arguments
LIBRARY_LOGGERS = ("bot.bolt", "slack_bolt", "slack_sdk", "slack")
WRITE_INTERVAL = 0.05  # seconds a line may wait for the writer
_DETAIL = re.compile(r":|\(|\{|\[|\n|\r| - ")
# the Web API client logs every failed call at ERROR before raising it to its caller, which handles it and logs
# the outcome in its own words (a users.info timeout is read in the unknown format): a warning, not an error
_WEB_CLIENT = "slack_sdk.web.base_client"
# loggers of the servers a process manager may run dpscale under: they write to dpscale's handler, in its format
SERVER_LOGGERS = ("waitress", "gunicorn.error", "uvicorn", "uvicorn.error", "hypercorn.error")
# their access logs write each request's target, query string included, which no one authenticated: off, as
# dpscale writes a line of its own for each request it serves (bot.requests)
ACCESS_LOGGERS = ("gunicorn.access", "uvicorn.access", "hypercorn.access")


class LibraryDetailFilter(logging.Filter):
    """Cuts a library's message before its first detail: 'Invalid request signature detected (… body …)'
    becomes 'Invalid request signature detected'. An exception it logs is named by its type, without the
    traceback: a listener's own failure is logged in full by the app's error handler, and what the libraries
    log themselves is about the network (an acknowledgement on a connection that just dropped) whose
    messages may quote a payload."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == _WEB_CLIENT and record.levelno == logging.ERROR:  # its caller handles it, and says so
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        if record.name.startswith(LIBRARY_LOGGERS):
            message = record.msg if isinstance(record.msg, str) else type(record.msg).__name__
            record.msg = _DETAIL.split(message, 1)[0].strip() or "(message withheld)"
            record.args = None
            if record.exc_info and record.exc_info[0] is not None:
                record.msg += f" [{record.exc_info[0].__name__}]"
            record.exc_info = record.exc_text = None
        return True


def logging_config(settings: Settings) -> dict[str, Any]:
    """The process's whole log configuration, for `logging.config.dictConfig` (`configure_logging`
    applies it; a process manager can apply the same: gunicorn's `logconfig_dict`, uvicorn's `log_config`).

    One handler (`line_handler`, with `LibraryDetailFilter`) in the format of LOG_FORMAT, on the root logger at
    LOG_LEVEL; the servers' loggers (`SERVER_LOGGERS`) hand their lines to it, and their access logs, which
    would write each request's unauthenticated target, are off (`ACCESS_LOGGERS`)."""
    level = settings.log_level
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"dpscale": {"()": "bot.log_lines.formatter_for", "log_format": settings.log_format}},
        "filters": {"library_detail": {"()": "bot.logs.LibraryDetailFilter"}},
        "handlers": {"dpscale": {"()": "bot.logs.line_handler", "formatter": "dpscale",
                                 "filters": ["library_detail"]}},
        "root": {"level": level, "handlers": ["dpscale"]},
        "loggers": {
            # Bolt asks its logger's own level, not the effective one, before writing each middleware's debug
            # line: left unset, it wrote seven lines per request for logging to drop
            "bot.bolt": {"level": level},
            # waitress warns "Task queue depth is N" for every request that waits for a free thread: under
            # load, a line per request that says only that the process is busy
            "waitress.queue": {"level": "ERROR"},
            # Alembic says which plugins and which database implementation it set up, at every start: warnings
            # only (dpscale says itself when a migration ran, bot.store.migrate)
            "alembic": {"level": "WARNING"},
            **{name: {"handlers": [], "propagate": True} for name in SERVER_LOGGERS},
            **{name: {"level": "WARNING", "handlers": [], "propagate": True} for name in ACCESS_LOGGERS},
        },
    }


def line_handler() -> logging.Handler:
    """The process's handler: each record filtered and written as one line by the thread that logs it, and the
    line handed through a queue (`logging.handlers.QueueHandler`, the line passed on as text rather than as a copy
    of its record) to a writer thread that writes what has gathered every `WRITE_INTERVAL` (`LineWriter`).

    Request threads never write to stderr themselves: a handler's lock held across a write, which lets go of the
    interpreter lock, made every thread that logged queue behind the writer for a whole switch interval; under 64
    concurrent clients that, not the work, set the pace. The writer is stopped, and what is queued written, at exit
    (`stop_writer`).
    """
    global _listener
    stop_writer()
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    handler = _LineHandoff(lines)
    _listener = LineWriter(lines, sys.stderr)
    _listener.start()
    return handler


class _LineHandoff(logging.handlers.QueueHandler):
    """Hands the writer thread the finished line, formatted by the thread that logged it, rather than a copy of
    the record to format again (what the standard `prepare` does, for handlers that need a record)."""

    def prepare(self, record: logging.LogRecord) -> str:  # type: ignore[override]
        return self.format(record)


class LineWriter:
    """The writer thread: every `interval` seconds, the lines handed over since are written to `stream` in one
    write and flushed, in order.

    It sleeps rather than waits on the queue (as `logging.handlers.QueueListener` does): a thread woken by every
    line takes the interpreter lock from the request threads once per request, for a write of one line. A line
    reaches stderr at most `interval` after it was logged; what is queued at exit, or when the writer is
    replaced, is written then (`stop`)."""

    def __init__(self, lines: queue.SimpleQueue[str], stream: TextIO, interval: float = WRITE_INTERVAL) -> None:
        self.lines = lines
        self.stream = stream
        self.interval = interval
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.writing = threading.Lock()  # held across each write, and across a fork (`hold_writer_for_fork`)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dpscale-log", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Write what is queued and end the thread."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._write_queued()

    def _run(self) -> None:
        while not self._stopping.wait(self.interval):
            self._write_queued()

    def take_queued(self) -> list[str]:
        """Take every line queued so far off the queue."""
        batch = []
        try:
            while True:
                batch.append(self.lines.get_nowait())
        except queue.Empty:
            return batch

    def _write_queued(self) -> None:
        batch = self.take_queued()
        if not batch:
            return
        try:
            with self.writing:
                self.stream.write("\n".join(batch) + "\n")
                self.stream.flush()
        except (OSError, ValueError):  # stderr closed or gone: there is nowhere left to tell
            pass


def stop_writer() -> None:
    """Write what is queued and stop the writer thread, if one runs (at exit, or before the handler is replaced)."""
    global _listener
    if _listener is not None:
        _listener.stop()
        _listener = None


def hold_writer_for_fork() -> None:
    """Before a fork: wait for a write under way to end, and let none begin until the fork is done. A child forked
    in the middle of one would inherit stderr's buffer locked by a thread it does not have: its first write, and its
    exit, would wait for ever."""
    if _listener is not None:
        _listener.writing.acquire()


def release_writer_after_fork() -> None:
    """After a fork, in the parent: writes go on."""
    if _listener is not None and _listener.writing.locked():
        _listener.writing.release()


def restart_writer_in_child() -> None:
    """A forked process has the queue but not the thread that wrote it: start one of its own (run after every
    fork, whoever forks: a process manager's workers log as the parent did). Lines still queued at the fork are
    the parent's to write; the child's copy of them is dropped, so that none is written twice."""
    if _listener is not None:
        _listener.writing = threading.Lock()  # the parent's copy was held across the fork
    if _listener is not None and not _listener.running:
        _listener.take_queued()  # the parent writes these
        _listener.start()


_listener: LineWriter | None = None
atexit.register(stop_writer)


def configure_logging(settings: Settings) -> None:
    """Log lines to stderr at the configured level, in the configured format; the process's only log
    configuration (`logging_config`, which a process manager may apply to its own loggers as well).

    Each line is stamped with its time in UTC, to the millisecond, formatted once per second. Not the caller's
    file and line, thread name or multiprocessing name, which no line prints and which logging would otherwise
    look up for every record (the logging HOWTO's "Optimization" section). The process id stays: servers' own
    formats may print it.
    """
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.logThreads = False
    logging.logMultiprocessing = False
    logging.config.dictConfig(logging_config(settings))
