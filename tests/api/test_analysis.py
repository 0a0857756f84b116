"""REST: ``GET /api/tables/{table_id}/games/{number}/analysis`` (docs/protocol.md "Analysis").

Whoever may read a finished game's replay may read its analysis and nobody else (the same authorisation); a running
game has none (409 ``game_not_finished``: the analysis reads every hand, C-9); the first request schedules it
(202 pending), the worker thread computes it once and stores it, and later requests read the stored row without
computing again. The answer is the engine-side analysis of the game's record (``app.analysis.analyse``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.analysis import analyse
from app.analysis import worker as worker_module
from app.analysis.models import GameAnalysis
from app.persistence.commands import pack, read_commands
from app.persistence.models import Game, GameCommandPack
from app.services.analyses import Analyses
from tests.server_helpers import Table, bearer, new_table, play, play_to_end

SHORT = {"phases_to_win": 1}
SEED = 20_261_130  # every game of the ``seeded`` app is dealt from it: the same game, with a missed lay-down,
# a missed hit and a fed card, every run


@pytest.fixture()
def seeded(database_url: str) -> Iterator[TestClient]:
    from app.main import create_app
    from app.settings import Settings

    settings = Settings(database_url=database_url, log_level="WARNING", fixed_seed=SEED)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def finished(client: TestClient, spectators: bool = False) -> Table:
    t = new_table(client, players=2, options=SHORT, spectators=spectators, start=True)
    play_to_end(client, t, seed=5)
    return t


def analyses(client: TestClient) -> Analyses:
    found: Analyses = client.app.state.analyses  # type: ignore[attr-defined]
    return found


def ready(client: TestClient, url: str, headers: dict[str, str]) -> Any:
    """The analysis once computed: the first answer is 202 pending, then the worker is waited for."""
    r = client.get(url, headers=headers)
    if r.status_code == 202:
        assert r.json() == {"status": "pending"}
        analyses(client).worker.wait()
        r = client.get(url, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def local_analysis(client: TestClient, table_id: str) -> dict[str, Any]:
    """The analysis of the stored record, made here by the engine."""
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        game = s.scalar(select(Game).where(Game.table_id == table_id, Game.number == 1))
        rows = [(c.seat, c.command) for c in read_commands(s, game.id)]
        ruleset = service.catalog.get(game.ruleset)
        return analyse(ruleset, game.seed, game.players, ruleset.parse_options(game.options),
                       [(seat, ruleset.parse_command(c)) for seat, c in rows]).to_json()


def test_analysis_of_a_finished_game_is_computed_once_and_stored(seeded: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    client = seeded
    calls: list[int] = []
    real = worker_module.analyse

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(worker_module, "analyse", counted)
    t = finished(client)
    url = f"/api/tables/{t.id}/games/1/analysis"
    host = bearer(t.tokens[0])
    first = client.get(url, headers=host)
    assert first.status_code == 202 and first.json() == {"status": "pending"}
    analyses(client).worker.wait()
    data = ready(client, url, host)
    assert data == local_analysis(client, t.id)
    assert data["version"] == 2 and data["ruleset"] == "mattel"
    assert [p["seat"] for p in data["players"]] == [0, 1]
    steps = [m["step"] for m in data["marks"]]
    assert steps == sorted(steps)
    assert calls == [1]
    # ``step`` numbers positions as the replay does: a decision is the state before the seat's command
    assert {m["kind"] for m in data["marks"]} == {"missed_laydown", "missed_hit", "fed_next", "missed_pickup"}
    for mark in data["marks"]:
        if mark["kind"] == "turning_point":
            shown = client.get(f"/api/tables/{t.id}/games/1/replay/{mark['step']}", headers=host).json()
            assert "round_ended" in [e["type"] for e in shown["events"]]
        else:
            after = client.get(f"/api/tables/{t.id}/games/1/replay/{mark['step'] + 1}", headers=host).json()
            assert after["command"]["seat"] == mark["seat"]
            assert after["command"]["command"]["type"] not in ("lay_phase", "hit")
    # stored once: later requests (any seat) read the row, nothing is computed again
    assert client.get(url, headers=bearer(t.tokens[1])).json() == data
    assert client.get(url, headers=host).json() == data
    analyses(client).worker.wait()
    assert calls == [1]
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        rows = s.scalars(select(GameAnalysis).join(Game, Game.id == GameAnalysis.game_id)
                         .where(Game.table_id == t.id)).all()
        assert len(rows) == 1 and rows[0].result == data and rows[0].version == 2 and rows[0].cpu_seconds >= 0
    # a stored analysis of an older format is computed again
    with service.db.write() as s:
        row = s.scalar(select(GameAnalysis).join(Game, Game.id == GameAnalysis.game_id)
                       .where(Game.table_id == t.id))
        row.version, row.result = 0, {"old": True}
    assert client.get(url, headers=host).status_code == 202
    assert ready(client, url, host) == data and calls == [1, 1]


def test_C9_a_running_game_has_no_analysis(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    play(client, t, 6, seed=3)
    r = client.get(f"/api/tables/{t.id}/games/1/analysis", headers=bearer(t.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"
    assert analyses(client).worker.computed == 0


def test_analysis_is_authorised_as_the_replay(client: TestClient) -> None:
    """The same answer status and error code as ``GET .../replay`` for every kind of reader: a seat of the table,
    nobody, a seat token of another table, and anyone at a table with spectators."""
    private, public, other = finished(client), finished(client, spectators=True), new_table(client)
    cases = [(private, None), (private, private.tokens[1]), (private, other.tokens[0]), (private, "nonsense"),
             (public, None), (public, other.tokens[0])]
    for table, token in cases:
        headers = bearer(token) if token else {}
        replay = client.get(f"/api/tables/{table.id}/games/1/replay", headers=headers)
        answer = client.get(f"/api/tables/{table.id}/games/1/analysis", headers=headers)
        allowed = replay.status_code == 200
        assert answer.status_code in ((200, 202) if allowed else (replay.status_code,)), (token, answer.text)
        if not allowed:
            assert answer.json()["error"]["code"] == replay.json()["error"]["code"]
    assert client.get(f"/api/tables/{private.id}/games/1/analysis").json()["error"]["code"] == "bad_token"
    r = client.get(f"/api/tables/{private.id}/games/9/analysis", headers=bearer(private.tokens[0]))
    assert r.status_code == 404 and r.json()["error"]["code"] == "game_not_found"
    r = client.get("/api/tables/nosuchtable/games/1/analysis", headers=bearer(private.tokens[0]))
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found"
    analyses(client).worker.wait()


def test_admin_analyse_stores_what_finished_games_lack(client: TestClient, database_url: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m app.admin analyse TABLE_ID`` computes the missing analyses once; the API then answers at once."""
    from app.admin import main

    t = finished(client)
    assert main(["--database-url", database_url, "analyse", t.id]) == 0
    assert json.loads(capsys.readouterr().out)["analysed"] == 1
    assert main(["--database-url", database_url, "analyse", t.id]) == 0
    assert json.loads(capsys.readouterr().out)["analysed"] == 0
    r = client.get(f"/api/tables/{t.id}/games/1/analysis", headers=bearer(t.tokens[0]))
    assert r.status_code == 200 and r.json() == local_analysis(client, t.id)
    assert analyses(client).worker.computed == 0
    assert main(["--database-url", database_url, "analyse", "nosuchtable"]) == 1
    assert "no table" in capsys.readouterr().err


def test_a_refused_record_is_a_clear_error_not_a_retry_loop(client: TestClient) -> None:
    """C-10: an analysis replays the record through the engine; a stored command it refuses (a damaged database)
    makes the analysis fail once, is answered 500 ``analysis_failed`` from then on, and is not computed again."""
    t = finished(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.db.write() as s:
        game = s.scalar(select(Game).where(Game.table_id == t.id))
        stored = s.get(GameCommandPack, game.id)  # a finished game's commands are packed
        commands = read_commands(s, game.id)
        stored.data = pack([replace(commands[0], command={"type": "discard", "card": 9999}), *commands[1:]])
    url = f"/api/tables/{t.id}/games/1/analysis"
    assert client.get(url, headers=bearer(t.tokens[0])).status_code == 202
    analyses(client).worker.wait()
    for _ in range(2):
        r = client.get(url, headers=bearer(t.tokens[0]))
        assert r.status_code == 500 and r.json()["error"]["code"] == "analysis_failed"
    assert analyses(client).worker.computed == 0
