"""table_clock.timer_set_at: when the turn timer mode was last set, so a correspondence timer (hours, days)
keeps running across server restarts

Revision ID: 0007_far_correspondence_clock
Revises: 0005_chat_messages
Create Date: 2026-11-26 06:00:00

The revision id keeps its first name (databases store it in ``alembic_version``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_far_correspondence_clock"
down_revision: str | None = "0005_chat_messages"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_clock") as batch:
        batch.add_column(sa.Column("timer_set_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_clock") as batch:
        batch.drop_column("timer_set_at")
