"""Where two rules meet: each test sits on the seam between a bound or a reading rule and its neighbour, and
asserts what the user is shown there.

- the devices' lower bound (one device, a whole number) meeting the thousand-fold ambiguity of `1.000`, in a
  command and in a series;
- an efficiency solved at exactly 100 %, beside one just above it (in a command and in a series);
- the unknown reader's reply in a channel: written so no locale misreads it, and still asking what it cannot read;
- a label followed by a named value (`img/s v=2000 64 90%`): the label names no number but the named one.
"""

from __future__ import annotations

import json

import pytest
from slack_bolt import BoltRequest

from bot.engine import answer
from bot.reader.numbers import resolve_locale
from bot.replies import render_plain_text
from fake_slack import BOT_USER_ID
from slack_client import mention_body, signed_headers

USER_LOCALES = {"UNONE": None, "UDE": "de-DE"}  # UNONE: Slack tells no locale (`slack_api`)

NNBSP = "\u202f"


def shown(text: str, tag: str = "en-US") -> str:
    """What a user of `tag` sees for `text`: the reply as plain text."""
    return render_plain_text(answer(text, resolve_locale(tag)))


ASKS_ONE_OR_A_THOUSAND = "`1.000` is ambiguous. Write `1` or `1000`"


@pytest.mark.parametrize("text", ["1.000 2000 90%", "devices=1.000 v=2000 e=90%", "1.000 GPUs 2000 img/s 90%",
                                  "v=2000 e=90% actual=1800 devices=1.000"])
def test_one_device_written_1_000_by_an_english_user_is_asked_about_not_read_as_one(text):
    """`1.000` is 1 in English and 1000 in German, and both are a possible number of devices: the lower bound
    (one device) is no reason to drop either reading."""
    reply = answer(text, resolve_locale("en-US"))
    assert reply.text.startswith(ASKS_ONE_OR_A_THOUSAND)
    assert "1 device ×" not in render_plain_text(reply) and "1,000 devices" not in render_plain_text(reply)


def test_one_device_written_1_000_in_a_series_is_asked_about_by_its_measurement():
    reply = answer("v=2000 2=3900 1.000=1800", resolve_locale("en-US"))
    assert reply.text.startswith("In `1.000=1800`: " + ASKS_ONE_OR_A_THOUSAND)


@pytest.mark.parametrize(("tag", "text", "written"), [
    ("de-DE", "1,000 2000 90%", "`1,000` lässt sich unterschiedlich lesen. Schreibe stattdessen `1` oder `1000`"),
    ("fr-FR", "v=2000 2=3900 1,000=1800",
     "Dans `1,000=1800`\u202f: `1,000` peut se lire de plusieurs façons. Écrivez plutôt `1` ou `1000`"),
])
def test_one_device_written_the_other_way_by_a_comma_locale_is_asked_about_too(tag, text, written):
    assert answer(text, resolve_locale(tag)).text.startswith(written)


@pytest.mark.parametrize("text", ["1.500 2000 90%", "v=2000 1.500=2000 4=7000"])
def test_one_and_a_half_devices_are_refused_as_not_whole_never_read_as_1500(text):
    """`1.500` from an English user is 1.5, which no cluster has: refused with the rule it breaks, not read as the
    German 1500 (a reading the user's own format does not give) nor asked about."""
    reply = answer(text, resolve_locale("en-US"))
    assert "The number of devices must be a whole number, such as `64`. You wrote `1.500`." in reply.text
    assert "is ambiguous" not in reply.text


def test_an_efficiency_solved_at_exactly_100_percent_is_shown_as_a_result():
    plain = shown("64 2000 actual=128000")
    assert plain.startswith("Measured scaling efficiency: 100%")
    assert "Scaling efficiency (calculated): 100%" in plain and "Speedup over one device: 64× (ideal 64×)" in plain
    assert "Scaling loss: 0 samples/s (0% of ideal)" in plain
    assert "█" * 20 + " actual throughput is 100% of ideal" in plain  # the bar full, not one block short


def test_one_sample_per_second_above_ideal_is_refused_naming_the_ideal():
    reply = answer("64 2000 actual=128001", resolve_locale("en-US"))
    assert reply.text == ("The actual throughput cannot exceed the ideal throughput (128,000 samples/s): efficiency "
                          "would be above 100%. You wrote `128001`.")


def test_devices_solved_from_an_efficiency_of_100_percent_are_the_exact_count():
    assert shown("v=2000 e=100% actual=128000").startswith("Devices needed: 64")


def test_a_series_measured_at_exactly_ideal_is_not_flagged_above_it():
    exact = shown("v=2000 8=16000 16=31000")
    above = shown("v=2000 8=16001 16=31000")
    assert " 8  16,000  16,000    100%  ██████████     8×       0\n" in exact
    assert "above ideal" not in exact and "⚠ \n" not in exact and "⚠\n" not in exact
    assert "At 8 devices the measured throughput is above ideal (⚠)" in above


@pytest.mark.parametrize(("tag", "text"), [
    ("en-US", "img/s v=2000 64 90%"),
    ("en-US", "tokens/s devices=64 2000 90%"),
    ("en-US", "GPUs v=2000 64 90%"),
    ("de-DE", "Bilder/s v=2.000 64 90 %"),
])
def test_a_label_before_a_named_value_names_that_value_and_no_number_after_it(tag, text):
    """The label stands next to no number of its own (a named value follows it): the next plain number is read by
    its place, not taken for the label's quantity (`img/s v=2000 64` is 64 devices, not a second throughput)."""
    reply = answer(text, resolve_locale(tag))
    assert not reply.is_error, reply.text
    figures = render_plain_text(reply)
    for line in ("Devices: 64", "Per-device throughput: 2,000", "Scaling efficiency: 90%") if tag == "en-US" else (
            "Geräte: 64", "Durchsatz pro Gerät: 2.000", "Skalierungseffizienz: 90\u00a0%"):
        assert line in figures, figures


def mention_answer(app, slack_api, text: str, user: str, n: int) -> str:
    """The text of the answer posted in the thread of a mention of `user` saying `text`."""
    ts = f"1700000000.{n:06d}"
    body = mention_body(f"<@{BOT_USER_ID}> {text}", user, f"EvEdge{n}", ts)
    assert app.dispatch(BoltRequest(body=body, headers=signed_headers(body, "application/json"))).status == 200
    posted = [c for c in slack_api.wait_for("chat.postMessage", n) if c.params.get("thread_ts") == ts]
    assert len(posted) == 1
    return json.dumps(posted[0].params, ensure_ascii=False)


def test_the_unknown_readers_channel_reply_asks_what_any_format_could_misread_and_writes_safe_figures(app, slack_api):
    """A mention from a user whose locale Slack does not say: the channel's answer is written as the channel reads
    it (ISO 80000-1 spaces) and, read for a reader whose format is unknown, a `2,000` is asked about, where a
    channel reply to an English user reads it as 2000."""
    asked = mention_answer(app, slack_api, "64 2,000 90%", "UNONE", 1)
    assert "`2,000` is ambiguous" in asked and "Slack hasn't told me your number format" in asked
    clear = mention_answer(app, slack_api, "64 2000 90%", "UNONE", 2)
    assert f"115{NNBSP}200 samples/s" in clear and "115,200" not in clear
    german = mention_answer(app, slack_api, "64 2.000 90 %", "UDE", 3)  # a known reader's own format, beside it
    assert f"115{NNBSP}200 Samples/s" in german and "115.200" not in german
