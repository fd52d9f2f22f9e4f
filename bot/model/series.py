"""A measurement series: one device's throughput v and the cluster throughput A measured at several sizes d, and
what follows at each size: ideal I = d·v, efficiency E = A / (d·v), speedup S = A / v, and the experimentally
determined serial fraction (Karp–Flatt) e = (1/S − 1/d) / (1 − 1/d), for d > 1.

Pure arithmetic, no Slack, no locale, no I/O. The measured values arrive as `Decimal`s and every derived value is
computed exactly, as a rational number (`fractions.Fraction`), so nothing is rounded before a reply writes it;
`decimal` turns one into a `Decimal` of `PRECISION` digits for writing. Only the change of E per doubling of the
cluster needs a logarithm, and is a `Decimal` of that precision. Nothing is extrapolated to a size not measured.

>>> series = analyse(Decimal(2000), [(Decimal(8), Decimal(15800)), (Decimal(64), Decimal(115200))])
>>> [decimal(point.efficiency) for point in series.points]
[Decimal('0.9875'), Decimal('0.9')]
>>> series.trend.per_doubling
Decimal('-0.02916666666666666666666666667')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from enum import StrEnum
from fractions import Fraction

__all__ = [
    "MAX_POINTS",
    "MIN_POINTS",
    "FLAT_SHARE",
    "Point",
    "Series",
    "SerialTrend",
    "Trend",
    "analyse",
    "decimal",
    "doublings",
    "karp_flatt",
]

MIN_POINTS = 2  # cluster sizes a series needs (besides the one device), and at most
MAX_POINTS = 12
PRECISION = 28
FLAT_SHARE = Fraction(1, 4)  # the serial fraction's spread, as a share of its largest value, that still counts as flat
LINEAR = Fraction(995, 1000)  # an efficiency this high at every size: nothing measured limits the speedup


def decimal(value: Fraction) -> Decimal:
    """An exact rational as a `Decimal` of `PRECISION` significant digits.

    >>> decimal(Fraction(1, 8))
    Decimal('0.125')
    """
    with localcontext() as ctx:
        ctx.prec = PRECISION
        return Decimal(value.numerator) / Decimal(value.denominator)


def karp_flatt(speedup: Fraction, devices: int) -> Fraction | None:
    """The experimentally determined serial fraction e = (1/S − 1/d) / (1 − 1/d); None for one device (d = 1 leaves
    nothing to divide by).

    >>> karp_flatt(Fraction(36), 64)
    Fraction(1, 81)
    """
    if devices <= 1:
        return None
    one_over_d = Fraction(1, devices)
    return (1 / speedup - one_over_d) / (1 - one_over_d)


@dataclass(frozen=True)
class Point:
    """One measured cluster size, with what follows from it, every value exact."""

    devices: int
    actual: Fraction  # A, measured, samples/s
    ideal: Fraction  # I = d·v
    efficiency: Fraction  # E = A / I
    speedup: Fraction  # S = A / v
    serial_fraction: Fraction | None  # e (Karp–Flatt); None for d = 1

    @property
    def above_ideal(self) -> bool:
        """More than d devices could deliver at v each: the model cannot explain it."""
        return self.actual > self.ideal


class SerialTrend(StrEnum):
    """How the serial fraction e moves as the cluster grows."""

    NONE = "none"  # e zero or nearly (E at least `LINEAR` at every size): the speedup keeps pace with the cluster
    RISING = "rising"  # overhead that grows with the cluster (the all-reduce, synchronization)
    FLAT = "flat"  # a fixed serial part: Amdahl's law, not growing overhead
    FALLING = "falling"  # shrinking with size: noise, or effects the model does not know (caches, memory)


@dataclass(frozen=True)
class Trend:
    """What the series says as a whole, from its smallest measured size to its largest."""

    per_doubling: Decimal  # the change of E per doubling of the cluster (negative: E falls)
    serial: SerialTrend
    falling_speedups: tuple[tuple[Point, Point], ...]  # neighbouring sizes where more devices gave less speedup


@dataclass(frozen=True)
class Series:
    throughput: Fraction  # v, one device
    points: tuple[Point, ...]  # by devices, smallest first
    trend: Trend

    @property
    def above_ideal(self) -> tuple[Point, ...]:
        return tuple(point for point in self.points if point.above_ideal)


def measure(throughput: Fraction, devices: int, actual: Fraction) -> Point:
    """One size's figures: I = d·v, E = A / I, S = A / v, e = Karp–Flatt."""
    ideal = devices * throughput
    speedup = actual / throughput
    return Point(devices, actual, ideal, actual / ideal, speedup, karp_flatt(speedup, devices))


def doublings(low: int, high: int) -> Decimal:
    """How many doublings lead from `low` devices to `high`: log2(high / low), exact where the ratio is a power of two.

    >>> doublings(8, 64), doublings(2, 3).quantize(Decimal("0.0001"))
    (Decimal('3'), Decimal('0.5850'))
    """
    ratio = Fraction(high, low)
    if ratio.denominator == 1 and ratio.numerator & (ratio.numerator - 1) == 0:
        return Decimal(ratio.numerator.bit_length() - 1)
    with localcontext() as ctx:
        ctx.prec = PRECISION
        return (Decimal(high).ln() - Decimal(low).ln()) / Decimal(2).ln()


def analyse(throughput: Decimal, measurements: Sequence[tuple[Decimal, Decimal]]) -> Series:
    """The series for one device's `throughput` and (devices, measured cluster throughput) pairs, each size once and
    every value already held to its rule (`bot.reader.series_syntax` does that); sorted by devices."""
    v = Fraction(throughput)
    points = tuple(sorted((measure(v, int(d), Fraction(a)) for d, a in measurements), key=lambda p: p.devices))
    return Series(v, points, _trend(points))


def _trend(points: tuple[Point, ...]) -> Trend:
    first, last = points[0], points[-1]
    with localcontext() as ctx:
        ctx.prec = PRECISION
        per_doubling = decimal(last.efficiency - first.efficiency) / doublings(first.devices, last.devices)
    falling = tuple((a, b) for a, b in zip(points, points[1:], strict=False) if b.speedup < a.speedup)
    return Trend(per_doubling, _serial_trend(points), falling)


def _serial_trend(points: tuple[Point, ...]) -> SerialTrend:
    """None where every size scales within half a percent of ideal (or above it); flat where the serial fractions
    spread by no more than `FLAT_SHARE` of the largest; else whether the largest cluster's is above the smallest's."""
    if all(p.efficiency >= LINEAR for p in points):
        return SerialTrend.NONE
    fractions = [p.serial_fraction for p in points if p.serial_fraction is not None]
    spread = max(fractions) - min(fractions)
    if spread <= FLAT_SHARE * max(abs(e) for e in fractions):
        return SerialTrend.FLAT
    return SerialTrend.RISING if fractions[-1] > fractions[0] else SerialTrend.FALLING
