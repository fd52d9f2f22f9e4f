"""A series' chart through the real server and the fake Slack: uploaded the way slack-sdk's files_upload_v2 does
it and shown under the private table, exactly once under a retried request; Share posts it once in the copy; a
workspace without files:write gets the table with one line saying why there is no chart."""

from __future__ import annotations

import pytest
from test_e2e_series import submit_series
from test_interactive import buttons, click, opened_view

from fake_slack import FakeSlack
from slack_client import AppServer, send_command

pytestmark = pytest.mark.e2e

USER_LOCALES = {"UDE": "de-DE", "UEN": "en-US"}
SERIES = "v=2000 8=15800 16=31000 64=115200"
PNG = b"\x89PNG\r\n\x1a\n"
DRAWN = 30.0  # seconds a chart may take: the first starts its drawing process (matplotlib's import included)


def images(payload: dict) -> list[dict]:
    return [block for block in payload.get("blocks", []) if block["type"] == "image"]


def charts_posted(fake: FakeSlack, name: str) -> list[dict]:
    return [call.params for call in fake.calls_to(f"/response/{name}") if images(call.params)]


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_series_command_is_followed_by_its_chart_uploaded_privately_and_shown_under_the_table(server, fake):
    before = len(fake.calls_to("files.getUploadURLExternal"))
    payload = send_command(server, SERIES + " at=128", user="UEN", response_url=fake.response_url("chart-1")).json()
    assert payload["response_type"] == "ephemeral" and not images(payload)  # the table at once, the chart after
    fake.wait_for("/response/chart-1", timeout=DRAWN)
    asked = fake.calls_to("files.getUploadURLExternal")[before:]
    assert len(asked) == 1 and asked[0].params["filename"] == "scaling.png"
    file_id = asked[0].answer["file_id"]
    assert fake.uploads[file_id].startswith(PNG) and int(asked[0].params["length"]) == len(fake.uploads[file_id])
    complete = [c for c in fake.calls_to("files.completeUploadExternal") if file_id in str(c.params["files"])]
    assert len(complete) == 1 and not complete[0].params.get("channel_id")  # private: shown only by the post
    [chart] = charts_posted(fake, "chart-1")
    assert chart["response_type"] == "ephemeral" and chart["replace_original"] is False
    assert images(chart) == [{"type": "image", "block_id": "dpscale_chart", "slack_file": {"id": file_id},
                              "alt_text": "Scaling efficiency: 98.75% at 8 devices, 90% at 64 devices"}]


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_retried_command_gets_one_chart(server, fake):
    """Slack sends a request again when it saw no answer in time: the same body, with X-Slack-Retry-Num."""
    before = len(fake.calls_to("files.getUploadURLExternal"))
    url = fake.response_url("chart-retried")
    first = send_command(server, SERIES, user="UDE", response_url=url).json()
    again = send_command(server, SERIES, user="UDE", response_url=url, **{"X-Slack-Retry-Num": "1",
                                                                          "X-Slack-Retry-Reason": "http_timeout"})
    assert again.json()["blocks"] == first["blocks"]  # the table both times
    fake.wait_for("/response/chart-retried", timeout=DRAWN)
    fake.wait_for("/response/chart-retried", 2, timeout=6)  # time enough for a second chart to be drawn and posted
    assert len(fake.calls_to("files.getUploadURLExternal")) == before + 1
    assert len(charts_posted(fake, "chart-retried")) == 1


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_share_posts_the_series_with_its_chart_once(server, fake):
    button = buttons(send_command(server, SERIES, user="UDE", response_url=fake.response_url("chart-own")).json())
    fake.wait_for("/response/chart-own", timeout=DRAWN)
    before = len(fake.calls_to("files.getUploadURLExternal"))
    click(server, "UDE", button["dpscale_share"], fake.response_url("chart-share"))
    click(server, "UDE", button["dpscale_share"], fake.response_url("chart-share"))  # a double click
    fake.wait_for("/response/chart-share", 2, timeout=DRAWN)
    shared = [p.params for p in fake.calls_to("/response/chart-share") if p.params.get("response_type") == "in_channel"]
    assert len(shared) == 1 and len(images(shared[0])) == 1
    assert len(fake.calls_to("files.getUploadURLExternal")) == before + 1  # the channel's own chart, once
    assert images(shared[0])[0]["slack_file"]["id"] == fake.calls_to("files.getUploadURLExternal")[-1].answer[
        "file_id"]


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_without_files_write_the_table_comes_with_one_line_saying_why_there_is_no_chart():
    fake = FakeSlack(locales={"UEN": "en-US"})
    fake.scopes = "commands,app_mentions:read,chat:write,users:read"
    fake.start()
    server = AppServer(fake).start()
    try:
        payload = send_command(server, SERIES, user="UEN", response_url=fake.response_url("no-scope")).json()
        assert any(b.get("block_id") == "dpscale_series_table" for b in payload["blocks"])
        notes = [e["text"] for b in payload["blocks"] if b["type"] == "context" for e in b["elements"]]
        assert ":bar_chart: No chart: dpscale isn't allowed to upload files in this workspace. Someone who manages " \
               "the workspace's apps can allow it by reinstalling dpscale with the `files:write` permission." in notes
        server.wait_for_log("kind=command")
        assert not fake.calls_to("files.getUploadURLExternal") and not fake.calls_to("/response/no-scope")
    finally:
        server.stop()
        fake.stop()


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_chart_slack_keeps_refusing_is_tried_again_then_apologised_for_under_the_table(server, fake):
    """files.getUploadURLExternal answering 500 every time: tried in this process, handed back, taken up again by
    the sweeper, and when the tries are used up the user is told once, under the table, that it holds every figure."""
    fake.behaviour["files.getUploadURLExternal"] = "error"
    try:
        before = len(fake.calls_to("files.getUploadURLExternal"))
        send_command(server, SERIES, user="UEN", response_url=fake.response_url("chart-refused"))
        [apology] = fake.wait_for("/response/chart-refused", timeout=60)
        server.wait_for_log("kind=chart locale=en_US outcome=failed", timeout=10)
    finally:
        del fake.behaviour["files.getUploadURLExternal"]
    assert apology.params["blocks"] == [{"type": "context", "elements": [{
        "type": "mrkdwn", "text": ":bar_chart: The chart could not be shown this time; the table above holds every "
                                  "figure."}]}]
    assert apology.params["response_type"] == "ephemeral" and apology.params["replace_original"] is False
    assert len(fake.calls_to("files.getUploadURLExternal")) - before >= 6  # tried again, in two takes
    assert "taking up a chart follow-up left unfinished" in server.log_so_far()
    assert len(fake.calls_to("/response/chart-refused")) == 1


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_series_forms_result_is_followed_by_its_chart_where_it_was_delivered(server, fake):
    before = len(fake.calls_to("views.open"))
    send_command(server, "series", user="UEN", response_url=fake.response_url("chart-form"))
    submit_series(server, "UEN", opened_view(fake, before), "2000", "8 = 15800\n16 = 31000\n64 = 115200")
    posts = fake.wait_for("/response/chart-form", 2, timeout=DRAWN)
    assert [bool(images(p.params)) for p in posts] == [False, True]  # the table, then its chart under it
    assert posts[1].params["response_type"] == "ephemeral" and posts[1].params["replace_original"] is False
