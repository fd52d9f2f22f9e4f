"""Who holds each piece of follow-up work: a token of its own for every take, which every later write must name.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # SQLite runs DDL outside the migration's transaction: a column an interrupted upgrade added is found and kept
    if "holder" not in {column["name"] for column in sa.inspect(op.get_bind()).get_columns("dpscale_work")}:
        # work recorded by an older process has no holder (""): whoever takes it next holds it by a token
        op.add_column("dpscale_work", sa.Column("holder", sa.String(32), nullable=False, server_default=""))


def downgrade() -> None:
    # a holder names one take, which the lease bounds anyway: undoing it (to go on down to 0005's decryption, say)
    # loses no work, only the check that a writer still holds what it writes
    # (in place, as SQLite since 3.35 and PostgreSQL do it: no copy of the table left behind should a later step
    # of the same downgrade fail)
    if "holder" in {column["name"] for column in sa.inspect(op.get_bind()).get_columns("dpscale_work")}:
        op.execute("ALTER TABLE dpscale_work DROP COLUMN holder")
