"""dpscale's policies as values (encode/httpx's `Timeout` and `Limits`): how follow-up work is held and tried, what
an HTTP connection may take of a worker, and when a worker does what no request waits for. Each is frozen, has its
defaults here and nowhere else, is built once from the settings (`Settings.followups`, `Settings.limits`,
`Settings.pacing`) and is passed to where it applies; a test builds its own.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["API_TIMEOUT", "FollowUpPolicy", "LANDING_WAIT", "Limits", "MIN_LEASE", "Pacing"]

API_TIMEOUT = 10  # seconds a Web API call made after the acknowledgement waits for Slack
LANDING_WAIT = 3.0  # seconds a post whose outcome is unknown is given to land before its thread is looked through
# the shortest lease: a post and its landing wait fit in it, should the heartbeat that extends it be held up
MIN_LEASE = API_TIMEOUT + LANDING_WAIT


@dataclass(frozen=True)
class FollowUpPolicy:
    """How follow-up work is held, tried and given up, as one value (built once from Settings: `followups`).

    A process holds a job it has queued or is doing for `lease` seconds, extended every `heartbeat` seconds while it
    still has it; it tries `tries` times, waiting `backoff` between, then hands the job back for any process to take
    `retry_after` seconds later; after `max_attempts` in all, or once the job is older than `window`, the user gets the
    apology instead. Done jobs' keys, handled events' and where each mention's answer is are remembered `memory` seconds
    (Slack retries an event for about an hour). An edit of a mention whose first answer another process is posting looks
    for that answer again after each of `poll_delays` (the last repeating), for as long as that post may take
    (`call_timeout`). Each process looks for jobs nobody holds every `sweep_every` seconds, deletes what has expired
    every `expire_every`, the first time `first_expiry_after` seconds after it starts, and, having finished work, cuts
    what it carried from SQLite's write-ahead log within `scrub_every`."""

    lease: float
    expire_every: float
    window: float
    memory: float = 3600.0
    tries: int = 3
    backoff: tuple[float, ...] = (1.0, 3.0)
    max_attempts: int = 6
    retry_after: float = 5.0
    landing_wait: float = LANDING_WAIT
    call_timeout: float = API_TIMEOUT  # a call cut off by a stop may still be done by Slack until then
    poll_delays: tuple[float, ...] = (0.02, 0.05, 0.1, 0.2)
    sweep_every: float = 1.0
    first_expiry_after: float = 5.0
    scrub_every: float = 5.0  # at most this often, finished payloads are cut from SQLite's write-ahead log
    threads: tuple[tuple[str, int], ...] = (("mention", 16), ("chart", 2))  # per kind (else `other_threads`): each
    # waits on Slack; a chart also draws, in a process of its own
    other_threads: int = 8

    def threads_for(self, kind: str) -> int:
        """Threads in the pool of `kind`'s jobs."""
        return dict(self.threads).get(kind, self.other_threads)

    @property
    def take_at_once(self) -> int:
        """Jobs one sweep takes up: as many as the mentions' pool has threads."""
        return self.threads_for("mention")

    @property
    def heartbeat(self) -> float:
        """Seconds between extensions of the leases a process holds: three fit in one lease."""
        return self.lease / 3

    def wait_before(self, attempt: int) -> float:
        """Seconds to wait before try `attempt + 1` in one process (attempt counts from 0)."""
        return self.backoff[min(attempt, len(self.backoff) - 1)]

    def poll_delay(self, look: int) -> float:
        """Seconds to wait before look `look + 1` for an answer another process is posting (look counts from 0).

        >>> [FollowUpPolicy(lease=30, expire_every=60, window=120).poll_delay(look) for look in range(6)]
        [0.02, 0.05, 0.1, 0.2, 0.2, 0.2]
        """
        return self.poll_delays[min(look, len(self.poll_delays) - 1)]


@dataclass(frozen=True)
class Limits:
    """What one HTTP connection may take of a worker (bot/web/workers.py, bot/web/asgi.py), in time and in bytes.

    A new connection that sends no first byte within `first_byte` seconds is closed: Slack writes its request as
    soon as it has connected, so a connection that stays silent is someone else's. A request must have arrived in
    full, headers and body, `request` seconds after its first byte; headers over `header_bytes` are answered 431,
    and a body announced or grown past `body_bytes` 413. An idle kept-alive connection is closed after
    `keep_alive` seconds."""

    first_byte: float = 2.0
    request: float = 10.0
    keep_alive: int = 10  # uvicorn's `timeout_keep_alive`, a whole number of seconds
    header_bytes: int = 64 * 1024  # Slack's headers are a few hundred bytes
    # Slack's largest requests are interactivity payloads carrying a whole view or message: a modal of 100 blocks
    # with its state, form-encoded, stays well under 1 MiB. Nothing dpscale receives comes near it.
    body_bytes: int = 1 << 20


@dataclass(frozen=True)
class Pacing:
    """When a worker process does what no request waits for (bot/web/asgi.py, bot/web/workers.py).

    A step of work that can wait (a worker's warm-up) runs once no request has been in flight for `idle_quiet`
    seconds, looked for every `idle_poll`; under load that never pauses, it goes ahead after waiting
    `idle_patience`. A library's error line that repeats on every turn of the event loop (asyncio's `accept()`
    failing at the file-descriptor limit) is written once per `repeat_every` seconds, with a count of those held
    back."""

    idle_poll: float = 0.01
    idle_quiet: float = 0.2
    idle_patience: float = 1.0
    repeat_every: float = 10.0
