"""The forecast (`at=128`): both models fitted exactly, the measured trend of e attributing a series to the model it
was made from, noise widening the range, and the weak-forecast sentences as the reply writes them."""

from __future__ import annotations

import re
from decimal import Decimal as D
from fractions import Fraction as F

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from bot.engine import answer
from bot.model.forecast import Model, Weakness, analyse, forecast
from bot.reader.numbers import resolve_locale

SIZES = st.lists(st.sampled_from([2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128]), min_size=3, max_size=8, unique=True)
V = 2000


def series_of(e_of, sizes, noise=None):
    """A series of one device at V samples/s and the cluster at each size, its speedup S = 1 / (e + (1 − e)/d)
    from the model `e_of(d)`, each A times (1 + noise) where noise is given."""
    pairs = []
    for index, d in enumerate(sorted(sizes)):
        e = e_of(d)
        speedup = 1 / (e + (1 - e) / F(d))
        actual = V * speedup * (1 + (noise[index] if noise else 0))
        pairs.append((D(d), D(actual.numerator) / D(actual.denominator)))
    return analyse(D(V), pairs)


def width(fit):
    return fit.speedups[1] - fit.speedups[0]



@settings(max_examples=60, deadline=None)
@given(SIZES, st.fractions(F(1, 500), F(1, 10)))
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_an_amdahl_series_is_attributed_to_the_constant_model_and_its_e_recovered(sizes, e):
    cast = forecast(series_of(lambda d: e, sizes), 256)
    assert cast.supported is Model.CONSTANT
    assert abs(cast.constant.parameters[0] - e) < F(1, 10**12)
    assert cast.constant.residual < F(1, 10**12)


@settings(max_examples=60, deadline=None)
@given(SIZES, st.fractions(F(0), F(1, 50)), st.fractions(F(1, 10**5), F(1, 500)))
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_growing_overhead_series_is_attributed_to_the_growing_model(sizes, a, b):
    """e = a + b·d, with e at the largest size at least twice e at the smallest (b·d_max ≥ a + 2·b·d_min), and some
    size below 99.5 % (where every size scales within half a percent of ideal, nothing measured limits it)."""
    low, high = min(sizes), max(sizes)
    a = min(a, b * (high - 2 * low))
    if a < 0:
        a = F(0)
    series = series_of(lambda d: a + b * d, sizes)
    assume(min(p.efficiency for p in series.points) < F(995, 1000))  # else nothing measured limits it at all
    cast = forecast(series, 2 * high)
    event("growing fit exact" if cast.growing.residual < F(1, 10**12) else "growing fit inexact")
    assert cast.supported is Model.GROWING
    assert abs(cast.growing.parameters[1] - b) < F(1, 10**9)
    assert cast.growing.residual < cast.constant.residual


@settings(max_examples=60, deadline=None)
@given(SIZES, st.fractions(F(1, 500), F(1, 20)),
       st.lists(st.fractions(F(-3, 100), F(3, 100)), min_size=8, max_size=8).filter(lambda n: len(set(n)) > 1))
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_noise_widens_the_range(sizes, e, noise):
    noise = [n if n else F(1, 1000) for n in noise]  # every point moved, not all by the same share
    clean = forecast(series_of(lambda d: e, sizes), 256)
    noisy = forecast(series_of(lambda d: e, sizes, noise), 256)
    assert width(clean.constant) < F(1, 10**9)
    assert width(noisy.constant) > width(clean.constant)


def test_two_sizes_make_a_weak_forecast_and_the_reply_says_why():
    reply = answer("v=2000 8=15800 64=115200 at=128", resolve_locale("en-US"))
    text = "\n".join(b["text"]["text"] for b in reply.blocks if b["type"] == "section")
    assert ":warning: This forecast is weak: with two sizes measured, any two-parameter model fits them exactly" in text
    assert "more than 4 times" not in text


def test_eight_times_beyond_the_largest_size_is_a_weak_forecast_and_the_reply_says_why():
    reply = answer("v=2000 8=15800 16=31000 64=115200 at=512", resolve_locale("en-US"))
    text = "\n".join(b["text"]["text"] for b in reply.blocks if b["type"] == "section")
    assert (":warning: This forecast is weak: 512 devices is more than 4 times the largest size measured (64), "
            "and small errors in e grow large that far out.") in text
    assert "with two sizes measured" not in text
    assert forecast(analyse(D(2000), [(D(8), D(15800)), (D(16), D(31000)), (D(64), D(115200))]), 256).weak == ()
    assert forecast(analyse(D(2000), [(D(8), D(15800)), (D(16), D(31000)), (D(64), D(115200))]), 257).weak == (
        Weakness.FAR,)


def test_the_forecast_states_ranges_of_both_models_never_one_measured_number():
    reply = answer("v=2000 8=15800 16=31000 64=115200 at=128", resolve_locale("en-US"))
    text = "\n".join(b["text"]["text"] for b in reply.blocks if b["type"] == "section")
    assert "*Forecast for 128 devices* (not measured: extrapolated from the sizes above)" in text
    assert ("• Constant serial fraction (Amdahl, e = 0.00191): speedup 102× to 104×, 204,000 to 209,000 "
            "samples/s") in text
    assert ("• Serial fraction varying linearly with cluster size (e = 0.00202 − 0.00000365 · d): speedup 68× to "
            "110×") in text
    assert "the trend supports the constant serial fraction" in text
    limits = [e["text"] for b in reply.blocks if b["type"] == "context" for e in b["elements"]]
    assert any("not an interconnect that saturates" in line and "batch size" in line and "topology" in line
               for line in limits)


RISING = {"en-US": "grow", "en-GB": "grow", "de-DE": "wachs", "es-ES": "crece", "es-419": "crece", "fr-FR": "croît",
          "it-IT": "cresce", "ja-JP": "増加", "ko-KR": "커지", "pt-BR": "cresce", "zh-CN": "增长", "zh-TW": "增加"}


@pytest.mark.parametrize("tag", sorted(RISING))
def test_the_second_model_is_not_named_as_growing_when_its_fitted_slope_falls(tag):
    reply = answer("v=2000 8=15800 16=31000 64=115200 at=128", resolve_locale(tag))
    text = "\n".join(b["text"]["text"] for b in reply.blocks if b["type"] == "section")
    line = next(line for line in text.splitlines() if "· d" in line)
    assert "−" in line
    assert RISING[tag] not in line.split("e =")[0].lower()


@pytest.mark.parametrize("tag", sorted(RISING))
def test_a_fit_through_every_measurement_states_no_margin_of_zero(tag):
    """Two sizes: the two-parameter model passes through both, so its line gives no "to within 0%" (the weak
    note says why two sizes prove little); the one-parameter model keeps its margin."""
    reply = answer("v=2000 8=15800 64=115200 at=128", resolve_locale(tag))
    lines = [line for b in reply.blocks if b["type"] == "section" for line in b["text"]["text"].splitlines()
             if line.startswith("•")]
    assert len(lines) == 2
    zero = re.compile(r"(?<![\d.,])0[\s\u202f\u00a0]?%")
    assert not zero.search(lines[1]) and re.search(r"0[.,]11[\s\u202f\u00a0]?%", lines[0]), lines


@pytest.mark.parametrize("tag", sorted(RISING))
def test_a_negative_fitted_term_is_written_with_the_minus_sign_not_a_hyphen(tag):
    """Speedup falling from 16 to 32 devices: the second model's constant term is negative (e = −0.0154 + …); in a
    formula both of its signs are the minus sign U+2212, whatever hyphen the language's numbers use."""
    reply = answer("v=2000 8=15000 16=24000 32=20000 at=128", resolve_locale(tag))
    text = "\n".join(b["text"]["text"] for b in reply.blocks if b["type"] == "section")
    formula = next(line for line in text.splitlines() if "· d" in line).split("e =")[1]
    assert formula.lstrip().startswith("−") and "-" not in formula.split("· d")[0], formula


@pytest.mark.parametrize("text, word", [("v=2000 8=15800 16=31000 64=115200 bei=128", "de-DE"),
                                        ("v=2000 8=15800 16=31000 64=115200 予測=128", "ja-JP"),
                                        ("v=2000 8=15800 16=31000 64=115200 à=128", "fr-FR")])
def test_the_forecast_word_of_each_language_asks_for_a_forecast(text, word):
    reply = answer(text, resolve_locale(word))
    assert reply.kind.value == "result"
    assert sum("128" in b["text"]["text"] for b in reply.blocks if b["type"] == "section" and "•" in b["text"]["text"])


def test_a_forecast_for_one_device_is_refused_naming_the_word():
    reply = answer("v=2000 8=15800 16=31000 at=1", resolve_locale("en-US"))
    assert reply.is_error and "at=1" in reply.text
