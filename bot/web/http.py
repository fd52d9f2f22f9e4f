"""The WSGI front in front of Bolt: a health check, 404 elsewhere, and requests checked for shape first.

The server (bot/server.py, its front bot/web/asgi.py) has already read each request in full, refused a body over
its limit (`bot.policy.Limits.body_bytes`) with 413 and closed connections that stalled. This front then answers
a request that cannot be a well-formed Slack request — no timestamp or signature in Slack's form, a body that is
not UTF-8, a JSON or `payload=` body that is not a JSON object — with 400 or 401 and one log line naming the
reason, never the body; what passes goes to Bolt, which verifies the signature. Anything that still fails is
logged with its traceback and answered 500, so no exception reaches the server.

The front reads a body the way Bolt will (`slack_body`: the content type up to any `;`, JSON when it says so
or the body opens with `{`), so that what it lets through Bolt can parse; and `BoltHandler` hands Bolt each
request as a `SlackRequest`, whose form body is an interactivity payload only when it has a `payload` field.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from io import BytesIO
from typing import Any
from urllib.parse import parse_qsl

from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_bolt.adapter.wsgi.http_request import WsgiHttpRequest
from slack_bolt.request import BoltRequest
from slack_bolt.request.internals import build_context, extract_content_type
from slack_bolt.response import BoltResponse

from bot.slack.plumbing import ARRIVAL_HEADER

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
# when the server received a request's first bytes (`time.monotonic()`), if it says (bot/server.py): passed to the
# listeners as a header only this front sets, since Bolt's adapter hands them the headers and nothing else
ARRIVED = "dpscale.arrived"
_ARRIVAL_ENVIRON = "HTTP_" + ARRIVAL_HEADER.upper().replace("-", "_")

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]

log = logging.getLogger("bot.http")
_HTML = (("Content-Type", "text/html; charset=utf-8"),)


class RejectedRequestError(Exception):
    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def guarded(slack: WSGIApp, browser_paths: frozenset[str] = frozenset(), browser_failure: bytes = b"") -> WSGIApp:
    """`slack` (Bolt's WSGI handler) behind the checks above; `browser_paths` (the OAuth flow's install and
    redirect pages, in multi-workspace mode) go to it as GET requests with no body, and should one fail, the
    browser gets `browser_failure` (an HTML page) rather than the server's own."""

    def application(environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        head = method == "HEAD"
        _pass_arrival(environ)
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            return _plain(start_response, "200 OK", b"ok", head)
        if path in browser_paths and method == "GET":
            environ["wsgi.input"] = BytesIO(b"")
            try:
                return slack(environ, start_response)
            except Exception:  # storing the installation failed (its database locked, say)
                log.exception("install page failed")
                return _plain(start_response, "500 Internal Server Error", browser_failure or b"internal error",
                              False, *(_HTML if browser_failure else ()))
        if path not in browser_paths and path != EVENTS_PATH:
            return _plain(start_response, "404 Not Found", b"not found", head)
        if method != "POST" or path in browser_paths:  # an install page is never run for HEAD: it makes a state
            allow = ("Allow", "GET" if path in browser_paths else "POST")
            return _plain(start_response, "405 Method Not Allowed", b"method not allowed", head, allow)
        try:
            environ["wsgi.input"] = BytesIO(checked_body(environ))
        except RejectedRequestError as rejected:
            log.info("rejected status=%s reason=%s", rejected.status[:3], rejected.reason)
            return _plain(start_response, rejected.status, rejected.reason.encode())
        try:
            return slack(environ, start_response)
        except RejectedRequestError as rejected:  # by `SlackRequest`, as Bolt read the body
            log.info("rejected status=%s reason=%s", rejected.status[:3], rejected.reason)
            return _plain(start_response, rejected.status, rejected.reason.encode())
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
    """The request's body, once it is known to be something Bolt can read; `RejectedRequestError` otherwise."""
    timestamp = environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP", "")
    signature = environ.get("HTTP_X_SLACK_SIGNATURE", "")
    if not (timestamp.isascii() and timestamp.isdigit()):
        raise RejectedRequestError("401 Unauthorized", "missing or malformed X-Slack-Request-Timestamp")
    if not (signature.isascii() and signature.startswith("v0=")):
        raise RejectedRequestError("401 Unauthorized", "missing or malformed X-Slack-Signature")
    length = environ.get("CONTENT_LENGTH")
    body: bytes = environ["wsgi.input"].read(int(length)) if length else environ["wsgi.input"].read()
    try:
        text = body.decode()
    except UnicodeDecodeError:
        raise RejectedRequestError("400 Bad Request", "body is not UTF-8") from None
    content_type = extract_content_type({"content-type": [environ.get("CONTENT_TYPE") or ""]})  # as Bolt reads it
    if content_type == "application/json" or text.startswith("{") or "payload" in text:
        try:  # the reading that can fail or give something other than an object
            parsed = slack_body(text, content_type)
        except (ValueError, RecursionError):  # not JSON, or nested deeper than the interpreter's stack
            raise RejectedRequestError("400 Bad Request", "body or payload is not JSON") from None
        if not isinstance(parsed, dict):
            raise RejectedRequestError("400 Bad Request", "body or payload is not a JSON object")
        if not _bolt_can_match(parsed):
            raise RejectedRequestError("400 Bad Request", "payload lacks what its type must carry")
    return body


# What Bolt's matchers and context index without checking, by payload type: each path must lead to a string.
_MUST_CARRY: dict[str, tuple[tuple[str | int, ...], ...]] = {
    "block_actions": (("actions", 0, "action_id"),),
    "interactive_message": (("callback_id",), ("actions", 0, "type")),
    "block_suggestion": (("action_id",),),
    "view_submission": (("view", "callback_id"), ("view", "type")),
    "view_closed": (("view", "callback_id"), ("view", "type")),
    "dialog_submission": (("callback_id",),),
    "dialog_cancellation": (("callback_id",),),
    "dialog_suggestion": (("callback_id",),),
    "shortcut": (("callback_id",),),
    "message_action": (("callback_id",),),
    "event_callback": (("event", "type"),),
}


def _bolt_can_match(payload: dict[str, Any]) -> bool:
    """Whether Bolt's listener matchers can read what a payload of its type must carry (`_MUST_CARRY`): block
    actions their first action's id, a view submission its view's callback id and type, an event its type."""
    for path in _MUST_CARRY.get(str(payload.get("type")), ()):
        found: Any = payload
        for step in path:
            if isinstance(step, int):
                found = found[step] if isinstance(found, list) and len(found) > step else None
            else:
                found = found.get(step) if isinstance(found, dict) else None
        if not isinstance(found, str):
            return False
    return True


def slack_body(text: str, content_type: str | None) -> Any:
    """What a body holds, read as Bolt reads it but by a form's fields: a JSON body, a form's `payload` field
    (an interactivity payload) when it has one, or else the form's fields."""
    if not text:
        return {}
    if content_type == "application/json" or text.startswith("{"):
        return json.loads(text)
    fields = dict(parse_qsl(text, keep_blank_values=True))
    return json.loads(fields["payload"]) if "payload" in fields else fields


class SlackRequest(BoltRequest):
    """Bolt's request, whose form body is an interactivity payload only when it has a `payload` field.

    Bolt's `parse_body` (slack_bolt/request/internals.py, as of slack_bolt 1.30) takes a form body for a payload
    whenever the word `payload` appears anywhere in it, and when there is no such field reads the body as `{}`:
    a slash command typed in a channel called `payload-team`, from a workspace or user whose name holds the word,
    or with it in its text, then matched no listener and was answered 404. It parses in `BoltRequest.__init__`,
    before `App.dispatch`, so this is the narrowest place to read the body again: only a form body that came out
    empty although it mentions `payload`, and the context Bolt derives from the body with it. The raw body, which
    Bolt's signature check reads, is untouched.
    """

    def __init__(self, **kwargs: Any) -> None:
        try:
            super().__init__(**kwargs)
        except RecursionError:  # nested past what is left of this thread's stack, deeper than the front's check
            raise RejectedRequestError("400 Bad Request", "body or payload is not JSON") from None
        if not self.body and self.mode == "http" and "payload" in self.raw_body:
            self.body = slack_body(self.raw_body, self.content_type)
            self.context = build_context(self.context, self.body)

    def to_copyable(self) -> BoltRequest:
        """The copy a lazy listener gets (Bolt's parses the raw body again): with this request's body."""
        copied = super().to_copyable()
        copied.body = self.body
        return copied


class BoltHandler(SlackRequestHandler):
    """Bolt's WSGI adapter, dispatching each request to the app as a `SlackRequest`."""

    def dispatch(self, request: WsgiHttpRequest) -> BoltResponse:
        return self.app.dispatch(
            SlackRequest(body=request.get_body(), query=request.query_string, headers=request.get_headers())
        )


def _plain(
    start_response: StartResponse, status: str, body: bytes, head: bool = False, *headers: tuple[str, str]
) -> list[bytes]:
    """A short text answer (or another type: `headers` may name it); to HEAD, its headers alone (the server leaves
    that to the app, and a body after them would be read, on a kept-alive connection, as the start of the next
    response)."""
    kind = [] if any(name == "Content-Type" for name, _ in headers) else [("Content-Type", "text/plain; charset=utf-8")]
    start_response(status, [*kind, ("Content-Length", str(len(body))), *headers])
    return [b""] if head else [body]
