"""duty_lease: which server process holds a table's bot, stand-in, timer and reminder duties, and its stand-ins

Revision ID: 0011_duty_leases
Revises: 0010_push_subscriptions
Create Date: 2026-11-27 08:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_duty_leases"
down_revision: str | None = "0010_push_subscriptions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "duty_lease",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("absent", sa.JSON(), nullable=False),
        sa.Column("stand_ins", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_duty_lease_expires_at", "duty_lease", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_duty_lease_expires_at", table_name="duty_lease")
    op.drop_table("duty_lease")
