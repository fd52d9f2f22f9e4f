"""How many examples a property test draws: the count its test names in the full run, a fifth of it (at least 50)
in the fast loop (`python -m pytest -m "not slow"`), where a property is shown to hold rather than searched through.
tests/conftest.py sets `fast` before any test module is imported."""

FAST_SHARE = 5
FAST_LEAST = 50

fast = False


def examples(count: int) -> int:
    """`count` in the full run, a fifth of it in the fast loop."""
    return max(count // FAST_SHARE, FAST_LEAST) if fast else count
