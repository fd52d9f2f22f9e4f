"""What every listener needs, given once instead of repeated in each: the shared services, the reader's locale,
and one log line per request.

    App(before_authorize=ProvideServices(services))             # every request: context["services"]
    app.command(COMMAND, middleware=[read_user_locale])(handle)  # context["locale"] from users.info
    @logged("command") def handle(..., context): return "result" # one INFO line: kind, locale, outcome, time
"""

from __future__ import annotations

import copy
import functools
import inspect
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slack_bolt import Ack, App, BoltContext, BoltRequest, BoltResponse
from slack_bolt.logger import get_bolt_app_logger
from slack_bolt.middleware import Middleware
from slack_sdk import WebClient

from bot.policy import FollowUpPolicy
from bot.reader.recipient import Recipient
from bot.shutdown import WorkPool
from bot.slack.followups import FollowUps
from bot.slack.locales import LocaleDirectory
from bot.slack.workspaces import workspace_of
from bot.store import Store

request_log = logging.getLogger("bot.requests")
shutdown_log = logging.getLogger("bot.server")

# when the web front received a request (`time.monotonic()`), as it tells the listeners (bot/web/http.py)
ARRIVAL_HEADER = "x-dpscale-arrived"
ACK_BUDGET = 2.5  # seconds: Slack waits 3 s for an acknowledgement, and a trigger_id lives as long
BACKGROUND_THREADS = 8
LAZY_THREADS = 5  # Bolt's own default for its lazy listeners


class SlackApp(App):
    """Bolt's `App`, whose requests each get their Web API client as a copy of the app's.

    Bolt (`App._init_context`, slack_bolt/app/app.py, read in slack-bolt 1.30) gives every request a client of its
    own, so that a listener or an authorization that sets its token never changes another request's. It builds
    that client anew from the app client's settings, and a new `WebClient` works out its user agent and reads the
    proxy variables from the environment again: some 60,000 instructions, 4 % of a slash command's whole cost. A
    copy keeps what Bolt's client keeps (the same token, base URL, timeout, TLS context, proxy, headers and
    logger: Bolt passes those on too, the headers as the same dict) with its own default parameters (the
    request's team) and its own list of retry handlers, as Bolt makes them.
    """

    def _init_context(self, req: BoltRequest) -> None:
        req.context["logger"] = get_bolt_app_logger(app_name=self.name, base_logger=self._base_logger)
        req.context["token"] = self._token
        req.context["client"] = request_client(self._client, req.context.team_id)
        req.context["listener_runner"] = self.listener_runner


def request_client(client: WebClient, team_id: str | None) -> WebClient:
    """A request's own Web API client: `client`'s settings, `team_id` as its default parameter (org-wide
    installations need it), a list of retry handlers of its own."""
    own = copy.copy(client)
    own.default_params = {"team_id": team_id} if team_id is not None else {}
    own.retry_handlers = list(client.retry_handlers)
    return own


@dataclass
class Services:
    """Long-lived parts every listener may use: built once per app, shared by all requests and threads."""

    locales: LocaleDirectory
    store: Store
    policy: FollowUpPolicy  # how follow-up work is held, tried and given up (Settings.followups)
    client_id: str | None = None  # multi-workspace mode: whose installations the store holds
    # work acknowledged to Slack and not yet done, kept in the store until some process has done it
    followups: FollowUps = field(init=False)
    # in-memory work after the acknowledgement, off the server's request threads: only what cannot outlive its
    # request anyway (a form opened with a trigger_id, which lives 3 s) or what the database, being down, cannot keep
    background: WorkPool = field(default_factory=lambda: WorkPool(BACKGROUND_THREADS, thread_name_prefix="dpscale"))
    # Bolt's lazy listeners, given to the App as its listener_executor: only for what a new request brings back
    # (App Home, a menu choice, a note on a click); what a user or admin would miss is follow-up work
    lazy: WorkPool = field(default_factory=lambda: WorkPool(LAZY_THREADS, thread_name_prefix="bolt"))

    def __post_init__(self) -> None:
        self.followups = FollowUps(self.store, self.policy)

    def first_time(self, kind: str, key: str, ttl: float, context: BoltContext) -> bool:
        """True for the first process to handle `key` (an event id, a click), False for any later one: the
        database decides, so it holds across every process and host."""
        return self.store.handled.first(kind, key, ttl, workspace_of(context))

    def start(self) -> None:
        """A worker process begins serving (bot/web/asgi.py's lifespan): its sweeper of follow-up work starts."""
        self.followups.start()

    def stop(self, deadline: float, abandoned: int = 0) -> int:
        """A worker process stops: the work its requests left is finished by `deadline` (follow-up work not yet
        started is handed back to the database, for another process); what the drain timeout cut off
        (`abandoned` requests, and the tasks this returns) is counted in a warning."""
        left = self.followups.stop(deadline) + sum(pool.finish(deadline) for pool in (self.lazy, self.background))
        if abandoned or left:
            shutdown_log.warning("the drain timeout (WEB_DRAIN_TIMEOUT) abandoned %s and %s",
                                 _count(abandoned, "request"), _count(left, "background task"))
        shutdown_log.info("stopped (pid %d)", os.getpid())
        return left

    def __deepcopy__(self, memo: dict[int, Any]) -> Services:
        """Bolt copies a request's context for lazy listeners; the services are shared, never copied."""
        return self


def _count(number: int, thing: str) -> str:
    """`1 request`, `2 requests`."""
    return f"{number} {thing}" + ("" if number == 1 else "s")


class ProvideServices(Middleware):
    """The one global middleware: the services and the arrival time on every request's context. A `notice`
    (a payload with no listener, such as Slack's `app_rate_limited`) may answer a request here instead.

    It runs before authorization (`App(before_authorize=…)`), so the time a workspace's authorization takes is
    counted against Slack's deadline too. A `Middleware` subclass, not a function: Bolt calls it directly, where a
    function middleware costs an injection of every possible argument on every request.
    """

    def __init__(
        self, services: Services, notice: Callable[[dict[str, Any], BoltContext], BoltResponse | None] | None = None
    ) -> None:
        self.services = services
        self.notice = notice

    def process(self, *, req: BoltRequest, resp: BoltResponse, next: Callable[[], Any]) -> BoltResponse | None:
        """Put the services and the arrival time on the context, then go on (or answer the notice)."""
        context = req.context
        context["services"] = self.services
        context["received"] = arrival_of(req)
        if self.notice is not None and (response := self.notice(req.body, context)) is not None:
            return response
        next()
        return resp


def arrival_of(req: BoltRequest) -> float:
    """When the request reached the server (`time.monotonic()`): the time it then waited for a thread counts
    against Slack's deadline too. Now, where the server does not say (Socket Mode, another WSGI server)."""
    now = time.monotonic()
    try:
        return min(now, float((req.headers.get(ARRIVAL_HEADER) or [""])[0]))
    except ValueError:
        return now


def services_of(context: BoltContext) -> Services:
    services: Services = context["services"]
    return services


def deadline_of(context: BoltContext) -> float:
    """When Slack's patience with this request runs out (a `time.monotonic()` instant): ~2.5 s after it arrived.

    Every Web API call made for the acknowledgement, or with its `trigger_id`, gets only the time left until then.
    """
    received = context.get("received")
    return (time.monotonic() if received is None else received) + ACK_BUDGET


def time_left(deadline: float) -> float:
    """Seconds until `deadline`; never more than the budget, ≤ 0 once it has passed."""
    return min(ACK_BUDGET, deadline - time.monotonic())


class ReadUserLocale(Middleware):
    """Listener middleware: the locale of the user who sent the request, read by `locale_of(context)`; Slack's
    `users.info` is waited for only as long as the request's deadline leaves.

    The context holds the locale's tag, not Babel's `Locale`: Bolt deep-copies the context for lazy listeners,
    and a `Locale` would take its whole CLDR data along on every copy.
    """

    def process(self, *, req: BoltRequest, resp: BoltResponse, next: Callable[[], Any]) -> BoltResponse | None:
        """Put the reader's locale tag on the context, then go on."""
        context = req.context
        locales = services_of(context).locales
        context["locale"] = locales.tag_for(context, context.user_id, wait=time_left(deadline_of(context)))
        next()
        return resp


read_user_locale = ReadUserLocale()


def recipient_of(context: BoltContext) -> Recipient:
    """The reader a listener answers (its tag set on the context by `read_user_locale` or by the listener itself)."""
    return Recipient.parse(context["locale"])


def acknowledge(ack: Ack) -> None:
    """The acknowledgement of a listener whose work is done lazily, after Slack has its answer."""
    ack()


HANDED_ON = "handed_on"  # a listener's outcome when follow-up work took the request on: that work writes its line


def logged(kind: str) -> Callable[[Callable[..., str | None]], Callable[..., None]]:
    """Time a listener and log one INFO line: kind, locale, the outcome it returns, duration; none for a listener
    that handed the request on to follow-up work (`HANDED_ON`), which writes the request's line when it is done.

    Never tokens or the user's text. The listener must take `context` (where the locale is read from); Bolt
    injects arguments by the wrapped function's own signature.
    """

    def decorate(listener: Callable[..., str | None]) -> Callable[..., None]:
        if "context" not in inspect.signature(listener).parameters:
            raise TypeError(f"{listener.__name__} must take `context` to be logged")

        @functools.wraps(listener)
        def run(**kwargs: Any) -> None:
            started = time.perf_counter()
            outcome = "failed"
            try:
                outcome = listener(**kwargs) or "ok"
            finally:
                if outcome != HANDED_ON:
                    request_log.info(
                        "kind=%s locale=%s outcome=%s duration_ms=%.1f",
                        kind,
                        kwargs["context"].get("locale") or "-",
                        outcome,
                        (time.perf_counter() - started) * 1000,
                    )

        return run

    return decorate
