"""Configuration: every problem named at once, secrets never shown."""

import pytest

from bot.settings import SettingsError, load_settings

GOOD = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s3cr3t-value"}


def test_good_settings_load_with_defaults():
    settings = load_settings(GOOD)
    assert settings.port == 3000 and settings.dpscale_default_locale == "en-US" and not settings.socket_mode
    assert settings.slack_api_url == "https://slack.com/api/"
    assert "s3cr3t-value" not in repr(settings) and "xoxb-1" not in repr(settings)


def test_socket_mode_needs_no_signing_secret():
    assert load_settings({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}).socket_mode


def test_api_url_gets_its_trailing_slash():
    assert load_settings({**GOOD, "SLACK_API_URL": "http://127.0.0.1:9/api"}).slack_api_url == "http://127.0.0.1:9/api/"


@pytest.mark.parametrize(
    ("env", "problems"),
    [
        ({}, ["SLACK_BOT_TOKEN is required", "SLACK_SIGNING_SECRET is required unless SLACK_APP_TOKEN"]),
        ({**GOOD, "SLACK_BOT_TOKEN": "xoxp-user"}, ["SLACK_BOT_TOKEN must be a bot token starting with xoxb-"]),
        ({**GOOD, "SLACK_APP_TOKEN": "nope"}, ["SLACK_APP_TOKEN must be an app-level token"]),
        ({**GOOD, "PORT": "70000", "LOG_LEVEL": "LOUD"}, ["PORT", "LOG_LEVEL"]),
        ({**GOOD, "SLACK_API_URL": "slack.com"}, ["SLACK_API_URL must be an http(s) URL"]),
        ({**GOOD, "DPSCALE_DEFAULT_LOCALE": "klingon"}, ["DPSCALE_DEFAULT_LOCALE must be a locale tag"]),
        ({**GOOD, "DPSCALE_LOCALE_TIMEOUT": "9"}, ["DPSCALE_LOCALE_TIMEOUT"]),
    ],
)
def test_every_problem_is_named_without_its_value(env, problems):
    with pytest.raises(SettingsError) as caught:
        load_settings(env)
    message = str(caught.value)
    for problem in problems:
        assert problem in message
    assert "xoxp-user" not in message and "s3cr3t-value" not in message
