"""The `/dpscale` slash command: answered in-line, inside the acknowledgement, ephemeral to the user.

With no text it opens the form instead, after the acknowledgement and off the request thread, so a slow
`views.open` never makes anyone's command wait (the help is posted instead if Slack will not open it in time).

The listener is one of Bolt's (`CommandListener`: Bolt's listener loop, runner, error handler and the listener's
middleware, as `app.command` would give it), matched on the body's `command` and called with the four arguments it
takes. Bolt's generic listener builds every argument any listener may take, some thirty, several of them parsed
from the body, twice per request (once to match, once to call): about a tenth of a command's cost.
"""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltContext, BoltRequest, BoltResponse
from slack_bolt.listener import Listener
from slack_sdk import WebClient

from bot.engine import answer
from bot.reader.parsing import normalized_command
from bot.reader.series_syntax import wants_series_form
from bot.replies import ReplyKind, with_preference_unread
from bot.slack.charts import chart_job, start_chart
from bot.slack.forms import open_form_or_help
from bot.slack.ids import COMMAND
from bot.slack.mentions import readable_mentions, strip_own_mention
from bot.slack.plumbing import deadline_of, logged, read_user_locale, recipient_of, services_of
from bot.slack.preferences import choose_format_by_command, confirmed_above
from bot.slack.series import open_series_form_or_help
from bot.slack.series_form import is_series_reply
from bot.slack.state import FormMetadata
from bot.slack.views import with_text_buttons, with_unknown_reader_note


@logged("command")
def handle_command(ack: Ack, command: dict[str, Any], client: WebClient, context: BoltContext) -> str:
    text = command_text(command.get("text") or "", context.bot_user_id)
    text, chosen, saved = choose_format_by_command(context, command.get("user_id"), text)
    recipient = recipient_of(context)
    if chosen is not None and (chosen.is_error or not text.strip()):
        ack(**chosen.payload(response_type="ephemeral"))
        return "format_error" if chosen.is_error else "format"
    if not text.strip():
        metadata = FormMetadata.of(recipient, command.get("response_url"))
        services_of(context).background.submit(
            open_form_or_help, client, command.get("trigger_id") or "", recipient, metadata,
            deadline=deadline_of(context),
        )
        ack()
        return "form"
    if wants_series_form(text):  # `/dpscale series`: the form for a measurement series (`bot.slack.series`)
        metadata = FormMetadata.of(recipient, command.get("response_url"))
        services_of(context).background.submit(open_series_form_or_help, client, command.get("trigger_id") or "",
                                               recipient, metadata, deadline=deadline_of(context))
        ack()
        return "series_form"
    reply = answer(text, recipient)
    reply = confirmed_above(with_unknown_reader_note(reply, recipient), saved, recipient)
    if context.get("preference_unread"):
        reply = with_preference_unread(reply, recipient)
    chart = None
    if reply.kind is ReplyKind.RESULT:  # only a result carries state; a text too long to carry is an error reply
        carried = text if text.isprintable() else normalized_command(text)  # control characters would not fit
        reply = with_text_buttons(reply, recipient, carried)
        if is_series_reply(reply):  # its chart follows the table (`bot.slack.charts`)
            reply, chart = chart_job(reply, recipient, carried, command, context)
    # the reply as JSON text (`Reply.json`: orjson, not Bolt's json.dumps): Bolt sends a text-only acknowledgement
    # as it is, and as JSON since it is an object (the end-to-end tests read it back through the server)
    ack(reply.json(response_type="ephemeral"))
    if chart is not None:
        services_of(context).background.submit(start_chart, chart, client, context)
    return reply.kind.value


def command_text(text: str, bot_user_id: str | None) -> str:
    """The command's text: a leading mention of the bot itself dropped, anyone else's shown as `@name`."""
    return readable_mentions(strip_own_mention(text, bot_user_id, leading_only=True))


class CommandListener(Listener):
    """`/dpscale`, as Bolt's listener loop runs it: after `read_user_locale`, through Bolt's listener runner."""

    def __init__(self) -> None:
        self.matchers = ()
        self.middleware = (read_user_locale,)
        self.ack_function = handle_command  # type: ignore[assignment]  # answers through ack, returns None
        self.lazy_functions = ()
        self.auto_acknowledgement = False

    def matches(self, *, req: BoltRequest, resp: BoltResponse) -> bool:
        return req.body.get("command") == COMMAND

    def run_ack_function(self, *, request: BoltRequest, response: BoltResponse) -> BoltResponse | None:
        context = request.context
        handle_command(ack=context.ack, command=request.body, client=context.client, context=context)
        return None


def register(app: App) -> None:
    app._listeners.append(CommandListener())  # what app.command(COMMAND, middleware=[…]) appends, made lighter
