"""Follow-up work acknowledged to Slack and not yet done, so that any process can finish what another left.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # SQLite runs DDL outside the migration's transaction: should a later revision of the same upgrade fail, this
    # one's table stays while the revision does not, and the next upgrade must find it and go on
    existing = sa.inspect(op.get_bind())
    if "owner" not in {column["name"] for column in existing.get_columns("dpscale_handled")}:
        # a handled-once key may be held by a piece of work: that work, taken up again after its process died,
        # still holds it (the claim it made before is its own, not another's)
        op.add_column("dpscale_handled", sa.Column("owner", sa.String(200), nullable=False, server_default=""))
    if existing.has_table("dpscale_work"):
        return
    op.create_table(
        "dpscale_work",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("enterprise_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("team_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("payload", sa.Text, nullable=False, server_default=""),
        sa.Column("done", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("stage", sa.String(16), nullable=False, server_default=""),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("lease_until", sa.DateTime, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
    )
    op.create_index("dpscale_work_due_idx", "dpscale_work", ["done", "lease_until"])
    op.create_index("dpscale_work_expires_idx", "dpscale_work", ["expires_at"])
    op.create_index("dpscale_work_workspace_idx", "dpscale_work", ["enterprise_id", "team_id"])


def downgrade() -> None:
    raise RuntimeError("dpscale's migrations are never undone: that would lose work acknowledged to Slack")
