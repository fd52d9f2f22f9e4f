"""The order the suite's tests are handed to xdist's workers in (tests/conftest.py)."""

import pytest

from conftest import slow_first_in_each_share


@pytest.mark.parametrize(
    ("items", "workers", "expected"),
    [
        ("abcdefXY", 2, "XabcYdef"),  # each share of four leads with one slow test
        ("XYZabc", 3, "XaYbZc"),
        ("abcdef", 3, "abcdef"),  # nothing slow: the order is kept
        ("XYZW", 2, "XZYW"),  # only slow tests: dealt in turn
        ("aXbYcZd", 4, "XYaZbcd"),  # shares of 1, 2, 2 and 2: the last has no slow test
    ],
)
def test_every_worker_starts_on_its_share_of_the_slow_tests(items, workers, expected):
    ordered = slow_first_in_each_share(list(items), workers, str.isupper)
    assert "".join(ordered) == expected
    assert sorted(ordered) == sorted(items)  # nothing lost, nothing twice
