"""A fake Slack Web API served over HTTP on loopback, for end-to-end tests and benchmarks.

It answers `auth.test` (per token, with the token's scopes in `x-oauth-scopes`), `oauth.v2.access`, `users.info`,
`chat.postMessage`, a file upload (`files.getUploadURLExternal`, the bytes posted to the URL it gives, and
`files.completeUploadExternal`, as slack-sdk's `files_upload_v2` calls them) and a workflow step's
`functions.completeSuccess`/`completeError` (once per execution) the way Slack does,
receives `response_url` posts at /response/…, records every call, and can fail, rate-limit, hang or slow down
a method on demand, or `users.info` for one user alone: slow, hanging, or answering a per-user error
(`user_not_found`, `user_not_visible`) with HTTP 200 and `ok: false`, as Slack does for some Slack Connect users.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

from bot.settings import DEFAULT_SCOPES

BOT_USER_ID = "UDPSCALE"
TEAM_ID = "T0TEAM"
JSON = "application/json; charset=utf-8"
HANG_LIMIT = 15.0  # a hanging method answers after this long at the most, so no test can wait forever


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    headers: dict[str, str]
    answer: dict[str, Any] | None = None  # what the fake answered
    port: int = 0  # the caller's TCP port: which process made the call, for tests that run several


@dataclass
class FakeSlack:
    """Behaviour per method: 'ok', 'error' (HTTP 500), 'ratelimit' (HTTP 429), 'ratelimit_once' (429 to the first
    call only, as Slack answers a burst in one channel), 'hang', 'portal' (an HTML page with HTTP 200, as a proxy
    between the app and Slack might answer), 'error_once', 'portal_once' or 'truncated_once' (a 500, that page or
    a JSON answer cut short, to the first call only, which does nothing), or a delay in seconds (after which the
    call is done and answered, whether or not the caller still waits).

    Messages posted with `chat.postMessage` are kept (`posted`) with their metadata, and `conversations.replies`
    lists a thread's, as Slack does for an app with the history scopes."""

    locales: dict[str, str | None] = field(default_factory=dict)
    behaviour: dict[str, str | float] = field(default_factory=dict)
    # users.info for one user: a delay in seconds, 'hang', or an error code answered with HTTP 200 and ok: false
    users: dict[str, str | float] = field(default_factory=dict)
    retry_after: str = "30"  # the Retry-After of a rate limit
    calls: list[Call] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)  # methods whose answer was sent, in order
    # OAuth: each granted code `code-T…` (or `code-org-E…` for an org-wide install) issues bot token `xoxb-T…`
    tokens: dict[str, str] = field(default_factory=dict)  # bot token → team (or "org-E…")
    revoked: set[str] = field(default_factory=set)
    installs: int = 0
    socket_mode_url: str = ""  # what apps.connections.open answers: a local websocket standing in for Slack's
    posted: list[dict[str, Any]] = field(default_factory=list)  # every message chat.postMessage posted
    steps_done: set[str] = field(default_factory=set)  # workflow steps given an outcome (functions.complete…)
    # the bot token's scopes, as auth.test's header gives them; without files:write an upload is refused
    scopes: str = DEFAULT_SCOPES  # every scope the app asks for; a test takes some away
    uploads: dict[str, bytes] = field(default_factory=dict)  # file id → the bytes posted to its upload URL
    completed: list[str] = field(default_factory=list)  # file ids, as files.completeUploadExternal completed them
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _released: threading.Event = field(default_factory=threading.Event)

    def start(self) -> FakeSlack:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(length)
                if self.path.startswith("/upload/"):  # a file's bytes, to the URL files.getUploadURLExternal gave
                    return fake._upload(self, data)
                fake._serve(self, data.decode())

        self.server = _QuietServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        # shutdown() waits for the serving loop to notice; a short poll keeps each stop (one per test) quick
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self

    def stop(self) -> None:
        self._released.set()
        self.server.shutdown()
        self.server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def api_url(self) -> str:
        return self.url + "/api/"

    def response_url(self, name: str) -> str:
        return f"{self.url}/response/{name}"

    def calls_to(self, method: str) -> list[Call]:
        with self._lock:
            return [c for c in self.calls if c.method == method]

    def wait_for(self, method: str, count: int = 1, timeout: float = 15.0) -> list[Call]:
        """The calls to `method` once there are `count` of them (the calls so far after `timeout` seconds: a loaded
        machine running the suite on many workers can take several seconds)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.calls_to(method)
            if len(found) >= count:
                return found
            time.sleep(0.01)
        return self.calls_to(method)

    def _grant(self, code: str) -> dict[str, Any]:
        if not code.startswith("code-"):
            return {"ok": False, "error": "invalid_code"}
        team = code.removeprefix("code-")
        token = f"xoxb-{team}"
        with self._lock:
            self.tokens[token] = team
            self.installs += 1
        return _grant_answer(team, token)

    def _upload(self, handler: BaseHTTPRequestHandler, data: bytes) -> None:
        file_id = handler.path.removeprefix("/upload/")
        with self._lock:
            self.calls.append(Call(handler.path, {"length": len(data)}, dict(handler.headers)))
            self.uploads[file_id] = data
        _send_bytes(handler, 200, f"OK - {len(data)}".encode(), "text/plain; charset=utf-8")

    def _serve(self, handler: BaseHTTPRequestHandler, raw: str) -> None:
        path = handler.path.split("?")[0]
        method = path.removeprefix("/api/") if path.startswith("/api/") else path
        content_type = handler.headers.get("Content-Type", "")
        params = json.loads(raw or "{}") if "json" in content_type else dict(parse_qsl(raw))
        call = Call(method, params, dict(handler.headers), port=handler.client_address[1])
        with self._lock:
            self.calls.append(call)
        behaviour = self.behaviour.get(method, "ok")
        if method == "users.info" and params.get("user") in self.users:
            behaviour = self.users[params["user"]]
            if isinstance(behaviour, str) and behaviour != "hang":
                return _send(handler, 200, {"ok": False, "error": behaviour})
        if behaviour == "hang":
            self._released.wait(HANG_LIMIT)
        elif isinstance(behaviour, (int, float)):
            time.sleep(behaviour)
        with self._lock:
            self.finished.append(method)
            first = self.finished.count(method) == 1
        if isinstance(behaviour, str) and behaviour.endswith("_once"):
            behaviour = behaviour.removesuffix("_once") if first else "ok"
        if behaviour == "truncated":  # an answer cut short in transit: the call did nothing
            return _send_bytes(handler, 200, b'{"ok": true, "channel": "C1", "ts": "17', JSON)
        if behaviour == "error":
            return _send(handler, 500, {"ok": False, "error": "internal_error"})
        if behaviour == "ratelimit":
            return _send(handler, 429, {"ok": False, "error": "ratelimited"}, {"Retry-After": self.retry_after})
        if behaviour == "portal":  # a proxy's or captive portal's page in place of Slack's answer
            page = b"<html><body>Sign in to continue: token=xoxb-portal-page</body></html>"
            return _send_bytes(handler, 200, page, "text/html")
        token = (handler.headers.get("Authorization") or "").removeprefix("Bearer ")
        call.answer = self._answer(method, params, token)
        return _send(handler, 200, call.answer, {"x-oauth-scopes": self.scopes} if method == "auth.test" else None)

    def finished_count(self, method: str) -> int:
        with self._lock:
            return self.finished.count(method)

    def _answer(self, method: str, params: dict[str, Any], token: str = "") -> dict[str, Any]:
        if method == "auth.test":
            if token in self.revoked or (self.installs and token.startswith("xoxb-") and token not in self.tokens):
                return {"ok": False, "error": "invalid_auth"}
            team = self.tokens.get(token, TEAM_ID)
            return {"ok": True, "user_id": BOT_USER_ID, "bot_id": "BDPSCALE", "team_id": team, "user": "dpscale",
                    **({"enterprise_id": team.removeprefix("org-")} if team.startswith("org-") else {})}
        if method == "oauth.v2.access":
            return self._grant(params.get("code", ""))
        if self.installs and token not in self.tokens:  # multi-workspace: only issued tokens work
            return {"ok": False, "error": "invalid_auth"}
        if method == "users.info":
            user = params.get("user", "")
            profile: dict[str, Any] = {"id": user, "team_id": TEAM_ID}
            locale = self.locales.get(user, "en-US")
            if locale is not None:
                profile["locale"] = locale
            return {"ok": True, "user": profile}
        if method == "apps.connections.open":
            return {"ok": True, "url": self.socket_mode_url}
        if method == "chat.postMessage":
            message = {"channel": params.get("channel"), "ts": f"{time.time():.6f}", "text": params.get("text"),
                       "thread_ts": params.get("thread_ts"), "metadata": _json(params.get("metadata"))}
            with self._lock:
                self.posted.append(message)
            return {"ok": True, "channel": params.get("channel"), "ts": message["ts"]}
        if method == "conversations.replies":
            with self._lock:
                thread = [m for m in self.posted if m["channel"] == params.get("channel")
                          and params.get("ts") in (m["thread_ts"], m["ts"])]
            return {"ok": True, "messages": [{k: v for k, v in m.items() if v is not None} for m in thread]}
        if method in ("functions.completeSuccess", "functions.completeError"):  # a second outcome is refused
            execution = params.get("function_execution_id", "")
            with self._lock:
                done = execution in self.steps_done
                self.steps_done.add(execution)
            return {"ok": False, "error": "execution_not_in_running_state"} if done else {"ok": True}
        if method == "files.getUploadURLExternal":
            if "files:write" not in self.scopes.split(","):
                return {"ok": False, "error": "missing_scope", "needed": "files:write", "provided": self.scopes}
            file_id = f"F{len(self.calls_to(method)):08d}"
            return {"ok": True, "upload_url": f"{self.url}/upload/{file_id}", "file_id": file_id}
        if method == "files.completeUploadExternal":
            files = _json(params.get("files")) or []
            with self._lock:
                self.completed += [f["id"] for f in files if f["id"] in self.uploads]
            return {"ok": True, "files": [{"id": f["id"], "title": f.get("title"), "mimetype": "image/png"}
                                          for f in files if f["id"] in self.uploads]}
        if method == "chat.update":
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}
        return {"ok": True}


def _json(value: Any) -> Any:
    """A parameter the client may send as JSON text (form-encoded calls) or as an object."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class _QuietServer(ThreadingHTTPServer):
    request_queue_size = 256  # Slack takes a burst of connections at once; the standard library's backlog is 5
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up on a slow answer is what a slow-API test expects, not an error to print."""


def _grant_answer(team: str, token: str) -> dict[str, Any]:
    org = team.startswith("org-")
    enterprise = {"id": team.removeprefix("org-"), "name": "Example Org"} if org else None
    return {
        "ok": True, "app_id": "A1", "authed_user": {"id": "UINSTALLER"}, "scope": "commands,chat:write",
        "token_type": "bot", "access_token": token, "bot_user_id": BOT_USER_ID,
        "team": None if org else {"id": team, "name": f"Workspace {team}"},
        "enterprise": enterprise, "is_enterprise_install": org,
    }


def _send(handler: BaseHTTPRequestHandler, status: int, body: dict[str, Any], headers: dict[str, str] | None = None):
    _send_bytes(handler, status, json.dumps(body).encode(), JSON, headers)


def _send_bytes(handler: BaseHTTPRequestHandler, status: int, data: bytes, content_type: str,
                headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(data)))
    for key, value in (headers or {}).items():
        handler.send_header(key, value)
    handler.end_headers()
    handler.wfile.write(data)
