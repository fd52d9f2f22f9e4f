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
    # a handled-once key may be held by a piece of work: that work, taken up again after its process died, still
    # holds it (the claim it made before is its own, not another's)
    op.add_column("dpscale_handled", sa.Column("owner", sa.String(200), nullable=False, server_default=""))


def downgrade() -> None:
    raise RuntimeError("dpscale's migrations are never undone: that would lose work acknowledged to Slack")
