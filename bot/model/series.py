"""A measurement series: one device's throughput v and the cluster throughput A measured at several sizes d, and
what follows at each size: ideal I = d·v, efficiency E = A / (d·v), speedup S = A / v, and the experimentally
determined serial fraction (Karp–Flatt) e = (1/S − 1/d) / (1 − 1/d), for d > 1.

What e means depends on what stays fixed as devices are added. Data-parallel training keeps the batch on every
device the same: one device takes t₁ per step, d devices take t(d) = t₁ + o(d), o the per-step overhead that no
compute hides (the all-reduce, synchronization, waiting for stragglers). Then E = t₁ / t(d), S = d·E, and

    e = (t(d)/t₁ − 1) / (d − 1) = o(d) / (t₁·(d − 1)),   so   o(d) / t₁ = 1/E − 1 = e·(d − 1).

A constant e is an overhead that grows in proportion to d − 1, as a ring all-reduce's latency does (2(d − 1) link
latencies a step); a fixed overhead gives a *falling* e (as 1/(d − 1)) and a flat E; a rising e is an overhead
growing faster than the cluster. (Amdahl's reading, a constant e as a fixed serial part, holds for a fixed *total*
batch, not for data-parallel training.) The course of e is fitted as e ∝ (d − 1)^q, so the overhead grows as
(d − 1)^(q + 1): q = 0 proportional, q = −1 fixed (`SerialTrend`). The fit is a least-squares line through
(ln(d − 1), ln e), which gives the same q for the same course whether two sizes or twelve were measured.

Pure arithmetic, no Slack, no locale, no I/O. The measured values arrive as `Decimal`s and every derived value is
computed exactly, as a rational number (`fractions.Fraction`), so nothing is rounded before a reply writes it;
`decimal` turns one into a `Decimal` of `PRECISION` digits for writing. Only the change of E per doubling of the
cluster and the exponent q need logarithms, and are `Decimal`s of that precision. Nothing is extrapolated to a size
not measured.

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
    "PRECISION",
    "TOLERANCE",
    "Point",
    "Series",
    "SerialTrend",
    "Trend",
    "analyse",
    "decimal",
    "doublings",
    "karp_flatt",
    "serial_power",
]

MIN_POINTS = 2  # cluster sizes a series needs (besides the one device), and at most
MAX_POINTS = 12
PRECISION = 28
TOLERANCE = Decimal("0.15")  # q this close to 0 (or −1): e (or the overhead) steady, within 11 % per doubling
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
    """How the serial fraction e moves as the cluster grows, and what that says of the per-step overhead o(d) with
    the same batch on every device (e ∝ (d − 1)^q, o ∝ (d − 1)^(q + 1))."""

    NONE = "none"  # e zero or nearly (E at least `LINEAR` at every size): the speedup keeps pace with the cluster
    RISING = "rising"  # q > 0: overhead growing faster than the cluster (a link or switch saturating)
    FLAT = "flat"  # q ≈ 0: overhead in proportion to the cluster (a ring all-reduce's latency)
    FALLING = "falling"  # −1 < q < 0: overhead growing more slowly than the cluster (partly fixed)
    FIXED = "fixed"  # q ≈ −1: the same overhead at every size, E flat: a well-tuned setup
    SHRINKING = "shrinking"  # q < −1: overhead shrinking as devices are added, E rising: noise, or caches, memory


@dataclass(frozen=True)
class Trend:
    """What the series says as a whole, from its smallest measured size to its largest."""

    per_doubling: Decimal  # the change of E per doubling of the cluster (negative: E falls)
    serial: SerialTrend
    exponent: Decimal | None  # q of e ∝ (d − 1)^q; None where e is above zero at fewer than two sizes
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


def serial_power(points: Sequence[Point]) -> tuple[Decimal, Decimal] | None:
    """ln c and q of e = c·(d − 1)^q: the least-squares line through (ln(d − 1), ln e) over the sizes where e is
    above zero (a size at or above ideal has no overhead to follow); None where fewer than two are.

    >>> series = analyse(Decimal(2000), [(Decimal(8), Decimal(15000)), (Decimal(32), Decimal(60000))])
    >>> [round(value, 6) for value in serial_power(series.points)]   # E = 93.75 % at both: e = (1/15) / (d − 1)
    [Decimal('-2.708050'), Decimal('-1.000000')]
    """
    pairs = [(p.devices - 1, e) for p in points if (e := p.serial_fraction) is not None and e > 0]
    if len(pairs) < 2:
        return None
    with localcontext() as ctx:
        ctx.prec = PRECISION
        xs = [Decimal(n).ln() for n, _ in pairs]
        ys = [decimal(e).ln() for _, e in pairs]
        zero = Decimal(0)
        mean_x, mean_y = sum(xs, zero) / len(xs), sum(ys, zero) / len(ys)
        slope = (sum(((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)), zero)
                 / sum(((x - mean_x) ** 2 for x in xs), zero))
        return mean_y - slope * mean_x, slope


def _trend(points: tuple[Point, ...]) -> Trend:
    first, last = points[0], points[-1]
    with localcontext() as ctx:
        ctx.prec = PRECISION
        per_doubling = decimal(last.efficiency - first.efficiency) / doublings(first.devices, last.devices)
    falling = tuple((a, b) for a, b in zip(points, points[1:], strict=False) if b.speedup < a.speedup)
    power = serial_power(points)
    exponent = None if power is None else power[1]
    return Trend(per_doubling, _serial_trend(points, exponent), exponent, falling)


def _serial_trend(points: tuple[Point, ...], exponent: Decimal | None) -> SerialTrend:
    """None where every size scales within half a percent of ideal (or above it); else by q, the exponent of e:
    within `TOLERANCE` of 0 flat, of −1 fixed, above, between or below those rising, falling or shrinking. Where
    e is above zero at one size only (the others at or above ideal), rising if that is the largest size."""
    if all(p.efficiency >= LINEAR for p in points):
        return SerialTrend.NONE
    if exponent is None:
        last = points[-1].serial_fraction
        return SerialTrend.RISING if last is not None and last > 0 else SerialTrend.SHRINKING
    if abs(exponent) <= TOLERANCE:
        return SerialTrend.FLAT
    if exponent > 0:
        return SerialTrend.RISING
    if abs(exponent + 1) <= TOLERANCE:
        return SerialTrend.FIXED
    return SerialTrend.FALLING if exponent > -1 else SerialTrend.SHRINKING
