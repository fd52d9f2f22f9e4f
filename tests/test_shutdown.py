"""Stopping the real server the way a platform does on every deploy or restart (SIGTERM, then SIGKILL ~30 s later):
each process stops accepting connections, finishes every request it has already received and the work those
requests left behind, within WEB_DRAIN_TIMEOUT, and exits 0 saying it stopped."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.shutdown import WorkPool
from fake_slack import BOT_USER_ID
from slack_client import AppServer, Response, log_problems, running_app, send_command, send_mention, untimed

e2e = pytest.mark.e2e  # every test but the thread pool's own runs the real server
slow = pytest.mark.slow  # and stops it: a long scenario each

SLOW_LOOKUP = 2.0  # seconds users.info takes: the command is waiting on Slack when the signal comes
LOOKUP_TIMEOUT = "2.5"  # DPSCALE_LOCALE_TIMEOUT, its largest value: the slow lookup is waited for, not given up
DRAIN = 10.0  # WEB_DRAIN_TIMEOUT in these tests: the bound, far above what the work in flight needs
MARGIN = 3.0  # what stopping may add to the work in flight: the loop noticing, the interpreter exiting (on a
# machine running other tests beside this one)
TEXT, ANSWER = "64 2000 90%", "115,200 samples/s"


def stop(server: AppServer, signum: int = signal.SIGTERM) -> float:
    """Send `signum` to the server's (first) process; when it was sent."""
    assert server.process is not None
    os.kill(server.process.pid, signum)
    return time.monotonic()


def outcome(reply: Future[Response]) -> Response | Exception:
    """The reply to a request, or what the client saw instead (the connection closed or reset)."""
    try:
        return reply.result(timeout=DRAIN + MARGIN)
    except OSError as error:
        return error


def connection_refused(port: int) -> bool:
    """Whether a new connection to `port` is refused outright (nothing listens there any more)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            if re.search(rf"^PPid:\s+{pid}$", status.read_text(), re.M):
                found.append(int(status.parent.name))
        except OSError:
            continue
    return found


def socket_owner(port: int, pids: list[int]) -> int | None:
    """Which of `pids` holds the TCP socket whose local port is `port`: the process that made a call the fake
    Slack received from that port."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port:
            inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) in inodes:
                    return pid
            except OSError:
                continue
    return None


def stop_lines(log: str) -> list[str]:
    """The lines saying a process stopped, one per process."""
    return re.findall(r"^INFO bot\.server stopped .*$", untimed(log), re.M)


@e2e
@slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_command_in_flight_when_the_signal_comes_is_answered_in_full_and_the_process_exits_0(signum):
    env = {"WEB_DRAIN_TIMEOUT": str(DRAIN), "DPSCALE_LOCALE_TIMEOUT": LOOKUP_TIMEOUT}
    with running_app(env=env, **{"users.info": SLOW_LOOKUP}) as (fake, server), ThreadPoolExecutor(1) as pool:
        reply = pool.submit(send_command, server, TEXT, user="USTOP")
        assert fake.wait_for("users.info")  # the command is in flight, waiting on Slack
        signalled = stop(server, signum)
        stopping = server.wait_for_log("INFO bot.server stopping")
        refused = connection_refused(server.port)
        still_in_flight = not reply.done()
        response = outcome(reply)
        assert server.process is not None
        status = server.process.wait(DRAIN + MARGIN)
        stopped_after = time.monotonic() - signalled
        log = server.output()
    assert isinstance(response, Response), f"the command was cut off: {response!r}"
    assert response.status == 200 and ANSWER in response.json()["text"]
    assert status == 0
    assert stopped_after < SLOW_LOOKUP + MARGIN  # as soon as the command was answered, far inside the bound
    assert stopping and refused and still_in_flight  # new connections refused while the command was still served
    assert len(stop_lines(log)) == 1 and "WARNING bot.server" not in log
    assert log_problems(log, sent_texts=server.sent_texts) == []


@e2e
@slow
def test_with_two_workers_sigterm_to_the_arbiter_lets_each_finish_its_commands_and_all_exit():
    env = {"WEB_CONCURRENCY": "2", "WEB_DRAIN_TIMEOUT": str(DRAIN), "DPSCALE_LOCALE_TIMEOUT": LOOKUP_TIMEOUT}
    tries = 16  # new users' commands until each process has one waiting on Slack (the kernel picks the process)
    with running_app(env=env, **{"users.info": SLOW_LOOKUP}) as (fake, server), ThreadPoolExecutor(tries) as pool:
        assert server.process is not None
        parent = server.process.pid  # gunicorn's arbiter; its two workers serve
        server.wait_for_log("INFO gunicorn.error Booting worker", count=2, timeout=20)  # both listen (checked below)
        pids = children_of(parent)
        replies: dict[str, Future[Response]] = {}
        waiting: set[int | None] = set()
        for n in range(tries):
            replies[f"UTWO{n}"] = pool.submit(send_command, server, TEXT, user=f"UTWO{n}")
            calls = fake.wait_for("users.info", n + 1)
            waiting = {socket_owner(c.port, pids) for c in calls if not replies[c.params["user"]].done()}
            if waiting >= set(pids):
                break
        signalled = stop(server)
        stopping = server.wait_for_log("INFO bot.server stopping", count=2)
        refused = connection_refused(server.port)
        responses = [outcome(reply) for reply in replies.values()]
        status = server.process.wait(DRAIN + MARGIN)
        stopped_after = time.monotonic() - signalled
        log = server.output()
    assert len(pids) == 2 and waiting >= set(pids)  # each process had a command in flight at the signal
    seen = [r.status if isinstance(r, Response) else repr(r) for r in responses]
    assert all(isinstance(r, Response) for r in responses), f"commands were cut off: {seen}"
    assert all(r.status == 200 and ANSWER in r.json()["text"] for r in responses if isinstance(r, Response))
    assert status == 0 and stopped_after < SLOW_LOOKUP + MARGIN
    assert not any(Path(f"/proc/{pid}").exists() for pid in [parent, *pids])  # the workers too: stopped and reaped
    assert stopping == 2 and refused
    assert sorted(int(re.search(r"pid (\d+)", line)[1]) for line in stop_lines(log)) == sorted(pids)
    assert "WARNING bot.server" not in log and log_problems(log, sent_texts=server.sent_texts) == []


@e2e
@slow
def test_a_command_that_would_outlast_the_drain_timeout_is_abandoned_with_a_warning_and_the_process_exits_in_time():
    drain = 0.5  # the command waits DPSCALE_LOCALE_TIMEOUT (2.5 s) on a users.info that never answers
    env = {"WEB_DRAIN_TIMEOUT": str(drain), "DPSCALE_LOCALE_TIMEOUT": LOOKUP_TIMEOUT}
    with running_app(env=env, **{"users.info": "hang"}) as (fake, server), ThreadPoolExecutor(1) as pool:
        reply = pool.submit(send_command, server, TEXT, user="ULATE")
        assert fake.wait_for("users.info")
        signalled = stop(server)
        assert server.process is not None
        status = server.process.wait(DRAIN)
        stopped_after = time.monotonic() - signalled
        response = outcome(reply)
        log = server.output()
    assert status == 0
    assert stopped_after < float(LOOKUP_TIMEOUT)  # at the bound, not when the command would have been answered
    # answered 503, for Slack to try again (an event is redelivered), not left to time out
    assert isinstance(response, Response) and response.status == 503
    assert re.search(r"^WARNING bot\.server .*abandoned 1 request\b", untimed(log), re.M), log
    assert len(stop_lines(log)) == 1
    assert log_problems(log, sent_texts=server.sent_texts) == []


@e2e
@slow
def test_a_mentions_answer_being_posted_after_its_acknowledgement_is_posted_before_the_process_exits():
    """A mention's answer is posted by its follow-up work after the acknowledgement: a slow chat.postMessage is
    awaited."""
    with running_app(env={"WEB_DRAIN_TIMEOUT": str(DRAIN)}, **{"chat.postMessage": SLOW_LOOKUP}) as (fake, server):
        ack = send_mention(server, f"<@{BOT_USER_ID}> {TEXT}", "UMSTOP", "EvStop1", "18.1")
        assert fake.wait_for("chat.postMessage")  # the answer is on its way to Slack
        stop(server)
        assert server.process is not None
        status = server.process.wait(DRAIN + MARGIN)
        log = server.output()
    assert ack.status == 200 and status == 0
    assert fake.finished_count("chat.postMessage") == 1
    # the listener saw Slack's answer
    assert re.search(r"^INFO bot\.requests kind=mention .*outcome=ok", untimed(log), re.M)
    assert len(stop_lines(log)) == 1 and log_problems(log, sent_texts=server.sent_texts) == []


@e2e
@slow
def test_the_help_for_a_form_that_slack_will_not_open_is_still_posted_after_the_signal():
    """The form is opened from dpscale's background pool; when views.open does not answer within the trigger's
    time, the help is posted to the response_url instead, and the process waits for that."""
    with running_app(env={"WEB_DRAIN_TIMEOUT": str(DRAIN)}, **{"views.open": "hang"}) as (fake, server):
        ack = send_command(server, "", user="UFSTOP", response_url=fake.response_url("stop-help"))
        assert fake.wait_for("views.open")  # the form is being opened, after the acknowledgement
        stop(server)
        assert server.process is not None
        status = server.process.wait(DRAIN + MARGIN)
        log = server.output()
        helped = fake.calls_to("/response/stop-help")
    assert ack.status == 200 and status == 0
    assert [call.params["text"] for call in helped] == ["How to use dpscale"]
    assert len(stop_lines(log)) == 1 and "abandoned" not in log
    assert log_problems(log, sent_texts=server.sent_texts) == []


def test_a_work_pool_waits_for_its_tasks_and_theirs_until_the_deadline_and_counts_what_is_left():
    pool, release, ran = WorkPool(2), threading.Event(), []

    def follow_up() -> None:
        ran.append("follow-up")

    def task() -> None:
        release.wait(10)
        pool.submit(follow_up)  # work that work submits is waited for too

    pool.submit(task)
    assert pool.finish(time.monotonic() + 0.05) == 1  # still running at the deadline
    release.set()
    assert pool.finish(time.monotonic() + 5) == 0 and ran == ["follow-up"]
    assert pool.finish(time.monotonic()) == 0  # nothing left: at once, even at the deadline
    pool.shutdown()


@e2e
@slow
def test_requests_that_reached_the_server_just_before_the_signal_are_answered_not_reset():
    """A request sent on an open keep-alive connection and one on a connection still in the listening socket's
    backlog, both there before SIGTERM is handled (the server is held still with SIGSTOP meanwhile, so that the
    signal and the requests wake it together), are both answered, and the server exits 0."""
    with running_app() as (_, server):
        assert server.process is not None
        keep = http.client.HTTPConnection("127.0.0.1", server.port, timeout=DRAIN)
        keep.request("GET", "/healthz")
        assert keep.getresponse().read() == b"ok"
        fresh = http.client.HTTPConnection("127.0.0.1", server.port, timeout=DRAIN)
        every = [server.process.pid, *children_of(server.process.pid)]  # the arbiter and its worker
        for pid in every:
            os.kill(pid, signal.SIGSTOP)
        try:
            keep.request("GET", "/healthz")
            fresh.request("GET", "/healthz")  # connects: the kernel completes the handshake, the server never saw it
            os.kill(server.process.pid, signal.SIGTERM)
        finally:
            for pid in every:
                os.kill(pid, signal.SIGCONT)
        try:
            replies = [(r.status, r.read()) for r in (keep.getresponse(), fresh.getresponse())]
        finally:
            keep.close()
            fresh.close()
        assert replies == [(200, b"ok")] * 2
        assert server.process.wait(DRAIN + MARGIN) == 0


def _stamp(line: str) -> float:
    """Seconds since midnight of a server log line's UTC time."""
    hours, minutes, seconds = line[11:23].split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_stop_while_a_chart_waits_to_be_tried_again_hands_it_back_without_waiting_out_the_backoff():
    """A series' chart whose delivery keeps failing waits 1 s, then 3 s, between tries; SIGTERM in that wait ends it:
    the job is handed back for another process and the worker stops well inside the 3 s it would have waited."""
    with running_app({"UDE": "de-DE"}) as (fake, server):
        send_command(server, "v=2000 8=15800 16=31000", user="UDE", response_url="http://127.0.0.1:9/refused")
        assert server.wait_for_log("ChartRefusedError), trying again", 2, timeout=30)  # in the 3 s wait now
        server.stop()
        log = server.output()
    lines = log.splitlines()
    term = next(line for line in lines if "stopping on SIGTERM" in line)
    stopped = next(line for line in lines if "bot.server stopped (pid" in line)
    assert "chart follow-up failed (ChartRefusedError): to be tried again in 5 s" in log
    assert _stamp(stopped) - _stamp(term) < 2.5, (term, stopped)
