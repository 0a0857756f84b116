"""``python -m app.admin``: the operator's command line (docs/operating.md, "Admin command").

    prune [--dry-run]     delete what the retention settings no longer keep (app/services/retention.py)
    export TABLE_ID       print a table's record as JSON: the table and each game as a game record
                          (docs/record.md, app/services/archive.py); --game N prints game N's record alone
    import FILE           re-host a table record or a game record for replay under a new table id ("-" reads
                          stdin); it is replayed through the engine first
    backup PATH           copy the SQLite database to the new file PATH (online backup API)
    stats                 counts of tables, games, commands, seats and chat messages as JSON
    analyse [TABLE_ID]    compute and store the analysis of every finished game (of TABLE_ID) that has none

The database is ``DATABASE_URL`` (as for the server) or ``--database-url``; it must be at the Alembic head.
Errors go to stderr as one line ``error: ...`` with exit status 1 and change nothing; usage errors exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.analysis.worker import analyse_finished
from app.persistence.backup import BackupError, backup_sqlite
from app.persistence.db import Database, current_revisions, head_revisions
from app.persistence.models import GameTable
from app.rules import registry
from app.services.archive import RecordError, export_table, import_record, parse_record
from app.services.retention import Policy, prune
from app.services.stats import database_stats
from app.settings import Settings


class AdminError(Exception):
    """A command that cannot run (nothing was changed)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app.admin", description="Phase 10 online: operations.")
    parser.add_argument("--database-url", help="database URL (default: DATABASE_URL, as the server)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = commands.add_parser("prune", help="delete what the retention settings no longer keep")
    p.add_argument("--dry-run", action="store_true", help="only count what would be deleted")
    p = commands.add_parser("export", help="print a table's game record (JSON)")
    p.add_argument("table_id", help='an id starting with "-" (made by older versions) goes after "--"')
    p.add_argument("--output", "-o", type=Path, help="write to this new file instead of stdout")
    p.add_argument("--game", type=int, metavar="N", help="only game N, as a game record (docs/record.md)")
    p = commands.add_parser("import", help="re-host a table record or a game record for replay")
    p.add_argument("file", help="the JSON file (table or game record), or - for stdin")
    p = commands.add_parser("backup", help="copy the SQLite database to a new file")
    p.add_argument("path", type=Path)
    commands.add_parser("stats", help="counts of what the database holds (JSON)")
    p = commands.add_parser("analyse", help="compute and store the analyses finished games lack")
    p.add_argument("table_id", nargs="?", help="only this table's games")
    return parser


def _database(settings: Settings) -> Database:
    db = Database(settings.database_url)
    try:
        current = current_revisions(db)
    except Exception as err:
        db.dispose()
        raise AdminError(f"cannot reach the database: {err}") from None
    if current != head_revisions():
        db.dispose()
        raise AdminError(f"the database is at revision {', '.join(sorted(current)) or 'none'}, not at the head "
                         f"{', '.join(sorted(head_revisions()))}: run 'alembic upgrade head' first")
    return db


def _table_exists(db: Database, table_id: str) -> bool:
    with db.read() as s:
        return s.get(GameTable, table_id) is not None


def _print(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


MAX_IMPORT_BYTES = 256 << 20  # a table record of many long games; a single game's record is far smaller


def _read(file: str) -> Any:
    """The record in ``file`` (or stdin), read as strictly as an upload (``parse_record``: UTF-8, depth, size)."""
    try:
        raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as err:
        raise AdminError(f"cannot read {file}: {err.strerror}") from None
    return parse_record(raw, MAX_IMPORT_BYTES)


def _one_game(record: dict[str, Any], number: int) -> dict[str, Any]:
    """Game ``number`` of a table record, as a game record on its own (without the table's seat links)."""
    for game in record["games"]:
        if game["number"] == number:
            game = dict(game, seats=[{"seat": x["seat"], "name": x["name"]} for x in game["seats"]])
            return game
    raise AdminError(f"the table has no game {number}")


def run(args: argparse.Namespace, settings: Settings) -> None:
    if args.command == "backup":
        if not settings.database_url.startswith("sqlite"):
            raise AdminError("backup copies SQLite databases only; back up Postgres with pg_dump "
                             "(docs/operating.md, Backups)")
        _database(settings).dispose()
        size = backup_sqlite(settings.database_url, args.path)
        _print({"backup": str(args.path), "bytes": size})
        return
    if args.command == "import":
        record = _read(args.file)  # before touching the database
    if args.command == "export" and args.output is not None and args.output.exists():
        raise AdminError(f"{args.output} already exists; choose a new file")
    db = _database(settings)
    try:
        if args.command == "prune":
            _print(prune(db, Policy.of(settings), dry_run=args.dry_run).summary())
        elif args.command == "export":
            record = export_table(db, args.table_id)
            if args.game is not None:
                record = _one_game(record, args.game)
            text = json.dumps(record, indent=2, ensure_ascii=False)
            if args.output is None:
                print(text)
            else:
                args.output.write_text(text + "\n", encoding="utf-8")
        elif args.command == "import":
            table_id = import_record(db, record)
            _print({"table_id": table_id, "url": f"/tables/{table_id}"})
        elif args.command == "stats":
            _print(database_stats(db))
        elif args.command == "analyse":
            if args.table_id is not None and not _table_exists(db, args.table_id):
                raise AdminError(f"no table {args.table_id!r}")
            _print(analyse_finished(db, registry.get, args.table_id))
    finally:
        db.dispose()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    settings = Settings() if args.database_url is None else Settings(database_url=args.database_url)
    try:
        run(args, settings)
    except (AdminError, RecordError, BackupError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
