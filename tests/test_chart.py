"""The chart's data, as drawn: the measured points, the ideal line, log₂ d, each size's e readable, the forecast
dashed and apart from the measured points, pixels free of words, and a PNG small enough to upload."""

from __future__ import annotations

import re
from decimal import Decimal as D
from types import ModuleType

import pytest

from bot.model.forecast import forecast
from bot.model.series import analyse
from bot.reader.numbers import resolve_locale
from bot.replies.series import series_table
from bot.replies.wording import wording_for

chart: ModuleType  # bot.replies.chart, set by `_matplotlib` below

@pytest.fixture(scope="module", autouse=True)
def _matplotlib():
    """bot.replies.chart (and matplotlib with it) imported by the worker that runs these tests, not by every
    worker as it collects them."""
    global chart
    from bot.replies import chart as module
    chart = module


TWO = [(8, "15800"), (64, "115200")]
TWELVE = [(2 ** k, str(round(2000 * 2 ** k * (1 - 0.02 * k)))) for k in range(1, 13)]
ABOVE_IDEAL = [(2, "4100"), (4, "8000"), (8, "15000")]  # 4100 > 2 · 2000
FALLING = [(8, "15000"), (16, "24000"), (32, "20000")]  # 32 devices slower than 16


def series_of(pairs):
    return analyse(D(2000), [(D(d), D(a)) for d, a in pairs])


def measured(axes):
    return next(line for line in axes.get_lines() if line.get_color() == chart.MEASURED)


def texts(figure):
    found = [t.get_text() for axes in figure.axes for t in axes.texts]
    found += [t.get_text() for axes in figure.axes for t in axes.get_xticklabels() + axes.get_yticklabels()]
    found += [axes.get_xlabel() for axes in figure.axes] + [axes.get_ylabel() for axes in figure.axes]
    legend = figure.axes[0].get_legend()
    return found + ([t.get_text() for t in legend.get_texts()] if legend else [])


@pytest.mark.parametrize("pairs", [TWO, TWELVE, ABOVE_IDEAL, FALLING], ids=["2 sizes", "12 sizes", "above ideal",
                                                                           "falling speedup"])
def test_the_measured_points_are_drawn_as_measured_on_log2_axes_beside_the_ideal(pairs):
    series = series_of(pairs)
    figure = chart.draw(series, wording_for(resolve_locale("en-US")))
    figure.canvas.draw()
    speedup, efficiency = figure.axes
    sizes = [p.devices for p in series.points]
    assert list(measured(speedup).get_xdata()) == sizes
    assert list(measured(speedup).get_ydata()) == pytest.approx([float(p.speedup) for p in series.points])
    assert list(measured(efficiency).get_ydata()) == pytest.approx([float(p.efficiency) for p in series.points])
    assert measured(speedup).get_marker() == "o" and measured(speedup).get_linestyle() == "-"
    ideal = next(line for line in speedup.get_lines() if line.get_label() == "S = d")
    assert list(ideal.get_xdata()) == list(ideal.get_ydata()) == [1, max(sizes)]
    for axes in (speedup, efficiency):
        assert axes.get_xscale() == "log" and axes.xaxis.get_transform().base == 2
        assert [t.get_text() for t in axes.get_xticklabels()][-len(sizes):] == [f"{d:,}" for d in sizes]
    assert speedup.get_yscale() == "log"
    table = series_table(series, wording_for(resolve_locale("en-US"))).splitlines()[1:]
    cells = [[cell for cell in row.split() if cell != "↓"] for row in table]  # a fallen speedup's mark apart
    assert [t.get_text() for t in efficiency.texts] == ["e " + row[6] for row in cells]  # as the table
    assert not [line for line in speedup.get_lines() if line.get_linestyle() == "--"]  # no forecast asked for


def test_a_series_above_ideal_is_drawn_above_the_ideal_line_and_a_falling_one_falls():
    above = chart.draw(series_of(ABOVE_IDEAL), wording_for(resolve_locale("en-US")))
    assert measured(above.axes[0]).get_ydata()[0] > 2 and measured(above.axes[1]).get_ydata()[0] > 1
    assert above.axes[1].get_ylim()[1] > measured(above.axes[1]).get_ydata()[0]  # the point is inside the panel
    falling = measured(chart.draw(series_of(FALLING), wording_for(resolve_locale("en-US"))).axes[0]).get_ydata()
    assert falling[2] < falling[1]


def test_a_forecast_is_dashed_from_the_largest_size_measured_to_the_size_asked_for():
    series = series_of([(8, "15800"), (16, "31000"), (64, "115200")])
    cast = forecast(series, 128)
    figure = chart.draw(series, wording_for(resolve_locale("en-US")), cast)
    speedup = figure.axes[0]
    dashed = [line for line in speedup.get_lines() if line.get_linestyle() == "--"]
    assert {tuple(line.get_xdata()) for line in dashed} == {(64.0, 128)}
    ends = sorted(round(line.get_ydata()[1], 6) for line in dashed)
    expected = sorted(round(float(s), 6) for fit in (cast.constant, cast.trend) for s in set(fit.speedups))
    assert ends == expected
    assert 128 not in measured(speedup).get_xdata()  # the forecast is not drawn as a measurement


def test_the_pixels_hold_numbers_symbols_and_the_models_letters_only():
    series = series_of(TWELVE)
    for tag in ("en-US", "de-DE", "ja-JP", "fr-FR"):
        figure = chart.draw(series, wording_for(resolve_locale(tag)), forecast(series, 8192))
        figure.canvas.draw()
        letters = set(re.sub(r"[^\w]|[\d_]", "", "".join(texts(figure))))
        assert letters <= {"d", "S", "E", "e", "c", "q", "₀"}, tag


def test_the_numbers_are_written_in_the_readers_format():
    figure = chart.draw(series_of([(8, "15800"), (16, "31000"), (64, "115200")]), wording_for(resolve_locale("de-DE")))
    assert [t.get_text() for t in figure.axes[1].texts][0] == "e 0,0018"


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_png_of_twelve_sizes_with_a_forecast_is_small_enough_for_a_thumbnail():
    series = series_of(TWELVE)
    png = chart.chart_png(series, wording_for(resolve_locale("en-US")), forecast(series, 8192))
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) < 150_000
    assert png == chart.chart_png(series, wording_for(resolve_locale("en-US")), forecast(series, 8192))  # reproducible
