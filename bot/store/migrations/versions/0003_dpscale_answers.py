"""dpscale's answers to mentions, shared by every process: where each answer is and what it said.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dpscale_answers",
        sa.Column("enterprise_id", sa.String(32), primary_key=True),
        sa.Column("team_id", sa.String(32), primary_key=True),
        sa.Column("channel_id", sa.String(32), primary_key=True),
        sa.Column("message_ts", sa.String(32), primary_key=True),
        sa.Column("answer_ts", sa.String(32), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
    )
    op.create_index("dpscale_answers_expires_idx", "dpscale_answers", ["expires_at"])


def downgrade() -> None:
    raise RuntimeError("dpscale's migrations are never undone: that would forget where answers are")
