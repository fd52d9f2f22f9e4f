"""Configuration from the environment, validated once at start-up and passed in from there on."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.errors import UserInputError
from bot.numbers import resolve_locale

SLACK_API_URL = "https://slack.com/api/"
MODE_PROBLEM = "SLACK_SIGNING_SECRET is required unless SLACK_APP_TOKEN selects Socket Mode"


class Settings(BaseSettings):
    """Everything the app reads from its environment. Secrets stay `SecretStr`: never logged, never shown."""

    model_config = SettingsConfigDict(extra="ignore", frozen=True)

    slack_bot_token: SecretStr
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = SLACK_API_URL
    port: int = Field(default=3000, ge=1, le=65535)
    web_threads: int = Field(default=16, ge=1, le=256)
    dpscale_default_locale: str = "en-US"
    dpscale_locale_timeout: float = Field(default=1.5, gt=0, le=2.5)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("slack_bot_token")
    @classmethod
    def _bot_token_shape(cls, token: SecretStr) -> SecretStr:
        if not token.get_secret_value().startswith("xoxb-"):
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

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, level: object) -> object:
        return level.upper() if isinstance(level, str) else level

    @model_validator(mode="after")
    def _http_mode_needs_a_secret(self) -> Settings:
        if self.slack_app_token is None and self.slack_signing_secret is None:
            raise ValueError(MODE_PROBLEM)
        return self

    @property
    def socket_mode(self) -> bool:
        return self.slack_app_token is not None


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
    names = {key.lower() for key in env}
    try:
        if environ is None:
            return Settings()  # type: ignore[call-arg]
        return Settings.model_validate({key.lower(): value for key, value in env.items()})
    except ValidationError as exc:
        problems = [_describe(error) for error in exc.errors()]
        if not {"slack_signing_secret", "slack_app_token"} & names and MODE_PROBLEM not in problems:
            problems.append(MODE_PROBLEM)
        raise SettingsError(problems) from None


def _describe(error: ErrorDetails) -> str:
    name = "_".join(str(part) for part in error["loc"]).upper()
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "missing":
        message = "is required"
    return f"{name} {message}" if name else message
