"""The app factory: one Bolt App, its Web API clients, and every feature's listeners."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator

from slack_bolt import App, BoltContext
from slack_bolt.error import BoltError
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import HttpRequest, HttpResponse, RetryState, default_retry_handlers
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from bot.policy import API_TIMEOUT
from bot.reader.numbers import resolve_locale
from bot.settings import Settings
from bot.slack import (
    actions,
    charts,
    commands,
    events,
    failures,
    forms,
    home,
    installs,
    preferences,
    rate_limits,
    scopes,
    series,
    shortcuts,
    steps,
    workspaces,
)
from bot.slack.delivery import BadAnswerRetry
from bot.slack.followups import Runtime
from bot.slack.locales import LocaleDirectory
from bot.slack.plumbing import ProvideServices, Services, SlackApp
from bot.store import Job, Store, upgrade
from bot.store.tokens import TokenCipher, TokenKeyError

LOOKUP_TIMEOUT = 10  # seconds a users.info lookup waits for Slack, in its own thread (bot.slack.locales)
MAX_RATE_LIMIT_WAIT = 5  # seconds a call waits, once, when Slack's rate limit asks it to retry later
# each registers its own listeners
FEATURES = (failures, commands, events, actions, shortcuts, forms, series, charts, home, preferences, installs,
            steps)


_SLACK_ERROR_CODE = re.compile(r"[a-z_]{1,64}")  # `invalid_auth`, `ratelimited`: what Slack's answers say


class UnusedTokenNotice(logging.Filter):
    """Drops Bolt's warning that `token` will be unused: Bolt reads SLACK_BOT_TOKEN from the environment beside
    the client it is given, which carries that very token. Nothing to act on, on every healthy start."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != warning_client_prioritized_and_token_skipped()


BOLT_LOG = logging.getLogger("bot.bolt")
BOLT_LOG.addFilter(UnusedTokenNotice())
WEB_CLIENT_LOG = logging.getLogger("slack_sdk.web.base_client")


@contextlib.contextmanager
def quiet_token_check() -> Iterator[None]:
    """Bolt asks Slack's `auth.test` as the App is built; the Web API client logs each failed try and its retry
    (four lines), where `token_check_failure` says in one what came of it. Nothing else calls Slack meanwhile."""
    def drop(record: logging.LogRecord) -> bool:
        return False

    WEB_CLIENT_LOG.addFilter(drop)
    try:
        yield
    finally:
        WEB_CLIENT_LOG.removeFilter(drop)


class TokenCheckError(Exception):
    """Bolt's check of SLACK_BOT_TOKEN (an `auth.test` call, made when the App is built) did not pass, or the
    stored tokens are not readable with DPSCALE_TOKEN_KEYS; the message says which in one line (whether Slack
    refused the token or could not be asked)."""


class ShortRateLimitRetry(RateLimitErrorRetryHandler):
    """One retry of a call Slack rate-limited (`chat.postMessage` in a busy channel), after the `Retry-After` it
    gives, when that is at most `MAX_RATE_LIMIT_WAIT`: a mention's answer comes a second later instead of an
    apology. Calls made before an acknowledgement use clients of their own, without retries."""

    def __init__(self) -> None:
        super().__init__(max_retry_count=1)

    def _can_retry(self, *, state: RetryState, request: HttpRequest, response: HttpResponse | None = None,
                   error: Exception | None = None) -> bool:
        if response is None or response.status_code != 429:
            return False
        after = next((values[0] for name, values in response.headers.items() if name.lower() == "retry-after"), "1")
        return after.isdigit() and int(after) <= MAX_RATE_LIMIT_WAIT


def follow_up_runtime(app: App, services: Services) -> Runtime:
    """How follow-up work taken up from the database gets what its request would have given it: the client with
    its workspace's token (the app's own, or the installation's in multi-workspace mode) and a context."""

    def runtime(job: Job) -> tuple[WebClient, BoltContext]:
        workspace = job.workspace
        client = app.client
        bot_user_id = job.payload.get("bot_user_id")
        if app.installation_store is not None:
            bot = app.installation_store.find_bot(enterprise_id=workspace.enterprise_id, team_id=workspace.team_id,
                                                  is_enterprise_install=workspace.is_enterprise_install)
            if bot is not None:
                client = WebClient(token=bot.bot_token, base_url=app.client.base_url, timeout=API_TIMEOUT,
                                   retry_handlers=app.client.retry_handlers)
                bot_user_id = bot_user_id or bot.bot_user_id
            elif job.kind != installs.FORGET_WORK:  # a deletion needs no token: its installation may be gone already
                raise LookupError("the workspace's installation is gone")
        context = BoltContext({
            "services": services, "locale": job.payload.get("locale") or str(services.locales.default),
            "enterprise_id": workspace.enterprise_id, "team_id": workspace.team_id,
            "is_enterprise_install": workspace.is_enterprise_install, "bot_user_id": bot_user_id,
            "user_id": job.payload.get("user_id"), "client": client,
        })
        return client, context

    return runtime


def create_services(settings: Settings, store: Store | None = None) -> Services:
    """The long-lived parts every listener shares (bot.slack.plumbing): the store (opened from DATABASE_URL and
    brought up to date unless given), the users' locales, and the thread pools work after an acknowledgement runs
    in. Built apart from the app so that the server that serves it can let those pools finish when it stops."""
    if store is None:  # the schema is brought up to date here too, so that any server (or test) can run the app
        store = Store.open(settings.database_url)
        upgrade(store.database, tokens=TokenCipher(settings.token_keys) if settings.token_keys else None)
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    # a request waits for a lookup only DPSCALE_LOCALE_TIMEOUT; the lookup itself waits longer, so that an answer
    # Slack gives a little later is still kept for the user's next request
    lookup_client = WebClient(token=token, base_url=settings.slack_api_url, timeout=LOOKUP_TIMEOUT, retry_handlers=[])
    locales = LocaleDirectory(
        lookup_client, resolve_locale(settings.dpscale_default_locale), preferences=store.preferences,
        stored=store.locales, deadline=settings.dpscale_locale_timeout,
    )
    services = Services(locales=locales, store=store, policy=settings.followups, client_id=settings.slack_client_id)
    return services


def create_app(settings: Settings, store: Store | None = None, services: Services | None = None) -> App:
    """Build the app. Listeners answer in-line (`process_before_response`); work after the acknowledgement is
    follow-up work (bot/slack/followups.py). With SLACK_BOT_TOKEN it serves that one workspace; with
    SLACK_CLIENT_ID/SECRET, any workspace that installs it (each request then carries its own workspace's token).
    Either way, state shared between processes lives in `store` (DATABASE_URL), or in the `services`' store.
    """
    services = services if services is not None else create_services(settings, store)
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    default = resolve_locale(settings.dpscale_default_locale)
    client = WebClient(token=token, base_url=settings.slack_api_url, timeout=API_TIMEOUT,
                       retry_handlers=[*default_retry_handlers(), ShortRateLimitRetry(), BadAnswerRetry()])
    secret = settings.slack_signing_secret
    try:
        oauth = workspaces.oauth_options(settings, services.store, default) if settings.multi_workspace else {}
    except TokenKeyError as error:  # the stored tokens are not readable with DPSCALE_TOKEN_KEYS
        raise TokenCheckError(str(error)) from None
    try:
        with quiet_token_check():
            app = SlackApp(
                name="dpscale",  # unnamed, Bolt names an app after its caller's file with inspect.stack(): 40 ms
                client=client,
                signing_secret=secret.get_secret_value() if secret else None,
                process_before_response=True,
                logger=BOLT_LOG,
                before_authorize=ProvideServices(services, notice=rate_limits.note_rate_limit),
                listener_executor=services.lazy,
                **oauth,
            )
    except (BoltError, OSError) as error:  # OSError: Slack's API timed out or could not be connected to
        raise token_check_failure(error) from None
    for feature in FEATURES:
        feature.register(app)
        for kind, (handler, apology, logged_as) in getattr(feature, "FOLLOW_UPS", {}).items():
            services.followups.register(kind, handler, apology, logged_as)
    services.followups.runtime = follow_up_runtime(app, services)
    scopes.warn_of_missing_scopes(app, settings)
    for fallback in (actions, forms):  # buttons and forms from an older version: after every feature's own
        fallback.register_fallback(app)
    return app


def token_check_failure(error: BaseException) -> TokenCheckError | BaseException:
    """What Bolt's start-up `auth.test` failing means, in one line without the token or Slack's whole answer:
    Bolt reports every SlackApiError as "`token` is invalid", an HTTP 500 or a rate limit included. Another
    BoltError (not the token check's) is returned as it is."""
    cause = error.__context__ if isinstance(error, BoltError) else error
    if isinstance(cause, SlackApiError):
        status, code = cause.response.status_code, str(cause.response.get("error") or "")
        if not _SLACK_ERROR_CODE.fullmatch(code):  # not Slack's answer (a proxy's page, a wrong SLACK_API_URL)
            return TokenCheckError(f"Slack's auth.test got an answer that is not Slack's at start-up (HTTP {status}):"
                                    " the token was not checked; check SLACK_API_URL and any proxy")
        if status == 200:
            return TokenCheckError(f"Slack refused SLACK_BOT_TOKEN at start-up (auth.test: {code})")
        return TokenCheckError(f"Slack's auth.test failed at start-up with HTTP {status} ({code}): the token "
                                "was not checked; Slack may be down or rate-limiting, try again later")
    if isinstance(cause, OSError):
        return TokenCheckError(f"Slack's auth.test could not be reached at start-up ({type(cause).__name__}): "
                                "the token was not checked; Slack may be down, try again later")
    return error
