"""push_key, push_subscription: Web Push (the server's VAPID keys, the seats' push subscriptions)

Revision ID: 0010_push_subscriptions
Revises: 0009_far_seat_transfer
Create Date: 2026-11-26 06:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_push_subscriptions"
down_revision: str | None = "0009_far_seat_transfer"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "push_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("private_key", sa.Text(), nullable=False),
        sa.Column("public_key", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "push_subscription",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=128), nullable=False),
        sa.Column("auth", sa.String(length=64), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("turn_key", sa.String(length=48), nullable=True),
        sa.Column("reminder_key", sa.String(length=48), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["seat_id"], ["seat.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("seat_id", "endpoint", name="uq_push_subscription_seat_endpoint"),
    )
    op.create_index("ix_push_subscription_seat_id", "push_subscription", ["seat_id"])


def downgrade() -> None:
    op.drop_index("ix_push_subscription_seat_id", table_name="push_subscription")
    op.drop_table("push_subscription")
    op.drop_table("push_key")
