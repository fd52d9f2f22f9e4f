"""The offline command-line tool prints the same reply the bot sends."""

import json
import subprocess
import sys

from bot.cli import main


def test_cli_prints_the_result_in_the_requested_locale(capsys):
    assert main(["64 2.000 90 %", "--locale", "de-DE"]) == 0
    out = capsys.readouterr().out
    assert "115.200 Samples/s" in out and "57,6×" in out


def test_cli_json_is_the_block_kit_payload(capsys):
    assert main(["64", "2000", "90%", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["blocks"][0]["type"] == "header"
    assert "115,200" in payload["text"]


def test_cli_user_error_goes_to_stderr_with_exit_2(capsys):
    assert main(["64 2000 150%"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "150%" in captured.err


def test_cli_unknown_locale_is_a_user_error(capsys):
    assert main(["64 2000 90%", "--locale", "xx-YY"]) == 2
    assert "xx-YY is not a language I know" in capsys.readouterr().err


def test_console_script_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "bot.cli", "64 2000 90%"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "Actual throughput: 115,200 samples/s" in done.stdout


def test_cli_with_an_unknown_locale_asks_about_numbers_slack_locales_read_differently(capsys):
    assert main(["64 2.000 90 %", "--locale", "unknown"]) == 2
    err = capsys.readouterr().err
    assert "Write it as 2 or 2000" in err and "Slack did not tell me your number format in time" in err
    assert main(["64 2000 90 %", "--locale", "unknown"]) == 0
    assert "115\u202f200 samples/s" in capsys.readouterr().out


def test_cli_in_a_known_locale_asks_when_another_slack_locale_reads_a_thousand_times_more(capsys):
    assert main(["64 2.000 90%", "--locale", "en-US"]) == 2
    assert "Write it as 2 or 2000" in capsys.readouterr().err
    assert main(["64 1,00,000 90%", "--locale", "en-IN"]) == 0
    assert "57.6×" in capsys.readouterr().out
