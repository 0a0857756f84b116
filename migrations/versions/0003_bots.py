"""bot seats (level) and table clocks (turn_timer, stand_in) for issue 7

Revision ID: 0003_bots
Revises: 0002
Create Date: 2026-11-25 23:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_bots"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bot_seat",
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["seat_id"], ["seat.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seat_id"),
    )
    op.create_table(
        "table_clock",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("turn_timer", sa.String(length=16), nullable=False),
        sa.Column("stand_in", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    op.drop_table("table_clock")
    op.drop_table("bot_seat")
