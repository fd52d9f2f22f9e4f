"""dpscale's shared state: things handled once, and each user's number format.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dpscale_handled",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("enterprise_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("team_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("expires_at", sa.DateTime, nullable=False),
    )
    op.create_index("dpscale_handled_expires_idx", "dpscale_handled", ["expires_at"])
    op.create_index("dpscale_handled_workspace_idx", "dpscale_handled", ["enterprise_id", "team_id"])
    op.create_table(
        "dpscale_preferences",
        sa.Column("enterprise_id", sa.String(32), primary_key=True),
        sa.Column("team_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("number_format", sa.String(35), nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    raise RuntimeError("dpscale's migrations are never undone: that would delete users' preferences")
