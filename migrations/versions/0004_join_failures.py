"""join_failure: wrong join codes counted in the database, so the rate limit holds across server processes

Revision ID: 0004_join_failures
Revises: 0003_bots
Create Date: 2026-11-26 01:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_join_failures"
down_revision: str | None = "0003_bots"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "join_failure",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("address", sa.String(length=255), nullable=False),
        sa.Column("failed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_join_failure_table_id_failed_at", "join_failure", ["table_id", "failed_at"])
    op.create_index("ix_join_failure_address_failed_at", "join_failure", ["address", "failed_at"])
    op.create_index("ix_join_failure_failed_at", "join_failure", ["failed_at"])


def downgrade() -> None:
    op.drop_index("ix_join_failure_failed_at", table_name="join_failure")
    op.drop_index("ix_join_failure_address_failed_at", table_name="join_failure")
    op.drop_index("ix_join_failure_table_id_failed_at", table_name="join_failure")
    op.drop_table("join_failure")
