"""REST and admin: reading a game record strictly (docs/record.md, "Reading a record").

A record of version 2 holds its seed as a decimal string (a 63-bit seed survives any JSON reader) and a readable
move beside each command; version 1 is still read. Every refusal is 422 with a stable code and stores nothing;
``python -m app.admin import`` prints one line. Whatever an accepted record holds, its table, replay, analysis
and export work."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.admin import main as admin_main
from app.persistence.models import GameTable
from app.services.archive import CLOCK_TOLERANCE
from app.services.games import GameService
from app.services.notation import card_token, move_text
from tests.server_helpers import Table, bearer, new_table, play_to_end

BIG_SEED = 2**62 + 1_234_567_891  # above 2**53: a JSON reader that makes numbers doubles would change it


@pytest.fixture(scope="module")
def finished(database_url: str) -> tuple[Table, dict[str, Any]]:
    """A two-player Mattel game dealt from a seed above 2**53, played to its end, and its downloaded record."""
    from app.main import create_app
    from app.settings import Settings

    settings = Settings(database_url=database_url, log_level="WARNING", fixed_seed=BIG_SEED)
    with TestClient(create_app(settings)) as client:
        t = new_table(client, players=2, options={"phases_to_win": 1}, start=True)
        play_to_end(client, t, seed=3)
        r = client.get(f"/api/tables/{t.id}/games/1/record", headers=bearer(t.tokens[0]))
        assert r.status_code == 200
        return t, r.json()


def tables(client: TestClient) -> int:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        return int(s.scalar(select(func.count()).select_from(GameTable)) or 0)


def upload(client: TestClient, body: bytes) -> Any:
    return client.post("/api/records", content=body, headers={"Content-Type": "application/json"})


def test_a_v2_record_holds_a_text_seed_and_readable_moves(
        client: TestClient, finished: tuple[Table, dict[str, Any]]) -> None:
    _, record = finished
    assert record["format_version"] == 2 and record["seed"] == str(BIG_SEED)
    moves = [c["move"] for c in record["commands"]]
    assert moves[0].startswith(("Host: draw ", "P1: draw ", "Host: take ", "P1: take "))
    assert any(m.startswith(("Host: discard ", "P1: discard ")) for m in moves)
    assert any(" lay " in m for m in moves)  # the phase laid, its cards by colour and number
    r = upload(client, json.dumps(record).encode())
    assert r.status_code == 201, r.text
    copy = client.get(f"/api/tables/{r.json()['table_id']}/games/1/replay").json()
    assert copy["seed"] == BIG_SEED


def test_a_version_1_record_is_still_read(client: TestClient, finished: tuple[Table, dict[str, Any]]) -> None:
    _, record = finished
    old = dict(record, format_version=1, seed=BIG_SEED,
               commands=[{k: v for k, v in c.items() if k != "move"} for c in record["commands"]])
    r = upload(client, json.dumps(old).encode())
    assert r.status_code == 201, r.text


def test_the_notation_names_cards_by_colour_and_number() -> None:
    assert card_token({"kind": "number", "colour": "red", "number": 12}) == "R12"
    assert card_token({"kind": "joker", "low": 1, "high": 12, "colours": ["red", "yellow", "green", "blue"]}) == "W"
    assert card_token({"kind": "joker", "low": 1, "high": 6, "colours": ["red", "blue"]}) == "J1-6:RB"
    assert card_token({"kind": "action", "action": "skip"}) == "S"
    # Mattel ids: 0-95 number cards (red 1,1,2,2 ... then yellow, green, blue), 96-103 wilds, 104-107 skips
    names = ["Anna", "Ben"]
    assert move_text("mattel", 0, {"type": "discard", "card": 22, "target": None}, names) == "Anna: discard R12"
    assert move_text("mattel", 1, {"type": "lay_phase", "groups": [[12, 13, 96], [28, 54, 80, 82]]},
                     ["Anna", "Ben"]) == "Ben: lay R7 R7 W | Y3 G4 B5 B6"
    assert move_text("mattel", 0, {"type": "hit", "card": 94, "group": 1, "end": "high"},
                     ["Anna", "Ben"]) == "Anna: hit B12 on group 2 (high end)"
    assert move_text("mattel", 0, {"type": "discard", "card": 104, "target": 1}, names) == "Anna: discard S on Ben"
    green5 = {"kind": "number", "colour": "green", "number": 5}
    drawn = [{"type": "card_drawn", "seat": 0, "pile": "draw", "card": green5}]
    assert move_text("mattel", 0, {"type": "draw", "pile": "draw"}, ["Anna"], drawn) == "Anna: draw G5"


def _last_time(record: dict[str, Any]) -> str:
    return str(record["commands"][-1]["created_at"])


def _shifted(value: str, seconds: float) -> str:
    return (datetime.fromisoformat(value) + timedelta(seconds=seconds)).isoformat()


def _back_in_time(record: dict[str, Any], k: int, seconds: float) -> None:
    """Command ``k`` (0-based) made ``seconds`` before command ``k - 1``, the game begun a minute earlier (so the
    command stays within the game's span)."""
    record["created_at"] = _shifted(record["created_at"], -60)
    record["commands"][k]["created_at"] = _shifted(record["commands"][k - 1]["created_at"], -seconds)


Change = Callable[[dict[str, Any]], Any]

CHANGES: list[tuple[str, Change, str]] = [
    ("version", lambda r: r.update(version=r["version"] + 1), "record_version_mismatch"),
    ("version_short", lambda r: r.update(version=r["version"] - 1), "record_version_mismatch"),
    ("finished_before_created", lambda r: r.update(finished_at="2001-01-01T00:00:00+00:00"), "record_time_order"),
    ("year_1", lambda r: r.update(created_at="0001-01-01T00:00:00+14:00"), "record_bad_time"),
    ("year_9999", lambda r: r.update(finished_at="9999-12-31T23:59:59-12:00"), "record_bad_time"),
    ("command_before_created", lambda r: r["commands"][0].update(created_at=_shifted(r["created_at"], -6)),
     "record_time_order"),
    ("command_after_finished", lambda r: r["commands"][-1].update(created_at=_shifted(r["finished_at"], 6)),
     "record_time_order"),
    ("command_before_previous", lambda r: _back_in_time(r, 3, 6), "record_time_order"),
    ("command_year_1", lambda r: r["commands"][0].update(created_at="0001-01-01T00:00:00+14:00"), "record_bad_time"),
    ("not_a_time", lambda r: r.update(created_at="yesterday"), "record_bad_time"),
    ("time_number", lambda r: r.update(created_at=12), "record_bad_time"),
    ("truncated_playing", lambda r: r.update(status="playing", commands=r["commands"][:10], version=10,
                                             result=None, winners=None), "record_not_finished"),
    ("name_control", lambda r: r["seats"][0].update(name="Ho\x07st"), "record_bad_name"),
    ("name_surrogate", lambda r: r["seats"][0].update(name="h\ud800st"), "record_bad_name"),
    ("name_blank", lambda r: r["seats"][0].update(name="\u200b\u202e "), "record_bad_name"),
    ("name_long", lambda r: r["seats"][0].update(name="x" * 41), "record_bad_name"),
    ("name_number", lambda r: r["seats"][0].update(name=7), "bad_record"),
    ("command_id_control", lambda r: r["commands"][0].update(command_id="c\x01"), "record_bad_text"),
    ("seed_number_in_v2", lambda r: r.update(seed=int(r["seed"])), "bad_record"),
    ("seed_not_digits", lambda r: r.update(seed="12e3"), "bad_record"),
    ("seed_huge", lambda r: r.update(seed=str(2**70)), "bad_record"),
    ("seed_other", lambda r: r.update(seed=str(int(r["seed"]) + 1)), "record_does_not_replay"),
    ("move_not_text", lambda r: r["commands"][0].update(move=5), "bad_record"),
    ("format_version", lambda r: r.update(format_version=3), "record_version_unsupported"),
    ("status_other", lambda r: r.update(status="won"), "bad_record"),
    ("winners_text", lambda r: r.update(winners="all"), "bad_record"),
]


@pytest.mark.parametrize(("name", "change", "code"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_doctored_record_is_refused_and_nothing_is_stored(
        client: TestClient, finished: tuple[Table, dict[str, Any]], name: str, change: Change, code: str) -> None:
    record = json.loads(json.dumps(finished[1]))
    change(record)
    before = tables(client)
    r = upload(client, json.dumps(record).encode("utf-8", "surrogatepass"))
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] in (code, "record_not_utf8" if name == "name_surrogate" else code), r.text
    assert tables(client) == before


@pytest.mark.parametrize(("name", "body", "code"), [
    ("bom", lambda text: b"\xef\xbb\xbf" + text.encode(), "record_not_utf8"),
    ("utf16", lambda text: text.encode("utf-16"), "record_not_utf8"),
    ("utf16le", lambda text: text.encode("utf-16-le"), "record_not_utf8"),
    ("latin1", lambda text: text.replace("Host", "H\u00f6st").encode("latin-1"), "record_not_utf8"),
    ("lone_surrogate_escape", lambda text: text.replace('"Host"', '"h\\ud800st"').encode(), "record_not_utf8"),
    ("deep", lambda text: b"[" * 200_000 + b"]" * 200_000, "record_too_deep"),
    ("deep_inside", lambda text: text[:-1].encode() + b', "x": ' + b"[" * 40 + b"]" * 40 + b"}", "record_too_deep"),
    ("not_json", lambda text: b"{not json", "bad_record"),
    ("not_an_object", lambda text: b"[1, 2]", "bad_record"),
    ("table_record", lambda text: json.dumps({"format": "phase10-table-record"}).encode(), "bad_record"),
])
def test_a_body_that_is_not_utf8_json_of_sane_depth_is_refused(client: TestClient,
                                                               finished: tuple[Table, dict[str, Any]], name: str,
                                                               body: Callable[[str], bytes], code: str) -> None:
    before = tables(client)
    r = upload(client, body(json.dumps(finished[1], ensure_ascii=False)))
    assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text
    assert tables(client) == before


def test_command_times_within_the_clock_tolerance_are_taken(
        client: TestClient, finished: tuple[Table, dict[str, Any]]) -> None:
    """Server processes' clocks differ slightly: a command up to ``CLOCK_TOLERANCE`` (5 s) before the game
    began, after it finished or before the command before it is taken as it is."""
    assert CLOCK_TOLERANCE.total_seconds() == 5
    record = json.loads(json.dumps(finished[1]))
    _back_in_time(record, 3, 4)
    record["commands"][0]["created_at"] = _shifted(record["created_at"], -4)
    record["commands"][-1]["created_at"] = _shifted(record["finished_at"], 4)
    r = upload(client, json.dumps(record).encode())
    assert r.status_code == 201, r.text
    replay = client.get(f"/api/tables/{r.json()['table_id']}/games/1/replay").json()
    assert replay["commands"][3]["created_at"] == _shifted(record["commands"][2]["created_at"], -4)


def test_names_are_cleaned_as_join_names_are(client: TestClient, finished: tuple[Table, dict[str, Any]]) -> None:
    record = json.loads(json.dumps(finished[1]))
    record["seats"][0]["name"] = "\u202e\u200bＡｎｎａ\u2066 "
    r = upload(client, json.dumps(record).encode())
    assert r.status_code == 201, r.text
    info = client.get(f"/api/tables/{r.json()['table_id']}").json()
    assert [s["name"] for s in info["seats"]][0] == "Anna"


def _admin(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    status = admin_main(["--database-url", url, *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_an_accepted_record_breaks_no_table_replay_or_export(
        client: TestClient, finished: tuple[Table, dict[str, Any]], database_url: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Times at the ends of the range with odd offsets, names with invisible and bidi characters, a 63-bit seed:
    the opened table, its replay, every step, the analysis, ``admin analyse`` and ``admin export`` all work."""
    record = json.loads(json.dumps(finished[1]))
    record["created_at"] = "2000-01-01T00:00:00+00:00"
    record["finished_at"] = "2100-12-31T23:59:59-00:00"
    for c in record["commands"]:
        c["created_at"] = "2050-06-01T12:00:00+05:45"
    record["seats"][1]["name"] = "P\u200d1\u2067\u00ad"
    r = upload(client, json.dumps(record).encode())
    assert r.status_code == 201, r.text
    table_id = r.json()["table_id"]
    assert client.get(f"/api/tables/{table_id}").status_code == 200
    replay = client.get(f"/api/tables/{table_id}/games/1/replay")
    assert replay.status_code == 200, replay.text
    assert replay.json()["finished_at"] == "2100-12-31T23:59:59+00:00"  # with its offset, on SQLite too
    assert replay.json()["commands"][0]["created_at"] == "2050-06-01T06:15:00+00:00"
    for step in (0, 1, replay.json()["version"]):
        assert client.get(f"/api/tables/{table_id}/games/1/replay/{step}").status_code == 200
    assert client.get(f"/api/tables/{table_id}/games/1/analysis").status_code in (200, 202)
    status, out, err = _admin(capsys, database_url, "analyse", table_id)
    assert status == 0, err
    status, out, err = _admin(capsys, database_url, "export", table_id)
    assert status == 0, err
    game = json.loads(out)["games"][0]
    # stored in UTC, given back with their offset
    assert (game["created_at"], game["finished_at"]) == ("2000-01-01T00:00:00+00:00", "2100-12-31T23:59:59+00:00")
    assert game["commands"][0]["created_at"] == "2050-06-01T06:15:00+00:00"
    assert game["seed"] == str(BIG_SEED) and [s["name"] for s in game["seats"]] == ["Host", "P1"]
    download = client.get(f"/api/tables/{table_id}/games/1/record")
    assert download.status_code == 200 and download.json()["commands"] == game["commands"]


def _table_record(record: dict[str, Any], **table: Any) -> dict[str, Any]:
    seats = [{"seat": s["seat"], "name": s["name"], "table_seat": s["seat"]} for s in record["seats"]]
    game = dict(record, seats=seats)
    return {"format": "phase10-table-record", "format_version": 3,
            "table": {"ruleset": record["ruleset"], "options": record["options"],
                      "seats": [{"name": s["name"]} for s in record["seats"]], **table},
            "games": [game]}


@pytest.mark.parametrize(("name", "write", "message"), [
    ("capacity_text", lambda r: json.dumps(_table_record(r, capacity="abc")).encode(), "capacity"),
    ("capacity_huge", lambda r: json.dumps(_table_record(r, capacity=2**40)).encode(), "capacity"),
    ("capacity_small", lambda r: json.dumps(_table_record(r, capacity=1)).encode(), "capacity"),
    ("deep", lambda r: b"[" * 200_000 + b"]" * 200_000, "nests at most"),
    ("bom", lambda r: b"\xef\xbb\xbf" + json.dumps(r).encode(), "UTF-8"),
    ("utf16", lambda r: json.dumps(r).encode("utf-16"), "UTF-8"),
    ("year_1", lambda r: json.dumps(dict(r, created_at="0001-01-01T00:00:00+14:00")).encode(), "between the years"),
    ("surrogate", lambda r: json.dumps(r).replace('"Host"', '"h\\ud800st"').encode(), "UTF-8"),
])
def test_admin_import_refuses_with_one_line(finished: tuple[Table, dict[str, Any]], database_url: str,
                                            tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                            write: Callable[[dict[str, Any]], bytes], message: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(write(finished[1]))
    status, out, err = _admin(capsys, database_url, "import", str(path))
    assert status == 1 and out == "", err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err


def test_admin_import_still_takes_an_operators_running_game(finished: tuple[Table, dict[str, Any]],
                                                            database_url: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(json.dumps(finished[1]))
    record.update(status="playing", commands=record["commands"][:6], version=6, result=None, winners=None)
    path = tmp_path / "running.json"
    path.write_text(json.dumps(_table_record(record, capacity=2)))
    status, out, err = _admin(capsys, database_url, "import", str(path))
    assert status == 0, err
