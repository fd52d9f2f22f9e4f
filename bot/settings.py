"""Configuration from the environment, validated once at start-up and passed in from there on."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.errors import UserInputError
from bot.keys import parse_keys
from bot.policy import API_TIMEOUT, LANDING_WAIT, MIN_LEASE, FollowUpPolicy, Limits, Pacing
from bot.reader.numbers import resolve_locale

SLACK_API_URL = "https://slack.com/api/"
MODE_PROBLEM = "SLACK_SIGNING_SECRET is required unless SLACK_APP_TOKEN selects Socket Mode"
TOKEN_PROBLEM = ("SLACK_BOT_TOKEN is required (one workspace), or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET "
                 "(any workspace that installs the app)")
BOTH_MODES_PROBLEM = ("SLACK_BOT_TOKEN and SLACK_CLIENT_ID/SLACK_CLIENT_SECRET must not both be set: "
                      "choose one workspace or many")
OAUTH_PAIR_PROBLEM = "SLACK_CLIENT_ID and SLACK_CLIENT_SECRET must be set together"
TOKEN_KEYS_PROBLEM = ("DPSCALE_TOKEN_KEYS is required in multi-workspace mode (SLACK_CLIENT_ID): installations' "
                      "tokens are stored encrypted with it (generate a key with `python -m bot.store new-key`)")
OAUTH_SOCKET_PROBLEM = "multi-workspace mode (SLACK_CLIENT_ID) needs HTTP and SLACK_SIGNING_SECRET, not Socket Mode"
# what the Slack CLI's start hook (`slack run`) is handed: the development app's tokens, read where the usual
# names are unset (a token set in the shell or in .env wins, as the CLI itself prefers it)
CLI_TOKENS = {"SLACK_BOT_TOKEN": "SLACK_CLI_XOXB", "SLACK_APP_TOKEN": "SLACK_CLI_XAPP"}
# The least a reply needs: the command, mentions, posting replies, and each user's locale.
# the history scopes let dpscale look in the thread it answers whether an answer whose post timed out, or whose
# process died while posting, landed after all (bot/slack/threads.py): without them it never posts an answer twice,
# but may lose one; files:write uploads a series' chart (bot/slack/charts.py), shown as an image in the reply, and
# a workspace installed without it gets the table with one line saying why there is no chart
DEFAULT_SCOPES = ("commands,app_mentions:read,chat:write,users:read,files:write,"
                  "channels:history,groups:history,im:history,mpim:history")


class Settings(BaseSettings):
    """Everything the app reads from its environment. Secrets stay `SecretStr`: never logged, never shown."""

    # `SLACK_APP_TOKEN=` (as .env.example leaves it) is unset, not a malformed token
    model_config = SettingsConfigDict(extra="ignore", frozen=True, env_ignore_empty=True)

    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = SLACK_API_URL
    # the address to listen on: every interface by default; 127.0.0.1 keeps the app behind a local proxy
    host: str = Field(default="0.0.0.0", min_length=1, max_length=253, pattern=r"^[0-9A-Za-z.:\-]+$")
    port: int = Field(default=3000, ge=1, le=65535)
    web_threads: int = Field(default=128, ge=1, le=256)  # a burst of new users waits on its lookups in them
    web_concurrency: int | None = Field(default=None, ge=1, le=64)  # processes; unset: bot.processes decides
    # seconds a stopping process (SIGTERM, SIGINT) gives the requests it has received, and the work they left,
    # to finish: below the platform's wait before SIGKILL (30 s on Heroku, Render and Kubernetes by default)
    web_drain_timeout: float = Field(default=20.0, gt=0, le=600)
    # follow-up work: how long a process holds a piece it works on before another may take it up (it died, say),
    # and how often every process deletes what has expired (handled events, answers' whereabouts, OAuth states)
    dpscale_followup_lease: float = Field(default=30.0, le=120)
    # how long after its acknowledgement a mention's answer (or other follow-up) is still posted: past it, a process
    # that finds the work undone (after a crash, an outage) posts the apology instead
    dpscale_followup_window: float = Field(default=120.0, ge=15, le=3600)
    dpscale_expiry_interval: float = Field(default=60.0, ge=0.5, le=3600)
    dpscale_default_locale: str = "en-US"
    dpscale_locale_timeout: float = Field(default=1.5, gt=0, le=2.5)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # where installations, preferences and handled events are kept: unset means the SQLite file
    # dpscale.sqlite3 in the working directory; postgresql://user:password@host/db for several processes or hosts
    database_url: str | None = None
    # multi-workspace mode (Bolt's OAuth flow): set both instead of SLACK_BOT_TOKEN
    slack_client_id: str | None = None
    slack_client_secret: SecretStr | None = None
    slack_scopes: str = DEFAULT_SCOPES
    slack_redirect_uri: str | None = None
    slack_install_url: str = "https://slack.com/oauth/v2/authorize"
    slack_state_expiration_seconds: int = Field(default=600, ge=60, le=3600)
    # Fernet keys, comma-separated, that stored Slack tokens are encrypted with: the first encrypts, every one
    # decrypts (key rotation: README, "What is stored"); required in multi-workspace mode
    dpscale_token_keys: SecretStr | None = None
    # how each log line is written: `text` (time, level, logger, message) or `json` (one object per line)
    log_format: Literal["text", "json"] = "text"

    @field_validator("slack_bot_token")
    @classmethod
    def _bot_token_shape(cls, token: SecretStr | None) -> SecretStr | None:
        if token is not None and not token.get_secret_value().startswith("xoxb-"):
            raise ValueError("must be a bot token starting with xoxb-")
        return token

    @field_validator("slack_app_token")
    @classmethod
    def _app_token_shape(cls, token: SecretStr | None) -> SecretStr | None:
        if token is not None and not token.get_secret_value().startswith("xapp-"):
            raise ValueError("must be an app-level token starting with xapp-")
        return token

    @field_validator("slack_api_url")
    @classmethod
    def _api_url_shape(cls, url: str) -> str:
        if not url.startswith(("http://", "https://")):
            raise ValueError("must be an http(s) URL such as https://slack.com/api/")
        return url if url.endswith("/") else url + "/"

    @field_validator("dpscale_default_locale")
    @classmethod
    def _known_locale(cls, tag: str) -> str:
        try:
            resolve_locale(tag)
        except UserInputError:
            raise ValueError("must be a locale tag such as en-US or de-DE") from None
        return tag

    @field_validator("dpscale_followup_lease")
    @classmethod
    def _lease_fits_a_post(cls, lease: float) -> float:
        if lease < MIN_LEASE:
            raise ValueError(f"must be at least {MIN_LEASE:g} s: a post may take {API_TIMEOUT:g} s and is then "
                             f"given {LANDING_WAIT:g} s to land, so a shorter lease lets another process post it again")
        return lease

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, level: object) -> object:
        return level.upper() if isinstance(level, str) else level

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, name: object) -> object:
        return name.strip().lower() if isinstance(name, str) else name

    @field_validator("dpscale_token_keys")
    @classmethod
    def _token_keys_shape(cls, keys: SecretStr | None) -> SecretStr | None:
        if keys is not None:
            parse_keys(keys.get_secret_value())
        return keys

    @field_validator("database_url")
    @classmethod
    def _database_url_shape(cls, url: str | None) -> str | None:
        if url and "://" not in url:
            raise ValueError("must be a URL such as postgresql://user:password@host/dpscale or sqlite:///dpscale.db")
        return url or None

    @model_validator(mode="after")
    def _one_mode(self) -> Settings:
        problems = []
        if self.slack_app_token is None and self.slack_signing_secret is None:
            problems.append(MODE_PROBLEM)
        if (self.slack_client_id is None) != (self.slack_client_secret is None):
            problems.append(OAUTH_PAIR_PROBLEM)
        elif self.multi_workspace and self.slack_bot_token is not None:
            problems.append(BOTH_MODES_PROBLEM)
        elif self.multi_workspace and self.socket_mode:
            problems.append(OAUTH_SOCKET_PROBLEM)
        if self.multi_workspace and self.dpscale_token_keys is None:
            problems.append(TOKEN_KEYS_PROBLEM)
        if self.slack_bot_token is None and self.slack_client_id is None and self.slack_client_secret is None:
            problems.append(TOKEN_PROBLEM)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def socket_mode(self) -> bool:
        return self.slack_app_token is not None

    @property
    def multi_workspace(self) -> bool:
        """Installable by any workspace through OAuth, rather than serving the one SLACK_BOT_TOKEN belongs to."""
        return self.slack_client_id is not None and self.slack_client_secret is not None

    @property
    def token_keys(self) -> list[str]:
        """The Fernet keys of DPSCALE_TOKEN_KEYS, the one that encrypts first; none where it is not set."""
        return parse_keys(self.dpscale_token_keys.get_secret_value()) if self.dpscale_token_keys else []

    @property
    def followups(self) -> FollowUpPolicy:
        """The follow-up work's policy, from DPSCALE_FOLLOWUP_LEASE, DPSCALE_FOLLOWUP_WINDOW and
        DPSCALE_EXPIRY_INTERVAL."""
        return FollowUpPolicy(lease=self.dpscale_followup_lease, expire_every=self.dpscale_expiry_interval,
                              window=self.dpscale_followup_window)

    @property
    def limits(self) -> Limits:
        """What an HTTP connection may take of a worker process: the defaults of `Limits`, none of them a setting."""
        return Limits()

    @property
    def pacing(self) -> Pacing:
        """When a worker process does what no request waits for: the defaults of `Pacing`, none of them a setting."""
        return Pacing()

    @property
    def scopes(self) -> list[str]:
        return [scope.strip() for scope in self.slack_scopes.split(",") if scope.strip()]


class SettingsError(Exception):
    """Start-up cannot go on; `problems` lists each one, without any value that was given."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems

    def __str__(self) -> str:
        return "dpscale cannot start; fix these settings:\n" + "\n".join(f"  - {p}" for p in self.problems)


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Read the environment; problems raise one SettingsError naming each variable (its value never shown)."""
    env = os.environ if environ is None else environ
    from_cli = {name.lower(): env[cli] for name, cli in CLI_TOKENS.items() if not env.get(name) and env.get(cli)}
    names = {key.lower() for key, value in env.items() if value != ""} | set(from_cli)
    try:
        if environ is None:
            return Settings(**from_cli)  # type: ignore[arg-type]
        given = {key.lower(): value for key, value in env.items() if value != ""}
        return Settings.model_validate({**given, **from_cli})
    except ValidationError as exc:
        problems = [part for error in exc.errors() for part in _describe(error).split("; ")]
        if not {"slack_signing_secret", "slack_app_token"} & names and MODE_PROBLEM not in problems:
            problems.append(MODE_PROBLEM)
        if not {"slack_bot_token", "slack_client_id", "slack_client_secret"} & names and TOKEN_PROBLEM not in problems:
            problems.append(TOKEN_PROBLEM)
        raise SettingsError(problems) from None


def _describe(error: ErrorDetails) -> str:
    name = "_".join(str(part) for part in error["loc"]).upper()
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "missing":
        message = "is required"
    return f"{name} {message}" if name else message
