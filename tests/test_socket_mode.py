"""Socket Mode end to end: `python -m bot` with SLACK_APP_TOKEN, connected to a local websocket standing in for
Slack's (the URL handed out by `apps.connections.open` on the fake Web API), through one dropped connection."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from fake_slack import BOT_USER_ID, TEAM_ID, FakeSlack
from slack_client import AppServer, mention_body

pytestmark = pytest.mark.e2e
WAIT = 20.0  # the client notices a dropped connection within its 5-second ping interval


class FakeSocketModeServer:
    """Slack's Socket Mode endpoint on loopback: says hello to each connection, sends envelopes down the current
    one, records every message the app sends back, and can drop the connection."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.connections = 0
        self._current: ServerConnection | None = None
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)

    async def _start(self) -> int:
        self._server = await serve(self._handle, "127.0.0.1", 0)
        return self._server.sockets[0].getsockname()[1]

    async def _handle(self, connection: ServerConnection) -> None:
        with self._lock:
            self.connections += 1
            self._current = connection
        await connection.send(json.dumps({"type": "hello", "num_connections": 1,
                                          "connection_info": {"app_id": "A1"}}))
        try:
            async for message in connection:
                with self._lock:
                    self.received.append(json.loads(message))
        except ConnectionClosed:
            pass  # the app went away or the test dropped it

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/link"

    def send(self, envelope: dict[str, Any]) -> None:
        assert self._current is not None
        asyncio.run_coroutine_threadsafe(self._current.send(json.dumps(envelope)), self._loop).result(5)

    def drop(self) -> None:
        assert self._current is not None
        asyncio.run_coroutine_threadsafe(self._current.close(), self._loop).result(5)

    def wait_connections(self, count: int) -> bool:
        return _until(lambda: self.connections >= count)

    def acks(self, envelope_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return [m for m in self.received if m.get("envelope_id") == envelope_id]

    def wait_ack(self, envelope_id: str) -> dict[str, Any]:
        assert _until(lambda: self.acks(envelope_id)), f"no ack for {envelope_id}"
        return self.acks(envelope_id)[0]

    def stop(self) -> None:
        async def close() -> None:
            self._server.close()
            await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()


def _until(condition: Any, timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def slash_envelope(envelope_id: str, text: str, response_url: str) -> dict[str, Any]:
    payload = {"token": "unused", "team_id": TEAM_ID, "channel_id": "C1", "user_id": "USM", "command": "/dpscale",
               "text": text, "api_app_id": "A1", "response_url": response_url, "trigger_id": "1.2.3"}
    return {"envelope_id": envelope_id, "type": "slash_commands", "payload": payload,
            "accepts_response_payload": True, "retry_attempt": 0, "retry_reason": ""}


def button_envelope(envelope_id: str, button: dict[str, Any], response_url: str) -> dict[str, Any]:
    payload = {"type": "block_actions", "user": {"id": "USM", "team_id": TEAM_ID}, "team": {"id": TEAM_ID},
               "api_app_id": "A1", "trigger_id": "1.2.3", "channel": {"id": "C1"},
               "container": {"type": "message", "is_ephemeral": True}, "response_url": response_url,
               "actions": [{**button, "block_id": "b", "action_ts": "1"}]}
    return {"envelope_id": envelope_id, "type": "interactive", "payload": payload, "accepts_response_payload": True}


def mention_envelope(envelope_id: str, retry_attempt: int) -> dict[str, Any]:
    payload = json.loads(mention_body(f"<@{BOT_USER_ID}> 8 1000 80%", "USM", "EvSocket1", "1700000000.000100"))
    return {"envelope_id": envelope_id, "type": "events_api", "payload": payload, "accepts_response_payload": False,
            "retry_attempt": retry_attempt, "retry_reason": "timeout" if retry_attempt else ""}


@pytest.mark.slow
def test_socket_mode_answers_a_command_a_mention_and_a_click_once_each_across_a_reconnect():
    socket = FakeSocketModeServer()
    fake = FakeSlack(socket_mode_url=socket.url).start()
    app = AppServer(fake, env={"SLACK_APP_TOKEN": "xapp-1-test"}, command=["python", "-m", "bot"])
    try:
        app.start(http=False)
        assert socket.wait_connections(1), app.log_so_far()

        socket.send(slash_envelope("env-command", "64 2000 90%", fake.response_url("sm-command")))
        answer = socket.wait_ack("env-command")["payload"]
        assert "115,200 samples/s" in answer["text"]
        share = next(e for b in answer["blocks"] if b["type"] == "actions" for e in b["elements"]
                     if e["action_id"] == "dpscale_share")

        # Slack delivers the mention, the connection drops, and Slack delivers it again on the new connection
        socket.send(mention_envelope("env-mention", retry_attempt=0))
        socket.drop()
        assert socket.wait_connections(2), app.log_so_far()
        socket.send(mention_envelope("env-mention-retry", retry_attempt=1))
        socket.wait_ack("env-mention-retry")

        socket.send(button_envelope("env-share", share, fake.response_url("sm-share")))
        socket.wait_ack("env-share")
        shared = fake.wait_for("/response/sm-share", 2)
        posted = fake.wait_for("chat.postMessage", 1)

        socket.send(slash_envelope("env-later", "8 1000 80%", fake.response_url("sm-later")))
        assert "6,400 samples/s" in socket.wait_ack("env-later")["payload"]["text"]  # everything before has settled
    finally:
        log = app.output()
        fake.stop()
        socket.stop()

    assert len(fake.calls_to("apps.connections.open")) >= 2
    assert [len(socket.acks(e)) for e in ("env-command", "env-mention-retry", "env-share", "env-later")] == [1] * 4
    assert len(socket.acks("env-mention")) <= 1  # acknowledged before the drop, or never
    assert len(posted) == 1 and len(fake.calls_to("chat.postMessage")) == 1
    assert posted[0].params["thread_ts"] == "1700000000.000100"
    assert "6400 samples/s" in json.dumps(posted[0].params)  # a mention's answer: four digits read alike anywhere
    # the shared result, then the private one retired
    assert len(shared) == 2 and len(fake.calls_to("/response/sm-share")) == 2
    assert shared[0].params["response_type"] == "in_channel"
    assert "Reconnecting" in log
    assert "115\\u202f200 samples/s" in json.dumps(shared[0].params)  # shared: figures no locale misreads
