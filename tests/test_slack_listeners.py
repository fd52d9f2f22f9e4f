"""Listener-level behaviour that end-to-end tests cannot provoke: a bug inside a listener."""

from __future__ import annotations

import json
import time

import pytest
from slack_bolt import BoltRequest
from slack_sdk import WebClient

from bot.reader.numbers import resolve_locale
from bot.slack import commands, events, mentions
from bot.slack.forms import open_form
from bot.slack.plumbing import ACK_BUDGET, time_left
from bot.slack.state import FormMetadata
from fake_slack import BOT_USER_ID
from slack_client import BOT_TOKEN, mention_body, signed_headers, slash_command_body

USER_LOCALES = {"UDE": "de-DE"}  # the users the fake Slack knows (`slack_api`)


def explode(text, locale):
    raise RuntimeError("internal detail /srv/secret.py line 42")


def test_a_failing_slash_command_gets_a_short_apology_in_the_users_language_and_never_the_exception(
    app, monkeypatch, caplog
):
    monkeypatch.setattr(commands, "answer", explode)
    body = slash_command_body("64 2000 90%", user="UDE")
    response = app.dispatch(BoltRequest(body=body, headers=signed_headers(body, "application/x-www-form-urlencoded")))
    assert response.status == 200
    payload = json.loads(response.body)
    assert payload["response_type"] == "ephemeral"
    assert payload["text"].startswith("Entschuldigung, bei uns ist etwas schiefgegangen")
    assert "internal detail" not in response.body and "Traceback" not in response.body
    assert any("internal detail" in (r.exc_text or "") for r in caplog.records)  # the log keeps the traceback


def test_a_failing_mention_apologizes_in_the_thread_in_the_users_language(app, slack_api, monkeypatch):
    monkeypatch.setattr(events, "answer", explode)
    body = mention_body(f"<@{BOT_USER_ID}> 64 2000 90%", "UDE", "EvBoom", "1700000000.000900")
    response = app.dispatch(BoltRequest(body=body, headers=signed_headers(body, "application/json")))
    assert response.status == 200
    call = slack_api.wait_for("chat.postMessage")[0]
    assert call.params["thread_ts"] == "1700000000.000900"
    assert call.params["text"].startswith("Entschuldigung")
    assert "internal detail" not in json.dumps(call.params)


@pytest.mark.parametrize(
    ("text", "in_a_mention", "in_a_command"),
    [
        (f"<@{BOT_USER_ID}> 64 2000 90%", "  64 2000 90%", "  64 2000 90%"),
        (f"<@{BOT_USER_ID}|dpscale> help", "  help", "  help"),
        ("<@UOTHER> 64", "@UOTHER 64", "@UOTHER 64"),  # only the bot's own mention is dropped
        ("<@U_DE|anna> 64 <#C1|ml>", "@anna 64 #ml", "@anna 64 #ml"),  # shown as Slack shows the names
        (f"64 <@{BOT_USER_ID}> 2000", "64   2000", f"64 @{BOT_USER_ID} 2000"),  # a command drops a leading one
    ],
)
def test_only_the_bots_own_mention_is_dropped_and_others_read_as_names(text, in_a_mention, in_a_command):
    assert mentions.mention_text(text, BOT_USER_ID) == in_a_mention
    assert commands.command_text(text, BOT_USER_ID) == in_a_command


def test_views_open_gets_only_the_time_left_and_is_not_tried_once_it_has_run_out(slack_api):
    """Slack's deadline as a budget: the call gives up when the time is spent, not when Slack answers."""
    slack_api.behaviour["views.open"] = 5.0
    client = WebClient(token=BOT_TOKEN, base_url=slack_api.api_url)
    metadata = FormMetadata.of(resolve_locale("en-US"), None)
    assert not open_form(client, "trigger", resolve_locale("en-US"), metadata, deadline=time.monotonic() + 0.3)
    assert len(slack_api.calls_to("views.open")) == 1 and slack_api.finished_count("views.open") == 0
    assert not open_form(client, "trigger", resolve_locale("en-US"), metadata, deadline=time.monotonic() - 0.1)
    assert len(slack_api.calls_to("views.open")) == 1  # no time left: not even tried
    assert time_left(time.monotonic() + 60) == ACK_BUDGET  # never more than the budget


def test_each_request_gets_a_web_api_client_of_its_own_with_the_apps_settings(app):
    """A request's client (`bot.slack.plumbing.SlackApp`) is its own, as Bolt's is: a token set on one request's
    client reaches no other request and not the app's, and each carries its request's team."""
    seen: list[WebClient] = []

    def capture(context, next):  # noqa: A002 - Bolt passes `next` by name
        seen.append(context.client)
        next()

    app.middleware(capture)
    for team in ("T1", "T2"):
        body = slash_command_body("64 2000 90%", team_id=team)
        headers = signed_headers(body, "application/x-www-form-urlencoded")
        assert app.dispatch(BoltRequest(body=body, headers=headers)).status == 200
    first, second = seen
    assert first is not second and app.client not in (first, second)
    assert [client.default_params for client in seen] == [{"team_id": "T1"}, {"team_id": "T2"}]
    for client in seen:
        assert (client.token, client.base_url, client.timeout, client.proxy, client.headers["User-Agent"]) == (
            app.client.token, app.client.base_url, app.client.timeout, app.client.proxy,
            app.client.headers["User-Agent"])
        assert client.retry_handlers == app.client.retry_handlers
        assert client.retry_handlers is not app.client.retry_handlers
    first.token = "xoxb-changed-by-a-listener"
    first.retry_handlers.clear()
    assert (second.token, app.client.token) == (BOT_TOKEN, BOT_TOKEN)
    assert second.retry_handlers and app.client.retry_handlers
