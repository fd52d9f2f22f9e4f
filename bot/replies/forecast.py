"""The forecast under a series' table (`at=128`): both models' predicted speedups and throughputs as ranges, how
closely each fits the measurements, which one the measured trend of e supports, when the forecast is weak, and
what no forecast of this kind knows, said to be interpolated between sizes measured or extrapolated beyond them.
Never one number as if it were measured, never above the ideal (`bot.model.forecast`); and at a size that was
measured, the measurement, not a forecast.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from bot.model.forecast import Fit, Forecast, Model, Weakness, as_decimal, forecast
from bot.model.series import Point, SerialTrend, Series, decimal
from bot.replies.blocks import Block, context, section
from bot.replies.wording import Wording

__all__ = ["forecast_blocks"]

SIGNIFICANT = 3  # digits a forecast is written with: no more than a fit over a few points can say
CLOSE = Decimal("0.00005")  # a miss that a percentage of two decimals writes as 0 %: the fit passes through


def forecast_blocks(series: Series, size: int, words: Wording) -> list[Block]:
    """The forecast for `size` devices and its limits, in the reader's words: interpolated between two sizes
    measured, else extrapolated; where `size` was measured, its measurement instead."""
    _ = words.gettext
    measured = next((point for point in series.points if point.devices == size), None)
    if measured is not None:
        return [section(_measured(measured, words))]
    cast = forecast(series, size)
    devices = words.number(Decimal(cast.devices), 0)
    between = series.points[0].devices < size < series.points[-1].devices
    lines = [(_("*Forecast for {devices} devices* (not measured: interpolated between the sizes above)") if between
              else _("*Forecast for {devices} devices* (not measured: extrapolated from the sizes above)")).format(
        devices=devices)]
    models = [_model_line(fit, series.throughput, words) for fit in (cast.constant, cast.trend)]
    lines += [line for line, _ranged in models]
    lines.append(_supported(series.trend.serial, words))
    lines += [":warning: " + _weakness(reason, cast, words) for reason in cast.weak]
    limits = _(
        "A forecast follows the measured trend of e between the sizes you measured, and accounts for nothing else: "
        "not an interconnect that saturates (a link or a switch at capacity), not a change of batch size, not "
        "another topology (more nodes, another network)."
    ) if between else _(
        "A forecast extends the measured trend of e to a size you did not measure, and accounts for nothing else: "
        "not an interconnect that saturates (a link or a switch at capacity), not a change of batch size, not "
        "another topology (more nodes, another network)."
    )
    ranged = any(shows_range for _line, shows_range in models)
    spread = _("Each range spans the model fitted to every measurement and refitted with any one of them left out; "
               "the percentage after it is the fit's largest miss at a size you measured.")
    return [section("\n".join(lines)), context([limits, *([spread] if ranged else [])])]


def _measured(point: Point, words: Wording) -> str:
    """A size asked for that was measured: its row of the table, said in a sentence, and no forecast."""
    heading = words.gettext("*{devices} devices: measured, not forecast*").format(
        devices=words.number(Decimal(point.devices), 0))
    return heading + "\n" + words.fill(words.gettext(
        "The table above gives {throughput} at this size, a speedup of {speedup}, and an efficiency of "
        "{efficiency}; a forecast is made only for a size you did not measure."),
        throughput=words.rate(words.number(decimal(point.actual))),
        speedup=words.times(words.number(decimal(point.speedup))), efficiency=words.percent(decimal(point.efficiency)))


def _model_line(fit: Fit, single: Fraction, words: Wording) -> tuple[str, bool]:
    """A model's line of the forecast, and whether it shows a range (which the note under it then explains)."""
    _ = words.gettext
    throughputs = fit.throughputs(single)
    if fit.speedups is None or throughputs is None:  # the trend, with e above zero at fewer than two sizes
        return "• " + _("Serial fraction following the measured trend: not fitted, as e is above zero at fewer "
                        "than two of the sizes measured."), False
    if fit.model is Model.CONSTANT:
        name = _("Constant serial fraction (e = {e})").format(e=_written(fit.parameters[0], words))
    else:  # in a formula, a minus is the sign −, as in `(d − 1)^−1`, not the hyphen CLDR gives English numbers
        c, q = fit.parameters
        name = _("Serial fraction following the measured trend (e = {c} · (d − 1)^{q})").format(
            c=_written(c, words), q=("−" if q < 0 else "") + _written(abs(q), words))
    residual = words.percent(_rounded(fit.residual), 2)
    low, high = (words.number(_rounded(s)) for s in fit.speedups)
    a_low, a_high = (words.number(_rounded(a), 0) for a in throughputs)
    if low == high:  # a fit with no measurement to spare: no spread to show, and still not a measurement
        if _rounded(fit.residual) < CLOSE:  # through every point, as any such fit is: no margin to state (`0%`)
            return "• " + words.fill(_("{model}: speedup about {speedup}, about {throughput}."), model=name,
                                     speedup=words.times(high), throughput=words.rate(a_high)), False
        return "• " + words.fill(_("{model}: speedup about {speedup}, about {throughput}; it fits the measurements "
                                   "to within {residual}."), model=name, speedup=words.times(high),
                                 throughput=words.rate(a_high), residual=residual), False
    # a range's unit on its upper bound alone where the language writes it so: `102〜104倍`, `204,000〜209,000サンプル/秒`
    return "• " + words.fill(_("{model}: speedup {low} to {high}, {throughput_low} to {throughput_high}; it fits the "
                               "measurements to within {residual}."),
        model=name, low=words.times_from(low), high=words.times(high), throughput_low=a_low,
        throughput_high=words.rate(a_high), residual=residual), True


def _supported(trend: SerialTrend, words: Wording) -> str:
    """Which model the measured course of e supports (`bot.model.forecast.SUPPORTED`), and why."""
    _ = words.gettext
    if trend is SerialTrend.NONE:
        return _("Nothing in these measurements limits the speedup: the trend supports the constant serial "
                 "fraction, which is zero or close to it.")
    if trend is SerialTrend.FLAT:
        return _("The measured e stays about the same from size to size, as it does when the overhead grows in "
                 "proportion to the cluster: the trend supports the constant serial fraction.")
    if trend is SerialTrend.RISING:
        return _("The measured e rises as the cluster grows: the trend supports the serial fraction following it, "
                 "not a constant one.")
    if trend is SerialTrend.SHRINKING:
        return _("Efficiency rises as the cluster grows, which cannot go on for long: take this forecast as no more "
                 "than a rough guess.")
    return _("The measured e falls as the cluster grows: the trend supports the serial fraction following it, not "
             "a constant one.")


def _weakness(reason: Weakness, cast: Forecast, words: Wording) -> str:
    _ = words.gettext
    if reason is Weakness.FEW_SIZES:
        return _("This forecast is unreliable: with two sizes measured, any two-parameter model fits them exactly; "
                 "measure three or more to tell the models apart.")
    ratio = Fraction(cast.devices, cast.largest)
    shown = _ratio(ratio)
    written = words.number(shown, 1)
    values = {"devices": words.number(Decimal(cast.devices), 0), "ratio": written,
              "largest": words.number(Decimal(cast.largest), 0)}
    if Fraction(shown) == ratio:  # 4,096 devices is 64 times the largest size measured (64)
        return words.ngettext(
            "This forecast is unreliable: {devices} devices is {ratio} time the largest size measured ({largest}), "
            "and small errors in e grow large that far out.",
            "This forecast is unreliable: {devices} devices is {ratio} times the largest size measured ({largest}), "
            "and small errors in e grow large that far out.", words.plural_count(written)).format(**values)
    return words.ngettext(  # 300 devices is about 4.7 times the largest size measured (64)
        "This forecast is unreliable: {devices} devices is about {ratio} time the largest size measured ({largest}), "
        "and small errors in e grow large that far out.",
        "This forecast is unreliable: {devices} devices is about {ratio} times the largest size measured ({largest}), "
        "and small errors in e grow large that far out.", words.plural_count(written)).format(**values)


def _ratio(ratio: Fraction) -> Decimal:
    """How many times the largest size measured a forecast's size is, as a reply says it: to one decimal below 10
    (`4.7`), whole from 10 on (`64`, `16`)."""
    return as_decimal(ratio).quantize(Decimal("0.1") if ratio < 10 else Decimal(1))


def _written(value: Fraction, words: Wording) -> str:
    """A parameter of a formula to `SIGNIFICANT` digits, however small (`0.00000412`, not `0`)."""
    shown = _rounded(value)
    return words.number(shown, max(0, -int(shown.as_tuple().exponent)))


def _rounded(value: Fraction) -> Decimal:
    """`value` to `SIGNIFICANT` significant digits."""
    exact = as_decimal(value)
    if not exact:
        return Decimal(0)
    return exact.quantize(Decimal(1).scaleb(exact.adjusted() - SIGNIFICANT + 1)).normalize()
