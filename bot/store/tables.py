"""Every table dpscale keeps, as SQLAlchemy metadata: slack-sdk's installation and OAuth-state tables and
dpscale's own. The Alembic migrations create exactly this schema (a test compares the two)."""

from __future__ import annotations

from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import Column, DateTime, Index, MetaData, String, Table

metadata = MetaData()

installations = SQLAlchemyInstallationStore.build_installations_table(metadata, "slack_installations")
bots = SQLAlchemyInstallationStore.build_bots_table(metadata, "slack_bots")
oauth_states = SQLAlchemyOAuthStateStore.build_oauth_states_table(metadata, "slack_oauth_states")

# Something that must happen once only, across every process and host: a Slack event handled, a Share posted.
# The primary key is the guard: the first insert wins, a second one conflicts.
handled = Table(
    "dpscale_handled",
    metadata,
    Column("kind", String(16), primary_key=True),
    Column("key", String(200), primary_key=True),
    Column("enterprise_id", String(32), nullable=False, server_default=""),
    Column("team_id", String(32), nullable=False, server_default=""),
    Column("expires_at", DateTime, nullable=False),
    Index("dpscale_handled_expires_idx", "expires_at"),
    Index("dpscale_handled_workspace_idx", "enterprise_id", "team_id"),
)

# A user's own number format, chosen in App Home or with `format=`. Empty enterprise/team ids stand for none.
preferences = Table(
    "dpscale_preferences",
    metadata,
    Column("enterprise_id", String(32), primary_key=True),
    Column("team_id", String(32), primary_key=True),
    Column("user_id", String(32), primary_key=True),
    Column("number_format", String(35), nullable=False),
    Column("updated_at", DateTime, nullable=False),
)

# Where the answer to each mention is, and a fingerprint of what it said, so that an edit of the mention landing
# on any process updates that one answer in place. Keyed like everything else by organisation and workspace.
answers = Table(
    "dpscale_answers",
    metadata,
    Column("enterprise_id", String(32), primary_key=True),
    Column("team_id", String(32), primary_key=True),
    Column("channel_id", String(32), primary_key=True),
    Column("message_ts", String(32), primary_key=True),
    Column("answer_ts", String(32), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("expires_at", DateTime, nullable=False),
    Index("dpscale_answers_expires_idx", "expires_at"),
)

# Each user's Slack locale as `users.info` last told it, shared by every process so that a deploy does not ask Slack
# again (`locale` None: Slack gave none or would not describe the user, who is read in the unknown format). The row
# under user "" is the workspace's pause: lookups wait until `expires_at` after Slack rate-limited or failed one.
user_locales = Table(
    "dpscale_user_locales",
    metadata,
    Column("enterprise_id", String(32), primary_key=True),
    Column("team_id", String(32), primary_key=True),
    Column("user_id", String(32), primary_key=True),
    Column("locale", String(35), nullable=True),
    Column("expires_at", DateTime, nullable=False),
    Index("dpscale_user_locales_expires_idx", "expires_at"),
)
