"""A series as a picture: speedup S against d beside the ideal S = d, and efficiency E against d, both on log₂ d, the
measured points marked, each size's Karp–Flatt e written beside it, and a forecast (`at=`) dashed, apart.

The pixels hold numbers, symbols and the model's letters only (`d`, `S`, `E`, `e`, `×`, `%`), written in the
reader's number format (`0,9` in German): the words stay in the message, so one chart reads alike in every
language and no CJK font is needed. A white card with dark ink and saturated colours reads on Slack's light and
dark themes alike; lines and type are sized for a thumbnail.

matplotlib (its Agg backend, no display) is imported here and nowhere else, and this module only where a chart
is drawn: never on the path of an acknowledgement.

    png = chart_png(series, wording_for(locale), forecast(series, 128))   # PNG bytes
    png = series_chart(*measured_series(text, locale))                    # a typed series' (`bot.engine`)
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import matplotlib

from bot.model.forecast import Fit, Forecast, forecast
from bot.model.series import Series, decimal
from bot.reader.series_syntax import SeriesCommand
from bot.replies.wording import Wording, wording_for

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402  (after the backend is chosen)
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["INK", "MEASURED", "chart_png", "draw", "series_chart"]

INK = "#1d1c1d"  # Slack's own text colour
GRID = "#dddddd"
MEASURED = "#1264a3"  # Slack's blue
CONSTANT = "#2bac76"  # green: the constant serial fraction's forecast
TREND = "#e01e5a"  # red: the forecast of the serial fraction following its measured trend
IDEAL = "#868686"
LEGEND = {CONSTANT: "e = e₀", TREND: "e = c·(d − 1)^q"}  # each forecast's model, in the model's own letters
SIZE = (10.0, 4.2)  # inches at `DPI`: 1000 × 420 pixels, two panels side by side
DPI = 100
MARGINS = {"left": 0.1, "right": 0.98, "bottom": 0.14, "top": 0.96, "wspace": 0.26}  # fixed: no layout engine


@dataclass(frozen=True)
class Panel:
    """What one panel shows, before any drawing: measured points, and each forecast's range at its size."""

    sizes: list[float]
    values: list[float]
    forecasts: list[tuple[str, float, float]]  # colour, low, high at the forecast's size


def draw(series: Series, words: Wording, cast: Forecast | None = None) -> Figure:
    """The figure: S against d on the left, E against d on the right."""
    figure = Figure(figsize=SIZE, dpi=DPI, facecolor="white")
    left, right = figure.subplots(1, 2, gridspec_kw=MARGINS)
    sizes = [float(p.devices) for p in series.points]
    fits = [(CONSTANT, cast.constant), (TREND, cast.trend)] if cast else []  # colours: `LEGEND`
    speedups = Panel(sizes, [float(p.speedup) for p in series.points],
                     [(colour, *_span(fit, 1)) for colour, fit in fits if fit.speedups])
    efficiencies = Panel(sizes, [float(p.efficiency) for p in series.points],
                         [(colour, *_span(fit, cast.devices if cast else 1)) for colour, fit in fits if fit.speedups])
    reach = [cast.devices] if cast else []
    _speedup_panel(left, speedups, reach, words)
    _efficiency_panel(right, efficiencies, reach, words)
    for point, size, value in zip(series.points, sizes, efficiencies.values, strict=True):
        if point.serial_fraction is not None:  # each size's e, readable beside its point
            right.annotate("e " + words.number(decimal(point.serial_fraction), 4), (size, value),
                           textcoords="offset points", xytext=(0, -18), ha="center", fontsize=12, color=INK,
                           zorder=5, bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"})
    return figure


def _span(fit: Fit, divisor: int) -> tuple[float, float]:
    low, high = fit.speedups or (Fraction(0), Fraction(0))
    return float(low / divisor), float(high / divisor)


def _speedup_panel(axes: Axes, panel: Panel, reach: list[int], words: Wording) -> None:
    top = max([*panel.sizes, *map(float, reach)])
    axes.plot([1, top], [1, top], color=IDEAL, linewidth=1.5, linestyle=":", label="S = d")
    axes.plot(panel.sizes, panel.values, color=MEASURED, linewidth=2.5, marker="o", markersize=7, label="S")
    _forecasts(axes, panel, reach)
    _log2(axes, [1.0, *panel.sizes, *map(float, reach)], words)
    axes.set_yscale("log", base=2)
    # `×`, not the catalog's `{value}×` (`倍` in Japanese): no words in the pixels
    axes.yaxis.set_major_formatter(FuncFormatter(lambda y, _: words.number(Decimal(str(float(y))), 1) + "×"))
    axes.yaxis.set_minor_locator(NullLocator())
    axes.set_ylabel("S", color=INK, fontsize=16, rotation=0, labelpad=12)
    axes.legend(loc="upper left", fontsize=12, frameon=False, labelcolor=INK)


def _efficiency_panel(axes: Axes, panel: Panel, reach: list[int], words: Wording) -> None:
    axes.axhline(1, color=IDEAL, linewidth=1.5, linestyle=":")
    axes.plot(panel.sizes, panel.values, color=MEASURED, linewidth=2.5, marker="o", markersize=7, label="E")
    _forecasts(axes, panel, reach)
    _log2(axes, [*panel.sizes, *map(float, reach)], words)
    values = panel.values + [v for _, low, high in panel.forecasts for v in (low, high)]
    axes.set_ylim(max(0.0, math.floor(min(values) * 10) / 10 - 0.05), max(1.05, max(values) + 0.05))
    axes.yaxis.set_major_formatter(FuncFormatter(lambda y, _: words.percent(Decimal(str(round(float(y), 4))), 0)))
    axes.set_ylabel("E", color=INK, fontsize=16, rotation=0, labelpad=12)


def _forecasts(axes: Axes, panel: Panel, reach: list[int]) -> None:
    """Each model's range at the forecast's size, dashed from the largest size measured, its ends hollow."""
    for colour, low, high in panel.forecasts:
        for value in {low, high}:
            axes.plot([panel.sizes[-1], reach[0]], [panel.values[-1], value], color=colour, linewidth=2,
                      linestyle="--")
        axes.plot([reach[0], reach[0]], [low, high], color=colour, linewidth=4, linestyle="-", alpha=0.5,
                  label=LEGEND[colour])
        axes.plot([reach[0]] * 2, [low, high], color=colour, linestyle="none", marker="o", markersize=7,
                  markerfacecolor="white", markeredgewidth=2)


def _log2(axes: Axes, sizes: list[float], words: Wording) -> None:
    """d on a log₂ axis, a tick at each size shown, written in the reader's format; the card's colours."""
    axes.set_xscale("log", base=2)
    axes.xaxis.set_major_locator(FixedLocator(sorted(set(sizes))))
    axes.xaxis.set_minor_locator(NullLocator())
    axes.xaxis.set_major_formatter(FuncFormatter(lambda x, _: words.number(Decimal(round(x)), 0)))
    axes.set_xlabel("d", color=INK, fontsize=16)
    axes.set_facecolor("white")
    axes.grid(True, color=GRID, linewidth=0.8)
    axes.tick_params(colors=INK, labelsize=13)
    for spine in axes.spines.values():
        spine.set_color(GRID)


def chart_png(series: Series, words: Wording, cast: Forecast | None = None) -> bytes:
    """The chart as PNG bytes."""
    buffer = io.BytesIO()
    figure = draw(series, words, cast)
    figure.savefig(buffer, format="png", dpi=DPI, facecolor="white", metadata=_no_metadata())
    return buffer.getvalue()


def series_chart(series: Series, command: SeriesCommand) -> bytes:
    """The chart of a series as its command asked for it (with the forecast of its `at=`, unless that size was
    measured: its point is there already), in its numbers' format."""
    size = None if command.at is None else int(command.at.value)
    cast = forecast(series, size) if size is not None and size not in {p.devices for p in series.points} else None
    return chart_png(series, wording_for(command.recipient), cast)


def _no_metadata() -> dict[str, Any]:
    """No software name or date in the file: the same series gives the same bytes."""
    return {"Software": None}
