"""game.snapshot_version: snapshots every few commands, commands after them replayed on load

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25 23:02:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("snapshot_version", sa.Integer(), nullable=False, server_default="0"))
    # Existing rows stored a snapshot at every command.
    op.execute("UPDATE game SET snapshot_version = version")


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("snapshot_version")
