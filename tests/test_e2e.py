"""The real app under its real production server (the Procfile's `web:` command) on loopback, against a fake
Slack Web API, with every request signed the way Slack signs it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from blockkit import assert_no_broadcast, assert_within_limits
from fake_slack import BOT_USER_ID, FakeSlack
from slack_client import (
    BOT_TOKEN,
    ROOT,
    AppServer,
    get,
    post,
    running_app,
    send_command,
    send_mention,
    signed_headers,
    slash_command_body,
)

pytestmark = pytest.mark.e2e
ACK_DEADLINE = 3.0


# the users the shared fake Slack knows (the `world` fixture in conftest.py)
USER_LOCALES = {"UDE": "de-DE", "UEN": "en-US", "UFR": "fr-FR", "UPT": "pt-BR"}


def blocks_text(payload: dict) -> str:
    return str(payload.get("text", "")) + " " + str(payload.get("blocks", ""))


@pytest.mark.parametrize(
    ("user", "text", "expected"),
    [
        ("UDE", "64 2.000 90 %", ["115.200 Samples/s", "57,6×", "Was ist die Skalierungseffizienz?"]),
        ("UEN", "64 2,000 90%", ["115,200 samples/s", "57.6×", "What is scaling efficiency?"]),
        ("UFR", "64 2 000 90 %", ["115\u202f200 échantillons/s"]),
        ("UEN", "64 2000 90% lang=de", ["115.200 Samples/s"]),
    ],
)
def test_slash_command_answers_in_the_users_locale_inside_the_acknowledgement(server, user, text, expected):
    response = send_command(server, text, user=user)
    assert response.status == 200
    payload = response.json()
    assert payload["response_type"] == "ephemeral"
    for fragment in expected:
        assert fragment in blocks_text(payload)
    assert_within_limits(payload["blocks"])


def test_slash_command_error_is_ephemeral_and_localized(server):
    payload = send_command(server, "64 2000 150 %", user="UDE").json()
    assert payload["response_type"] == "ephemeral"
    assert "Die Skalierungseffizienz muss zwischen" in payload["text"]
    assert "Traceback" not in blocks_text(payload)


def test_slash_command_help_gets_the_help(server):
    payload = send_command(server, "help", user="UEN").json()
    assert payload["text"] == "How to use dpscale"
    assert "/dpscale 64 2,000 90%" in blocks_text(payload)


def test_user_markup_in_a_command_pings_no_one(server):
    payload = send_command(server, "<!channel> 64 2000 90%", user="UEN").json()
    assert_no_broadcast(payload)


def test_a_mention_is_answered_in_a_thread_in_the_users_locale(server, fake):
    before = len(fake.calls_to("chat.postMessage"))
    response = send_mention(server, f"<@{BOT_USER_ID}> 64 2.000 90 %", "UDE", "EvThread1", "1700000000.000100")
    assert response.status == 200
    call = fake.wait_for("chat.postMessage", before + 1)[before]
    assert call.params["channel"] == "C1"
    assert call.params["thread_ts"] == "1700000000.000100"
    assert "115\u202f200 Samples/s" in call.params["text"]  # the channel reads it: no locale misreads `115 200`
    assert call.headers["Authorization"] == f"Bearer {BOT_TOKEN}"


def test_a_mention_inside_a_thread_answers_in_that_thread(server, fake):
    before = len(fake.calls_to("chat.postMessage"))
    send_mention(server, f"<@{BOT_USER_ID}> 64 2000 90%", "UEN", "EvThread2", "1700000000.000300",
                 thread_ts="1700000000.000200")
    call = fake.wait_for("chat.postMessage", before + 1)[before]
    assert call.params["thread_ts"] == "1700000000.000200"


def test_a_mention_with_bad_input_gets_the_localized_error_in_the_thread(server, fake):
    before = len(fake.calls_to("chat.postMessage"))
    send_mention(server, f"<@{BOT_USER_ID}> 64 zweitausend 90 %", "UDE", "EvBad", "1700000000.000400")
    call = fake.wait_for("chat.postMessage", before + 1)[before]
    assert "`zweitausend` kenne ich nicht" in call.params["text"]
    assert call.params["thread_ts"] == "1700000000.000400"


def test_a_mention_with_no_numbers_gets_the_help(server, fake):
    before = len(fake.calls_to("chat.postMessage"))
    send_mention(server, f"<@{BOT_USER_ID}>", "UEN", "EvHelp", "1700000000.000500")
    call = fake.wait_for("chat.postMessage", before + 1)[before]
    assert call.params["text"] == "How to use dpscale"


def test_a_redelivered_event_is_answered_once(server, fake):
    before = len(fake.calls_to("chat.postMessage"))
    duplicates = server.log_so_far().count("kind=mention locale=en_US outcome=duplicate")
    text = f"<@{BOT_USER_ID}> 8 1000 80%"
    first = send_mention(server, text, "UEN", "EvRetry", "1700000000.000600")
    again = send_mention(server, text, "UEN", "EvRetry", "1700000000.000600",
                         **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})
    assert first.status == again.status == 200
    fake.wait_for("chat.postMessage", before + 1)
    assert server.wait_for_log("kind=mention locale=en_US outcome=duplicate", duplicates + 1) == duplicates + 1
    answers = [c for c in fake.calls_to("chat.postMessage")[before:] if c.params["thread_ts"] == "1700000000.000600"]
    assert len(answers) == 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/x-www-form-urlencoded"},  # unsigned
        "wrong-secret",
        "stale",
        "tampered",
    ],
)
def test_forged_stale_or_unsigned_requests_get_401_and_no_reply(server, fake, headers):
    body = slash_command_body("64 2000 90%", user="UFORGED")
    if headers == "wrong-secret":
        headers = signed_headers(body, "application/x-www-form-urlencoded", secret="not-the-secret")
    elif headers == "stale":
        headers = signed_headers(body, "application/x-www-form-urlencoded", timestamp=int(time.time()) - 6 * 60)
    elif headers == "tampered":
        headers = signed_headers(body, "application/x-www-form-urlencoded")
        body = body.replace("64", "65")
    calls_before = len(fake.calls)
    response = post(server.url + "/slack/events", body, headers)
    assert response.status == 401
    assert b"115" not in response.body
    # a later, genuine request's lookup is the observable point by which the forged one would have had its own
    genuine = f"UGENUINE{calls_before}"
    send_command(server, "64 2000 90%", user=genuine)
    looked_up = [c.params.get("user") for c in fake.calls[calls_before:] if c.method == "users.info"]
    assert looked_up == [genuine]


def test_health_check_answers_without_calling_slack(server, fake):
    calls_before = len(fake.calls)
    assert get(server.url + "/healthz").status == 200
    assert len(fake.calls) == calls_before


@pytest.mark.parametrize("path", ["/", "/slack/other", "/healthz/x"])
def test_other_paths_are_404(server, path):
    assert get(server.url + path).status == 404


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_logs_have_one_line_per_request_and_no_secrets_or_user_text():
    with running_app(locales={"UDE": "de-DE"}) as (_, server):
        send_command(server, "64 2.000 90 % geheim", user="UDE")
        send_command(server, "64 2.000 90 %", user="UDE")
    output = server.output()
    lines = [line for line in output.splitlines() if "kind=command" in line]
    assert len(lines) == 2
    assert "locale=de_DE outcome=error" in lines[0] and "locale=de_DE outcome=result" in lines[1]
    assert BOT_TOKEN not in output and "geheim" not in output and "test-signing-secret" not in output


@pytest.mark.parametrize("behaviour", ["error", "ratelimit", "hang", "no-locale"])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_users_info_failing_still_gets_an_answer_within_3_seconds(behaviour):
    locales = {"UDE": None if behaviour == "no-locale" else "de-DE"}
    failing = {} if behaviour == "no-locale" else {"users.info": behaviour}
    with running_app(locales, env={"DPSCALE_DEFAULT_LOCALE": "en-GB"}, **failing) as (fake, server):
        responses = [send_command(server, "64 2000 90%", user="UDE") for _ in range(3)]
    for response in responses:
        assert response.status == 200 and response.elapsed < ACK_DEADLINE
        # the default locale's language, numbers every locale reads alike
        assert "115\u202f200 samples/s" in response.json()["text"]
    assert len(fake.calls_to("users.info")) <= (3 if behaviour == "no-locale" else 1)  # a failure pauses lookups


@pytest.mark.parametrize(
    ("env", "problems"),
    [
        ({"SLACK_BOT_TOKEN": "", "SLACK_SIGNING_SECRET": ""}, ["SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET"]),
        ({"SLACK_BOT_TOKEN": "not-a-token", "PORT": "99999"}, ["SLACK_BOT_TOKEN must be a bot token", "PORT"]),
        ({"DPSCALE_DEFAULT_LOCALE": "xx-YY"}, ["DPSCALE_DEFAULT_LOCALE must be a locale tag"]),
    ],
)
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_start_up_with_bad_settings_stops_with_a_clear_message(env, problems):
    fake = FakeSlack().start()
    server = AppServer(fake, env=env)
    server.env = {k: v for k, v in server.env.items() if v != ""}
    for command in (server.command, [sys.executable, "-m", "bot"]):
        done = subprocess.run(
            _resolve(command), cwd=ROOT, env=server.env, capture_output=True, text=True, timeout=30, check=False
        )
        assert done.returncode != 0
        for problem in problems:
            assert problem in done.stderr + done.stdout
        assert BOT_TOKEN not in done.stderr + done.stdout
        assert "Traceback" not in done.stderr + done.stdout
    server.stop()
    fake.stop()


def _resolve(command: list[str]) -> list[str]:
    executable = Path(sys.executable).parent / command[0]
    return [str(executable) if executable.exists() else command[0], *command[1:]]
