"""What reaches the log: one line per event, and nothing a request carried.

Bolt and the Slack SDK write request bodies, replies and Web API arguments into some of their messages (an
invalid signature is logged with the whole body at INFO; DEBUG lines carry replies and `chat.postMessage`
text). Their records keep only the message's opening words, up to the first detail; dpscale's own lines never
hold a token, a `response_url` or a user's text to begin with. Every line, a traceback included, is written on
one physical line with newlines escaped, so no value can forge a line of its own.
"""

from __future__ import annotations

import atexit
import logging
import logging.handlers
import queue
import re
import sys
import threading
from typing import TextIO

# loggers whose messages may quote a request, a reply or Web API arguments
LIBRARY_LOGGERS = ("bot.bolt", "slack_bolt", "slack_sdk", "slack")
WRITE_INTERVAL = 0.05  # seconds a line may wait for the writer
_DETAIL = re.compile(r":|\(|\{|\[|\n|\r| - ")
# the Web API client logs every failed call at ERROR before raising it to its caller, which handles it and logs
# the outcome in its own words (a users.info timeout is read in the unknown format): a warning, not an error
_WEB_CLIENT = "slack_sdk.web.base_client"


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


class OneLineFormatter(logging.Formatter):
    """`LEVEL logger message`, then the traceback if any; every newline or carriage return, in a value or a
    traceback, written as \\n or \\r. Written out rather than through a format string: it runs for every
    request, and the generic path (format-style lookup, time and stack checks) costs more than the line."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"{record.levelname} {record.name} {record.getMessage()}"
        if record.exc_info:
            record.exc_text = record.exc_text or self.formatException(record.exc_info)
        if record.exc_text:
            text = f"{text}\n{record.exc_text}"
        if "\n" in text or "\r" in text:
            text = text.replace("\r", "\\r").replace("\n", "\\n")
        return text


def one_line_handler() -> logging.Handler:
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
    handler.setFormatter(OneLineFormatter())
    handler.addFilter(LibraryDetailFilter())
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


def restart_writer_in_child() -> None:
    """A forked process has the queue but not the thread that wrote it: start one of its own (bot/server.py
    registers this to run after every fork). Lines still queued at the fork are the parent's to write; the child's
    copy of them is dropped, so that none is written twice."""
    if _listener is not None:
        _listener.take_queued()  # the parent writes these
        _listener.start()


_listener: LineWriter | None = None
atexit.register(stop_writer)
