"""The message shortcut "Calculate with dpscale", through the real server with signed requests and a fake Slack API:
the form opens filled with the message's numbers, read as its author writes them, in the clicker's language."""

from __future__ import annotations

import json

import pytest

from blockkit import MAX_VIEW_BLOCKS, assert_within_limits
from fake_slack import FakeSlack
from slack_client import send_interaction

pytestmark = pytest.mark.e2e

USER_LOCALES = {"UDE": "de-DE", "UEN": "en-US", "UFR": "fr-FR", "UJA": "ja-JP"}
FIELDS = ("devices", "throughput", "efficiency", "actual")


def message_action(server, fake: FakeSlack, clicker: str, message: dict, name: str):
    """A click on "Calculate with dpscale" in a message's menu, as Slack sends it."""
    return send_interaction(server, {
        "type": "message_action",
        "token": "verification-token",
        "action_ts": "1700000001.000200",
        "team": {"id": "T0TEAM", "domain": "example"},
        "user": {"id": clicker, "username": clicker.lower(), "team_id": "T0TEAM"},
        "channel": {"id": "C1", "name": "general"},
        "is_enterprise_install": False,
        "enterprise": None,
        "callback_id": "dpscale_calculate_message",
        "trigger_id": "trigger-" + name,
        "response_url": fake.response_url(name),
        "message_ts": message["ts"],
        "message": {"type": "message", "team": "T0TEAM", **message},
    })


def opened_form(fake: FakeSlack, trigger: str) -> dict:
    """The form views.open was asked to show for `trigger`."""
    for _ in range(2):
        calls = [c for c in fake.wait_for("views.open", len(fake.calls_to("views.open")) + 1, timeout=1.0)
                 if c.params.get("trigger_id") == trigger]
        if calls:
            view = calls[0].params["view"]
            return json.loads(view) if isinstance(view, str) else view
    raise AssertionError(f"no form opened for {trigger}")


def filled(view: dict) -> dict[str, str]:
    return {block["block_id"].removeprefix("field_"): block["element"]["initial_value"]
            for block in view["blocks"] if block["type"] == "input" and "initial_value" in block["element"]}


def notes(view: dict) -> str:
    return " ".join(e["text"] for b in view["blocks"] if b["type"] == "context" for e in b["elements"])


def labels(view: dict) -> list[str]:
    return [b["label"]["text"] for b in view["blocks"] if b["type"] == "input"]


@pytest.mark.parametrize(("author", "text", "clicker", "expected", "example", "label"), [
    # a German colleague's prose, opened by an English reader: `2.000` is two thousand, written for them as 2000
    ("UDE", "Wir haben 64 GPUs mit je 2.000 Samples/s bei 90 % Effizienz", "UEN",
     {"devices": "64", "throughput": "2000", "efficiency": "90%"}, "`1.234.567,89`", "Devices"),
    # a French one's decimal comma, opened by a German reader
    ("UFR", "64 GPU à 2000,5 échantillons/s, efficacité 0,9", "UDE",
     {"devices": "64", "throughput": "2000,5", "efficiency": "90\u00a0%"}, "`1\u202f234\u202f567,89`", "Geräte"),
    # a Japanese one's figures with k, opened by a French reader: the larger throughput is the cluster's
    ("UJA", "64 GPUs, 115k samples/s, 2k on one", "UFR",
     {"devices": "64", "throughput": "2000", "actual": "115000"}, "`1,234,567.89`", "Accélérateurs"),
    # a message written as a command is read as that command
    ("UDE", "<@UDPSCALE> 64 2.000 90 %", "UJA",
     {"devices": "64", "throughput": "2000", "efficiency": "90%"}, "`1.234.567,89`", "デバイス数"),
])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_shortcut_opens_the_form_filled_from_the_message_in_the_authors_format(
    server, fake, author, text, clicker, expected, example, label
):
    name = f"shortcut-{author}-{clicker}-{len(text)}"
    response = message_action(server, fake, clicker, {"user": author, "text": text, "ts": "1700000000.000100"}, name)
    assert response.status == 200 and response.body == b""
    view = opened_form(fake, "trigger-" + name)
    assert view["callback_id"] == "dpscale_form" and labels(view)[0] == label  # the clicker's language
    assert filled(view) == expected
    assert f"<@{author}>" in notes(view) and example in notes(view)
    assert_within_limits(view["blocks"], max_blocks=MAX_VIEW_BLOCKS)


def test_an_ambiguous_number_is_left_empty_and_asked_about_in_the_clickers_language(server, fake):
    """`2.000` from an English writer could be 2 or 2000: not guessed, asked, as a command would be."""
    message = {"user": "UEN", "text": "64 GPUs at 2.000 samples/s each, 90%", "ts": "1700000000.000200"}
    message_action(server, fake, "UDE", message, "shortcut-ambiguous")
    view = opened_form(fake, "trigger-shortcut-ambiguous")
    assert filled(view) == {"devices": "64", "efficiency": "90\u00a0%"}
    said = notes(view)
    assert "Nicht eingetragen" in said and "`2.000`" in said and "2000" in said, said


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_message_from_an_app_is_read_in_the_unknown_format(server, fake):
    """No author to ask Slack about: only numbers every format reads alike are filled in, `2,000` is asked."""
    message = {"bot_id": "B1", "text": "64 devices, 2,000 samples/s, 90 %", "ts": "1700000000.000300"}
    message_action(server, fake, "UEN", message, "shortcut-app")
    view = opened_form(fake, "trigger-shortcut-app")
    assert filled(view) == {"devices": "64", "efficiency": "90%"}
    assert "an app" in notes(view) and "`2,000`" in notes(view)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_message_without_numbers_opens_an_empty_form_that_says_so(server, fake):
    message = {"user": "UDE", "text": "Wer kommt mit zum Mittagessen?", "ts": "1700000000.000400"}
    message_action(server, fake, "UEN", message, "shortcut-none")
    view = opened_form(fake, "trigger-shortcut-none")
    assert filled(view) == {} and "I found no numbers" in notes(view)


def test_a_message_whose_numbers_nothing_names_says_what_it_saw(server, fake):
    """Plain numbers in prose are placed by no unit: not guessed at, and the form says which numbers it saw."""
    message = {"user": "UEN", "text": "we tried 64 and 2000 and 90 yesterday", "ts": "1700000000.000500"}
    message_action(server, fake, "UEN", message, "shortcut-seen")
    view = opened_form(fake, "trigger-shortcut-seen")
    said = notes(view)
    assert filled(view) == {} and "`64`, `2000`, `90`" in said and "I found no numbers" not in said, said


def test_the_filled_form_submitted_posts_the_result_where_the_shortcut_was_used(server, fake):
    message = {"user": "UDE", "text": "64 GPUs, je 2.000 Samples/s, 90 %", "ts": "1700000000.000500"}
    message_action(server, fake, "UEN", message, "shortcut-submit")
    view = opened_form(fake, "trigger-shortcut-submit")
    state = {"values": {block: {"value": {"type": "plain_text_input", "value": value}}
                        for block, value in (("field_" + k, v) for k, v in filled(view).items())}}
    response = send_interaction(server, {
        "type": "view_submission", "user": {"id": "UEN", "team_id": "T0TEAM"}, "team": {"id": "T0TEAM"},
        "api_app_id": "A1", "view": {**view, "id": "V1", "state": state},
    })
    assert response.status == 200
    posted = fake.wait_for("/response/shortcut-submit", 1)[0].params
    assert posted["response_type"] == "ephemeral" and "115,200 samples/s" in posted["text"]


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_an_author_slack_does_not_describe_in_time_is_read_in_the_unknown_format(server, fake):
    """users.info for the author hangs: the form still opens in time, `2.000` is asked, not read as German."""
    fake.users["USLOW"] = "hang"
    try:
        message = {"user": "USLOW", "text": "64 GPUs, 2.000 Samples/s, 90 %", "ts": "1700000000.000600"}
        message_action(server, fake, "UDE", message, "shortcut-slow-author")  # a German reader would read 2000
        view = opened_form(fake, "trigger-shortcut-slow-author")
    finally:
        fake.users.pop("USLOW")
    assert filled(view) == {"devices": "64", "efficiency": "90\u00a0%"}
    said = notes(view)
    assert "Slack hat mir nicht mitgeteilt, in welchem Zahlenformat sie geschrieben ist" in said and "`2.000`" in said
    assert "dein Zahlenformat nicht rechtzeitig" not in said  # the author's format was missing, not the reader's
