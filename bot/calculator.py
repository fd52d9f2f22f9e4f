"""The scaling model: ideal I = d·v, actual A = I·E, speedup S = d·E, and its inverses.

Pure `Decimal` arithmetic; no Slack, no locale, no I/O. Inputs arrive through `Scenario`, a pydantic model
that holds the rules every value must obey; a broken rule becomes a `UserInputError` carrying the bounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal, localcontext
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from bot.errors import ErrorCode, UserInputError


class Quantity(StrEnum):
    """The four quantities of the model; any three determine the fourth."""

    DEVICES = "devices"
    THROUGHPUT = "throughput"
    EFFICIENCY = "efficiency"
    ACTUAL = "actual"


MAX_DEVICES = 1_000_000
MAX_THROUGHPUT = Decimal("1e12")  # samples/s of one device
MAX_ACTUAL = MAX_THROUGHPUT * MAX_DEVICES  # samples/s of a whole cluster
MIN_EFFICIENCY = Decimal("0.0001")  # 0.01 %: below this the model says nothing useful
ONE = Decimal(1)
PRECISION = 28


class Scenario(BaseModel):
    """Three of the four quantities, checked against the model's rules. The missing one is solved."""

    model_config = ConfigDict(frozen=True)

    devices: Decimal | None = None
    throughput: Decimal | None = None
    efficiency: Decimal | None = None
    actual: Decimal | None = None

    @model_validator(mode="after")
    def _check(self) -> Scenario:
        given = [q for q in Quantity if getattr(self, q.value) is not None]
        if len(given) < 3:
            raise _rule(ErrorCode.NOT_ENOUGH_QUANTITIES)
        if len(given) > 3:
            raise _rule(ErrorCode.TOO_MANY_QUANTITIES)
        if self.devices is not None:
            _check_devices(self.devices)
        if self.throughput is not None:
            _check_range(self.throughput, Quantity.THROUGHPUT, MAX_THROUGHPUT)
        if self.actual is not None:
            _check_range(self.actual, Quantity.ACTUAL, MAX_ACTUAL)
        if self.efficiency is not None:
            _check_efficiency(self.efficiency)
        return self

    @property
    def unknown(self) -> Quantity:
        return next(q for q in Quantity if getattr(self, q.value) is None)


class _RuleBroken(ValueError):
    """Carries a UserInputError through pydantic's validation machinery."""

    def __init__(self, error: UserInputError) -> None:
        super().__init__(error.code.value)
        self.error = error


def _rule(code: ErrorCode, quantity: Quantity | None = None, low: object = None, high: object = None) -> _RuleBroken:
    return _RuleBroken(
        UserInputError(
            code,
            quantity=quantity.value if quantity else None,
            low=None if low is None else str(low),
            high=None if high is None else str(high),
        )
    )


def _check_devices(devices: Decimal) -> None:
    if not devices.is_finite() or devices != devices.to_integral_value():
        raise _rule(ErrorCode.DEVICES_NOT_WHOLE, Quantity.DEVICES)
    if not 1 <= devices <= MAX_DEVICES:
        raise _rule(ErrorCode.OUT_OF_RANGE, Quantity.DEVICES, 1, MAX_DEVICES)


def _check_range(value: Decimal, quantity: Quantity, high: Decimal) -> None:
    if not value.is_finite() or not 0 < value <= high:
        raise _rule(ErrorCode.OUT_OF_RANGE, quantity, 0, high)


def _check_efficiency(efficiency: Decimal) -> None:
    if not efficiency.is_finite() or not MIN_EFFICIENCY <= efficiency <= ONE:
        raise _rule(ErrorCode.OUT_OF_RANGE, Quantity.EFFICIENCY, MIN_EFFICIENCY, ONE)


def make_scenario(**values: Decimal | None) -> Scenario:
    """Build a Scenario, turning any broken rule into the user's error (never a pydantic error)."""
    try:
        return Scenario(**values)
    except ValidationError as exc:
        cause = exc.errors()[0].get("ctx", {}).get("error")
        if isinstance(cause, _RuleBroken):
            raise cause.error from None
        location = exc.errors()[0].get("loc") or (None,)
        raise UserInputError(ErrorCode.NOT_A_NUMBER, quantity=str(location[0])) from None


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
    target: Decimal | None = None  # the throughput asked for, when devices were solved and rounded up


def solve(scenario: Scenario) -> Result:
    """Solve the one unknown quantity, then derive ideal throughput, speedup and loss."""
    with localcontext() as ctx:
        ctx.prec = PRECISION
        return _SOLVERS[scenario.unknown](scenario)


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


def _solve_actual(s: Scenario) -> Result:
    assert s.devices is not None and s.throughput is not None and s.efficiency is not None
    return _complete(Quantity.ACTUAL, s.devices, s.throughput, s.efficiency)


def _solve_efficiency(s: Scenario) -> Result:
    assert s.devices is not None and s.throughput is not None and s.actual is not None
    ideal = s.devices * s.throughput
    if s.actual > ideal:
        raise UserInputError(ErrorCode.ACTUAL_ABOVE_IDEAL, quantity=Quantity.ACTUAL.value, high=str(ideal))
    efficiency = s.actual / ideal
    _raise_broken(_check_efficiency, efficiency)
    result = _complete(Quantity.EFFICIENCY, s.devices, s.throughput, efficiency)
    return _with_actual(result, s.actual)


def _solve_throughput(s: Scenario) -> Result:
    assert s.devices is not None and s.efficiency is not None and s.actual is not None
    throughput = s.actual / (s.devices * s.efficiency)
    _raise_broken(_check_range, throughput, Quantity.THROUGHPUT, MAX_THROUGHPUT)
    return _with_actual(_complete(Quantity.THROUGHPUT, s.devices, throughput, s.efficiency), s.actual)


def _solve_devices(s: Scenario) -> Result:
    assert s.throughput is not None and s.efficiency is not None and s.actual is not None
    devices = (s.actual / (s.throughput * s.efficiency)).to_integral_value(rounding=ROUND_CEILING)
    _raise_broken(_check_devices, max(devices, ONE))
    return _complete(Quantity.DEVICES, max(devices, ONE), s.throughput, s.efficiency, target=s.actual)


def _with_actual(result: Result, actual: Decimal) -> Result:
    """Keep the user's own actual throughput exactly, rather than a re-multiplied one."""
    return Result(**{**result.__dict__, "actual": actual, "loss": result.ideal - actual})


def _raise_broken(check, value, *args) -> None:  # type: ignore[no-untyped-def]
    """Check a solved value; a broken rule carries the value it came out at."""
    try:
        check(value, *args)
    except _RuleBroken as broken:
        broken.error.value = str(value)
        raise broken.error from None


_SOLVERS = {
    Quantity.ACTUAL: _solve_actual,
    Quantity.EFFICIENCY: _solve_efficiency,
    Quantity.THROUGHPUT: _solve_throughput,
    Quantity.DEVICES: _solve_devices,
}
