"""The figures a result shows: rounded as its readers round (a half up: 78.125 % is 78.13 %), and a worked formula
whose every line multiplies out as shown (a solved 0.78125 is not cut to 0.7812, which made 64 × 0.7812 = 50×)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from bot.engine import answer
from bot.model.calculator import Quantity
from bot.reader.numbers import number_style, resolve_locale, write_number, write_percent
from bot.reader.recipient import Recipient
from bot.replies import render_plain_text
from bot.replies.guide import target_key
from bot.replies.wording import wording_for

TAGS = ["en-US", "en-GB", "de-DE", "es-ES", "es-LA", "fr-FR", "it-IT", "ja-JP", "ko-KR", "pt-BR", "zh-CN", "zh-TW"]


@pytest.mark.parametrize(("value", "digits", "written"), [
    ("78.125", 2, "78.13"), ("0.125", 2, "0.13"), ("2.5", 0, "3"), ("-2.5", 0, "-3"), ("1.005", 2, "1.01"),
    ("115200.125", 2, "115,200.13"), ("0.0000125", 6, "0.000013"), ("9999.995", 2, "10,000"), ("78.124999", 2, "78.12"),
])
def test_a_half_is_rounded_up_as_readers_round_it(value, digits, written):
    """Decimal's context rounds a half to the even digit (78.125 → 78.12); readers and spreadsheets round it up."""
    assert write_number(Decimal(value), number_style(resolve_locale("en-US")), digits) == written


def test_a_percentage_rounds_a_half_up_in_every_format():
    assert [write_percent(Decimal("0.78125"), number_style(resolve_locale(tag))) for tag in ("en-US", "de-DE", "fr-FR")
            ] == ["78.13%", "78,13\u00a0%", "78,13\u00a0%"]


def formula_of(text: str, tag: str) -> list[str]:
    """The worked formula's lines, as plain text."""
    shown = render_plain_text(answer(text, resolve_locale(tag)))
    return [line for line in shown.splitlines() if re.match(r"^[IAESvd] = ", line)]


@pytest.mark.parametrize("tag", TAGS)
def test_a_solved_efficiency_is_worked_with_every_digit_and_its_percentage_rounded_half_up(tag):
    """`64 2000 actual=100000`: E is exactly 0.78125. The formula shows 0.78125, so that S = 64 × 0.78125 = 50×
    multiplies as shown, and the percentage beside it is 78.13 %, as a reader rounds 78.125 %, in every catalog."""
    style = number_style(resolve_locale(tag))
    exact, rounded = "0" + style.decimal + "78125", "78" + style.decimal + "13"
    lines = formula_of("64 2000 actual=100000", tag)
    assert any(line.startswith("E = A / I = ") and f"= {exact} (" in line and rounded in line for line in lines), lines
    assert f"S = d · E = 64 × {exact} = 50" in "\n".join(lines), lines
    shown = render_plain_text(answer("64 2000 actual=100000", resolve_locale(tag)))
    assert "78" + style.decimal + "12" not in shown, shown


def product_holds(line: str, exact: bool) -> bool:
    """Whether `x = a × b = c` (en-US figures) multiplies out: exactly where every value has so few digits that it
    is shown whole, else the product of the shown factors rounded as c is written."""
    match = re.search(r"= ([\d,.]+) × ([\d,.]+) = ([\d,.]+)×?$", line)
    assert match, line
    a, b, c = (Decimal(group.replace(",", "")) for group in match.groups())
    if exact:
        return a * b == c
    places = Decimal(1).scaleb(c.as_tuple().exponent)  # type: ignore[arg-type]
    return (a * b).quantize(places) == c


@pytest.mark.parametrize(("text", "exact"), [
    ("64 2000 actual=100000", True), ("64 2000 actual=115200", True), ("64 1234.567 90%", True),
    ("64 2000 12.345678%", True), ("8 1000 actual=7000", True), ("devices=64 efficiency=90% actual=115200", True),
    ("throughput=2000 efficiency=90% actual=1M", True),
    ("3 2000 actual=5000", False), ("64 2000 actual=100000.1", False), ("200000 2000 actual=312500000.3", False),
    ("devices=64 efficiency=90% actual=100000", False),
])
def test_every_line_of_the_worked_formula_multiplies_as_shown(text, exact):
    """A product line shows its factors as they are used: a solved value with the digits that make it exact where it
    has so few (64 × 0.78125 = 50, where 64 × 0.7812 was shown as 50), and where a factor had to be rounded, the
    product is never shown more precisely than the rounded factor allows (64 × 0.7813 = 50×, not 50.00005×)."""
    lines = [line for line in formula_of(text, "en-US") if "×" in line and "⌈" not in line and "(" not in line]
    assert lines
    assert [line for line in lines if not product_holds(line, exact)] == []


@pytest.mark.parametrize(("text", "efficiency", "loss"), [
    ("64 2000 actual=100000", "78.13%", "21.87%"),  # each rounded on its own: 78.13 % and 21.88 %
    ("3 1000 actual=1000", "33.33%", "66.67%"),
    ("8 1000 12.345%", "12.3450%", "87.6550%"),
    ("64 2000 0.4%", "0.4%", "99.6%"),
    ("64 2000 99.995%", "99.9950%", "0.005%"),
    ("64 2000 90%", "90%", "10%"),
    ("64 2000 actual=127999", "100%", "0.00078%"),  # shown as 100 %, a loss of 1 sample/s is still no 0 %
])
def test_the_efficiency_and_the_loss_add_up_to_a_hundred_percent_as_shown(text, efficiency, loss):
    shown = render_plain_text(answer(text, resolve_locale("en-US")))
    assert f"Scaling efficiency{' (calculated)' if 'actual' in text else ''}: {efficiency}" in shown
    assert f"({loss} of ideal)" in shown
    assert Decimal(efficiency.rstrip("%")) + Decimal(loss.rstrip("%")) == 100 or efficiency == "100%"


@pytest.mark.parametrize("tag", TAGS)
def test_an_efficiency_solved_for_a_target_is_the_one_needed_and_a_measured_one_is_measured(tag):
    """`target=7000` (`ziel=`, `cible=`, `目标=`) asks what it takes: the efficiency needed, with no advice to measure
    again; `actual=7000` (`ist=`, `実効=`) is a measurement."""
    words = wording_for(Recipient.parse(tag))
    D, V, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.ACTUAL
    needed = words.gettext("Scaling efficiency needed: {efficiency}").format(efficiency=words.percent(Decimal("0.875")))
    measured = words.gettext("Measured scaling efficiency: {efficiency}").format(
        efficiency=words.percent(Decimal("0.875")))
    advice = words.ngettext(
        ":information_source: This efficiency holds for {devices} device. It usually drops as devices are "
        "added, so measure again at other sizes.",
        ":information_source: This efficiency holds for {devices} devices. It usually drops as devices are "
        "added, so measure again at other sizes.", 8).format(devices="8").split(" ", 1)[1]  # as plain text shows it
    given = f"{words.key(D)}8 {words.key(V)}1000 "
    aimed = render_plain_text(answer(f"{given}{target_key(words)}7000", resolve_locale(tag)))
    taken = render_plain_text(answer(f"{given}{words.key(A)}7000", resolve_locale(tag)))
    assert needed != measured and aimed.splitlines()[0] == needed and advice not in aimed
    assert taken.splitlines()[0] == measured and advice in taken
