"""Which installation a request belongs to, and how an installation comes and goes.

One workspace (SLACK_BOT_TOKEN) or many (SLACK_CLIENT_ID/SLACK_CLIENT_SECRET: Bolt's own OAuth flow at
/slack/install and /slack/oauth_redirect, installations in slack-sdk's SQLAlchemy store). In both modes,
`app_uninstalled` and a revoked bot token delete every row dpscale keeps about that workspace
(bot/slack/installs.py).
"""

from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING, Any

from babel import Locale
from slack_bolt import BoltContext, BoltResponse
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.authorize import InstallationStoreAuthorize
from slack_bolt.oauth.callback_options import CallbackOptions, FailureArgs, SuccessArgs
from slack_bolt.oauth.oauth_settings import OAuthSettings

from bot.i18n import translations_for
from bot.log_lines import known_or_length
from bot.settings import Settings
from bot.store import Store, Workspace
from bot.store.tokens import TokenCipher, TokenKeyError

if TYPE_CHECKING:  # multi-workspace mode's store loads slack-sdk's SQLAlchemy stores: imported only there
    from bot.store.installations import InstallationStore, OAuthStateStore

logger = logging.getLogger(__name__)

INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
# why an installation did not complete, as Bolt names it, or as Slack's redirect does (`error=`, which anyone can
# send): only these are logged as they are, anything else by its length
INSTALL_FAILURES = frozenset({"access_denied", "invalid_browser", "invalid_state", "missing_state", "missing_code",
                              "invalid_code", "storage_error", "invalid_scope", "invalid_team_for_non_distributed_app",
                              "unapproved_app", "org_login_required"})


def workspace_of(context: BoltContext) -> Workspace:
    return Workspace(context.enterprise_id, context.team_id, bool(context.is_enterprise_install))


def oauth_options(settings: Settings, store: Store, default: Locale) -> dict[str, Any]:
    """What `App(...)` takes for multi-workspace mode: the OAuth flow, bot-only lookups, cached authorization.

    `find_bot` alone serves each request (dpscale stores no user tokens), and the result of `auth.test` is cached
    per bot token, so a request costs one indexed read and no call to Slack. Token rotation stays off
    (see bot/store/installations.py for why).
    """
    assert settings.slack_client_id is not None and settings.slack_client_secret is not None
    client_id, client_secret = settings.slack_client_id, settings.slack_client_secret.get_secret_value()
    installations = readable_installations(settings, store)
    oauth = OAuthSettings(
        client_id=client_id,
        client_secret=client_secret,
        scopes=settings.scopes,
        user_scopes=[],
        redirect_uri=settings.slack_redirect_uri,
        install_path=INSTALL_PATH,
        redirect_uri_path=REDIRECT_PATH,
        authorization_url=settings.slack_install_url,
        installation_store=installations,
        installation_store_bot_only=True,
        state_store=oauth_state_store(settings, store),
        state_expiration_seconds=settings.slack_state_expiration_seconds,
        callback_options=install_pages(default),
    )
    authorize = StoreAuthorize(
        logger=logging.getLogger("bot.bolt.authorize"),
        installation_store=installations,
        bot_only=True,
        cache_enabled=True,
    )
    _ = translations_for(default).gettext
    return {
        "oauth_settings": oauth,
        "authorize": authorize,
        "installation_store_bot_only": True,
        "user_facing_authorize_error_message": _(
            "dpscale isn't installed in this workspace (or was removed). Ask someone who can add apps to reinstall "
            "it."),
    }


class StoreAuthorize(InstallationStoreAuthorize):
    """Bolt's authorization from the installation store, which tells a store that cannot be read from a workspace
    that has no installation: Bolt takes any failure of `find_bot` for "not installed" and tells the user to
    install again. Here the database's failure is raised instead (bot.slack.failures answers it: an event 503,
    for Slack to send again; a command or a click, a note to try again in a moment). The lookup is the store's
    own, cached per process, so Bolt's second one costs nothing."""

    def __call__(self, *, context: BoltContext, enterprise_id: str | None, team_id: str | None,
                 user_id: str | None, **kwargs: Any) -> AuthorizeResult | None:
        try:
            self.installation_store.find_bot(enterprise_id=enterprise_id, team_id=team_id,
                                             is_enterprise_install=context.is_enterprise_install)  # SQLAlchemyError
        except TokenKeyError:  # this workspace's token alone is unreadable: it is told to install again
            self.logger.warning("the installation of workspace %s has a token no key in DPSCALE_TOKEN_KEYS "
                                "decrypts: its request is refused as not installed", team_id or enterprise_id)
            return None
        return super().__call__(context=context, enterprise_id=enterprise_id, team_id=team_id, user_id=user_id,
                                **kwargs)


def oauth_state_store(settings: Settings, store: Store) -> OAuthStateStore:
    """Where an installation's OAuth state waits for Slack's redirect (slack-sdk's store, in the database)."""
    from bot.store.installations import OAuthStateStore

    return OAuthStateStore(store.database, settings.slack_state_expiration_seconds)


def readable_installations(settings: Settings, store: Store) -> InstallationStore:
    """The installation store, its tokens encrypted with DPSCALE_TOKEN_KEYS; TokenKeyError if those keys do not
    read the tokens stored already."""
    from bot.store.installations import installation_store

    assert settings.slack_client_id is not None
    installations = installation_store(store.database, settings.slack_client_id, TokenCipher(settings.token_keys),
                                       store.cache)
    unreadable = installations.check_keys()
    if unreadable:
        logging.getLogger("bot.server").warning(
            "%d stored installation(s) have a token that no key in DPSCALE_TOKEN_KEYS decrypts: only those "
            "workspaces' requests fail (they are told to install dpscale again) until the key is given back or "
            "they reinstall", unreadable)
    return installations


def install_pages(default: Locale) -> CallbackOptions:
    """The pages a browser sees at the end of an installation, in the app's default language (no Slack user is
    known yet). A refused state names what happened and where to start again; never an error's text."""
    _ = translations_for(default).gettext
    again = f'<a href="{INSTALL_PATH}">{INSTALL_PATH}</a>'

    def installed(args: SuccessArgs) -> BoltResponse:
        installation = args.installation
        where = installation.enterprise_name if installation.is_enterprise_install else installation.team_name
        logger.info("installed: enterprise=%s team=%s org_wide=%s", installation.enterprise_id,
                    installation.team_id, installation.is_enterprise_install)
        return _page(200, _("dpscale is installed"), _(
            "dpscale is now installed in {workspace}. Type {example} in any channel, or open dpscale's Home tab."
        ).format(workspace=html.escape(where or "Slack"), example="<code>/dpscale 64 2000 90%</code>"))

    def failed(args: FailureArgs) -> BoltResponse:
        logger.warning("installation refused: reason=%s", known_or_length(args.reason, INSTALL_FAILURES))
        if args.reason in ("invalid_state", "missing_state", "invalid_browser"):
            return _page(400, _("Installation link expired"), _(
                "This installation link has expired or was already used, or the installation was started in another "
                "browser. Please start again at {link}.").format(link=again))
        if args.reason == "access_denied":
            return _page(200, _("Installation canceled"), _(
                "dpscale was not installed. You can start again at {link} whenever you like.").format(link=again))
        return installation_failed_page(default)

    return CallbackOptions(success=installed, failure=failed)


def installation_failed_page(default: Locale) -> BoltResponse:
    """The page of an installation that did not complete, whether Slack or dpscale failed it: to try again."""
    _ = translations_for(default).gettext
    return _page(500, _("Installation failed"), _(
        "Slack didn't complete the installation. Please try again at {link} in a moment."
    ).format(link=f'<a href="{INSTALL_PATH}">{INSTALL_PATH}</a>'))


def _page(status: int, title: str, message: str) -> BoltResponse:
    body = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title></head>"
            f"<body><h1>{html.escape(title)}</h1><p>{message}</p></body></html>")
    return BoltResponse(status=status, body=body, headers={"Content-Type": "text/html; charset=utf-8"})
