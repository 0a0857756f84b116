"""A finished game's commands in one packed record (``game_command_pack``) instead of a row each

Every finished game's command rows are moved into its pack (``app.persistence.commands``: the columns as one
compressed value) and deleted; running games keep their rows. The downgrade writes the rows back from the packs.

Revision ID: 0015_packed_history
Revises: 0014_history_storage
Create Date: 2026-11-27 10:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_packed_history"
down_revision: str | None = "0014_history_storage"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 200  # games per round trip


def _commands_table() -> sa.Table:
    return sa.table("game_command", sa.column("game_id", sa.Integer()), sa.column("seq", sa.Integer()),
                    sa.column("seat", sa.Integer()), sa.column("command_id", sa.String()),
                    sa.column("command", sa.JSON()), sa.column("created_at", sa.DateTime(timezone=True)),
                    sa.column("made_by", sa.String()))


def _pack_table() -> sa.Table:
    return sa.table("game_command_pack", sa.column("game_id", sa.Integer()), sa.column("commands", sa.Integer()),
                    sa.column("data", sa.LargeBinary()))


def upgrade() -> None:
    from app.persistence.commands import StoredCommand, pack

    op.create_table(
        "game_command_pack",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("commands", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    bind = op.get_bind()
    commands, packs = _commands_table(), _pack_table()
    finished = [game_id for (game_id,) in bind.execute(sa.text(
        "SELECT id FROM game WHERE status = 'finished' ORDER BY id"))]
    for start in range(0, len(finished), _BATCH):
        ids = finished[start:start + _BATCH]
        by_game: dict[int, list[StoredCommand]] = {game_id: [] for game_id in ids}
        for row in bind.execute(sa.select(commands).where(commands.c.game_id.in_(ids))
                                .order_by(commands.c.game_id, commands.c.seq)):
            by_game[row.game_id].append(StoredCommand(row.seq, row.seat, row.command_id, row.command,
                                                      row.created_at, row.made_by))
        rows = [{"game_id": game_id, "commands": len(cs), "data": pack(cs)} for game_id, cs in by_game.items() if cs]
        if rows:
            bind.execute(packs.insert(), rows)
        bind.execute(commands.delete().where(commands.c.game_id.in_(ids)))


def downgrade() -> None:
    from app.persistence.commands import unpack

    bind = op.get_bind()
    commands = _commands_table()
    aware = bind.dialect.name != "sqlite"
    for game_id, data in bind.execute(sa.text("SELECT game_id, data FROM game_command_pack ORDER BY game_id")).all():
        rows = [{"game_id": game_id, "seq": c.seq, "seat": c.seat, "command_id": c.command_id, "command": c.command,
                 "created_at": c.created_at, "made_by": c.made_by} for c in unpack(bytes(data), aware)]
        if rows:
            bind.execute(commands.insert(), rows)
    op.drop_table("game_command_pack")
