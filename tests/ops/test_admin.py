"""``python -m app.admin``: export, import, backup, stats and prune on a real database (SQLite, or Postgres when
TEST_DATABASE_URL is set); every error is one clear line, exit status 1, and changes nothing."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.admin import main
from app.persistence.db import Database
from app.persistence.models import Game, GameCommand, GameCommandPack, GameTable
from app.rules import registry
from app.rules.core.ruleset import replay
from tests.ops.conftest import PlayedTable
from tests.server_helpers import bearer

ROOT = Path(__file__).resolve().parents[2]


def admin(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    status = main(["--database-url", url, *args])
    out, err = capsys.readouterr()
    return status, out, err


def table_count(url: str) -> int:
    db = Database(url)
    try:
        with db.read() as s:
            return int(s.scalar(select(func.count()).select_from(GameTable)) or 0)
    finally:
        db.dispose()


def export(capsys: pytest.CaptureFixture[str], url: str, table_id: str) -> dict[str, Any]:
    status, out, err = admin(capsys, url, "export", table_id)
    assert status == 0, err
    record: dict[str, Any] = json.loads(out)
    return record


def test_C10_an_export_replays_anywhere_with_the_engine_alone(client: TestClient, played: PlayedTable,
                                                              database_url: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The record holds rule set, options, seed, seats and commands: the engine rebuilds each game from it
    (C-10), ending where the server's game is; it holds no token or join code."""
    record = export(capsys, database_url, played.table.id)
    assert record["format"] == "phase10-table-record" and record["table"]["ruleset"] == "master"
    text = json.dumps(record)
    assert played.table.code not in text and all(token not in text for token in played.table.tokens)
    first, second = record["games"]
    assert (first["status"], len(first["commands"])) == ("finished", played.finished_commands)
    assert (second["status"], len(second["commands"])) == ("playing", played.running_commands)
    for game in record["games"]:
        ruleset = registry.get(game["ruleset"])
        state = replay(ruleset, int(game["seed"]), game["players"], ruleset.parse_options(game["options"]),
                       [(c["seat"], ruleset.parse_command(c["command"])) for c in game["commands"]])
        assert ruleset.is_over(state) == (game["status"] == "finished")
        if ruleset.is_over(state):
            assert list(ruleset.winners(state)) == game["winners"]
    final = client.get(f"/api/tables/{played.table.id}/games/1/replay/{played.finished_commands}",
                       headers=bearer(played.table.tokens[0])).json()
    ruleset = registry.get("master")
    state = replay(ruleset, int(first["seed"]), 2, ruleset.parse_options(first["options"]),
                   [(c["seat"], ruleset.parse_command(c["command"])) for c in first["commands"]])
    assert ruleset.full_view(state) == final["state"]


def test_import_rehosts_the_games_for_replay(client: TestClient, played: PlayedTable, database_url: str,
                                             tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An imported record is a new table (spectators allowed, no tokens) whose replays equal the original's."""
    path = tmp_path / "table.json"
    status, _, err = admin(capsys, database_url, "export", played.table.id, "--output", str(path))
    assert status == 0, err
    status, out, err = admin(capsys, database_url, "import", str(path))
    assert status == 0, err
    new_id = json.loads(out)["table_id"]
    assert new_id != played.table.id
    original = client.get(f"/api/tables/{played.table.id}/games/1/replay",
                          headers=bearer(played.table.tokens[0])).json()
    client.cookies.clear()
    copy = client.get(f"/api/tables/{new_id}/games/1/replay").json()  # no token: a spectator
    for key in ("table_id", "game_id", "can_share"):  # nobody holds a seat of the copy
        original.pop(key), copy.pop(key)
    assert copy == original
    last = played.finished_commands
    a = client.get(f"/api/tables/{played.table.id}/games/1/replay/{last}", headers=bearer(played.table.tokens[0]))
    client.cookies.clear()
    b = client.get(f"/api/tables/{new_id}/games/1/replay/{last}")
    assert a.json() == b.json()
    running = client.get(f"/api/tables/{new_id}/games/2/replay").json()
    assert running["public"] is True and "seed" not in running  # C-9: a running game's public record only
    info = client.get(f"/api/tables/{new_id}").json()
    assert info["spectators"] is True and [s["name"] for s in info["seats"]] == ["Host", "P1"]


def test_export_writes_game_records_the_replay_page_reads_too(client: TestClient, played: PlayedTable,
                                                              database_url: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """C-10: the table record's games are game records (docs/record.md), ``--game N`` writes one alone, exactly
    what the replay page downloads, and ``import`` reads it back as a replay-only table."""
    table = export(capsys, database_url, played.table.id)
    assert table["format_version"] == 3
    assert all(g["format"] == "phase10-game-record" and g["rules_version"] == 1 for g in table["games"])
    status, out, err = admin(capsys, database_url, "export", played.table.id, "--game", "1")
    assert status == 0, err
    alone = json.loads(out)
    downloaded = client.get(f"/api/tables/{played.table.id}/games/1/record",
                            headers=bearer(played.table.tokens[0])).json()
    assert alone == downloaded
    assert alone["result"]["status"] == "finished" and alone["result"]["winners"] == alone["winners"]
    status, out, err = admin(capsys, database_url, "export", played.table.id, "--game", "9")
    assert (status, err) == (1, "error: the table has no game 9\n")


def _doctored(record: dict[str, Any], change: str) -> dict[str, Any]:
    record = json.loads(json.dumps(record))
    game = record["games"][0]
    if change == "command":
        command = game["commands"][-1]
        command["seat"] = 1 - command["seat"]  # the other seat: not its turn
    elif change == "seed":
        game["seed"] = str(int(game["seed"]) + 1)  # another deal: the recorded commands no longer fit
    elif change == "status":
        game["status"] = "playing"
    elif change == "ruleset":
        game["ruleset"] = "chess"
    elif change == "format":
        record["format"] = "something else"
    elif change == "seq":
        game["commands"][3]["seq"] = 9
    elif change == "seats":
        game["seats"][1]["table_seat"] = 7
    return record


@pytest.mark.parametrize(("change", "message"), [
    ("command", "game 1, command"),
    ("seed", "game 1, command"),
    ("status", "recorded as 'playing'"),
    ("ruleset", "unknown rule set 'chess'"),
    ("format", "not a table record"),
    ("seq", "numbered 1, 2, 3"),
    ("seats", "table seat"),
])
def test_import_refuses_a_record_the_engine_does_not_accept(played: PlayedTable, database_url: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str], change: str,
                                                           message: str) -> None:
    record = export(capsys, database_url, played.table.id)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_doctored(record, change)))
    before = table_count(database_url)
    status, out, err = admin(capsys, database_url, "import", str(path))
    assert status == 1 and out == "" and err.startswith("error: ") and message in err, err
    assert table_count(database_url) == before


def test_clear_errors_that_change_nothing(database_url: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    before = table_count(database_url)
    status, _, err = admin(capsys, database_url, "export", "no-such-table")
    assert status == 1 and err == "error: no table 'no-such-table'\n"
    status, _, err = admin(capsys, database_url, "import", str(tmp_path / "missing.json"))
    assert status == 1 and "cannot read" in err
    (tmp_path / "text.json").write_text("not json")
    status, _, err = admin(capsys, database_url, "import", str(tmp_path / "text.json"))
    assert status == 1 and "is not JSON" in err
    existing = tmp_path / "exists.json"
    existing.write_text("keep me")
    status, _, err = admin(capsys, database_url, "export", "x", "--output", str(existing))
    assert status == 1 and "already exists" in err and existing.read_text() == "keep me"
    assert table_count(database_url) == before
    with pytest.raises(SystemExit) as exit_info:  # argparse: a missing argument is a usage error (status 2)
        main(["export"])
    assert exit_info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_a_database_behind_the_head_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    status, _, err = admin(capsys, url, "stats")
    assert status == 1 and "run 'alembic upgrade head' first" in err


def test_stats_count_what_the_database_holds(client: TestClient, played: PlayedTable, database_url: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = admin(capsys, database_url, "stats")
    before = json.loads(out)
    r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 3, "name": "Anna"})
    assert r.status_code == 201
    status, out, _ = admin(capsys, database_url, "stats")
    after = json.loads(out)
    assert status == 0
    assert after["tables"] == before["tables"] + 1 and after["tables_waiting"] == before["tables_waiting"] + 1
    assert after["seats"] == before["seats"] + 1 and after["games"] == before["games"]
    db = Database(database_url)
    with db.read() as s:
        # running games' rows and finished games' packs
        commands = s.scalar(select(func.count()).select_from(GameCommand)) + s.scalar(
            select(func.coalesce(func.sum(GameCommandPack.commands), 0)))
        playing = s.scalar(select(func.count()).select_from(Game).where(Game.status == "playing"))
    db.dispose()
    assert after["commands"] == commands and after["games"]["playing"] == playing
    assert after["games_by_ruleset"]["master"] >= 2


def test_backup_copies_a_running_sqlite_database(client: TestClient, played: PlayedTable, database_url: str,
                                                 tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not database_url.startswith("sqlite"):
        status, _, err = admin(capsys, database_url, "backup", str(tmp_path / "copy.db"))
        assert status == 1 and "pg_dump" in err and not (tmp_path / "copy.db").exists()
        return
    target = tmp_path / "copy.db"
    status, out, err = admin(capsys, database_url, "backup", str(target))
    assert status == 0, err
    assert json.loads(out)["bytes"] == target.stat().st_size > 0
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    game_id = copy.execute("SELECT id FROM game WHERE table_id = ? AND number = 1", (played.table.id,)).fetchone()
    assert copy.execute("SELECT commands FROM game_command_pack WHERE game_id = ?", game_id).fetchone() == (
        played.finished_commands,)
    copy.close()
    status, _, err = admin(capsys, database_url, "backup", str(target))  # never overwrites
    assert status == 1 and "already exists" in err
    status, _, err = admin(capsys, database_url, "backup", str(tmp_path / "nowhere" / "copy.db"))
    assert status == 1 and "does not exist" in err


def test_the_module_runs_as_a_command(database_url: str) -> None:
    result = subprocess.run([sys.executable, "-m", "app.admin", "--database-url", database_url, "stats"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tables"] >= 0
    result = subprocess.run([sys.executable, "-m", "app.admin", "--database-url", database_url, "export", "nope"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 1 and result.stderr == "error: no table 'nope'\n"


def test_table_ids_never_start_with_a_dash() -> None:
    from app.services.security import new_table_id

    ids = [new_table_id() for _ in range(3000)]  # a plain token_urlsafe id starts with "-" 1 time in 64
    assert all(len(i) == 12 and not i.startswith("-") for i in ids)
