"""The WSGI front in front of Bolt: a health check, 404 elsewhere, and requests checked for shape first.

The server (waitress, see bot/server.py) has already read each request in full, refused a body over
`MAX_BODY` with 413 and closed connections that stalled. This front then answers a request that cannot
be a well-formed Slack request — no timestamp or signature in Slack's form, a body that is not UTF-8, a
JSON or `payload=` body that is not a JSON object — with 400 or 401 and one log line naming the reason,
never the body; what passes goes to Bolt, which verifies the signature. Anything that still fails is
logged with its traceback and answered 500, so no exception reaches the server.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from io import BytesIO
from typing import Any

from slack_bolt.request.internals import parse_body

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
# Slack's largest requests are interactivity payloads carrying a whole view or message: a modal of 100 blocks
# with its state, form-encoded, stays well under 1 MiB. Nothing dpscale receives comes near it.
MAX_BODY = 1 << 20
# when the server received a request's first bytes (`time.monotonic()`), if it says (bot/server.py): passed to the
# listeners as a header only this front sets, since Bolt's adapter hands them the headers and nothing else
ARRIVED = "dpscale.arrived"
ARRIVAL_HEADER = "x-dpscale-arrived"
_ARRIVAL_ENVIRON = "HTTP_" + ARRIVAL_HEADER.upper().replace("-", "_")

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]

log = logging.getLogger("bot.http")


class Rejected(Exception):
    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def guarded(slack: WSGIApp, browser_paths: frozenset[str] = frozenset()) -> WSGIApp:
    """`slack` (Bolt's WSGI handler) behind the checks above; `browser_paths` (the OAuth flow's install and
    redirect pages, in multi-workspace mode) go to it as GET requests with no body."""

    def application(environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        _pass_arrival(environ)
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            return _plain(start_response, "200 OK", b"ok")
        if path in browser_paths and method == "GET":
            environ["wsgi.input"] = BytesIO(b"")
            return slack(environ, start_response)
        if path != EVENTS_PATH:
            return _plain(start_response, "404 Not Found", b"not found")
        if method != "POST":
            return _plain(start_response, "405 Method Not Allowed", b"method not allowed")
        try:
            environ["wsgi.input"] = BytesIO(checked_body(environ))
        except Rejected as rejected:
            log.info("rejected status=%s reason=%s", rejected.status[:3], rejected.reason)
            return _plain(start_response, rejected.status, rejected.reason.encode())
        try:
            return slack(environ, start_response)
        except Exception:
            log.exception("request failed")
            return _plain(start_response, "500 Internal Server Error", b"internal error")

    return application


def _pass_arrival(environ: Environ) -> None:
    """The server's arrival time as the listeners' header; a client's own header of that name never passes."""
    arrived = environ.get(ARRIVED)
    if isinstance(arrived, float):
        environ[_ARRIVAL_ENVIRON] = repr(arrived)
    else:
        environ.pop(_ARRIVAL_ENVIRON, None)


def checked_body(environ: Environ) -> bytes:
    """The request's body, once it is known to be something Bolt can read; `Rejected` otherwise."""
    timestamp = environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP", "")
    signature = environ.get("HTTP_X_SLACK_SIGNATURE", "")
    if not (timestamp.isascii() and timestamp.isdigit()):
        raise Rejected("401 Unauthorized", "missing or malformed X-Slack-Request-Timestamp")
    if not (signature.isascii() and signature.startswith("v0=")):
        raise Rejected("401 Unauthorized", "missing or malformed X-Slack-Signature")
    length = environ.get("CONTENT_LENGTH")
    body: bytes = environ["wsgi.input"].read(int(length)) if length else environ["wsgi.input"].read()
    try:
        text = body.decode()
    except UnicodeDecodeError:
        raise Rejected("400 Bad Request", "body is not UTF-8") from None
    content_type = environ.get("CONTENT_TYPE")
    if content_type == "application/json" or text.startswith("{") or "payload" in text:
        try:  # the branches of Bolt's own parser that can fail or give something other than an object
            parsed = parse_body(text, content_type)
        except ValueError:
            raise Rejected("400 Bad Request", "body or payload is not JSON") from None
        if not isinstance(parsed, dict):
            raise Rejected("400 Bad Request", "body or payload is not a JSON object")
    return body


def _plain(start_response: StartResponse, status: str, body: bytes) -> list[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))])
    return [body]
