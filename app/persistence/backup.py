"""A consistent copy of a SQLite database while the server runs (SQLite's online backup API).

Postgres is backed up with its own tools (``pg_dump`` / ``pg_restore``, docs/operating.md "Backups").
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url


class BackupError(Exception):
    """The backup cannot be made (nothing was written)."""


def backup_sqlite(url: str, target: Path) -> int:
    """Copy the SQLite database at ``url`` to the new file ``target`` page by page with the online backup API
    (writers may go on meanwhile; the copy is one consistent snapshot). Returns the copy's size in bytes."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise BackupError("backup copies SQLite databases only; back up Postgres with pg_dump "
                          "(docs/operating.md, Backups)")
    source_path = parsed.database
    if not source_path or source_path == ":memory:" or not Path(source_path).is_file():
        raise BackupError(f"no SQLite database file at {source_path!r}")
    if target.exists():
        raise BackupError(f"{target} already exists; choose a new file")
    if not target.parent.is_dir():
        raise BackupError(f"directory {target.parent} does not exist")
    source = sqlite3.connect(source_path, timeout=30)
    try:
        destination = sqlite3.connect(target)
        try:
            source.backup(destination)
        finally:
            destination.close()
    except sqlite3.Error as err:
        target.unlink(missing_ok=True)
        raise BackupError(f"backup failed: {err}") from None
    finally:
        source.close()
    return target.stat().st_size
