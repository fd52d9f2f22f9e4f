"""The log as an operator reads it: one line per event with its UTC time, nothing that drives a terminal, nothing
unauthenticated in full, and the same lines in JSON when LOG_FORMAT=json. Lines are written by the process's
real configuration (`configure_logging`) in a process of their own, as the server writes them."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from bot.log_lines import MAX_MESSAGE, OneLineFormatter, escape_controls, known_or_length
from bot.logs import logging_config
from bot.settings import load_settings

GOOD = {"SLACK_BOT_TOKEN": "xoxb-x", "SLACK_SIGNING_SECRET": "s"}
ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")

PROGRAM = """
import json, logging, sys
from bot.settings import load_settings
from bot.logs import configure_logging

configure_logging(load_settings({"SLACK_BOT_TOKEN": "xoxb-x", "SLACK_SIGNING_SECRET": "s", "LOG_FORMAT": sys.argv[1]}))
for text in json.load(sys.stdin):
    logging.getLogger("bot.requests").info("kind=command outcome=%s", text)
try:
    raise ValueError("several\\nlines\\x1b[2J")
except ValueError:
    logging.getLogger("bot.slack.failures").exception("listener failed")
logging.getLogger("bot.bolt").info("Invalid request signature detected (body: token=t&text=secret)")
logging.getLogger("gunicorn.error").info("Booting worker with pid: 42")
logging.getLogger("uvicorn.error").info("Started server process")
logging.getLogger("uvicorn.access").info('127.0.0.1 - "GET /slack/oauth_redirect?error=secret-query HTTP/1.1" 200')
logging.getLogger("gunicorn.access").info('"GET /slack/install?secret-query HTTP/1.1" 200')
"""


def logged(log_format: str, *texts: str) -> list[str]:
    """The lines a process configured with LOG_FORMAT=`log_format` writes for `texts` and a few records more."""
    done = subprocess.run([sys.executable, "-c", PROGRAM, log_format], input=json.dumps(texts), capture_output=True,
                          text=True, timeout=30, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    return done.stderr.splitlines()


CONTROLS = [
    ("\x1b[2J\x1b[31m", "\\x1b[2J\\x1b[31m"),  # ESC: clear the screen, turn red
    ("\x07", "\\x07"),  # BEL
    ("\x00", "\\x00"),
    ("\x7f", "\\x7f"),  # DEL
    ("\x9b2J", "\\x9b2J"),  # CSI, the one-character C1 form of ESC [
    ("\x85", "\\x85"),  # NEL, a C1 line break
    ("\u2028\u2029", "\\u2028\\u2029"),  # the Unicode line and paragraph separators
    ("\u202e", "\\u202e"),  # RIGHT-TO-LEFT OVERRIDE: shows what follows reversed
    ("\t\r\n", "\\t\\r\\n"),
]


@pytest.mark.parametrize(("control", "escaped"), CONTROLS)
def test_every_control_character_is_written_escaped(control, escaped):
    (line,) = [each for each in logged("text", f"a{control}b") if "bot.requests" in each]
    assert line.endswith(f"INFO bot.requests kind=command outcome=a{escaped}b")
    assert line.isprintable()


def test_a_traceback_is_one_line_with_its_control_characters_escaped():
    (line,) = [each for each in logged("text") if "bot.slack.failures" in each]
    assert "listener failed\\nTraceback" in line and "ValueError: several\\nlines\\x1b[2J" in line
    assert line.isprintable()


def test_every_text_line_opens_with_its_time_in_utc():
    before = datetime.now(UTC)
    lines = logged("text", "ok")
    for line in lines:
        stamp = ISO_UTC.match(line)
        assert stamp, line
        when = datetime.fromisoformat(stamp.group().replace("Z", "+00:00"))
        assert before - timedelta(seconds=1) <= when <= datetime.now(UTC) + timedelta(seconds=1)
    assert lines[0].split(" ", 1)[1] == "INFO bot.requests kind=command outcome=ok"


def test_json_lines_are_one_object_each_with_time_level_logger_and_message():
    lines = logged("json", "a\x1b[2Jb\u2028c")
    records = [json.loads(line) for line in lines]  # every line parses on its own
    for record in records:
        assert {"time", "level", "logger", "message"} <= set(record)
        assert ISO_UTC.fullmatch(record["time"])
    assert records[0] == {**records[0], "level": "INFO", "logger": "bot.requests",
                          "message": "kind=command outcome=a\x1b[2Jb\u2028c"}  # the value, escaped by JSON
    assert all(line.isascii() and line.isprintable() for line in lines)
    (failure,) = [record for record in records if record["logger"] == "bot.slack.failures"]
    assert failure["level"] == "ERROR" and "ValueError: several" in failure["exc_info"]
    assert {"level": "INFO", "logger": "bot.bolt", "message": "Invalid request signature detected"}.items() <= (
        records[2].items())  # libraries' details still withheld


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_servers_loggers_write_through_dpscales_handler_and_their_access_logs_stay_off(log_format):
    lines = logged(log_format)
    assert any("gunicorn.error" in line and "Booting worker" in line for line in lines)
    assert any("uvicorn.error" in line and "Started server process" in line for line in lines)
    assert not any("secret-query" in line for line in lines)  # request targets no one authenticated
    assert not any("secret" in line for line in lines)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_long_message_is_cut_and_its_length_told():
    (line,) = [each for each in logged("text", "x" * 60_000) if "bot.requests" in each]
    assert len(line) < MAX_MESSAGE + 100 and line.endswith("… (60021 chars)")  # "kind=command outcome=" and the 60,000


def test_an_unauthenticated_field_is_logged_by_its_code_or_its_length():
    known = {"access_denied"}
    assert known_or_length("access_denied", known) == "access_denied"
    assert known_or_length("x" * 60_000, known) == "other (60000 chars)"
    assert known_or_length("access_denied\x1b[2J", known) == "other (17 chars)"
    assert known_or_length(None, known) == "none"


def test_the_configuration_is_one_dictconfig_dict_for_any_process_manager():
    """gunicorn's `logconfig_dict` and uvicorn's `log_config` take this same dict."""
    config = logging_config(load_settings({**GOOD, "LOG_LEVEL": "debug", "LOG_FORMAT": "json"}))
    assert config["version"] == 1 and config["disable_existing_loggers"] is False
    assert config["root"] == {"level": "DEBUG", "handlers": ["dpscale"]}
    assert config["formatters"]["dpscale"]["log_format"] == "json"
    for name in ("gunicorn.error", "uvicorn.error", "uvicorn"):
        assert config["loggers"][name]["propagate"] is True
    assert config["loggers"]["uvicorn.access"]["level"] == "WARNING"


def test_the_text_formatter_escapes_a_record_it_is_handed_directly():
    record = logging.LogRecord("bot.x", logging.WARNING, __file__, 1, "%s", ("\x1b]0;title\x07",), None)
    line = OneLineFormatter().format(record)
    assert line.endswith("WARNING bot.x \\x1b]0;title\\x07") and ISO_UTC.match(line)
    assert escape_controls("plain line") == "plain line"
