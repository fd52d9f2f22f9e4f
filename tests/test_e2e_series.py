"""A measurement series through the real server: a slash command, a mention and the form each produce the table;
Share posts it once, Edit reopens the form filled, Explanations shows the FAQ."""

from __future__ import annotations

import json
import re

import pytest
from test_interactive import buttons, click, opened_view

from blockkit import MAX_VIEW_BLOCKS, assert_within_limits
from fake_slack import BOT_USER_ID
from slack_client import send_command, send_mention, submit_view

pytestmark = pytest.mark.e2e

USER_LOCALES = {"UDE": "de-DE", "UEN": "en-US"}
GERMAN = "v=2.000 8=15.800 16=31.000 64=115.200"


def table(payload: dict) -> str:
    return next(b["text"]["text"] for b in payload["blocks"] if b.get("block_id") == "dpscale_series_table")


def rows(payload: dict) -> list[list[str]]:
    """The table's rows, split at plain spaces only: a no-break space groups the digits of one figure."""
    return [re.split(" +", line.strip(" ")) for line in table(payload).strip("`").splitlines()[1:]]


def submit_series(server, user: str, view: dict, throughput: str, measurements: str):
    return submit_view(server, user, view, {"series_throughput": throughput, "series_rows": measurements})


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_slash_command_answers_a_series_with_its_table_privately(server):
    payload = send_command(server, GERMAN, user="UDE").json()
    assert payload["response_type"] == "ephemeral"
    assert [row[:3] for row in rows(payload)] == [["8", "15.800", "16.000"], ["16", "31.000", "32.000"],
                                                  ["64", "115.200", "128.000"]]
    assert set(buttons(payload)) == {"dpscale_share", "dpscale_edit", "dpscale_explain"}
    assert buttons(payload)["dpscale_explain"]["text"]["text"] == "Erklärungen"
    assert_within_limits(payload["blocks"])


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_mention_answers_a_series_in_its_thread_with_figures_every_locale_reads_alike(server, fake):
    before = len(fake.calls_to("chat.postMessage"))
    send_mention(server, f"<@{BOT_USER_ID}> {GERMAN}", "UDE", "EvSeries1", "1700000100.000100")
    call = fake.wait_for("chat.postMessage", before + 1)[before]
    assert call.params["thread_ts"] == "1700000100.000100"
    blocks = json.loads(call.params["blocks"]) if isinstance(call.params["blocks"], str) else call.params["blocks"]
    assert rows({"blocks": blocks})[2][:3] == ["64", "115\u202f200", "128\u202f000"]
    assert "Skalierungseffizienz: 98,75" in call.params["text"]


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_mention_with_a_broken_series_names_the_measurement(server, fake):
    before = len(fake.calls_to("chat.postMessage"))
    send_mention(server, f"<@{BOT_USER_ID}> v=2000 8=15.8.00 16=31000", "UEN", "EvSeries2", "1700000100.000200")
    call = fake.wait_for("chat.postMessage", before + 1)[before]
    assert call.params["text"].startswith("In `8=15.8.00`: `15.8.00` is not a number I can read")


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_share_posts_a_series_once_for_the_channel(server, fake):
    button = buttons(send_command(server, GERMAN, user="UDE").json())["dpscale_share"]
    duplicates = server.log_so_far().count("kind=share locale=de_DE outcome=duplicate")
    click(server, "UDE", button, fake.response_url("series-share"))
    click(server, "UDE", button, fake.response_url("series-share"))  # a double click
    server.wait_for_log("kind=share locale=de_DE outcome=duplicate", duplicates + 1)
    posts = fake.wait_for("/response/series-share", 2, timeout=30)  # its chart drawn first (bot/slack/charts.py)
    shared = [p.params for p in posts if p.params.get("response_type") == "in_channel"]
    assert len(shared) == 1
    assert rows(shared[0])[2][:2] == ["64", "115\u202f200"]
    assert not [b for b in shared[0]["blocks"] if b["type"] == "actions"]
    assert posts[1].params == {"delete_original": True}


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_series_word_opens_the_form_and_its_result_is_the_table(server, fake):
    before = len(fake.calls_to("views.open"))
    send_command(server, "Messreihe", user="UDE", response_url=fake.response_url("series-form"))
    view = opened_view(fake, before)
    assert view["callback_id"] == "dpscale_series_form" and view["title"]["text"] == "Messreihe"
    assert_within_limits(view["blocks"], max_blocks=MAX_VIEW_BLOCKS)
    response = submit_series(server, "UDE", view, "2.000", "8 = 15.800\n16 = 31.000\n64 = 115.200")
    assert response.status == 200 and response.body == b""
    delivered = fake.wait_for("/response/series-form", 1)[0].params
    assert delivered["response_type"] == "ephemeral"
    assert rows(delivered)[2][:3] == ["64", "115.200", "128.000"]
    # Share of a form's series posts the same table for the channel
    click(server, "UDE", buttons(delivered)["dpscale_share"], fake.response_url("series-form-share"))
    shared = fake.wait_for("/response/series-form-share", 1, timeout=30)[0].params  # its chart drawn first
    assert rows(shared)[2][:2] == ["64", "115\u202f200"]


def test_the_series_forms_errors_go_under_their_field_naming_the_row(server, fake):
    before = len(fake.calls_to("views.open"))
    send_command(server, "series", user="UEN")
    payload = submit_series(server, "UEN", opened_view(fake, before), "2000", "8 = 15800\n16 = 3l000").json()
    assert payload["response_action"] == "errors"
    assert list(payload["errors"]) == ["series_rows"]
    assert payload["errors"]["series_rows"].startswith("In `16 = 3l000`: `3l000`")


@pytest.mark.parametrize(
    ("text", "throughput", "measurements"),
    [
        (GERMAN, "2.000", "8 = 15.800\n16 = 31.000\n64 = 115.200"),
        ("durchsatz=2k 16=31k 8=15,8k", "2k", "16 = 31k\n8 = 15,8k"),
    ],
)
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_edit_reopens_the_series_form_filled_as_written(server, fake, text, throughput, measurements):
    button = buttons(send_command(server, text, user="UDE").json())["dpscale_edit"]
    before = len(fake.calls_to("views.open"))
    click(server, "UDE", button, fake.response_url("series-edit"))
    view = opened_view(fake, before)
    assert view["callback_id"] == "dpscale_series_form"
    inputs = {b["block_id"]: b["element"].get("initial_value") for b in view["blocks"] if b["type"] == "input"}
    assert inputs == {"series_throughput": throughput, "series_rows": measurements}


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_explanations_show_the_faq_privately(server, fake):
    button = buttons(send_command(server, "v=2000 8=15800 16=31000", user="UEN").json())["dpscale_explain"]
    click(server, "UEN", button, fake.response_url("series-explain"))
    posted = fake.wait_for("/response/series-explain", 1)[0].params
    assert posted["response_type"] == "ephemeral" and posted["replace_original"] is False
    assert "*What is scaling efficiency?*" in json.dumps(posted["blocks"])


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_lang_series_is_shared_and_edited_in_its_own_language(server, fake):
    payload = send_command(server, "v=2000 8=15800 16=31000 lang=de", user="UEN").json()
    assert payload["text"].startswith("Skalierungseffizienz: 98,75")
    found = buttons(payload)
    click(server, "UEN", found["dpscale_share"], fake.response_url("series-lang-share"))
    shared = fake.wait_for("/response/series-lang-share", 1)[0].params
    assert rows(shared)[1][:2] == ["16", "31\u202f000"] and "Geteilt von <@UEN>" in json.dumps(shared["blocks"],
                                                                                                 ensure_ascii=False)
    before = len(fake.calls_to("views.open"))
    payload = send_command(server, "v=2000 8=15800 16=31000 lang=de", user="UEN").json()
    click(server, "UEN", buttons(payload)["dpscale_edit"], fake.response_url("series-lang-edit"))
    view = opened_view(fake, before)
    assert view["title"]["text"] == "Messreihe"
    inputs = {b["block_id"]: b["element"].get("initial_value") for b in view["blocks"] if b["type"] == "input"}
    assert inputs == {"series_throughput": "2000", "series_rows": "8 = 15800\n16 = 31000"}
    # the form reads as the command did: in German and in the user's own format, so `15.800` is asked about
    errors = submit_series(server, "UEN", view, "2000", "8 = 15.800\n16 = 31000").json()["errors"]
    asked = "In `8 = 15.800`: `15.800` lässt sich unterschiedlich lesen. Schreibe stattdessen `15,8` oder `15800`;"
    assert errors["series_rows"].startswith(asked)
