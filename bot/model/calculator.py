"""The scaling model: ideal I = d·v, actual A = I·E, speedup S = d·E, and its inverses.

Pure `Decimal` arithmetic; no Slack, no locale, no I/O. Inputs arrive through `make_scenario`, which holds every
value to its rule; a broken rule becomes a `UserInputError` carrying the bounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import ROUND_CEILING, Decimal, localcontext
from enum import StrEnum

from bot.errors import ErrorCode, UserInputError

__all__ = ["BOUNDS", "MAX_ACTUAL", "MAX_DEVICES", "MAX_THROUGHPUT", "MIN_EFFICIENCY", "Quantity", "Result", "Scenario",
           "check", "check_solved", "make_scenario", "solve"]


class Quantity(StrEnum):
    """The four quantities of the model; any three determine the fourth."""

    DEVICES = "devices"
    THROUGHPUT = "throughput"
    EFFICIENCY = "efficiency"
    ACTUAL = "actual"


QUANTITIES = tuple(Quantity)  # in their order, without iterating the enum class each time
MAX_DEVICES = 1_000_000
MAX_THROUGHPUT = Decimal("1e12")  # samples/s of one device
MAX_ACTUAL = MAX_THROUGHPUT * MAX_DEVICES  # samples/s of a whole cluster
MIN_EFFICIENCY = Decimal("0.0001")  # 0.01 %: below this the model says nothing useful
ONE = Decimal(1)
PRECISION = 28


@dataclass(frozen=True)
class Scenario:
    """Three of the four quantities, each checked against the model's rules; the missing one is solved.

    A plain solver rather than a pydantic model: the values come from the parser already as `Decimal`s, so
    nothing is left to coerce, and each rule must also judge the *solved* value (a throughput that a target
    implies, say) with the same bounds and the same error. One function per quantity does both, and raises the
    user's error directly, with the bounds it broke.
    """

    given: Mapping[Quantity, Decimal]
    unknown: Quantity


def make_scenario(**values: Decimal | None) -> Scenario:
    """A Scenario of exactly three given quantities (by name), each within its bounds; else the user's error."""
    given = {q: value for q in QUANTITIES if (value := values.get(q)) is not None}  # a StrEnum: keyed as its text
    if len(given) < 3:
        raise UserInputError(ErrorCode.NOT_ENOUGH_QUANTITIES)
    if len(given) > 3:
        raise UserInputError(ErrorCode.TOO_MANY_QUANTITIES)
    for quantity, value in given.items():
        check(quantity, value)
    return Scenario(given=given, unknown=next(q for q in QUANTITIES if q not in given))


def check(quantity: Quantity, value: Decimal) -> None:
    """Raise the user's error if `value` breaks `quantity`'s rule."""
    if not value.is_finite():
        raise UserInputError(ErrorCode.NOT_A_NUMBER, quantity=quantity.value)
    if quantity is Quantity.DEVICES and value != value.to_integral_value():
        raise UserInputError(ErrorCode.DEVICES_NOT_WHOLE, quantity=quantity.value)
    low, high, low_included = BOUNDS[quantity]
    if not (low <= value if low_included else low < value) or value > high:
        raise UserInputError(ErrorCode.OUT_OF_RANGE, quantity=quantity.value, low=str(low), high=str(high))


def check_solved(quantity: Quantity, value: Decimal) -> None:
    """`check` for a solved value: a broken rule carries the value it came out at."""
    try:
        check(quantity, value)
    except UserInputError as error:
        raise replace(error, value=str(value)) from None


# (lowest, highest, whether the lowest itself is allowed) for each quantity
BOUNDS: dict[Quantity, tuple[Decimal, Decimal, bool]] = {
    Quantity.DEVICES: (ONE, Decimal(MAX_DEVICES), True),
    Quantity.THROUGHPUT: (Decimal(0), MAX_THROUGHPUT, False),
    Quantity.EFFICIENCY: (MIN_EFFICIENCY, ONE, True),
    Quantity.ACTUAL: (Decimal(0), MAX_ACTUAL, False),
}


@dataclass(frozen=True)
class Result:
    """All four quantities plus what follows from them."""

    solved: Quantity
    devices: Decimal
    throughput: Decimal
    efficiency: Decimal
    actual: Decimal
    ideal: Decimal
    speedup: Decimal
    loss: Decimal
    target: Decimal | None = None  # the throughput asked for: named as a target, or the one devices were solved for


def solve(scenario: Scenario) -> Result:
    """Solve the one unknown quantity, then derive ideal throughput, speedup and loss."""
    with localcontext() as ctx:
        ctx.prec = PRECISION
        return _SOLVERS[scenario.unknown](scenario.given)


def _complete(solved: Quantity, d: Decimal, v: Decimal, e: Decimal, target: Decimal | None = None) -> Result:
    ideal = d * v
    actual = ideal * e
    return Result(
        solved=solved,
        devices=d,
        throughput=v,
        efficiency=e,
        actual=actual,
        ideal=ideal,
        speedup=d * e,
        loss=ideal - actual,
        target=target,
    )


Given = Mapping[Quantity, Decimal]
D, V, E, A = Quantity.DEVICES, Quantity.THROUGHPUT, Quantity.EFFICIENCY, Quantity.ACTUAL


def _solve_actual(g: Given) -> Result:
    return _complete(A, g[D], g[V], g[E])


def _solve_efficiency(g: Given) -> Result:
    ideal = g[D] * g[V]
    if g[A] > ideal:
        raise UserInputError(ErrorCode.ACTUAL_ABOVE_IDEAL, quantity=A.value, high=str(ideal))
    efficiency = g[A] / ideal
    check_solved(E, efficiency)
    return _with_actual(_complete(E, g[D], g[V], efficiency), g[A])


def _solve_throughput(g: Given) -> Result:
    throughput = g[A] / (g[D] * g[E])
    check_solved(V, throughput)
    return _with_actual(_complete(V, g[D], throughput, g[E]), g[A])


def _solve_devices(g: Given) -> Result:
    devices = max(ONE, (g[A] / (g[V] * g[E])).to_integral_value(rounding=ROUND_CEILING))
    check_solved(D, devices)
    return _complete(D, devices, g[V], g[E], target=g[A])


def _with_actual(result: Result, actual: Decimal) -> Result:
    """Keep the user's own actual throughput exactly, rather than a re-multiplied one."""
    return replace(result, actual=actual, loss=result.ideal - actual)


_SOLVERS = {A: _solve_actual, E: _solve_efficiency, V: _solve_throughput, D: _solve_devices}
