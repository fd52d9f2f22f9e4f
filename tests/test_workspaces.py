"""Offered to many workspaces: install through Bolt's OAuth flow, answer each with its own token, forget it on
uninstall; and several server processes sharing one PostgreSQL database doing each thing exactly once.

Each test runs the real server (the Procfile's `web:` command) against the fake Slack Web API, on a fresh SQLite
file and on a real PostgreSQL server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime

import pytest
from sqlalchemy import select, update

from bot.store import Store, Workspace
from bot.store.slack_tables import bots, installations, oauth_states
from bot.store.tables import answers, preferences
from fake_slack import FakeSlack
from slack_client import (
    ROOT,
    AppServer,
    get,
    interaction_body,
    mention_body,
    post,
    procfile_command,
    signed_headers,
    slash_command_body,
)

pytestmark = pytest.mark.e2e
CLIENT_ID = "1111.2222"
TOKEN_KEY = "d29ya3NwYWNlLXRlc3RzLXRva2VuLWtleS0tLS0tLS0="
MULTI = {"SLACK_BOT_TOKEN": None, "SLACK_CLIENT_ID": CLIENT_ID, "SLACK_CLIENT_SECRET": "client-secret",
         "DPSCALE_TOKEN_KEYS": TOKEN_KEY}


@pytest.fixture
def multi(database_url):
    """A multi-workspace server on `database_url`, the fake Slack it talks to, and the store it writes."""
    fake = FakeSlack(locales={"UEN": "en-US", "UDE": "de-DE"}).start()
    server = AppServer(fake, env={**MULTI, "DATABASE_URL": database_url, "WEB_CONCURRENCY": "1"}).start()
    store = Store.open(database_url)
    yield fake, server, store
    server.stop()
    fake.stop()
    store.close()


def begin_install(server: AppServer) -> str:
    """Open /slack/install as a browser would; the state Bolt put in the link and the cookie."""
    response = get(server.url + "/slack/install")
    assert response.status == 200
    state = re.search(r"state=([\w-]+)", response.body.decode()).group(1)
    return state


def finish_install(server: AppServer, state: str, code: str, cookie: str | None = None):
    query = urllib.parse.urlencode({"code": code, "state": state})
    request_headers = {"Cookie": f"slack-app-oauth-state={cookie or state}"}
    request = urllib.request.Request(f"{server.url}/slack/oauth_redirect?{query}", headers=request_headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def install(server: AppServer, team: str) -> None:
    status, page = finish_install(server, begin_install(server), f"code-{team}")
    assert status == 200 and "dpscale is now installed" in page


def command(server: AppServer, text: str, team: str, user: str = "UEN", response_url: str = ""):
    body = slash_command_body(text, user=user, team_id=team, response_url=response_url)
    return post(server.url + "/slack/events", body, signed_headers(body, "application/x-www-form-urlencoded"))


def event(server: AppServer, payload: dict) -> None:
    body = json.dumps(payload)
    assert post(server.url + "/slack/events", body, signed_headers(body, "application/json")).status == 200


def logged(server: AppServer, fragment: str) -> str:
    """The server's log once `fragment` stands in it (the observable end of work that answers nothing)."""
    server.wait_for_log(fragment)
    return server.log_so_far()


def tokens_used(fake: FakeSlack, method: str, count: int = 1) -> list[str]:
    """The tokens of the first `count` calls to `method`, once that many arrived (a lookup the request stopped
    waiting for still arrives)."""
    return [c.headers.get("Authorization", "").removeprefix("Bearer ") for c in fake.wait_for(method, count)]


def answered(text: str) -> bool:
    """A result for 64 2000 90%, in whatever format the user's numbers were read: a `users.info` slower than the
    lookup's deadline (a busy machine) leaves the user in the unknown format, which writes `115 200`."""
    return "115200" in re.sub(r"[,\u202f ]", "", text)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_workspace_installs_and_is_answered_with_its_own_token_and_a_second_with_its_own(multi):
    fake, server, store = multi
    install(server, "T1")
    reply = command(server, "64 2000 90%", "T1").json()
    assert answered(reply["text"])
    assert tokens_used(fake, "users.info") == ["xoxb-T1"]
    install(server, "T2")
    assert answered(command(server, "64 2000 90%", "T2", user="UDE2").json()["text"])
    assert tokens_used(fake, "users.info", 2) == ["xoxb-T1", "xoxb-T2"]
    # authorization is cached: no auth.test per request once a token was checked
    checked = len(fake.calls_to("auth.test"))
    for user in ("UA", "UB", "UC"):
        assert answered(command(server, "64 2000 90%", "T1", user=user).json()["text"])
    assert len(fake.calls_to("auth.test")) == checked
    with store.database.engine.connect() as connection:  # as a backup or a read replica would hold them
        stored = repr([connection.execute(select(table)).all() for table in (installations, bots)])
    assert "xoxb-" not in stored and "T1" in stored


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_server_whose_key_does_not_read_the_stored_tokens_says_so_in_one_line_and_does_not_serve(multi,
                                                                                                   database_url):
    fake, server, _ = multi
    install(server, "T1")
    other_key = "YW5vdGhlci1kZXBsb3ltZW50cy1rZXktLS0tLS0tLS0="
    second = AppServer(fake, env={**MULTI, "DATABASE_URL": database_url, "WEB_CONCURRENCY": "1",
                                  "DPSCALE_TOKEN_KEYS": other_key})
    with pytest.raises(RuntimeError):  # exited before /healthz answered
        second.start()
    assert second.process.returncode == 1
    (line,) = [each for each in second.output().splitlines() if "ERROR" in each]
    assert line.endswith("ERROR bot.server not serving: a stored token is not readable with any key in "
                         "DPSCALE_TOKEN_KEYS (was the key it was encrypted with removed?)")
    assert "Traceback" not in second.output()
    assert "115,200" in command(server, "64 2000 90%", "T1").json()["text"]  # the right key still serves


@pytest.mark.parametrize(("keys", "line"), [
    (None, "DPSCALE_TOKEN_KEYS is required in multi-workspace mode"),
    ("short-s3cret", "DPSCALE_TOKEN_KEYS key 1 of 1 is not a Fernet key"),
])
@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_multi_workspace_mode_does_not_start_without_a_key_for_the_tokens_and_says_so_in_one_line(
        tmp_path, keys, line):
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "SLACK_SIGNING_SECRET": "s",
           "DATABASE_URL": f"sqlite:///{tmp_path}/d.db", **{k: v for k, v in MULTI.items() if v is not None}}
    env.pop("DPSCALE_TOKEN_KEYS")
    if keys is not None:
        env["DPSCALE_TOKEN_KEYS"] = keys
    done = subprocess.run([sys.executable, *procfile_command("web")[1:]], env=env, capture_output=True, text=True,
                          timeout=30, cwd=ROOT)
    assert done.returncode == 2
    lines = [each for each in done.stderr.splitlines() if "DPSCALE_TOKEN_KEYS" in each]
    assert len(lines) == 1 and line in lines[0], done.stderr
    assert "s3cret" not in done.stderr and not (tmp_path / "d.db").exists()  # nothing started, nothing stored


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_replayed_forged_or_expired_state_is_refused_with_a_clear_page(multi):
    fake, server, store = multi
    state = begin_install(server)
    assert finish_install(server, state, "code-T1")[0] == 200
    for status, page in (finish_install(server, state, "code-T1"),  # replayed
                         finish_install(server, "forged-state", "code-T1"),
                         finish_install(server, begin_install(server), "code-T1", cookie="other-browser")):
        assert status == 400
        assert "expired or was already used" in page and "/slack/install" in page
        assert "Traceback" not in page
    expiring = begin_install(server)
    with store.database.engine.begin() as connection:
        connection.execute(update(oauth_states).where(oauth_states.c.state == expiring)
                           .values(expire_at=datetime(2000, 1, 1)))
    status, page = finish_install(server, expiring, "code-T3")
    assert status == 400 and "expired or was already used" in page
    assert fake.installs == 1  # no refused state ever reached oauth.v2.access


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_an_oauth_redirects_error_no_one_authenticated_is_logged_by_its_length_in_a_short_line(multi):
    """`error=` of 60,000 characters with terminal controls in it, as anyone can send it: the page says the
    installation failed, and the log says so in a line under 300 bytes that holds none of it."""
    fake, server, _ = multi
    controls = "\x1b[2J\x1b]0;owned\x07"  # clear the screen, retitle the terminal
    hostile = controls + "A" * (60_000 - len(controls))
    query = urllib.parse.urlencode({"error": hostile, "state": "s"})
    with pytest.raises(urllib.error.HTTPError) as failed:
        urllib.request.urlopen(f"{server.url}/slack/oauth_redirect?{query}", timeout=10)
    assert failed.value.code == 500 and "Installation failed" in failed.value.read().decode()
    cancelled = urllib.request.urlopen(f"{server.url}/slack/oauth_redirect?error=access_denied&state=s", timeout=10)
    assert "Installation canceled" in cancelled.read().decode()
    log = logged(server, "reason=access_denied")
    (line,) = [each for each in log.splitlines() if "reason=other" in each]
    assert line.endswith("WARNING bot.slack.workspaces installation refused: reason=other (60000 chars)")
    assert max(len(each.encode()) for each in log.splitlines()) < 300
    assert "AAAAAAAAAA" not in log and "owned" not in log
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", log)  # no control character but the newlines


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_install_pages_answer_only_get_and_other_methods_make_no_state(multi):
    """HEAD or POST on the install and redirect pages: 405 naming GET, no body to HEAD, and no OAuth state made
    (a monitor probing the page must not fill the state table); GET still opens the flow."""
    fake, server, store = multi
    for path in ("/slack/install", "/slack/oauth_redirect"):
        for method, data in (("HEAD", None), ("POST", b"code=x")):
            request = urllib.request.Request(server.url + path, data=data, method=method)
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=5)
            assert (refused.value.code, refused.value.headers["Allow"]) == (405, "GET")
            assert refused.value.read() == (b"" if method == "HEAD" else b"method not allowed")
    with store.database.engine.connect() as connection:
        assert connection.execute(select(oauth_states)).all() == []
    state = begin_install(server)
    with store.database.engine.connect() as connection:
        assert [row.state for row in connection.execute(select(oauth_states))] == [state]


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_workspace_that_never_installed_gets_a_clear_refusal(multi):
    fake, server, _ = multi
    response = command(server, "64 2000 90%", "T9", response_url=fake.response_url("refused"))
    assert response.status == 200
    refusal = fake.wait_for("/response/refused")[0].params
    assert refusal["text"].startswith("dpscale isn't installed in this workspace")
    assert "Traceback" not in server.log_so_far()


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_uninstalling_deletes_the_installation_and_the_workspaces_preferences(multi):
    fake, server, store = multi
    install(server, "T1")
    install(server, "T2")
    command(server, "format=de-DE", "T1")
    command(server, "format=fr-FR", "T2")
    assert store.preferences.number_format(Workspace(team_id="T1"), "UEN") == "de-DE"
    for n, team in enumerate(("T1", "T2")):  # a mention answered in each: where its answer is, kept for an edit
        mention = json.loads(mention_body("<@UDPSCALE> 64 2000 90%", "UEN", f"EvMention{team}", f"1700000000.00050{n}"))
        mention["team_id"] = mention["authorizations"][0]["team_id"] = team
        event(server, mention)
    assert server.wait_for_log("kind=mention", 2) == 2
    assert store.answers.get(Workspace(team_id="T1"), "C1", "1700000000.000500") is not None
    event(server, {"token": "legacy", "team_id": "T1", "api_app_id": "A1", "type": "event_callback",
                   "event": {"type": "app_uninstalled"}, "event_id": "EvGone", "event_time": int(time.time())})
    assert server.wait_for_log("forgot workspace") == 1
    with store.database.engine.connect() as connection:
        assert connection.execute(select(bots.c.team_id)).scalars().all() == ["T2"]
        assert connection.execute(select(preferences.c.team_id)).scalars().all() == ["T2"]
        assert connection.execute(select(answers.c.team_id)).scalars().all() == ["T2"]
    command(server, "64 2000 90%", "T1", response_url=fake.response_url("gone"))
    assert fake.wait_for("/response/gone")[0].params["text"].startswith("dpscale isn't installed")
    assert "115 200" in command(server, "64 2000 90%", "T2").json()["text"].replace("\u202f", " ")


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_chosen_number_format_reads_numbers_but_keeps_the_slack_language(multi):
    fake, server, _ = multi
    install(server, "T1")
    saved = command(server, "format=de-DE", "T1").json()["text"]
    assert saved.startswith("Done: your numbers are now read and written in the German (Germany) format, as in "
                             "`1.234.567,89`.")
    reply = command(server, "64 2.000 90 %", "T1").json()["text"]
    assert reply == ("64 devices × 2.000 samples/s at 90\u00a0% efficiency: 115.200 samples/s actual, "
                     "57,6× speedup")  # English words, German numbers
    assert "2.000" in command(server, "64 2.000 90 % lang=de", "T1").json()["text"]
    assert "Done" in command(server, "format=slack", "T1").json()["text"]
    assert "Write `2` or `2000` instead" in command(server, "64 2.000 90 %", "T1").json()["text"]  # English again


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_an_org_wide_installation_serves_every_workspace_of_the_organisation(multi):
    fake, server, _ = multi
    install(server, "org-E1")
    body = slash_command_body("64 2000 90%", user="UEN", team_id="T5", enterprise_id="E1",
                              is_enterprise_install="true")
    reply = post(server.url + "/slack/events", body, signed_headers(body, "application/x-www-form-urlencoded"))
    assert answered(reply.json()["text"])
    assert tokens_used(fake, "users.info") == ["xoxb-org-E1"]


# ---------------------------------------------------------------- several processes, one PostgreSQL database


@pytest.fixture
def two_servers(postgres_server_url):
    from postgres_server import fresh_database

    with fresh_database(postgres_server_url) as url:
        fake = FakeSlack(locales={"UEN": "en-US"}).start()
        # two single-process servers, so that which process answers is the test's choice, not the kernel's
        servers = [AppServer(fake, env={"DATABASE_URL": url, "WEB_CONCURRENCY": "1"}).start() for _ in range(2)]
        yield fake, servers
        for server in servers:
            server.stop()
        fake.stop()


@pytest.mark.slow
def test_the_same_event_delivered_to_two_processes_is_answered_once(two_servers):
    fake, servers = two_servers
    for server in servers:
        body = mention_body("<@UDPSCALE> 64 2000 90%", "UEN", "EvTwice", "1700000000.000100")
        assert post(server.url + "/slack/events", body, signed_headers(body, "application/json")).status == 200
    logs = [logged(server, "kind=mention") for server in servers]
    outcomes = sorted(re.search(r"kind=mention locale=\S+ outcome=(\w+)", log).group(1) for log in logs)
    assert outcomes == ["duplicate", "ok"]
    assert len(fake.calls_to("chat.postMessage")) == 1


@pytest.mark.slow
def test_a_double_clicked_share_split_across_two_processes_is_shared_once(two_servers):
    fake, servers = two_servers
    body = slash_command_body("64 2000 90%", user="UEN")
    reply = post(servers[0].url + "/slack/events", body, signed_headers(body, "application/x-www-form-urlencoded"))
    share = next(e for b in reply.json()["blocks"] if b["type"] == "actions" for e in b["elements"]
                 if e["action_id"] == "dpscale_share")
    for n, server in enumerate(servers):
        payload = {
            "type": "block_actions", "team": {"id": "T0TEAM"}, "user": {"id": "UEN"}, "api_app_id": "A1",
            "channel": {"id": "C1"}, "response_url": fake.response_url(f"share-{n}"), "trigger_id": "1.2",
            "container": {"type": "message", "message_ts": "1700000000.000200", "channel_id": "C1",
                          "is_ephemeral": True},
            "actions": [{"action_id": "dpscale_share", "value": share["value"], "type": "button",
                         "block_id": "b", "action_ts": "1"}],
        }
        body = interaction_body(payload)
        assert post(server.url + "/slack/events", body,
                    signed_headers(body, "application/x-www-form-urlencoded")).status == 200
    logs = [logged(server, "kind=share") for server in servers]
    outcomes = sorted(re.search(r"kind=share locale=\S+ outcome=(\w+)", log).group(1) for log in logs)
    assert outcomes == ["duplicate", "ok"]
    posts = fake.calls_to("/response/share-0") + fake.calls_to("/response/share-1")
    assert [p.params.get("response_type") for p in posts].count("in_channel") == 1


@pytest.mark.slow
def test_a_number_format_chosen_on_one_process_is_used_by_the_other_within_moments(two_servers):
    """The other process forgets what it kept when the database's notice reaches it (bot/store/cache.py: "within
    moments"): its next commands read the new choice as soon as that notice has arrived."""
    fake, (first, second) = two_servers

    def reply(server: AppServer, text: str) -> str:
        body = slash_command_body(text, user="UEN")
        return post(server.url + "/slack/events", body,
                    signed_headers(body, "application/x-www-form-urlencoded")).json()["text"]

    assert "Write `2` or `2000` instead" in reply(second, "64 2.000 90 %")  # the second process has read "no choice"
    assert "Write `2` or `2000` instead" in reply(second, "64 2.000 90 %")  # and keeps it
    assert reply(first, "format=de-DE").startswith("Done")
    deadline = time.monotonic() + 2.0  # the notice's way from one process to the other
    while not (answer := reply(second, "64 2.000 90 %")).startswith("64 devices") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert answer.startswith("64 devices × 2.000 samples/s")
