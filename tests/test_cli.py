"""The offline command-line tool prints the same reply the bot sends."""

import json
import re
import subprocess
import sys

import pytest

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
    assert "xx-YY is not a language I recognize" in capsys.readouterr().err


def test_console_script_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "bot.cli", "64 2000 90%"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "Actual throughput: 115,200 samples/s" in done.stdout


def test_cli_with_an_unknown_locale_asks_about_numbers_slack_locales_read_differently(capsys):
    assert main(["64 2.000 90 %", "--locale", "unknown"]) == 2
    err = capsys.readouterr().err
    assert "Write 2 or 2000 instead" in err and "Slack hasn't told me your number format yet" in err
    assert main(["64 2000 90 %", "--locale", "unknown"]) == 0
    assert "115\u202f200 samples/s" in capsys.readouterr().out


def test_cli_in_a_known_locale_asks_when_another_slack_locale_reads_a_thousand_times_more(capsys):
    assert main(["64 2.000 90%", "--locale", "en-US"]) == 2
    assert "Write 2 or 2000 instead" in capsys.readouterr().err
    assert main(["64 1,00,000 90%", "--locale", "en-IN"]) == 0
    assert "57.6×" in capsys.readouterr().out


MARKUP = re.compile(r"(?<![\w:]):[a-z][a-z0-9_+'-]*:(?![\w:])|[*`]|&(?:lt|gt|amp);|<[@#!]?[A-Za-z]")


@pytest.mark.parametrize(("text", "locale"), [
    ("64 2000 90%", "en-US"),  # the result: bold figures, the limits' :warning:, the formula in a code block
    ("help", "de-DE"),  # the help: bold headings, code examples
    ("64 2.000 90 %", "unknown"),  # a question, with its :warning: and code spans
    ("64 2000 150%", "fr-FR"),  # a broken rule
    ("format=de-DE", "ja-JP"),  # the help in a chosen format
])
def test_cli_shows_slack_markup_as_plain_text(capsys, text, locale):
    """No raw `:emoji:`, `*bold*`, code backticks, links or escapes reach the terminal."""
    main([text, "--locale", locale])
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert len(shown) > 100 and not MARKUP.findall(shown), MARKUP.findall(shown)


def test_cli_shows_an_unknown_word_as_slack_shows_it(capsys):
    """`64 * 2000 @ 90%`: Slack shows the `*` in its code span, and so does the terminal."""
    assert main(["64 * 2000 @ 90%"]) == 2
    assert "I don't recognize *" in capsys.readouterr().err


def test_cli_shows_emoji_as_emoji(capsys):
    assert main(["64 2000 90%"]) == 0
    assert "⚠️ Limits." in capsys.readouterr().out


@pytest.mark.parametrize(("text", "expected"), [
    ("format=de-DE 64 2.000 90 %", "115.200 samples/s"),  # English words, German numbers, for this run
    ("64 2.000,5 90% format=de-DE", "115.228,8 samples/s"),
    ("format=slack 64 2,000 90%", "115,200 samples/s"),  # the locale's own format
])
def test_cli_reads_a_format_word_for_that_run(capsys, text, expected):
    assert main([text]) == 0
    assert expected in capsys.readouterr().out


def test_cli_names_an_unknown_format(capsys):
    assert main(["format=xx-nowhere 64 2000 90%"]) == 2
    assert "I don't recognize the number format xx-nowhere" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "locale"), [("64 2000 150%", "en-US"), ("64 abc", "de-DE"), ("help", "ja-JP")])
def test_cli_writes_the_command_as_a_terminal_takes_it_not_as_slacks(capsys, text, locale):
    main([text, "--locale", locale])
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert "/dpscale" not in shown and "dpscale 64" in shown


def test_cli_json_keeps_the_payload_slack_gets(capsys):
    assert main(["64 2000 150%", "--json"]) == 2
    assert "/dpscale 64" in capsys.readouterr().err


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_cli_says_its_version():
    done = subprocess.run([sys.executable, "-m", "bot.cli", "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and re.fullmatch(r"dpscale \d+\.\d+\.\d+\S*\n", done.stdout), done.stdout


def test_cli_writes_the_series_chart_the_slack_app_uploads(tmp_path, capsys):
    """`--chart FILE`: the same PNG bot.replies.chart draws for the Slack reply, forecast included; the reply as
    usual."""
    from decimal import Decimal

    from bot.model.forecast import forecast
    from bot.model.series import analyse
    from bot.replies.chart import chart_png
    from bot.replies.wording import wording_for

    path = tmp_path / "scaling.png"
    assert main(["v=2000 8=15800 16=31000 64=115200 at=128", "--chart", str(path), "--locale", "de-DE"]) == 0
    assert "Skalierungseffizienz" in capsys.readouterr().out
    series = analyse(Decimal(2000), [(Decimal(8), Decimal(15800)), (Decimal(16), Decimal(31000)),
                                     (Decimal(64), Decimal(115200))])
    from bot.reader.numbers import resolve_locale
    assert path.read_bytes() == chart_png(series, wording_for(resolve_locale("de-DE")), forecast(series, 128))


def test_cli_chart_of_anything_but_a_series_writes_nothing_and_says_why(tmp_path, capsys):
    path = tmp_path / "scaling.png"
    assert main(["64 2000 90%", "--chart", str(path)]) == 2
    assert not path.exists()
    assert "Only a measurement series has a chart" in capsys.readouterr().err
