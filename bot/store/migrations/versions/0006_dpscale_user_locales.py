"""Users' Slack locales, shared by every process and kept across deploys; a workspace's pause of lookups.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dpscale_user_locales",
        sa.Column("enterprise_id", sa.String(32), primary_key=True),
        sa.Column("team_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("locale", sa.String(35), nullable=True),
        sa.Column("expires_at", sa.DateTime, nullable=False),
    )
    op.create_index("dpscale_user_locales_expires_idx", "dpscale_user_locales", ["expires_at"])


def downgrade() -> None:
    # what it holds is what Slack tells again on the next lookup: undoing it (to go on down to 0005's decryption,
    # say) forgets nothing a user chose
    op.execute("DROP TABLE IF EXISTS dpscale_user_locales")  # SQLite keeps DDL a failed downgrade made
