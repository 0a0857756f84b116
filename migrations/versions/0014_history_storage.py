"""game_command keeps what the engine cannot recompute: no stored events or per-seat redactions, no surrogate id

A command row holds the game, its sequence number (the key), the seat, the client's command id, the command and who
made it for the seat when not the seat itself (its turn timer or a stand-in: ``made_by``).
Its events, and each seat's and a spectator's redaction of them, are what the deterministic engine recomputes from
the game's seed, options and commands (C-10), when a resume, a resend or a replay asks for them
(``app.services.history``). The rows are copied into a new table in (game, seq) order, which also gives back the
space of the dropped columns at once. A game keeps its snapshot before the latest one too (``previous_snapshot``),
so that a resume from a version between the two replays from there rather than from the seed.

Revision ID: 0014_history_storage
Revises: 0013_game_analysis
Create Date: 2026-11-27 07:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_history_storage"
down_revision: str | None = "0013_game_analysis"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = "game_id, seq, seat, command_id, command, created_at"


def _rename_old(suffix: str) -> None:
    """Move the current ``game_command`` (and, on Postgres, its index names) out of the way."""
    op.rename_table("game_command", f"game_command_{suffix}")
    if op.get_bind().dialect.name == "postgresql":
        for name in ("uq_game_command_command_id", "uq_game_command_seq", "game_command_pkey", "pk_game_command"):
            op.execute(f"ALTER INDEX IF EXISTS {name} RENAME TO {name}_{suffix}")


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("previous_snapshot", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("previous_snapshot_version", sa.Integer(), nullable=True))
    _rename_old("old")
    op.create_table(
        "game_command",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("command_id", sa.String(length=64), nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("made_by", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_game_command"),
        sa.UniqueConstraint("game_id", "command_id", name="uq_game_command_command_id"),
    )
    op.execute(f"INSERT INTO game_command ({_COLUMNS}) SELECT {_COLUMNS} FROM game_command_old "
               "ORDER BY game_id, seq")
    op.drop_table("game_command_old")


def downgrade() -> None:
    """The old shape, its events and redactions recomputed by the engine from each game's seed and commands."""
    from app import fastjson
    from app.rules import registry

    _rename_old("new")
    op.create_table(
        "game_command",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("command_id", sa.String(length=64), nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("redacted", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "command_id", name="uq_game_command_command_id"),
        sa.UniqueConstraint("game_id", "seq", name="uq_game_command_seq"),
    )
    bind = op.get_bind()
    games = bind.execute(sa.text("SELECT id, ruleset, options, seed, players FROM game ORDER BY id")).all()
    old = sa.table("game_command", sa.column("game_id"), sa.column("seq"), sa.column("seat"), sa.column("command_id"),
                   sa.column("command", sa.JSON()), sa.column("events", sa.JSON()), sa.column("redacted", sa.JSON()),
                   sa.column("created_at"))
    for game_id, ruleset_id, options, seed, players in games:
        ruleset = registry.get(ruleset_id)
        options = fastjson.loads(options) if isinstance(options, str) else options
        state = ruleset.new_game(seed, players, ruleset.parse_options(options))
        rows = []
        for seq, seat, command_id, command, created_at in bind.execute(sa.text(
                "SELECT seq, seat, command_id, command, created_at FROM game_command_new WHERE game_id = :g "
                "ORDER BY seq"), {"g": game_id}):
            command = fastjson.loads(command) if isinstance(command, str) else command
            state, events = ruleset.apply(state, seat, ruleset.parse_command(command))
            redacted = {str(p): [ruleset.redact_event(e, p) for e in events] for p in range(players)}
            redacted["spectator"] = [ruleset.redact_event(e, None) for e in events]
            rows.append({"game_id": game_id, "seq": seq, "seat": seat, "command_id": command_id, "command": command,
                         "events": [ruleset.event_to_json(e) for e in events], "redacted": redacted,
                         "created_at": created_at})
        if rows:
            bind.execute(old.insert(), rows)
    op.drop_table("game_command_new")
    # Not ``batch_alter_table``: on SQLite it would copy ``game`` into a new table and drop the old one, and the
    # drop deletes every command row with its game (ON DELETE CASCADE). Both databases drop a column in place
    # (SQLite from 3.35).
    op.execute("ALTER TABLE game DROP COLUMN previous_snapshot_version")
    op.execute("ALTER TABLE game DROP COLUMN previous_snapshot")
