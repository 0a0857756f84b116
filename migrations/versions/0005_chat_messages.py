"""chat_message: table chat kept in the database (last 50 per table), shared by every server process

Revision ID: 0005_chat_messages
Revises: 0004_join_failures
Create Date: 2026-11-26 02:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_chat_messages"
down_revision: str | None = "0004_join_failures"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_message",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("text", sa.String(length=300), nullable=True),
        sa.Column("emoji", sa.String(length=16), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chat_message_table_id_id", "chat_message", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_message_table_id_id", table_name="chat_message")
    op.drop_table("chat_message")
