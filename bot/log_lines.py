"""How one log line is written: its UTC time, level, logger and message, every control character escaped, as
text or as JSON (LOG_FORMAT); and how a field no one authenticated is written (`known_or_length`).

The text line is `2026-01-31T09:00:00.123Z INFO logger message`; the JSON line one object with `time`, `level`,
`logger`, `message` (and `exc_info`), by python-json-logger. Every control character (C0, DEL, C1, the Unicode
line and paragraph separators, the bidirectional embeddings, overrides and isolates) is escaped, so no value can
forge a line of its own or clear, recolour or reorder a terminal tailing the log; a message is cut at
`MAX_MESSAGE` characters whatever it holds.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Collection
from typing import Any

__all__ = ["MAX_MESSAGE", "OneLineFormatter", "escape_controls", "formatter_for", "json_formatter",
           "known_or_length"]

MAX_MESSAGE = 1000  # characters of a message (before its traceback) that are written; the rest is counted
# C0 controls, DEL and the C1 controls (NEL among them), the line and paragraph separators, and the
# bidirectional embeddings, overrides and isolates, which reorder what a terminal or a viewer shows
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape_controls(text: str) -> str:
    r"""`text` with every control character written as an escape: \n, \r, \t, \x1b, \u2028.

    >>> escape_controls("a\x1b[2Jb\nc\u2028")
    'a\\x1b[2Jb\\nc\\u2028'
    """
    if text.isprintable():  # the common line, checked in C: no control character (nor any other unprintable one)
        return text
    return _CONTROL.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


def known_or_length(value: str | None, known: Collection[str]) -> str:
    """How to log a field no one authenticated: itself if it is one of the `known` codes, else only its length.

    >>> known_or_length("access_denied", {"access_denied"}), known_or_length("x" * 60000, {"access_denied"})
    ('access_denied', 'other (60000 chars)')
    """
    if value is None:
        return "none"
    return value if value in known else f"other ({len(value)} chars)"


def _bounded(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:MAX_MESSAGE]}… ({len(message)} chars)"


_MILLISECONDS = tuple(f".{n:03d}Z" for n in range(1000))


class _UtcClock:
    """ISO 8601 UTC time stamps to the millisecond, `2026-01-31T09:00:00.123Z`; the part up to the second is
    formatted once per second (strftime costs more than the rest of a line)."""

    def __init__(self) -> None:
        self._second: tuple[int, str] = (-1, "")

    def stamp(self, created: float) -> str:
        second, text = self._second
        whole = int(created)
        if whole != second:
            text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
            self._second = (whole, text)
        return text + _MILLISECONDS[min(int((created - whole) * 1000), 999)]


class OneLineFormatter(logging.Formatter):
    """`TIME LEVEL logger message`, then the traceback if any, with every control character escaped
    (`escape_controls`). Written out rather than through a format string: it runs for every request, and the
    generic path (format-style lookup, `formatTime`, stack checks) costs more than the line."""

    def __init__(self) -> None:
        super().__init__()
        self._clock = _UtcClock()

    def format(self, record: logging.LogRecord) -> str:
        text = f"{self._clock.stamp(record.created)} {record.levelname} {record.name} {_bounded(record.getMessage())}"
        if record.exc_info:
            record.exc_text = record.exc_text or self.formatException(record.exc_info)
        if record.exc_text:
            text = f"{text}\n{record.exc_text}"
        return escape_controls(text)


def json_formatter() -> logging.Formatter:
    """LOG_FORMAT=json: one JSON object per line, `{"time": …, "level": …, "logger": …, "message": …}` and
    `exc_info` for a traceback, by python-json-logger; JSON escapes every control character itself (ASCII only).
    A record's `extra` fields, which dpscale never sets, are written too."""
    from pythonjsonlogger.json import JsonFormatter

    class _JsonLineFormatter(JsonFormatter):
        clock = _UtcClock()

        def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
            return self.clock.stamp(record.created)

        def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
            log_data["message"] = _bounded(log_data.get("message") or "")
            return log_data

    return _JsonLineFormatter("{asctime}{levelname}{name}{message}", style="{",
                              rename_fields={"asctime": "time", "levelname": "level", "name": "logger"})


def formatter_for(log_format: str) -> logging.Formatter:
    """The formatter of LOG_FORMAT (`text` or `json`)."""
    return json_formatter() if log_format == "json" else OneLineFormatter()
