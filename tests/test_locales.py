"""Finding a user's locale: cached, bounded, and never slower than Slack's deadline allows."""

from __future__ import annotations

import pytest
from slack_sdk import WebClient

from bot.numbers import resolve_locale
from bot.slack.cache import ExpiringCache
from bot.slack.locales import CACHE_TTL, PAUSE_AFTER_FAILURE, LocaleDirectory
from fake_slack import FakeSlack


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def fake():
    fake = FakeSlack(locales={"UDE": "de-DE", "ULA": "es-LA", "UXX": "xx-XX"}).start()
    yield fake
    fake.stop()


def directory(fake: FakeSlack, clock: Clock) -> LocaleDirectory:
    client = WebClient(token="xoxb-1", base_url=fake.api_url, timeout=1, retry_handlers=[])
    return LocaleDirectory(client, resolve_locale("en-US"), clock=clock)


def test_a_users_locale_is_looked_up_once_then_cached_until_it_expires(fake):
    clock = Clock()
    locales = directory(fake, clock)
    assert str(locales.locale_of("T", "UDE")) == "de_DE"
    assert str(locales.locale_of("T", "UDE")) == "de_DE"
    assert len(fake.calls_to("users.info")) == 1
    assert fake.calls_to("users.info")[0].params["include_locale"] in ("true", "1", True)
    clock.now += CACHE_TTL + 1
    locales.locale_of("T", "UDE")
    assert len(fake.calls_to("users.info")) == 2


def test_slack_only_locales_are_mapped_and_unknown_ones_fall_back(fake):
    locales = directory(fake, Clock())
    assert str(locales.locale_of("T", "ULA")) == "es_419"
    assert str(locales.locale_of("T", "UXX")) == "en_US"


@pytest.mark.parametrize("behaviour", ["error", "ratelimit"])
def test_after_a_failure_lookups_pause_and_then_resume(fake, behaviour):
    clock = Clock()
    locales = directory(fake, clock)
    fake.behaviour["users.info"] = behaviour
    assert str(locales.locale_of("T", "UDE")) == "en_US"
    assert str(locales.locale_of("T", "UDE")) == "en_US"
    assert len(fake.calls_to("users.info")) == 1
    fake.behaviour["users.info"] = "ok"
    clock.now += PAUSE_AFTER_FAILURE + 1
    assert str(locales.locale_of("T", "UDE")) == "de_DE"


def test_expiring_cache_is_bounded_and_forgets_the_least_recent():
    cache: ExpiringCache[int] = ExpiringCache(max_entries=3, ttl=10)
    for key in range(5):
        cache.put(key, key)
    assert len(cache) == 3 and cache.get(0) is None and cache.get(4) == 4


def test_add_if_new_admits_a_key_once_until_it_expires():
    clock = Clock()
    seen: ExpiringCache[bool] = ExpiringCache(max_entries=10, ttl=5, clock=clock)
    assert seen.add_if_new("Ev1", True) is True
    assert seen.add_if_new("Ev1", True) is False
    clock.now += 6
    assert seen.add_if_new("Ev1", True) is True


def test_only_a_few_lookups_wait_on_slack_at_once(fake):
    """With users.info hanging, requests beyond the lookups in flight answer at once in the default locale."""
    import threading
    import time

    from bot.slack.locales import MAX_LOOKUPS_IN_FLIGHT

    fake.behaviour["users.info"] = "hang"
    locales = directory(fake, Clock())
    results: list[tuple[str, float]] = []

    def ask(user: str) -> None:
        started = time.monotonic()
        results.append((str(locales.locale_of("T", user)), time.monotonic() - started))

    threads = [threading.Thread(target=ask, args=(f"U{i}",)) for i in range(MAX_LOOKUPS_IN_FLIGHT + 6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(locale == "en_US" for locale, _ in results)
    assert sum(1 for _, waited in results if waited > 0.5) <= MAX_LOOKUPS_IN_FLIGHT
