"""Each Slack feature in-process, through `app.dispatch` with signed requests in Slack's own wire format (as
bolt-python's scenario tests do), against the fake Web API: fast, and the same payloads as production.

The end-to-end tests (test_e2e.py, test_interactive.py) keep a thinner layer through the real server.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from slack_bolt import App, BoltRequest, BoltResponse

from bot.settings import Settings
from bot.slack.app import create_app
from fake_slack import TEAM_ID, FakeSlack
from slack_client import (
    BOT_TOKEN,
    SIGNING_SECRET,
    interaction_body,
    mention_body,
    signed_headers,
    slash_command_body,
)

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def fake():
    fake = FakeSlack(locales={"UDE": "de-DE", "UJA": "ja-JP"}).start()
    yield fake
    fake.stop()


@pytest.fixture
def app(fake, tmp_path) -> App:
    return create_app(Settings.model_validate({
        "slack_bot_token": BOT_TOKEN, "slack_signing_secret": SIGNING_SECRET, "slack_api_url": fake.api_url,
        "database_url": f"sqlite:///{tmp_path / 'dpscale.sqlite3'}",
    }))


def dispatch(app: App, body: str, content_type: str = FORM) -> BoltResponse:
    return app.dispatch(BoltRequest(body=body, headers=signed_headers(body, content_type)))


def command(app: App, text: str, user: str, **extra: str) -> BoltResponse:
    return dispatch(app, slash_command_body(text, user=user, **extra))


def interaction(app: App, payload: dict[str, Any]) -> BoltResponse:
    base = {"user": {"id": payload.pop("user_id"), "team_id": TEAM_ID}, "team": {"id": TEAM_ID}, "api_app_id": "A1"}
    return dispatch(app, interaction_body({**base, **payload}))


def view_of(call) -> dict[str, Any]:
    view = call.params["view"]
    return json.loads(view) if isinstance(view, str) else view


def test_a_command_is_answered_privately_in_the_users_language_with_its_buttons(app):
    payload = json.loads(command(app, "64 2.000 90 %", "UDE").body)
    assert payload["response_type"] == "ephemeral"
    assert "115.200 Samples/s" in payload["text"]
    labels = [e["text"]["text"] for b in payload["blocks"] if b["type"] == "actions" for e in b["elements"]]
    assert labels == ["Im Channel teilen", "Bearbeiten"]


def test_an_empty_command_opens_the_form_in_the_users_language(app, fake):
    response = command(app, "", "UJA")
    assert response.status == 200 and response.body == ""
    view = view_of(fake.wait_for("views.open")[0])
    assert view["callback_id"] == "dpscale_form" and len(view["title"]["text"]) <= 24
    assert "デバイス" in json.dumps(view, ensure_ascii=False)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_when_the_form_cannot_open_the_user_gets_the_help(fake, app):
    fake.behaviour["views.open"] = "error"
    response = command(app, "", "UDE", response_url=fake.response_url("no-form"))
    assert response.status == 200 and response.body == ""  # acknowledged at once; the form opens after
    assert fake.wait_for("/response/no-form")[0].params["text"] == "So nutzt du dpscale"


def test_edit_opens_the_form_filled_with_that_results_numbers_as_the_user_wrote_them(app, fake):
    payload = json.loads(command(app, "64 2.000 90 %", "UDE").body)
    edit = next(e for b in payload["blocks"] if b["type"] == "actions" for e in b["elements"]
                if e["action_id"] == "dpscale_edit")
    response = interaction(app, {"type": "block_actions", "user_id": "UDE", "trigger_id": "t1",
                                 "response_url": fake.response_url("edit"), "actions": [{**edit, "block_id": "b"}],
                                 "container": {"type": "message", "is_ephemeral": True}})
    assert response.status == 200
    view = view_of(fake.wait_for("views.open")[0])
    initial = {b["block_id"]: b["element"].get("initial_value") for b in view["blocks"] if b["type"] == "input"}
    assert initial == {"field_devices": "64", "field_throughput": "2.000", "field_efficiency": "90%",
                       "field_actual": None}


def test_a_wrong_form_field_is_named_under_that_field_and_the_form_stays_open(app, fake):
    command(app, "", "UDE")
    view = view_of(fake.wait_for("views.open")[0])
    values = {"field_devices": "64", "field_throughput": "zwei", "field_efficiency": "90 %"}
    state = {"values": {k: {"value": {"type": "plain_text_input", "value": v}} for k, v in values.items()}}
    response = interaction(app, {"type": "view_submission", "user_id": "UDE", "view": {**view, "state": state}})
    errors = json.loads(response.body)
    assert errors["response_action"] == "errors"
    assert list(errors["errors"]) == ["field_throughput"] and "zwei" in errors["errors"]["field_throughput"]


def test_share_posts_one_copy_for_everyone_and_removes_the_private_one(app, fake):
    payload = json.loads(command(app, "64 2.000 90 %", "UDE").body)
    share = next(e for b in payload["blocks"] if b["type"] == "actions" for e in b["elements"]
                 if e["action_id"] == "dpscale_share")
    interaction(app, {"type": "block_actions", "user_id": "UDE", "trigger_id": "t2",
                      "response_url": fake.response_url("share"), "actions": [{**share, "block_id": "b"}],
                      "container": {"type": "message", "is_ephemeral": True}})
    posts = fake.wait_for("/response/share", 2)
    assert posts[0].params["response_type"] == "in_channel"
    assert "Geteilt von <@UDE>" in json.dumps(posts[0].params, ensure_ascii=False)
    assert not [b for b in posts[0].params["blocks"] if b["type"] == "actions"]
    assert posts[1].params == {"delete_original": True}


def test_app_home_is_published_in_the_viewers_language(app, fake):
    body = json.dumps({"token": "legacy", "team_id": TEAM_ID, "api_app_id": "A1", "type": "event_callback",
                       "event_id": "EvHomeJa", "event_time": 1,
                       "event": {"type": "app_home_opened", "user": "UJA", "channel": "D1", "tab": "home"}})
    assert dispatch(app, body, "application/json").status == 200
    view = view_of(fake.wait_for("views.publish")[0])
    assert view["type"] == "home" and "スケーリング効率" in json.dumps(view, ensure_ascii=False)


def test_an_edit_that_reaches_the_lock_before_its_original_still_updates_the_one_answer(app, fake, monkeypatch):
    """The original claims the message and is then held up (here, writing its reply) while its edit arrives in
    the same process: the edit waits for the original's answer without holding the message's lock, so the original
    posts it and the edit updates it; never a second answer after a long wait."""
    from bot.slack import events

    held, mention_reply = threading.Event(), events.mention_reply

    def slow_the_first(event, context, **kwargs):
        if not held.is_set():
            held.set()
            time.sleep(0.5)
        return mention_reply(event, context, **kwargs)

    monkeypatch.setattr(events, "mention_reply", slow_the_first)
    ts = "1700000200.000100"
    dispatch(app, mention_body("<@UDPSCALE> 64 2000 9%", "UDE", "EvFirst", ts), "application/json")
    assert held.wait(5)  # the original has claimed the message
    edit = json.loads(mention_body("<@UDPSCALE> 64 2000 90%", "UDE", "EvEdit", ts))
    edit["event"]["edited"] = {"user": "UDE", "ts": "1700000201.000000"}
    dispatch(app, json.dumps(edit), "application/json")
    updates = fake.wait_for("chat.update", 1, timeout=10)
    posted = fake.calls_to("chat.postMessage")
    assert len(posted) == 1 and updates[0].params["ts"] == posted[0].answer["ts"]
