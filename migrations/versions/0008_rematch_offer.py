"""rematch_offer, rematch_answer: "Play again" as an offer every player accepts or declines

Revision ID: 0008_far_rematch_offer
Revises: 0007_far_correspondence_clock
Create Date: 2026-11-26 06:10:00

The revision id keeps its first name (databases store it in ``alembic_version``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_far_rematch_offer"
down_revision: str | None = "0007_far_correspondence_clock"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rematch_offer",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("after", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("by_seat_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_table(
        "rematch_answer",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["rematch_offer.table_id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["seat_id"], ["seat.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seat_id"),
    )


def downgrade() -> None:
    op.drop_table("rematch_answer")
    op.drop_table("rematch_offer")
