"""What reaches the log: one line per event, and nothing a request carried.

Bolt and the Slack SDK write request bodies, replies and Web API arguments into some of their messages (an
invalid signature is logged with the whole body at INFO; DEBUG lines carry replies and `chat.postMessage`
text). Their records keep only the message's opening words, up to the first detail; dpscale's own lines never
hold a token, a `response_url` or a user's text to begin with. Every line, a traceback included, is written on
one physical line with newlines escaped, so no value can forge a line of its own.
"""

from __future__ import annotations

import logging
import re

# loggers whose messages may quote a request, a reply or Web API arguments
LIBRARY_LOGGERS = ("bot.bolt", "slack_bolt", "slack_sdk", "slack")
_DETAIL = re.compile(r":|\(|\{|\[|\n|\r| - ")


class LibraryDetailFilter(logging.Filter):
    """Cuts a library's message before its first detail: 'Invalid request signature detected (… body …)'
    becomes 'Invalid request signature detected'. An exception it logs is named by its type, without the
    traceback: a listener's own failure is logged in full by the app's error handler, and what the libraries
    log themselves is about the network (an acknowledgement on a connection that just dropped) whose
    messages may quote a payload."""

    def filter(self, record: logging.LogRecord) -> bool:
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
    handler = logging.StreamHandler()
    handler.setFormatter(OneLineFormatter())
    handler.addFilter(LibraryDetailFilter())
    return handler
