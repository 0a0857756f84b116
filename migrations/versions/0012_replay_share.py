"""replay_share: read-only links to a finished game's replay

Revision ID: 0012_replay_share
Revises: 0011_duty_leases
Create Date: 2026-11-27 07:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_replay_share"
down_revision: str | None = "0011_duty_leases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "replay_share",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_replay_share_game_id", "replay_share", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_replay_share_game_id", table_name="replay_share")
    op.drop_table("replay_share")
