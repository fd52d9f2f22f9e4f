"""What a measured series says about a cluster size not measured: two models of the serial fraction fitted to the
measurements, each stated as a range, never as one number as if it were measured.

Both are read as data-parallel training runs, the same batch on every device (`bot.model.series`): the per-step
overhead, as a share of one device's step, is o(d)/t₁ = 1/E − 1 = e·(d − 1), and a model of e is a model of how
that overhead grows. A model's speedup at d devices is S = d / (1 + e(d)·(d − 1)).

- **constant**: e(d) = e₀, an overhead in proportion to d − 1, as a ring all-reduce's latency (2(d − 1) steps of
  one link's latency each: Patarasuk and Yuan, 2009; the ring Horovod and NCCL use, Sergeev and Del Balso, 2018).
  Fitted by linear least squares in the Karp–Flatt form, y = 1/S − 1/d = e₀·(1 − 1/d), exactly over rationals.
- **trend**: e(d) = c·(d − 1)^q, the measured course of e followed: an overhead growing as (d − 1)^(q + 1), faster
  than the cluster (q > 0), in proportion (q = 0), more slowly (−1 < q < 0) or not at all (q = −1, a flat E).
  Fitted as `bot.model.series.serial_power` fits it, the trend under the table: one q for both.

Neither puts e below zero (an overhead below zero would be more than the ideal): the constant model's e₀ stops at
zero, the trend's c·(d − 1)^q cannot reach it. So no forecast exceeds the ideal, S = d. Each model's range is
spanned by its fit to every measurement and its fits with one measurement left out (the jackknife): measurements
that agree on a model give a narrow range, noisy ones a wider one. Which model the measurements support is the
measured trend of e (`bot.model.series.SerialTrend`, the sentence under the table): flat or none supports the
constant model; rising, falling or fixed the trend; shrinking (E rising) neither. The forecast is *weak* with
fewer than `MIN_SIZES` sizes measured, or past `REACH` times the largest size measured.

A cluster whose overhead grows in proportion to it, e = 0.01, one device at 2000 samples/s, measured at 8, 16 and
64 devices (its A rounded to a hundredth as a user would write it), gives e back to 4 digits, and 128 devices:

>>> proportional = analyse(Decimal(2000), [(Decimal(8), Decimal("14953.27")), (Decimal(16), Decimal("27826.09")),
...                                        (Decimal(64), Decimal("78527.61"))])
>>> cast = forecast(proportional, 128)
>>> cast.supported, round(float(cast.constant.parameters[0]), 4), cast.weak
(<Model.CONSTANT: 'constant'>, 0.01, ())
>>> [round(float(s), 2) for s in cast.constant.speedups]   # 128 / (1 + 0.01 · 127) = 56.39, a narrow range
[56.39, 56.39]

A cluster whose overhead grows faster, e = 0.001·(d − 1)^0.5 (o ∝ (d − 1)^1.5), is told apart: the constant model
misses a point by 14 %, the trend recovers c and q, and 128 devices give 52.6 = 128 / (1 + 0.001·127^1.5), where the
constant model promises more:

>>> faster = analyse(Decimal(2000), [(Decimal(8), Decimal("15709.06")), (Decimal(16), Decimal("30243.04")),
...                                  (Decimal(64), Decimal("85330.66"))])
>>> cast = forecast(faster, 128)
>>> cast.supported, [round(float(p), 4) for p in cast.trend.parameters]
(<Model.TREND: 'trend'>, [0.001, 0.5])
>>> round(float(cast.constant.residual), 2), round(float(cast.trend.residual), 5)
(0.14, 0.0)
>>> [round(float(s), 1) for s in cast.trend.speedups], [round(float(s), 1) for s in cast.constant.speedups]
([52.6, 52.6], [72.6, 90.2])

An efficiency that stays at 93.75 % (the same overhead at every size) stays there, 60 of 64, not above the ideal:

>>> flat = analyse(Decimal(2000), [(Decimal(8), Decimal(15000)), (Decimal(16), Decimal(30000)),
...                               (Decimal(32), Decimal(60000))])
>>> cast = forecast(flat, 64)
>>> cast.supported, [round(float(s), 6) for s in cast.trend.speedups]
(<Model.TREND: 'trend'>, [60.0, 60.0])

Two sizes, or 8 times the largest size measured, make a weak forecast, and it says why:

>>> forecast(analyse(Decimal(2000), [(Decimal(8), Decimal(15800)), (Decimal(64), Decimal(115200))]), 512).weak
(<Weakness.FEW_SIZES: 'few_sizes'>, <Weakness.FAR: 'far'>)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from enum import StrEnum
from fractions import Fraction

from bot.model.series import PRECISION, Point, SerialTrend, Series, analyse, serial_power

__all__ = ["MIN_SIZES", "REACH", "Fit", "Forecast", "Model", "Weakness", "analyse", "as_decimal", "fit", "forecast"]

MIN_SIZES = 3  # sizes measured, fewer than which cannot tell the models apart
REACH = 4  # times the largest size measured, past which the forecast is weak


class Model(StrEnum):
    CONSTANT = "constant"  # e fixed: overhead in proportion to the cluster
    TREND = "trend"  # e = c·(d − 1)^q: the measured course of e
    NEITHER = "neither"  # E rises: the overhead shrinks, which neither model should be extended with


class Weakness(StrEnum):
    FEW_SIZES = "few_sizes"
    FAR = "far"


@dataclass(frozen=True)
class Fit:
    """One model fitted: its parameters (e₀; or c and q), its largest relative miss of a measured speedup, and the
    speedups it predicts at the size asked for, lowest and highest (None where the model could not be fitted: the
    trend, where e is above zero at fewer than two sizes)."""

    model: Model
    parameters: tuple[Fraction, ...]
    residual: Fraction  # max |S_fit − S| / S over the measured sizes
    speedups: tuple[Fraction, Fraction] | None

    def throughputs(self, single: Fraction) -> tuple[Fraction, Fraction] | None:
        """The cluster throughputs A = v·S the range stands for."""
        return None if self.speedups is None else (single * self.speedups[0], single * self.speedups[1])


@dataclass(frozen=True)
class Forecast:
    devices: int
    constant: Fit
    trend: Fit
    supported: Model
    weak: tuple[Weakness, ...]
    largest: int  # the largest size measured


SUPPORTED = {SerialTrend.NONE: Model.CONSTANT, SerialTrend.FLAT: Model.CONSTANT, SerialTrend.RISING: Model.TREND,
             SerialTrend.FALLING: Model.TREND, SerialTrend.FIXED: Model.TREND, SerialTrend.SHRINKING: Model.NEITHER}


def fit(points: Sequence[Point], model: Model) -> tuple[Fraction, ...] | None:
    """The parameters of `model` for `points`: CONSTANT e₀, by least squares exactly, at least zero; TREND c and
    q (None where e is above zero at fewer than two sizes).

    >>> series = analyse(Decimal(10), [(Decimal(2), Decimal(20)), (Decimal(4), Decimal(40))])
    >>> fit(series.points, Model.CONSTANT), fit(series.points, Model.TREND)
    ((Fraction(0, 1),), None)
    """
    if model is Model.TREND:
        power = serial_power(points)
        if power is None:
            return None
        with localcontext() as ctx:
            ctx.prec = PRECISION
            return Fraction(power[0].exp()), Fraction(power[1])
    terms = [(1 - Fraction(1, p.devices), 1 / p.speedup - Fraction(1, p.devices)) for p in points]
    zero = Fraction(0)
    return (max(zero, sum((x * y for x, y in terms), zero) / sum((x * x for x, _ in terms), zero)),)


def predict(model: Model, parameters: tuple[Fraction, ...], devices: int) -> Fraction:
    """The speedup the model's parameters give at `devices`: S = d / (1 + e(d)·(d − 1)), never above d."""
    if model is Model.CONSTANT or devices == 1:
        serial = parameters[0]
    else:
        with localcontext() as ctx:
            ctx.prec = PRECISION
            c, q = (Decimal(f.numerator) / Decimal(f.denominator) for f in parameters)
            serial = Fraction((c.ln() + q * Decimal(devices - 1).ln()).exp())
    return devices / (1 + serial * (devices - 1))


def _fitted(points: tuple[Point, ...], model: Model, devices: int) -> Fit:
    parameters = fit(points, model)
    if parameters is None:
        return Fit(model, (), Fraction(0), None)
    misses = [abs(predict(model, parameters, p.devices) - p.speedup) / p.speedup for p in points]
    needed = 1 if model is Model.CONSTANT else 2
    subsets = [points[:i] + points[i + 1:] for i in range(len(points))] if len(points) > needed else []
    fits = [parameters] + [found for subset in subsets if (found := fit(subset, model)) is not None]
    predictions = [predict(model, found, devices) for found in fits]
    return Fit(model, parameters, max(misses), (min(predictions), max(predictions)))


def forecast(series: Series, devices: int) -> Forecast:
    """Both models fitted to `series` and asked for `devices`, which the measured trend of e supports, and why
    the forecast is weak, if it is."""
    largest = series.points[-1].devices
    weak = ((Weakness.FEW_SIZES,) if len(series.points) < MIN_SIZES else ()) + (
        (Weakness.FAR,) if devices > REACH * largest else ())
    return Forecast(devices, _fitted(series.points, Model.CONSTANT, devices),
                    _fitted(series.points, Model.TREND, devices), SUPPORTED[series.trend.serial], weak, largest)


def as_decimal(value: Fraction) -> Decimal:
    """For writing: a `Decimal` of 28 significant digits."""
    return Decimal(value.numerator) / Decimal(value.denominator)
