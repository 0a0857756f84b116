"""game_table.practice and game_table.practice_from: a practice table, started at one step of a finished game
("Play on from here", ``app.services.practice``), is marked as such and names the step it started from.

Revision ID: 0017_practice_table
Revises: 0016_stand_in_level
Create Date: 2026-12-07 11:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_practice_table"
down_revision: str | None = "0016_stand_in_level"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite takes a NOT NULL column with a constant default): a batch copy of ``game_table``
    # would drop the old table, and with it, through ON DELETE CASCADE, every seat, game and chat message.
    op.add_column("game_table", sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("game_table", sa.Column("practice_from", sa.JSON(), nullable=True))


def downgrade() -> None:
    # In place for the same reason (SQLite drops a column in place from 3.35).
    op.execute("ALTER TABLE game_table DROP COLUMN practice_from")
    op.execute("ALTER TABLE game_table DROP COLUMN practice")
