"""The model's arithmetic, forward and inverse, on exact decimals."""

from decimal import Decimal as D

import pytest

from bot.errors import ErrorCode, UserInputError
from bot.model.calculator import MAX_DEVICES, Quantity, make_scenario, solve


def test_seed_example_comes_out_exactly():
    result = solve(make_scenario(devices=D(64), throughput=D(2000), efficiency=D("0.9")))
    assert (result.ideal, result.actual, result.speedup, result.loss) == (D(128000), D(115200), D("57.6"), D(12800))
    assert result.solved is Quantity.ACTUAL


@pytest.mark.parametrize(
    ("given", "solved", "expected"),
    [
        ({"devices": D(64), "throughput": D(2000), "actual": D(115200)}, "efficiency", D("0.9")),
        ({"devices": D(64), "efficiency": D("0.9"), "actual": D(115200)}, "throughput", D(2000)),
        ({"throughput": D(2000), "efficiency": D("0.9"), "actual": D(115200)}, "devices", D(64)),
        ({"throughput": D(2000), "efficiency": D("0.9"), "actual": D(115201)}, "devices", D(65)),
        ({"throughput": D(2000), "efficiency": D("0.9"), "actual": D(1)}, "devices", D(1)),
    ],
)
def test_inverse_modes_solve_the_missing_quantity(given, solved, expected):
    result = solve(make_scenario(**given))
    assert result.solved.value == solved
    assert getattr(result, solved) == expected


def test_devices_for_a_target_are_rounded_up_and_report_what_they_deliver():
    result = solve(make_scenario(throughput=D(2000), efficiency=D("0.9"), actual=D(115201)))
    assert result.target == D(115201)
    assert result.actual == D(117000)  # 65 whole devices deliver this, not the target
    assert result.actual >= result.target


def test_measured_efficiency_keeps_the_users_actual_throughput():
    result = solve(make_scenario(devices=D(3), throughput=D(1), actual=D(2)))
    assert result.actual == D(2)
    assert result.loss == D(1)


@pytest.mark.parametrize(
    ("given", "code", "quantity"),
    [
        ({"devices": D("64.5"), "throughput": D(1), "efficiency": D(1)}, ErrorCode.DEVICES_NOT_WHOLE, "devices"),
        ({"devices": D(0), "throughput": D(1), "efficiency": D(1)}, ErrorCode.OUT_OF_RANGE, "devices"),
        ({"devices": D(MAX_DEVICES + 1), "throughput": D(1), "efficiency": D(1)}, ErrorCode.OUT_OF_RANGE, "devices"),
        ({"devices": D(8), "throughput": D(-1), "efficiency": D(1)}, ErrorCode.OUT_OF_RANGE, "throughput"),
        ({"devices": D(8), "throughput": D("1e13"), "efficiency": D(1)}, ErrorCode.OUT_OF_RANGE, "throughput"),
        ({"devices": D(8), "throughput": D(1), "efficiency": D("1.01")}, ErrorCode.OUT_OF_RANGE, "efficiency"),
        ({"devices": D(8), "throughput": D(1), "efficiency": D(0)}, ErrorCode.OUT_OF_RANGE, "efficiency"),
        ({"devices": D(8), "throughput": D("NaN"), "efficiency": D(1)}, ErrorCode.NOT_A_NUMBER, "throughput"),
        ({"devices": D(8), "throughput": D("Infinity"), "efficiency": D(1)}, ErrorCode.NOT_A_NUMBER, "throughput"),
        ({"devices": D(8), "throughput": D(1000), "actual": D(8001)}, ErrorCode.ACTUAL_ABOVE_IDEAL, "actual"),
        ({"devices": D(8), "throughput": D(1)}, ErrorCode.NOT_ENOUGH_QUANTITIES, None),
        (
            {"devices": D(8), "throughput": D(1), "efficiency": D(1), "actual": D(8)},
            ErrorCode.TOO_MANY_QUANTITIES,
            None,
        ),
    ],
)
def test_broken_rules_raise_the_users_error_with_its_data(given, code, quantity):
    with pytest.raises(UserInputError) as caught:
        solve(make_scenario(**given))
    assert caught.value.code is code
    assert caught.value.quantity == quantity


def test_solving_devices_beyond_the_bound_is_an_error_not_a_huge_cluster():
    with pytest.raises(UserInputError) as caught:
        solve(make_scenario(throughput=D("0.001"), efficiency=D("0.5"), actual=D("1e9")))
    assert caught.value.code is ErrorCode.OUT_OF_RANGE
