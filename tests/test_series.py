"""The series arithmetic: exact values at every size, the Karp–Flatt serial fraction, and the trend, read as
data-parallel training runs (the same batch on every device: e·(d − 1) is the per-step overhead)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal as D
from fractions import Fraction as F

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bot.model.series import TOLERANCE, SerialTrend, analyse, doublings, karp_flatt


def test_the_worked_example_comes_out_exactly():
    """v = 2000 samples/s on one device; measured A = 15 800 at d = 8, 31 000 at 16, 115 200 at 64. By hand:

    d = 8:  I = 8 · 2000 = 16 000;  E = 15 800 / 16 000 = 0.9875;  S = 15 800 / 2000 = 7.9
            e = (1/7.9 − 1/8) / (1 − 1/8) = ((8 − 7.9) / 63.2) · 8/7 = (1/632) · (8/7) = 1/553
    d = 16: I = 32 000;  E = 31 000 / 32 000 = 0.96875;  S = 15.5
            e = (1/15.5 − 1/16) / (15/16) = (0.5 / 248) · 16/15 = 8/3720 = 1/465
    d = 64: I = 128 000;  E = 115 200 / 128 000 = 0.9;  S = 57.6
            e = (1/57.6 − 1/64) / (63/64) = (6.4 / 3686.4) · 64/63 = 409.6 / 232 243.2 = 1/567
    E per doubling: (0.9 − 0.9875) / log2(64 / 8) = −0.0875 / 3 = −0.0291666…
    e ∝ (d − 1)^q, q the slope of ln e on ln(d − 1) over (ln 7, ln 1/553), (ln 15, ln 1/465), (ln 63, ln 1/567):
    −0.028, within 0.15 of 0: flat, an overhead in proportion to the cluster.
    """
    series = analyse(D(2000), [(D(64), D(115200)), (D(8), D(15800)), (D(16), D(31000))])
    rows = [(p.devices, p.ideal, p.efficiency, p.speedup, p.serial_fraction) for p in series.points]
    assert rows == [
        (8, 16000, F("0.9875"), F("7.9"), F(1, 553)),
        (16, 32000, F("0.96875"), F("15.5"), F(1, 465)),
        (64, 128000, F("0.9"), F("57.6"), F(1, 567)),
    ]
    assert series.trend.per_doubling == D("-0.0875") / 3
    assert series.trend.serial is SerialTrend.FLAT and round(series.trend.exponent, 3) == D("-0.028")
    assert series.above_ideal == () and series.trend.falling_speedups == ()


@pytest.mark.parametrize(
    ("throughput", "pairs", "serial", "above", "falling"),
    [
        # e: 1/19, 1/17, 3/35 (q = 0.24): overhead grows faster than the cluster
        (D(1000), [(D(2), D(1900)), (D(4), D(3400)), (D(8), D(5000))], SerialTrend.RISING, (), ()),
        # e: 1/3, then 1/27 (q = −2): E rises from 75 % to 90 %, the overhead shrinks
        (D(1000), [(D(2), D(1500)), (D(4), D(3600))], SerialTrend.SHRINKING, (), ()),
        # E 93.75 % at every size: one fixed overhead, e = (1/15) / (d − 1) falls (q = −1)
        (D(2000), [(D(8), D(15000)), (D(16), D(30000)), (D(32), D(60000))], SerialTrend.FIXED, (), ()),
        # E falls (95 %, 92 %, 89 %) and e with it: overhead grows, more slowly than the cluster (q = −0.43)
        (D(1000), [(D(8), D(7600)), (D(16), D(14720)), (D(32), D(28480))], SerialTrend.FALLING, (), ()),
        # perfect scaling: e is 0 everywhere
        (D(1000), [(D(2), D(2000)), (D(4), D(4000))], SerialTrend.NONE, (), ()),
        # within half a percent of ideal at every size: nothing to blame
        (D(1000), [(D(8), D(7990)), (D(64), D(63700))], SerialTrend.NONE, (), ()),
        # a constant e = 1/1000 that still costs 6 % at 64 devices: overhead in proportion to the cluster
        (D(1000), [(D(8), D("7944.389")), (D(64), D("60206.961"))], SerialTrend.FLAT, (), ()),
        # 2 devices above ideal (E = 1.05, e = −1/21); 8 devices slower than 4
        (D(1000), [(D(2), D(2100)), (D(4), D(3000)), (D(8), D(2500))], SerialTrend.RISING, (2,), ((4, 8),)),
    ],
)
def test_the_trend_and_what_contradicts_the_model(throughput, pairs, serial, above, falling):
    series = analyse(throughput, pairs)
    assert series.trend.serial is serial
    assert tuple(p.devices for p in series.above_ideal) == above
    assert tuple((a.devices, b.devices) for a, b in series.trend.falling_speedups) == falling


def test_a_serial_fraction_that_rises_a_fifth_is_not_flat_with_two_sizes_or_four():
    """`v=2000 8=15800 16=31000`: e goes from 1/553 to 1/465, +19 %, and the same course continues at 32 and 64
    devices; with two sizes it was "about the same at every size" (its spread within a quarter of the largest), with
    four it rose. Now both are read by their rate, q = 0.23: rising, alike."""
    two = analyse(D(2000), [(D(8), D(15800)), (D(16), D(31000))])
    four = analyse(D(2000), [(D(8), D(15800)), (D(16), D(31000)), (D(32), D(59000)), (D(64), D(108000))])
    assert two.trend.serial is four.trend.serial is SerialTrend.RISING
    assert abs(two.trend.exponent - four.trend.exponent) < D("0.01") and two.trend.exponent > TOLERANCE


CLASSES = [(D("0.6"), SerialTrend.RISING), (D("0.05"), SerialTrend.FLAT), (D("-0.1"), SerialTrend.FLAT),
           (D("-0.5"), SerialTrend.FALLING), (D("-1"), SerialTrend.FIXED), (D("-0.92"), SerialTrend.FIXED),
           (D("-1.7"), SerialTrend.SHRINKING)]


@settings(max_examples=80, deadline=None)
@given(sizes=st.lists(st.sampled_from([2, 3, 4, 8, 12, 16, 24, 32, 64, 128, 256, 1000]), min_size=4, max_size=6,
                      unique=True),
       case=st.sampled_from(CLASSES), least=st.sampled_from([D("0.01"), D("0.1"), D("1")]))
def test_the_same_course_of_overhead_is_read_alike_from_any_two_sizes_or_all(sizes, case, least):
    """Overhead growing as (d − 1)^(q + 1) (e ∝ (d − 1)^q), its least share of a step `least`: every pair of the
    sizes, and all of them, give q back and the same reading of it."""
    exponent, expected = case
    sizes = sorted(sizes)
    anchor = sizes[-1] if exponent < -1 else sizes[0]  # where the overhead is least
    v = D(1000)

    def pair(d):
        overhead = least * (D(d - 1) / D(anchor - 1)) ** (exponent + 1)
        return D(d), (d * v / (1 + overhead)).quantize(D("0.000001"))

    subsets = [[a, b] for i, a in enumerate(sizes) for b in sizes[i + 1:]] + [sizes]
    for subset in subsets:
        series = analyse(v, [pair(d) for d in subset])
        assert series.trend.serial is expected, (subset, series.trend)
        assert abs(series.trend.exponent - exponent) < D("0.001"), (subset, series.trend)


@pytest.mark.parametrize(
    ("speedup", "devices", "expected"),
    [
        (F(36), 64, F(1, 81)),  # (1/36 − 1/64) / (63/64) = (28 / 2304) · 64/63
        (F(8), 8, F(0)),  # linear: no serial part
        (F(1), 8, F(1)),  # no speedup at all: everything serial
        (F(21, 10), 2, F(-1, 21)),  # above ideal: negative, which no serial part can be
        (F(1), 1, None),  # one device: nothing to divide by
    ],
)
def test_karp_flatt_by_hand(speedup, devices, expected):
    assert karp_flatt(speedup, devices) == expected


@pytest.mark.parametrize(("low", "high", "expected"), [(8, 64, D(3)), (1, 1024, D(10)), (16, 16 * 3, None)])
def test_doublings_are_exact_for_powers_of_two(low, high, expected):
    if expected is None:
        assert abs(doublings(low, high) - D(3).ln() / D(2).ln()) < D("1e-25")
    else:
        assert doublings(low, high) == expected



sizes = st.lists(st.integers(min_value=2, max_value=1_000_000), min_size=2, max_size=12, unique=True)
rates = st.decimals(min_value=D("0.001"), max_value=D("1e9"), places=3, allow_nan=False, allow_infinity=False)
shares = st.fractions(min_value=F(1, 100), max_value=F(11, 10), max_denominator=1000)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_efficiency_and_serial_fraction_match_their_definitions():
    """For random series: E = A / (d·v), S = A / v and e = (1/S − 1/d) / (1 − 1/d), exactly, at every size; the
    examples reach every course of e and sizes both above and below ideal."""
    seen: Counter[str] = Counter()

    @settings(max_examples=300, deadline=None)
    @given(throughput=rates, devices=sizes, data=st.data())
    def check(throughput, devices, data):
        efficiencies = data.draw(st.lists(shares, min_size=len(devices), max_size=len(devices)))
        shape = data.draw(st.sampled_from(["any", "E falls", "a constant e", "a flat E", "a rising e", "linear"]))
        if shape == "E falls":  # as clusters usually go
            devices, efficiencies = sorted(devices), sorted(efficiencies, reverse=True)
        elif shape == "linear":  # within half a percent of ideal, or above it, at every size
            efficiencies = data.draw(st.lists(st.fractions(min_value=F(996, 1000), max_value=F(11, 10)),
                                              min_size=len(devices), max_size=len(devices)))
        elif shape == "a constant e":  # overhead in proportion: E = 1 / (1 + e (d − 1)) for one e at every size
            serial = data.draw(st.fractions(min_value=F(1, 10**6), max_value=F(1, 10), max_denominator=10**6))
            efficiencies = [1 / (1 + serial * (d - 1)) for d in devices]
        elif shape == "a rising e":  # e = c·(d − 1): overhead growing as (d − 1)², faster than the cluster
            serial = data.draw(st.fractions(min_value=F(1, 10**9), max_value=F(1, 100), max_denominator=10**9))
            efficiencies = [1 / (1 + serial * (d - 1) ** 2) for d in devices]
        elif shape == "a flat E":  # one fixed overhead at every size
            efficiencies = [data.draw(st.fractions(min_value=F(1, 10), max_value=F(99, 100)))] * len(devices)
        pairs = [(D(d), max(D("0.001"), (d * throughput * D(e.numerator) / D(e.denominator)).quantize(D("0.001"))))
                 for d, e in zip(devices, efficiencies, strict=True)]
        series = analyse(throughput, pairs)
        v = F(throughput)
        for point, (d, a) in zip(series.points, sorted(pairs), strict=True):
            assert point.devices == d
            assert point.efficiency == F(a) / (int(d) * v)
            assert point.speedup == F(a) / v == point.devices * point.efficiency
            assert point.serial_fraction * (1 - F(1, point.devices)) == 1 / point.speedup - F(1, point.devices)
        kind = "above ideal" if series.above_ideal else "at or below ideal"
        event(kind)
        event(f"serial fraction {series.trend.serial.value}")
        seen["eight sizes or more" if len(series.points) >= 8 else "fewer sizes"] += 1
        seen[kind] += 1
        seen[series.trend.serial.value] += 1

    check()
    assert seen["above ideal"] >= 20 and seen["at or below ideal"] >= 20
    assert seen["eight sizes or more"] >= 20 and seen["fewer sizes"] >= 20  # long series as well as short ones
    assert all(seen[trend.value] >= 3 for trend in SerialTrend), seen
