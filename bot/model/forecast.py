"""What a measured series says about a cluster size not measured: two models of the serial fraction fitted to the
measurements, each stated as a range, never as one number as if it were measured.

Both models are written in the Karp–Flatt form, 1/S = 1/d + e(d)·(1 − 1/d), so that a fit is a linear least
squares problem solved exactly over rationals (`fractions.Fraction`: nothing is rounded before a reply writes it):

- **constant** (Amdahl): e(d) = e₀, the Karp–Flatt e held fixed; y = e₀·x with y = 1/S − 1/d, x = 1 − 1/d.
- **growing**: e(d) = a + b·d, a serial fraction that grows linearly with the cluster; y = a·x + b·(d − 1). Its
  1/S carries a term b·(d − 1), a step time that grows by a fixed amount per added device: the latency part of a
  ring all-reduce, which takes 2(d − 1) steps of one link's latency each (Patarasuk and Yuan, 2009; the ring
  Horovod and NCCL use, Sergeev and Del Balso, 2018), or a synchronisation that waits for one more device.

Each model's range is spanned by its fit to every measurement and its fits with one measurement left out (the
jackknife): measurements that agree on a model give a narrow range, noisy ones a wider one. Which model the
measurements support is the measured trend of e (`bot.model.series.SerialTrend`, the sentence under the table): flat
or none supports the constant model, rising the growing one, falling neither. The forecast is *weak* with fewer
than `MIN_SIZES` sizes measured, or past `REACH` times the largest size measured.

An Amdahl cluster with e = 0.01, one device at 2000 samples/s, measured at 8, 16 and 64 devices (S = 1 / (e +
(1 − e)/d), its A rounded to a hundredth as a user would write it), gives e back to 4 digits, and 128 devices:

>>> amdahl = analyse(Decimal(2000), [(Decimal(8), Decimal("14953.27")), (Decimal(16), Decimal("27826.09")),
...                                  (Decimal(64), Decimal("78527.61"))])
>>> cast = forecast(amdahl, 128)
>>> cast.supported, round(float(cast.constant.parameters[0]), 4), cast.weak
(<Model.CONSTANT: 'constant'>, 0.01, ())
>>> [round(float(s), 2) for s in cast.constant.speedups]   # 1 / (0.01 + 0.99/128) = 56.39, a narrow range
[56.39, 56.39]

A cluster whose overhead grows, e = 0.002 + 0.0002·d (so e = 0.0036 at 8 devices, 0.0148 at 64), is told apart:
the constant model misses a point by 27 %, the growing one recovers a and b, and 128 devices give half of what
Amdahl would (28.4 = 1 / (0.0276 + 0.9724/128); the constant model's range is wide, its fits disagreeing).

>>> growing = analyse(Decimal(2000), [(Decimal(8), Decimal("15606.71")), (Decimal(16), Decimal("29684.60")),
...                                   (Decimal(64), Decimal("66238.87"))])
>>> cast = forecast(growing, 128)
>>> cast.supported, [round(float(p), 5) for p in cast.growing.parameters]
(<Model.GROWING: 'growing'>, [0.002, 0.0002])
>>> round(float(cast.constant.residual), 2), round(float(cast.growing.residual), 6)
(0.27, 0.0)
>>> [round(float(s), 1) for s in cast.growing.speedups], [round(float(s), 1) for s in cast.constant.speedups]
([28.4, 28.4], [55.7, 81.7])

Two sizes, or 8 times the largest size measured, make a weak forecast, and it says why:

>>> forecast(analyse(Decimal(2000), [(Decimal(8), Decimal(15800)), (Decimal(64), Decimal(115200))]), 512).weak
(<Weakness.FEW_SIZES: 'few_sizes'>, <Weakness.FAR: 'far'>)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from bot.model.series import Point, SerialTrend, Series, analyse

__all__ = ["MIN_SIZES", "REACH", "Fit", "Forecast", "Model", "Weakness", "analyse", "as_decimal", "fit", "forecast"]

MIN_SIZES = 3  # sizes measured, fewer than which cannot tell the models apart
REACH = 4  # times the largest size measured, past which the forecast is weak


class Model(StrEnum):
    CONSTANT = "constant"  # Amdahl: e fixed
    GROWING = "growing"  # e = a + b·d
    NEITHER = "neither"  # the measured e falls: neither model can be extended with it


class Weakness(StrEnum):
    FEW_SIZES = "few_sizes"
    FAR = "far"


@dataclass(frozen=True)
class Fit:
    """One model fitted: its parameters (e₀; or a and b), its largest relative miss of a measured speedup, and the
    speedups it predicts at the size asked for, lowest and highest (None where it predicts no finite speedup)."""

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
    growing: Fit
    supported: Model
    weak: tuple[Weakness, ...]
    largest: int  # the largest size measured


def _terms(point: Point) -> tuple[Fraction, Fraction, Fraction]:
    """(x, z, y) of one measurement: 1/S − 1/d = a·x + b·z."""
    d = point.devices
    return 1 - Fraction(1, d), Fraction(d - 1), 1 / point.speedup - Fraction(1, d)


def fit(points: Sequence[Point], model: Model) -> tuple[Fraction, ...]:
    """The least-squares parameters of `model` (CONSTANT: e₀; GROWING: a, b) for `points`, exactly.

    >>> series = analyse(Decimal(10), [(Decimal(2), Decimal(20)), (Decimal(4), Decimal(40))])
    >>> fit(series.points, Model.CONSTANT), fit(series.points, Model.GROWING)
    ((Fraction(0, 1),), (Fraction(0, 1), Fraction(0, 1)))
    """
    terms = [_terms(point) for point in points]
    sxx = sum(x * x for x, _, _ in terms)
    sxy = sum(x * y for x, _, y in terms)
    if model is Model.CONSTANT:
        return (Fraction(sxy) / sxx,)
    sxz = sum(x * z for x, z, _ in terms)
    szz = sum(z * z for _, z, _ in terms)
    szy = sum(z * y for _, z, y in terms)
    det = sxx * szz - sxz * sxz  # > 0 for two distinct sizes: x/z = 1/d differs
    return (Fraction(sxy * szz - sxz * szy) / det, Fraction(sxx * szy - sxz * sxy) / det)


def predict(parameters: tuple[Fraction, ...], devices: int) -> Fraction | None:
    """The speedup a model's parameters give at `devices`; None where 1/S would not be positive."""
    x, z = 1 - Fraction(1, devices), Fraction(devices - 1)
    inverse = Fraction(1, devices) + parameters[0] * x + (parameters[1] * z if len(parameters) > 1 else 0)
    return 1 / inverse if inverse > 0 else None


def _fitted(points: tuple[Point, ...], model: Model, devices: int) -> Fit:
    parameters = fit(points, model)
    misses = [abs(s - p.speedup) / p.speedup if (s := predict(parameters, p.devices)) else Fraction(1)
              for p in points]
    needed = 1 if model is Model.CONSTANT else 2
    subsets = [points] + ([points[:i] + points[i + 1:] for i in range(len(points))] if len(points) > needed else [])
    predictions = [predict(fit(subset, model), devices) for subset in subsets]
    finite = [s for s in predictions if s is not None]
    span = (min(finite), max(finite)) if predictions[0] is not None and finite else None
    return Fit(model, parameters, max(misses), span)


def forecast(series: Series, devices: int) -> Forecast:
    """Both models fitted to `series` and asked for `devices`, which the measured trend of e supports, and why
    the forecast is weak, if it is."""
    largest = series.points[-1].devices
    weak = ((Weakness.FEW_SIZES,) if len(series.points) < MIN_SIZES else ()) + (
        (Weakness.FAR,) if devices > REACH * largest else ())
    supported = {SerialTrend.NONE: Model.CONSTANT, SerialTrend.FLAT: Model.CONSTANT,
                 SerialTrend.RISING: Model.GROWING}.get(series.trend.serial, Model.NEITHER)
    return Forecast(devices, _fitted(series.points, Model.CONSTANT, devices),
                    _fitted(series.points, Model.GROWING, devices), supported, weak, largest)


def as_decimal(value: Fraction) -> Decimal:
    """For writing: a `Decimal` of 28 significant digits."""
    return Decimal(value.numerator) / Decimal(value.denominator)
