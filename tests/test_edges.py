"""The edges of a process's life beside its follow-up work: a library's error flood written once per interval, the
history scopes checked at start, finished text gone from SQLite's write-ahead log, and a stored token no key reads
failing its own workspace alone."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace

import pytest
from slack_bolt import BoltContext
from slack_bolt.middleware.authorization import SingleTeamAuthorization
from slack_sdk.web import SlackResponse
from test_store import CLIENT_ID, NEW_KEY, TOKENS, install

from bot.settings import load_settings
from bot.slack.scopes import warn_of_missing_scopes
from bot.slack.workspaces import StoreAuthorize
from bot.store import Job, Store, Workspace, upgrade
from bot.store.installations import installation_store
from bot.store.tokens import TokenCipher
from bot.web.workers import OncePerInterval

SINGLE = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}


def test_a_library_error_repeated_thousands_of_times_is_written_once_per_interval_with_a_count(caplog):
    """asyncio's accept() failing at the file-descriptor limit logs on every turn of the loop: one line (with its
    traceback) per interval gets through, the next saying how many were held back."""
    logger = logging.getLogger("test.flood")
    now = [0.0]
    logger.addFilter(flood := OncePerInterval(10, clock=lambda: now[0]))
    try:
        with caplog.at_level(logging.ERROR, logger="test.flood"):
            for _ in range(7000):  # in 4 s
                logger.error("socket.accept() out of system resource", exc_info=OSError(24, "Too many open files"))
                now[0] += 4 / 7000
            now[0] = 10.5
            logger.error("socket.accept() out of system resource", exc_info=OSError(24, "Too many open files"))
    finally:
        logger.removeFilter(flood)
    lines = [record.getMessage() for record in caplog.records]
    assert lines == ["socket.accept() out of system resource",
                     "socket.accept() out of system resource (6999 more like it in the last 10 s, not written)"]
    assert caplog.records[0].exc_info and not caplog.records[1].exc_info


def app_granted(scopes: str | None) -> SimpleNamespace:
    headers = {"x-oauth-scopes": scopes} if scopes is not None else {}
    answered = SlackResponse(client=None, http_verb="POST", api_url="auth.test", req_args={},
                             data={"ok": True}, headers=headers, status_code=200)
    return SimpleNamespace(_middleware_list=[SingleTeamAuthorization(auth_test_result=answered)])


@pytest.mark.parametrize(("granted", "missing"), [
    ("commands,app_mentions:read,chat:write,users:read", ["channels:history", "groups:history", "im:history",
                                                          "mpim:history"]),
    ("commands,chat:write,channels:history,groups:history,im:history", ["mpim:history"]),
    ("commands,chat:write,channels:history,groups:history,im:history,mpim:history", []),
    (None, []),  # Slack did not say: nothing to warn about
])
def test_missing_history_scopes_are_named_in_one_warning_at_start(caplog, granted, missing):
    with caplog.at_level(logging.WARNING, logger="bot.server"):
        assert warn_of_missing_scopes(app_granted(granted), load_settings(SINGLE)) == missing  # type: ignore[arg-type]
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == (1 if missing else 0)
    if missing:
        assert ", ".join(missing) in warnings[0] and "reinstall" in warnings[0]


def test_a_finished_jobs_text_is_gone_from_the_database_file_and_its_write_ahead_log(tmp_path):
    path = tmp_path / "d.sqlite3"
    store = Store.open(f"sqlite:///{path}")
    upgrade(store.database)
    secret = "a-users-words-" + "z" * 40
    jobs = [Job("mention", f"Ev{n}", Workspace(team_id="T1"), {"text": secret}) for n in range(50)]
    for job in jobs:
        store.work.accept(job, 30, 3600)
    for job in jobs:
        store.work.finish(job)
    store.database.scrub()
    files = [Path(f"{path}{suffix}") for suffix in ("", "-wal")]
    held = sum(f.read_bytes().count(secret.encode()) for f in files if f.exists())
    store.close()
    assert held == 0


def test_a_stored_token_no_key_reads_fails_its_own_workspace_alone(tmp_path, caplog):
    store = Store.open(f"sqlite:///{tmp_path / 'd.sqlite3'}")
    upgrade(store.database, tokens=TOKENS)
    install(store, "T1")
    install(store, "T2", tokens=TokenCipher([NEW_KEY]))  # written by a key this deployment no longer has
    installations = installation_store(store.database, CLIENT_ID, TOKENS, store.cache)
    assert installations.check_keys() == 1  # the server starts, and says how many
    authorize = StoreAuthorize(logger=logging.getLogger("bot.bolt.authorize"), installation_store=installations,
                               bot_only=True)
    context = BoltContext({"is_enterprise_install": False})
    with caplog.at_level(logging.WARNING):
        refused = authorize(context=context, enterprise_id=None, team_id="T2", user_id="U1")
    served = installations.find_bot(enterprise_id=None, team_id="T1")
    store.close()
    assert refused is None and "no key in DPSCALE_TOKEN_KEYS decrypts" in caplog.text
    assert served is not None and served.bot_token == "xoxb-T1"  # the other workspace's requests go on
