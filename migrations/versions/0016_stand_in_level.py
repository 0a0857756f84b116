"""table_clock.stand_in_level: the level of the bot that stands in for an absent player, chosen per table where
the stand-in is chosen (``PUT /api/tables/{id}/clock``); NULL keeps the server's default
(``PHASE10_BOT_STAND_IN_LEVEL``).

Revision ID: 0016_stand_in_level
Revises: 0015_packed_history
Create Date: 2026-11-27 10:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_stand_in_level"
down_revision: str | None = "0015_packed_history"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_clock") as batch:
        batch.add_column(sa.Column("stand_in_level", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_clock") as batch:
        batch.drop_column("stand_in_level")
