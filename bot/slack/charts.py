"""A series' chart in Slack: drawn after the acknowledgement, uploaded privately (slack-sdk's `files_upload_v2`:
files.getUploadURLExternal, the upload, files.completeUploadExternal with no channel) and shown as an image block
that names the file (`slack_file`), in an ephemeral post to the command's response_url, under the table; Share
uploads the channel's own and puts it in the shared copy. Why this way: docs/slack.md.

The private chart is follow-up work of its own kind (`chart`), recorded once the table is acknowledged (the table
is the answer; the chart follows it) and done exactly once (bot/slack/followups.py): the file's id is kept as the
job's stage once it is uploaded, so a retry posts that file and never uploads a second. A workspace installed
without `files:write` gets the table as always, with one line saying why no chart follows.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import threading
from typing import TYPE_CHECKING, Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from sqlalchemy.exc import SQLAlchemyError

from bot.engine import measured_series, measured_series_form
from bot.model.series import Series
from bot.reader.recipient import Recipient
from bot.reader.series_syntax import SeriesCommand, SeriesFieldErrors
from bot.replies import Reply
from bot.replies.blocks import Block
from bot.replies.blocks import context as context_block
from bot.replies.series import summary
from bot.replies.wording import wording_for
from bot.slack.delivery import Delivery, deliver, post_to_response_url
from bot.slack.plumbing import recipient_of, services_of
from bot.slack.state import BadStateError, ResultState
from bot.slack.workspaces import workspace_of
from bot.store import Job

if TYPE_CHECKING:  # multiprocessing loads only where a chart is drawn, never on an acknowledgement's path
    from concurrent.futures import ProcessPoolExecutor

logger = logging.getLogger(__name__)

CHART_WORK = "chart"
CHART_BLOCK = "dpscale_chart"
FILES_SCOPE = "files:write"
UPLOADED = "uploaded:"  # a job's stage once its chart is uploaded, the file's id after it
FILENAME = "scaling.png"
DRAW_TIMEOUT = 20.0  # seconds a chart may take to draw, its process started included
NICE = 10  # the drawing process's lower CPU priority: acknowledgements come first
_drawer: ProcessPoolExecutor | None = None
_drawer_lock = threading.Lock()


class ChartRefusedError(SlackClientError):
    """Slack refused the post that shows an uploaded chart (a file still being processed is refused), or the
    drawing process stopped: a later try may succeed."""


def scope_missing(context: BoltContext) -> bool:
    """Whether the workspace's bot token is known to lack `files:write` (Bolt reads its scopes from auth.test or
    the installation; unknown scopes are tried, and a refusal is answered then)."""
    scopes = getattr(context.authorize_result, "bot_scopes", None)
    return scopes is not None and FILES_SCOPE not in scopes


def no_chart_note(recipient: Recipient) -> str:
    return wording_for(recipient).gettext(
        "No chart: dpscale isn't allowed to upload files in this workspace. Someone who manages the workspace's "
        "apps can allow it by reinstalling dpscale with the `files:write` permission.")


def with_no_chart_note(reply: Reply, recipient: Recipient) -> Reply:
    return reply.with_blocks([*reply.blocks, context_block([":bar_chart: " + no_chart_note(recipient)])])


def chart_job(reply: Reply, recipient: Recipient, text: str, command: dict[str, Any],
              context: BoltContext) -> tuple[Reply, Job | None]:
    """A series' table as it is to be acknowledged, with the work its chart will be (to start once the table is
    sent, `start_chart`), or with the line saying why there is none."""
    try:
        value = ResultState.text_value(recipient, text)  # what its buttons carry
    except ValueError:  # too long to carry: no buttons, and no chart
        return reply, None
    parts = [command.get("trigger_id"), command.get("response_url"), command.get("user_id"), value]
    return chart_for(reply, recipient, value, parts, command.get("response_url"), context)


def chart_for(reply: Reply, recipient: Recipient, value: str, parts: list[Any], response_url: str | None,
              context: BoltContext) -> tuple[Reply, Job | None]:
    """`reply` with the chart of the series its buttons' `value` stands for, to be posted to `response_url`, as
    work keyed by `parts` (what makes two requests the same); or with the line saying why there is none."""
    if scope_missing(context):
        return with_no_chart_note(reply, recipient), None
    key = hashlib.sha256("\x1f".join(str(p or "") for p in parts).encode()).hexdigest()
    return reply, Job(CHART_WORK, key, workspace_of(context), {"value": value, "response_url": response_url})


def start_chart(job: Job, client: WebClient, context: BoltContext) -> None:
    """After the table's acknowledgement, off the request thread: the chart recorded as follow-up work, then
    begun; a retried request's records nothing more. Recorded after the table, not before it: the answer is the
    table, which the acknowledgement carries whatever becomes of its chart, and so a series' acknowledgement
    waits for no database write."""
    services = services_of(context)
    try:
        accepted = services.followups.accept(job)
    except SQLAlchemyError as error:  # the table is there; its chart cannot be promised
        logger.warning("a chart could not be recorded (%s)", type(error).__name__)
        return
    if accepted:
        services.followups.run_now(job, client, context)


def series_of(state: ResultState, recipient: Recipient) -> tuple[Series, SeriesCommand] | None:
    """The series a result's state stands for, read for `recipient`'s readers; None if it is none."""
    if state.series is not None:
        try:
            return measured_series_form(state.series.throughput, state.series.rows, recipient)
        except SeriesFieldErrors:
            return None
    return measured_series(state.text or "", recipient)


def upload(job: Job, client: WebClient, context: BoltContext, found: tuple[Series, SeriesCommand]) -> str:
    """The chart's file id: uploaded now, privately, or already by an earlier try of the same job."""
    if job.stage.startswith(UPLOADED):
        return job.stage.removeprefix(UPLOADED)
    png = drawn(*found)
    uploaded = client.files_upload_v2(content=png, filename=FILENAME, title=FILENAME,
                                      alt_txt=_alt_text(found))
    file_id = str(uploaded["file"]["id"])
    services = services_of(context)
    services.store.work.reached(job, UPLOADED + file_id, hold=services.followups.policy.lease)
    return file_id


def drawn(series: Series, command: SeriesCommand) -> bytes:
    """The chart's PNG, drawn in a process of its own at a lower priority (`NICE`), started on the first chart: a
    drawing holds its interpreter for some 0.3 s of CPU, which in this process would hold up every request
    thread's acknowledgement; there it only shares the CPU, and yields it."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    global _drawer
    with _drawer_lock:
        if _drawer is None:
            _drawer = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                          initializer=os.nice, initargs=(NICE,))
            atexit.register(_drawer.shutdown, wait=True, cancel_futures=True)  # before the interpreter tears down
        drawer = _drawer
    try:
        return drawer.submit(_draw, series, command).result(timeout=DRAW_TIMEOUT)
    except BrokenProcessPool:  # the drawing process died (killed, out of memory): a new one for the next try
        with _drawer_lock:
            _drawer = None if _drawer is drawer else _drawer
        raise ChartRefusedError("the drawing process stopped") from None


def _draw(series: Series, command: SeriesCommand) -> bytes:
    """In the drawing process: matplotlib is imported there, and only there."""
    from bot.replies.chart import series_chart

    return series_chart(series, command)


def _alt_text(found: tuple[Series, SeriesCommand]) -> str:
    """What the chart shows, for a screen reader: the reply's own summary (E at the smallest and largest size)."""
    return summary(found[0], wording_for(found[1].recipient))[:1000]


def image_block(file_id: str, alt_text: str) -> Block:
    return {"type": "image", "block_id": CHART_BLOCK, "slack_file": {"id": file_id}, "alt_text": alt_text[:2000]}


def post_chart(job: Job, client: WebClient, context: BoltContext) -> str:
    """The private chart under the table: uploaded, then shown where the command was run."""
    try:
        state = ResultState.decode(job.payload.get("value"))
    except BadStateError:
        return "outdated"
    context["locale"] = str(state.recipient)
    found = series_of(state, state.recipient)
    if found is None:
        return "no_series"
    response_url = job.payload.get("response_url")
    try:
        file_id = upload(job, client, context, found)
    except SlackApiError as error:
        if error.response.get("error") != "missing_scope":
            raise
        note = Reply(text=no_chart_note(state.recipient), blocks=[context_note(state.recipient)])
        post_to_response_url(response_url, **note.payload(response_type="ephemeral", replace_original=False))
        return "no_scope"
    alt = _alt_text(found)
    shown = deliver(response_url, response_type="ephemeral", replace_original=False, text=alt,
                    blocks=[image_block(file_id, alt)])
    if shown is Delivery.REFUSED:
        raise ChartRefusedError("the chart's post was refused")
    return "ok" if shown is Delivery.DONE else "unknown"


def context_note(recipient: Recipient) -> Block:
    return context_block([":bar_chart: " + no_chart_note(recipient)])


def with_shared_chart(copy: Reply, job: Job, client: WebClient, context: BoltContext, state: ResultState,
                      recipient: Recipient) -> Reply:
    """A Share's copy of a series with its chart in the channel's number format, uploaded once for this Share (a
    retry posts the same file), or the line saying why there is none."""
    found = series_of(state, recipient)
    if found is None:
        return copy
    if scope_missing(context):
        return copy.with_blocks([*copy.blocks, context_note(recipient)])
    try:
        file_id = upload(job, client, context, found)
    except SlackApiError as error:
        if error.response.get("error") != "missing_scope":
            raise
        return copy.with_blocks([*copy.blocks, context_note(recipient)])
    return copy.with_blocks([*copy.blocks, image_block(file_id, _alt_text(found))])


def apologize_for_chart(job: Job, client: WebClient, context: BoltContext) -> None:
    """The chart could not be shown however often it was tried: said under the table, which holds every figure."""
    recipient = recipient_of(context)
    text = wording_for(recipient).gettext("The chart could not be shown this time; the table above holds every figure.")
    post_to_response_url(job.payload.get("response_url"), text=text, response_type="ephemeral",
                         replace_original=False, blocks=[context_block([":bar_chart: " + text])])


FOLLOW_UPS = {CHART_WORK: (post_chart, apologize_for_chart, "chart")}  # bot.slack.app registers them


def register(app: App) -> None:
    """No listener of its own: the command's (bot/slack/commands.py) and Share's (bot/slack/actions.py) start it."""
