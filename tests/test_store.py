"""The store against each database dpscale supports: a fresh SQLite file and a real PostgreSQL server."""

from __future__ import annotations

import gc
import os
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from slack_sdk.oauth.installation_store import Installation
from sqlalchemy import event, func, select, update

from bot.store import EVENT, SHARE, Database, Job, PostedAnswer, Store, Workspace, upgrade
from bot.store.db import sqlalchemy_url
from bot.store.installations import OAuthStateStore, installation_store, rotate_tokens
from bot.store.migrate import HEAD, alembic_config, at_head, current_revision
from bot.store.slack_tables import bots, installations, metadata, oauth_states
from bot.store.tables import answers, handled
from bot.store.tables import preferences as preferences_table
from bot.store.tokens import PLAIN_WIDTH, STORED_WIDTH, TokenCipher, TokenKeyError

CLIENT_ID = "111.222"
OLD_KEY, NEW_KEY = "b2xkLWtleS1vZi10aGUtc3RvcmUtdGVzdHMtLS0tLS0=", "bmV3LWtleS1vZi10aGUtc3RvcmUtdGVzdHMtLS0tLS0="
TOKENS = TokenCipher([OLD_KEY])


@pytest.fixture
def store(database_url):
    store = Store.open(database_url)
    upgrade(store.database)
    yield store
    store.close()


def install(store: Store, team_id: str | None, enterprise_id: str | None = None, org: bool = False,
            tokens: TokenCipher = TOKENS) -> None:
    installation_store(store.database, CLIENT_ID, tokens, store.cache).save(Installation(
        app_id="A1", enterprise_id=enterprise_id, team_id=team_id, user_id="UINSTALLER",
        bot_token=f"xoxb-{team_id or enterprise_id}", bot_id="B1", bot_user_id="UBOT",
        bot_scopes="commands,chat:write", is_enterprise_install=org,
    ))


def bot_token(store: Store, team_id: str | None, enterprise_id: str | None = None, org: bool = False,
              tokens: TokenCipher = TOKENS) -> str | None:
    bot = installation_store(store.database, CLIENT_ID, tokens, store.cache).find_bot(
        enterprise_id=enterprise_id, team_id=team_id, is_enterprise_install=org)
    return bot.bot_token if bot else None


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, "sqlite:///dpscale.sqlite3"),
        ("", "sqlite:///dpscale.sqlite3"),
        ("postgresql://u:p@db:5432/dpscale", "postgresql+psycopg://u:p@db:5432/dpscale"),
        ("postgres://u@db/dpscale", "postgresql+psycopg://u@db/dpscale"),
        ("postgresql+psycopg://u@db/x", "postgresql+psycopg://u@db/x"),
        ("sqlite:////var/lib/dpscale.db", "sqlite:////var/lib/dpscale.db"),
    ],
)
def test_database_url_maps_plain_postgresql_to_psycopg_3(given, expected):
    assert sqlalchemy_url(given) == expected


def head_revision() -> str | None:
    """The newest revision in migrations/versions, as Alembic finds it."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_migrations_create_exactly_the_schema_the_code_uses(store):
    assert current_revision(store.database) == head_revision()
    with store.database.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []


def test_the_revision_a_start_compares_with_is_alembics_own_head():
    """A start reads the database's revision and loads Alembic only when it is not `HEAD`: a migration added
    without moving `HEAD` would never run, and this fails."""
    assert HEAD == head_revision()


def test_a_database_behind_is_seen_as_behind_and_migrated(database_url):
    database = Database(database_url)
    assert not at_head(database)  # nothing there yet
    upgrade(database, "0003")
    assert not at_head(database)
    upgrade(database)
    assert at_head(database) and current_revision(database) == HEAD
    database.dispose()


def test_upgrading_again_changes_nothing_and_keeps_every_row(store):
    workspace = Workspace(team_id="T1")
    store.preferences.set_number_format(workspace, "U1", "de-DE")
    install(store, "T1")
    upgrade(store.database)
    assert store.preferences.number_format(workspace, "U1") == "de-DE"
    assert bot_token(store, "T1") == "xoxb-T1"


@pytest.mark.parametrize("revision", ["0001", "0002"])
def test_an_installation_made_before_the_latest_migration_survives_it(database_url, revision):
    store = Store.open(database_url)
    upgrade(store.database, revision)
    install(store, "T1")
    upgrade(store.database)
    assert current_revision(store.database) == head_revision()
    assert bot_token(store, "T1") == "xoxb-T1"
    store.close()


def test_a_migration_is_never_undone(store):
    from alembic import command

    from bot.store.migrate import alembic_config

    install(store, "T1")
    with pytest.raises(RuntimeError, match="never undone"), store.database.engine.begin() as connection:
        command.downgrade(alembic_config(connection, TOKENS), "0001")
    assert bot_token(store, "T1") == "xoxb-T1"
    assert "xoxb-" not in raw_rows(store)


def test_a_key_is_handled_once_and_each_kind_on_its_own(store):
    workspace = Workspace(team_id="T1")
    assert store.handled.first(EVENT, "Ev1", 60, workspace) is True
    assert store.handled.first(EVENT, "Ev1", 60, workspace) is False
    assert store.handled.first(SHARE, "Ev1", 60, workspace) is True
    assert store.handled.first(EVENT, "Ev2", 60, workspace) is True


def test_racing_writers_on_separate_connections_let_exactly_one_win(store, database_url):
    """Twelve writers, each with its own engine (as separate processes have), record the same key at once."""
    stores = [Store.open(database_url) for _ in range(12)]
    barrier, results = threading.Barrier(len(stores)), []

    def race(each: Store) -> None:
        barrier.wait()
        results.append(each.handled.first(SHARE, "click-1", 60, Workspace(team_id="T1")))

    threads = [threading.Thread(target=race, args=(each,)) for each in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False] * 11 + [True]
    for each in stores:
        each.close()


def test_an_expired_key_may_be_handled_again_and_expired_rows_are_deleted(store):
    workspace = Workspace(team_id="T1")
    assert store.handled.first(EVENT, "old", -1, workspace)
    assert store.handled.first(EVENT, "live", 60, workspace)
    assert store.handled.first(EVENT, "gone", -1, workspace)
    assert store.handled.first(EVENT, "old", 60, workspace) is True  # its time was up
    assert store.handled.delete_expired() == 1  # "gone"
    with store.database.engine.connect() as connection:
        keys = set(connection.execute(select(handled.c.key)).scalars())
    assert keys == {"old", "live"}


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_released_key_may_be_handled_again_at_once(store):
    workspace = Workspace(team_id="T1")
    assert store.handled.first(EVENT, "message:C1:1.1", 60, workspace)
    store.handled.release(EVENT, "message:C1:1.1")
    store.handled.release(SHARE, "never-held")  # nothing to release: nothing happens
    assert store.handled.first(EVENT, "message:C1:1.1", 60, workspace) is True
    assert store.handled.first(EVENT, "message:C1:1.1", 60, workspace) is False


def test_an_answer_is_kept_per_workspace_channel_and_message_and_its_fingerprint_replaced(store):
    t1, t2 = Workspace(team_id="T1"), Workspace(team_id="T2")
    store.answers.put(t1, "C1", "1.1", PostedAnswer("9.1", "first"), 60)
    assert store.answers.get(t1, "C1", "1.1") == PostedAnswer("9.1", "first")
    assert store.answers.get(t2, "C1", "1.1") is None  # another workspace's message
    assert store.answers.get(t1, "C2", "1.1") is None  # another channel's
    assert store.answers.get(t1, "C1", "1.2") is None  # another message
    store.answers.put(t1, "C1", "1.1", PostedAnswer("9.1", "edited"), 60)  # an edit changed the result
    assert store.answers.get(t1, "C1", "1.1") == PostedAnswer("9.1", "edited")
    org = Workspace("E1", "T3", is_enterprise_install=True)
    store.answers.put(org, "C9", "1.1", PostedAnswer("9.9", "org"), 60)
    assert store.answers.get(Workspace("E1", "T4", is_enterprise_install=True), "C9", "1.1") == PostedAnswer(
        "9.9", "org")


def test_an_answer_written_by_one_process_is_read_by_another_at_once(store, database_url):
    other = Store.open(database_url)  # its own engine, as another process has
    workspace = Workspace(team_id="T1")
    store.answers.put(workspace, "C1", "1.1", PostedAnswer("9.1", "first"), 60)
    assert other.answers.get(workspace, "C1", "1.1") == PostedAnswer("9.1", "first")
    other.answers.put(workspace, "C1", "1.1", PostedAnswer("9.1", "edited"), 60)
    assert store.answers.get(workspace, "C1", "1.1") == PostedAnswer("9.1", "edited")
    other.close()


def test_an_expired_answer_reads_as_none_is_refreshed_by_a_put_and_expired_rows_are_deleted(store, monkeypatch):
    workspace = Workspace(team_id="T1")
    store.answers.put(workspace, "C1", "old", PostedAnswer("9.1", "a"), -1)
    store.answers.put(workspace, "C1", "gone", PostedAnswer("9.2", "b"), -1)
    store.answers.put(workspace, "C1", "live", PostedAnswer("9.3", "c"), 60)
    assert store.answers.get(workspace, "C1", "old") is None
    store.answers.put(workspace, "C1", "old", PostedAnswer("9.1", "a2"), 60)  # written again: its time starts anew
    assert store.answers.get(workspace, "C1", "old") == PostedAnswer("9.1", "a2")
    assert store.answers.delete_expired() == 1  # "gone"
    store.answers.put(workspace, "C1", "gone-too", PostedAnswer("9.4", "d"), -1)
    assert store.delete_expired()["dpscale_answers"] == 1  # what the sweeper does on its clock, in every process
    with store.database.engine.connect() as connection:
        assert set(connection.execute(select(answers.c.message_ts)).scalars()) == {"old", "live"}


def test_a_number_format_is_kept_per_user_replaced_and_forgotten(store):
    t1, t2 = Workspace(team_id="T1"), Workspace(team_id="T2")
    store.preferences.set_number_format(t1, "U1", "de-DE")
    store.preferences.set_number_format(t2, "U1", "fr-FR")
    store.preferences.set_number_format(t1, "U1", "de-CH")
    assert store.preferences.number_format(t1, "U1") == "de-CH"
    assert store.preferences.number_format(t2, "U1") == "fr-FR"
    assert store.preferences.number_format(t1, "U2") is None
    store.preferences.set_number_format(t1, "U1", None)
    assert store.preferences.number_format(t1, "U1") is None
    assert store.preferences.number_format(t2, "U1") == "fr-FR"


def test_an_org_wide_installation_keeps_one_preference_for_all_its_workspaces(store):
    store.preferences.set_number_format(Workspace("E1", "T1", is_enterprise_install=True), "W1", "de-DE")
    assert store.preferences.number_format(Workspace("E1", "T2", is_enterprise_install=True), "W1") == "de-DE"


def test_forgetting_a_workspace_deletes_its_installation_and_all_its_rows_and_nothing_else(store):
    gone, kept = Workspace(team_id="T1"), Workspace(team_id="T2")
    for workspace in (gone, kept):
        install(store, workspace.team_id)
        store.preferences.set_number_format(workspace, "U1", "de-DE")
        store.handled.first(EVENT, f"Ev-{workspace.team_id}", 60, workspace)
        store.answers.put(workspace, "C1", "1.1", PostedAnswer("9.1", workspace.team_key), 60)
        store.work.accept(Job("mention", f"Ev-{workspace.team_id}", workspace, {"event": {"text": "64"}}), 30, 60)
        store.locales.remember(workspace, "U1", "de-DE")
    deleted = store.forget(gone, CLIENT_ID)
    assert deleted == {"dpscale_preferences": 1, "dpscale_handled": 1, "dpscale_answers": 1, "dpscale_work": 1,
                       "dpscale_user_locales": 1, "slack_installations": 1, "slack_bots": 1}
    assert not store.locales.read(gone, "U1").found and store.locales.read(kept, "U1").tag == "de-DE"
    assert bot_token(store, "T1") is None and store.preferences.number_format(gone, "U1") is None
    assert store.answers.get(gone, "C1", "1.1") is None
    assert bot_token(store, "T2") == "xoxb-T2" and store.preferences.number_format(kept, "U1") == "de-DE"
    assert store.handled.first(EVENT, "Ev-T2", 60, kept) is False
    assert store.answers.get(kept, "C1", "1.1") == PostedAnswer("9.1", "T2")


def test_uninstalling_from_an_organisation_forgets_every_workspace_of_it(store):
    org = Workspace("E1", None, is_enterprise_install=True)
    install(store, None, "E1", org=True)
    install(store, "T9", "E2")
    store.preferences.set_number_format(org, "W1", "de-DE")
    store.preferences.set_number_format(Workspace("E1", "T3"), "W2", "fr-FR")  # a single-workspace row in E1
    store.preferences.set_number_format(Workspace("E2", "T9"), "W3", "ja-JP")
    for workspace in (org, Workspace("E1", "T3"), Workspace("E2", "T9")):
        store.answers.put(workspace, "C1", "1.1", PostedAnswer("9.1", "x"), 60)
    store.forget(Workspace("E1", None, is_enterprise_install=True), CLIENT_ID)
    assert bot_token(store, None, "E1", org=True) is None
    assert store.preferences.number_format(Workspace("E1", "T3"), "W2") is None
    assert store.preferences.number_format(Workspace("E2", "T9"), "W3") == "ja-JP"
    assert store.answers.get(org, "C1", "1.1") is None and store.answers.get(Workspace("E1", "T3"), "C1", "1.1") is None
    assert store.answers.get(Workspace("E2", "T9"), "C1", "1.1") == PostedAnswer("9.1", "x")
    assert bot_token(store, "T9", "E2") == "xoxb-T9"


def test_an_oauth_state_is_accepted_once_and_never_when_forged_or_expired(store):
    states = OAuthStateStore(store.database, expiration_seconds=600)
    state, expiring = states.issue(), states.issue()
    assert states.consume(state) is True
    assert states.consume(state) is False  # replayed
    assert states.consume("forged-" + state) is False
    with store.database.engine.begin() as connection:
        connection.execute(update(oauth_states).where(oauth_states.c.state == expiring)
                           .values(expire_at=datetime(2000, 1, 1) + timedelta(seconds=1)))
    assert states.consume(expiring) is False
    with store.database.engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(oauth_states)).scalar_one() == 0


def wait_until(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_process_keeps_what_it_read_until_another_process_changes_it(postgres_server_url):
    """Two stores stand for two processes: each keeps the rows it read, and forgets one the moment the other
    changes it (NOTIFY); a row changed behind their backs (no NOTIFY) shows the first one really reads memory."""
    from postgres_server import fresh_database

    with fresh_database(postgres_server_url) as url:
        reader, writer = Store.open(url), Store.open(url)
        upgrade(reader.database)
        workspace = Workspace(team_id="T1")
        writer.preferences.set_number_format(workspace, "U1", "de-DE")
        assert reader.preferences.number_format(workspace, "U1") == "de-DE"
        assert wait_until(lambda: reader.cache.watching)
        assert reader.preferences.number_format(workspace, "U1") == "de-DE"  # now kept
        with reader.database.engine.begin() as connection:
            connection.execute(update(preferences_table).values(number_format="ja-JP"))  # no announcement
        assert reader.preferences.number_format(workspace, "U1") == "de-DE"  # served from memory
        writer.preferences.set_number_format(workspace, "U1", "fr-FR")
        assert wait_until(lambda: reader.preferences.number_format(workspace, "U1") == "fr-FR")
        install(writer, "T1")
        bot = installation_store(reader.database, CLIENT_ID, TOKENS, reader.cache)
        assert bot.find_bot(enterprise_id=None, team_id="T1").bot_token == "xoxb-T1"
        writer.forget(workspace, CLIENT_ID)
        assert wait_until(lambda: bot.find_bot(enterprise_id=None, team_id="T1") is None)
        assert wait_until(lambda: reader.preferences.number_format(workspace, "U1") is None)
        for store in (reader, writer):
            store.close()


def test_an_sqlite_process_keeps_what_it_read_until_any_connection_changes_the_file(tmp_path):
    """Two stores on one SQLite file stand for two processes: a row read once is served from memory (no query
    reaches the database) once the watcher watches; a change by the other, or by anyone writing to the file,
    shows within moments, and the store's own change at once."""
    path = tmp_path / "dpscale.sqlite3"
    reader, writer = Store.open(f"sqlite:///{path}"), Store.open(f"sqlite:///{path}")
    upgrade(reader.database)
    workspace = Workspace(team_id="T1")
    for user in ("U0", "U1"):
        writer.preferences.set_number_format(workspace, user, "de-DE")
    assert reader.preferences.number_format(workspace, "U0") == "de-DE"  # the first read starts the watcher
    assert wait_until(lambda: reader.cache.watching)
    queries: list[str] = []
    event.listen(reader.database.engine, "before_cursor_execute", lambda *args: queries.append(args[2]))
    assert [reader.preferences.number_format(workspace, "U1") for _ in range(3)] == ["de-DE"] * 3
    assert len(queries) == 1  # read once, then kept
    writer.preferences.set_number_format(workspace, "U1", "fr-FR")
    assert wait_until(lambda: reader.preferences.number_format(workspace, "U1") == "fr-FR")
    with closing(sqlite3.connect(path)) as other, other:
        other.execute("UPDATE dpscale_preferences SET number_format = 'ja-JP'")
    assert wait_until(lambda: reader.preferences.number_format(workspace, "U1") == "ja-JP")
    reader.preferences.set_number_format(workspace, "U1", None)  # its own change: at once
    assert reader.preferences.number_format(workspace, "U1") is None
    for store in (reader, writer):
        store.close()


def started_watcher(store: Store) -> threading.Thread:
    """The watcher thread a first read starts, once it watches."""
    before = set(threading.enumerate())
    assert store.preferences.number_format(Workspace(team_id="T1"), "U1") is None
    assert wait_until(lambda: store.cache.watching)
    (watcher,) = [t for t in threading.enumerate() if t.name == "dpscale-cache" and t not in before]
    return watcher


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_cache_that_no_one_holds_any_more_stops_its_watcher(tmp_path):
    """A process that drops a store (a test's app, a reloaded configuration) does not keep its watcher thread
    polling the file for ever."""
    store = Store.open(f"sqlite:///{tmp_path / 'dpscale.sqlite3'}")
    upgrade(store.database)
    watcher = started_watcher(store)
    store.database.dispose()
    del store
    gc.collect()
    watcher.join(5)
    assert not watcher.is_alive()


def raw_rows(store: Store) -> str:
    """Every value of every row of slack-sdk's two installation tables, as the database holds them."""
    with store.database.engine.connect() as connection:
        return repr([connection.execute(select(table)).all() for table in (installations, bots)])


def install_everything(store: Store, team_id: str, tokens: TokenCipher = TOKENS) -> None:
    """An installation with every kind of credential slack-sdk's tables can hold, at their longest."""
    installation_store(store.database, CLIENT_ID, tokens, store.cache).save(Installation(
        app_id="A1", team_id=team_id, user_id="UINSTALLER", bot_id="B1", bot_user_id="UBOT",
        bot_token=f"xoxb-{team_id}-" + "b" * (PLAIN_WIDTH - 6 - len(team_id)), bot_refresh_token=f"xoxe-1-{team_id}",
        user_token=f"xoxp-{team_id}", user_refresh_token=f"xoxe-2-{team_id}",
        incoming_webhook_url=f"https://hooks.slack.com/services/{team_id}/secret", bot_scopes="commands",
    ))


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_no_stored_column_holds_a_token_and_the_store_reads_every_one_back(store):
    install_everything(store, "T1")
    raw = raw_rows(store)
    for secret in ("xoxb-", "xoxp-", "xoxe-", "hooks.slack.com"):
        assert secret not in raw
    bot = installation_store(store.database, CLIENT_ID, TOKENS, store.cache).find_installation(
        enterprise_id=None, team_id="T1")
    assert bot.bot_token.startswith("xoxb-T1-") and len(bot.bot_token) == PLAIN_WIDTH
    assert (bot.bot_refresh_token, bot.user_token, bot.user_refresh_token) == ("xoxe-1-T1", "xoxp-T1", "xoxe-2-T1")
    assert bot.incoming_webhook_url == "https://hooks.slack.com/services/T1/secret"
    with store.database.engine.connect() as connection:
        stored = connection.execute(select(bots.c.bot_token)).scalar_one()
    assert len(stored) <= STORED_WIDTH


def test_a_rotated_key_reads_old_rows_writes_new_ones_and_rotate_keys_leaves_none_for_the_old_key(store):
    install(store, "T1")  # with the old key
    rotated = TokenCipher([NEW_KEY, OLD_KEY])
    assert bot_token(store, "T1", tokens=rotated) == "xoxb-T1"
    install(store, "T2", tokens=rotated)  # written with the new key
    assert bot_token(store, "T2", tokens=rotated) == "xoxb-T2"
    with pytest.raises(TokenKeyError, match="DPSCALE_TOKEN_KEYS"):  # the old key alone cannot read it
        installation_store(store.database, CLIENT_ID, TOKENS).find_bot(enterprise_id=None, team_id="T2")
    assert rotate_tokens(store.database, rotated) == 4  # each token, written again under the first key
    only_new = TokenCipher([NEW_KEY])
    assert (bot_token(store, "T1", tokens=only_new), bot_token(store, "T2", tokens=only_new)) == ("xoxb-T1", "xoxb-T2")
    assert "xoxb-" not in raw_rows(store)


def plain_installation_at_0003(database_url: str) -> Store:
    """A database at revision 0003 holding an installation's tokens in plain text, as dpscale stored them then."""
    store = Store.open(database_url)
    upgrade(store.database, "0003")
    with store.database.engine.begin() as connection:
        for table in (installations, bots):
            row = {"client_id": CLIENT_ID, "app_id": "A1", "team_id": "T1", "bot_token": "xoxb-T1",
                   "bot_id": "B1", "bot_user_id": "UBOT", "is_enterprise_install": False,
                   "installed_at": datetime(2026, 1, 1)}
            connection.execute(table.insert(), {**row, "user_id": "UINSTALLER"} if table is installations else row)
    return store


def test_the_migration_encrypts_the_tokens_already_stored_and_its_downgrade_decrypts_them(database_url):
    from alembic import command

    from bot.store.migrate import alembic_config

    store = plain_installation_at_0003(database_url)
    upgrade(store.database, tokens=TOKENS)
    assert "xoxb-" not in raw_rows(store)
    assert bot_token(store, "T1") == "xoxb-T1"
    with store.database.engine.begin() as connection:
        command.downgrade(alembic_config(connection, TOKENS), "0005-1")
    assert raw_rows(store).count("'xoxb-T1'") == 2
    store.close()


def test_the_migration_without_a_key_stops_and_changes_nothing_where_a_token_is_stored(database_url, monkeypatch):
    monkeypatch.delenv("DPSCALE_TOKEN_KEYS", raising=False)
    store = plain_installation_at_0003(database_url)
    with pytest.raises(TokenKeyError, match="DPSCALE_TOKEN_KEYS is needed to encrypt the 2 token"):
        upgrade(store.database)
    assert current_revision(store.database) == "0003"
    assert raw_rows(store).count("'xoxb-T1'") == 2
    monkeypatch.setenv("DPSCALE_TOKEN_KEYS", f"{OLD_KEY}")  # as `python -m bot.store upgrade` finds it
    upgrade(store.database)
    assert "xoxb-" not in raw_rows(store) and bot_token(store, "T1") == "xoxb-T1"
    store.close()


def test_a_token_written_in_plain_text_by_an_older_process_is_read_and_rotate_keys_encrypts_it(store):
    install(store, "T1")
    with store.database.engine.begin() as connection:
        connection.execute(update(bots).values(bot_token="xoxb-written-by-an-older-version"))
    assert bot_token(store, "T1") == "xoxb-written-by-an-older-version"
    assert rotate_tokens(store.database, TOKENS) == 2  # that one, and the installation row's, re-encrypted
    assert "xoxb-" not in raw_rows(store)


def store_command(database_url: str, keys: str, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "DATABASE_URL": database_url, "DPSCALE_TOKEN_KEYS": keys}
    return subprocess.run([sys.executable, "-m", "bot.store", *argv], env=env, capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parent.parent)


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_the_documented_commands_rotate_the_key_and_undo_the_encryption(tmp_path):
    """docs/security.md's steps: a new key first, `rotate-keys`, the old key dropped; then `downgrade 0005-1`."""
    url = f"sqlite:///{tmp_path / 'dpscale.sqlite3'}"
    store = Store.open(url)
    upgrade(store.database, tokens=TOKENS)
    install(store, "T1")
    done = store_command(url, f"{NEW_KEY},{OLD_KEY}", "rotate-keys")
    assert done.returncode == 0 and "re-encrypted 2 stored token(s)" in done.stdout, done.stderr
    only_new = TokenCipher([NEW_KEY])
    assert installation_store(store.database, CLIENT_ID, only_new).find_bot(
        enterprise_id=None, team_id="T1").bot_token == "xoxb-T1"
    assert store_command(url, OLD_KEY, "downgrade", "0005-1").returncode == 1  # the old key no longer reads them
    assert "xoxb-" not in raw_rows(store)
    done = store_command(url, NEW_KEY, "downgrade", "0005-1")
    assert done.returncode == 0, done.stderr
    assert raw_rows(store).count("'xoxb-T1'") == 2
    refused = store_command(url, NEW_KEY, "downgrade", "0001")
    assert refused.returncode == 1 and "never undone" in refused.stderr and "Traceback" not in refused.stderr
    key = store_command(url, "", "new-key").stdout.strip()
    assert TokenCipher([key]).decrypt(TokenCipher([key]).encrypt("xoxb-1")) == "xoxb-1"
    store.close()


@pytest.mark.slow  # over 1 s: left out of the fast loop
def test_a_postgresql_server_that_never_answers_fails_the_connection_instead_of_holding_it():
    # a host that takes the TCP connection and then says nothing (gone mid-failover): without libpq's
    # connect_timeout a request's thread would wait for the kernel's TCP timeout, minutes
    import socket

    from sqlalchemy.exc import OperationalError

    from bot.store.db import POSTGRES_CONNECT_TIMEOUT_S

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel accepts connections; nothing ever reads or answers them
        port = silent.getsockname()[1]
        database = Database(f"postgresql://dpscale@127.0.0.1:{port}/dpscale")
        outcome: list[BaseException] = []

        def connect() -> None:
            try:
                database.engine.connect().close()
            except BaseException as error:  # noqa: BLE001  # what the thread saw, asserted below
                outcome.append(error)

        worker = threading.Thread(target=connect, daemon=True)
        started = time.monotonic()
        worker.start()
        worker.join(POSTGRES_CONNECT_TIMEOUT_S * 10)  # the bound of a hang, not a timing of the happy path
        assert not worker.is_alive(), "connecting to a silent server is still waiting"
        assert isinstance(outcome[0], OperationalError)
        assert time.monotonic() - started < POSTGRES_CONNECT_TIMEOUT_S * 10
        database.dispose()
