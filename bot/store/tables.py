"""dpscale's own tables, as SQLAlchemy metadata; slack-sdk's installation and OAuth-state tables join the same
`metadata` in bot/store/slack_tables.py. The Alembic migrations create exactly this schema, both modules'
tables (a test compares the two).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, DateTime, Index, Integer, MetaData, String, Table, Text, false

metadata = MetaData()

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
    Column("owner", String(200), nullable=False, server_default=""),  # the work holding it, if any
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

# Follow-up work acknowledged to Slack but not yet done (a mention's answer, a Share, a form's result): recorded
# before the acknowledgement, so that whichever process survives finishes it. A row is waiting until it is done;
# the process working on it holds it until `lease_until`, after which another may take it; `holder` is the token
# of that take, which every later write names (a writer whose lease was taken over changes nothing). `stage` says
# how far the work got (`posting`: its one visible effect may have reached Slack). Done rows keep their key,
# without their payload, until `expires_at`, so that Slack's redeliveries of the same request are recognised.
work = Table(
    "dpscale_work",
    metadata,
    Column("kind", String(16), primary_key=True),
    Column("key", String(200), primary_key=True),
    Column("enterprise_id", String(32), nullable=False, server_default=""),
    Column("team_id", String(32), nullable=False, server_default=""),
    Column("payload", Text, nullable=False, server_default=""),
    Column("done", Boolean, nullable=False, server_default=false()),
    Column("stage", String(16), nullable=False, server_default=""),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("lease_until", DateTime, nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("expires_at", DateTime, nullable=False),
    Column("holder", String(32), nullable=False, server_default=""),
    Index("dpscale_work_due_idx", "done", "lease_until"),
    Index("dpscale_work_expires_idx", "expires_at"),
    Index("dpscale_work_workspace_idx", "enterprise_id", "team_id"),
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
