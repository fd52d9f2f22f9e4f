"""Configuration: every problem named at once, secrets never shown."""

import re
from pathlib import Path

import pytest

from bot.processes import default_process_count
from bot.settings import SettingsError, load_settings

GOOD = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s3cr3t-value"}


def test_good_settings_load_with_defaults():
    settings = load_settings(GOOD)
    assert settings.port == 3000 and settings.dpscale_default_locale == "en-US" and not settings.socket_mode
    assert settings.slack_api_url == "https://slack.com/api/"
    assert settings.web_drain_timeout == 20.0  # a stopping process's bound, below the platforms' 30 s to SIGKILL
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
        ({**GOOD, "WEB_DRAIN_TIMEOUT": "0"}, ["WEB_DRAIN_TIMEOUT"]),
        ({**GOOD, "DPSCALE_FOLLOWUP_WINDOW": "5"}, ["DPSCALE_FOLLOWUP_WINDOW"]),
    ],
)
def test_every_problem_is_named_without_its_value(env, problems):
    with pytest.raises(SettingsError) as caught:
        load_settings(env)
    message = str(caught.value)
    for problem in problems:
        assert problem in message
    assert "xoxp-user" not in message and "s3cr3t-value" not in message


KEY, OTHER_KEY = "a2V5LW9mLXRoZS1zZXR0aW5ncy10ZXN0cy0tLS0tLS0=", "b3RoZXIta2V5LW9mLXRoZS1zZXR0aW5ncy10ZXN0cy0="
MULTI = {"SLACK_CLIENT_ID": "1111.2222", "SLACK_CLIENT_SECRET": "client-s3cret", "SLACK_SIGNING_SECRET": "s3cr3t-value",
         "DPSCALE_TOKEN_KEYS": KEY}


def test_the_follow_up_window_reaches_the_policy_and_defaults_to_two_minutes():
    assert load_settings(GOOD).followups.window == 120
    assert load_settings({**GOOD, "DPSCALE_FOLLOWUP_WINDOW": "20"}).followups.window == 20


def test_client_id_and_secret_select_multi_workspace_mode_with_the_scopes_the_manifests_ask_for():
    settings = load_settings(MULTI)
    assert settings.multi_workspace and settings.slack_bot_token is None
    manifest = (Path(__file__).resolve().parent.parent / "manifest-distribution.yaml").read_text()
    bot_scopes = re.findall(r"^      - ([a-z_:]+)$", manifest.split("bot:", 1)[1].split("settings:", 1)[0], re.M)
    assert settings.scopes == bot_scopes  # what the app asks for at install is what its manifest declares
    assert {"commands", "app_mentions:read", "chat:write", "users:read", "channels:history"} <= set(bot_scopes)
    assert "client-s3cret" not in repr(settings)
    assert not load_settings(GOOD).multi_workspace


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({**MULTI, "SLACK_BOT_TOKEN": "xoxb-1"}, "must not both be set"),
        ({"SLACK_CLIENT_ID": "1111.2222", "SLACK_SIGNING_SECRET": "s3cr3t-value"}, "must be set together"),
        ({**MULTI, "SLACK_APP_TOKEN": "xapp-1"}, "needs HTTP and SLACK_SIGNING_SECRET, not Socket Mode"),
        ({**GOOD, "DATABASE_URL": "dpscale.db"}, "DATABASE_URL must be a URL"),
        ({"SLACK_SIGNING_SECRET": "s3cr3t-value"}, "or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET"),
        ({**MULTI, "DPSCALE_TOKEN_KEYS": None}, "DPSCALE_TOKEN_KEYS is required in multi-workspace mode"),
        ({**MULTI, "DPSCALE_TOKEN_KEYS": " , "}, "DPSCALE_TOKEN_KEYS must hold at least one key"),
        ({**MULTI, "DPSCALE_TOKEN_KEYS": "not-a-key-s3cr3t"}, "DPSCALE_TOKEN_KEYS key 1 of 1 is not a Fernet key"),
        ({**MULTI, "DPSCALE_TOKEN_KEYS": f"{KEY},{KEY[:10]}!{KEY[10:]}"},  # a character base64 does not have
         "DPSCALE_TOKEN_KEYS key 2 of 2 is not a Fernet key"),
        ({**GOOD, "LOG_FORMAT": "xml"}, "LOG_FORMAT Input should be 'text' or 'json'"),
    ],
)
def test_each_mode_problem_is_named(env, problem):
    with pytest.raises(SettingsError) as caught:
        load_settings({key: value for key, value in env.items() if value is not None})
    assert problem in str(caught.value)
    assert len([line for line in str(caught.value).splitlines() if "DPSCALE_TOKEN_KEYS" in line]) <= 1
    for secret in ("client-s3cret", "s3cr3t", KEY[10:]):
        assert secret not in str(caught.value)


def test_token_keys_are_read_in_order_the_one_that_encrypts_first():
    assert load_settings({**MULTI, "DPSCALE_TOKEN_KEYS": f" {OTHER_KEY} ,{KEY}"}).token_keys == [OTHER_KEY, KEY]
    assert load_settings(GOOD).token_keys == []  # one workspace: its token is the setting, nothing is stored
    assert KEY not in repr(load_settings(MULTI))
    assert load_settings({**GOOD, "LOG_FORMAT": "JSON"}).log_format == "json"


@pytest.mark.parametrize(
    ("database_url", "cpus", "expected"),
    [
        (None, 8, 1),  # the default SQLite file: one process
        ("sqlite:////var/lib/dpscale.db", 8, 1),
        ("postgresql://dpscale@db/dpscale", 2, 2),  # shared database: one per core
        ("postgresql://dpscale@db/dpscale", 8, 8),
        ("postgres://dpscale@db/dpscale", 1, 1),
    ],
)
def test_one_process_per_core_only_with_a_shared_database(database_url, cpus, expected):
    env = {**GOOD, **({"DATABASE_URL": database_url} if database_url else {})}
    assert default_process_count(load_settings(env), cpus=cpus) == expected


def test_the_slack_clis_tokens_are_read_where_the_usual_names_are_unset():
    """`slack run` hands its start hook SLACK_CLI_XOXB and SLACK_CLI_XAPP; a token set in the shell or .env wins."""
    cli = {"SLACK_CLI_XOXB": "xoxb-cli", "SLACK_CLI_XAPP": "xapp-cli"}
    settings = load_settings(cli)
    assert settings.socket_mode and settings.slack_bot_token.get_secret_value() == "xoxb-cli"
    assert load_settings({**cli, "SLACK_BOT_TOKEN": "xoxb-own"}).slack_bot_token.get_secret_value() == "xoxb-own"
    assert load_settings({**cli, "SLACK_BOT_TOKEN": ""}).slack_bot_token.get_secret_value() == "xoxb-cli"


def test_an_empty_setting_is_unset_as_env_example_leaves_it():
    settings = load_settings({**GOOD, "SLACK_APP_TOKEN": "", "DATABASE_URL": "", "PORT": ""})
    assert not settings.socket_mode and settings.database_url is None and settings.port == 3000
    with pytest.raises(SettingsError, match="SLACK_BOT_TOKEN is required"):
        load_settings({**GOOD, "SLACK_BOT_TOKEN": ""})
