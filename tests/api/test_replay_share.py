"""REST: share links of a finished game's replay, the game record (download, open, refuse), view as a seat, the
rounds of the record and the series of a table (C-9, C-10).

A share link opens exactly one finished game's replay (record, steps, record download) without a seat cookie and
nothing else of the table; the host revokes it. A downloaded record opened again replays to the same game; a
doctored one is refused with a stable code and nothing is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.persistence.models import GameTable
from app.rules import registry
from app.rules.core.ruleset import replay
from app.services.games import GameService
from tests.server_helpers import Table, bearer, command_body, new_table, play, play_to_end

SHORT = {"phases_to_win": 2}


@pytest.fixture(scope="module")
def finished(database_url: str) -> Table:
    """A three-player Mattel table whose first game is over (seat 0 hosts), played once for the module (the
    tests read it; those that change a table make their own)."""
    from app.main import create_app
    from app.settings import Settings

    with TestClient(create_app(Settings(database_url=database_url, log_level="WARNING"))) as client:
        t = new_table(client, players=3, options=SHORT, start=True)
        play_to_end(client, t, seed=4)
    return t


def share(client: TestClient, t: Table, seat: int = 1) -> dict[str, Any]:
    r = client.post(f"/api/tables/{t.id}/games/1/shares", headers=bearer(t.tokens[seat]))
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def table_count(client: TestClient) -> int:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        return int(s.scalar(select(func.count()).select_from(GameTable)) or 0)


def test_C9_a_share_link_opens_only_the_finished_replay(client: TestClient,
                                                                                   finished: Table) -> None:
    t = finished
    made = share(client, t)
    assert made["url"].endswith(f"/shared/{made['token']}") and t.id not in made["url"]
    assert len(made["token"]) >= 40  # 256 random bits
    client.cookies.clear()
    base = f"/api/shared/{made['token']}"
    record = client.get(f"{base}/replay")
    assert record.status_code == 200, record.text
    assert record.json()["public"] is False and record.json()["shared"] is True and "seed" in record.json()
    last = record.json()["version"]
    step = client.get(f"{base}/replay/{last}")
    assert step.status_code == 200 and "hands" in step.json()["state"]
    download = client.get(f"{base}/record")
    assert download.status_code == 200 and t.id not in download.headers["content-disposition"]
    assert client.get(f"{base}/analysis").status_code in (200, 202)
    # no answer through the link names the table: the holder cannot ask for its info, view, events, sockets
    for path in ("replay", f"replay/{last}", "record", "replay/0?seat=1"):
        assert t.id not in client.get(f"{base}/{path}").text, path
    # the table's routes know no share token at all
    for path in ("view", "events", "hint", "series", "games/1/shares", "games/1/replay", "games/1/record"):
        r = client.get(f"/api/tables/{t.id}/{path}", params={"share": made["token"]})
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token", (path, r.text)
    # a made-up token is refused
    wrong = client.get(f"/api/shared/{made['token'][:-2]}xx/replay")
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_share"


def test_the_share_page_names_no_table_and_old_links_go_there(client: TestClient, finished: Table) -> None:
    made = share(client, finished)
    client.cookies.clear()
    page = client.get(f"/shared/{made['token']}")
    assert page.status_code == 200 and finished.id not in page.text and 'data-share="' in page.text
    old = client.get(f"/tables/{finished.id}/games/1/replay", params={"share": made["token"]},
                     follow_redirects=False)
    assert old.status_code == 301 and old.headers["location"] == f"/shared/{made['token']}"


def test_the_host_revokes_a_share_link_and_it_stops_working(client: TestClient, finished: Table) -> None:
    t = finished
    made = share(client, t, seat=2)
    listed = client.get(f"/api/tables/{t.id}/games/1/shares", headers=bearer(t.tokens[1])).json()["shares"]
    assert [(x["by"], x["revocable"]) for x in listed if x["id"] == made["id"]] == [("P2", False)]
    assert made["token"] not in json.dumps(listed)
    r = client.delete(f"/api/tables/{t.id}/games/1/shares/{made['id']}", headers=bearer(t.tokens[1]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = client.delete(f"/api/tables/{t.id}/games/1/shares/{made['id']}", headers=bearer(t.tokens[0]))
    assert r.status_code == 200 and made["id"] not in [x["id"] for x in r.json()["shares"]]
    client.cookies.clear()
    for path in ("replay", "replay/0", "replay/3?seat=1", "record", "analysis"):  # everything it opened ends
        r = client.get(f"/api/shared/{made['token']}/{path}")
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_share", (path, r.text)
    r = client.delete(f"/api/tables/{t.id}/games/1/shares/{made['id']}", headers=bearer(t.tokens[0]))
    assert r.status_code == 404 and r.json()["error"]["code"] == "share_not_found"


def test_only_a_seat_shares_and_only_a_finished_game(client: TestClient) -> None:
    t = new_table(client, players=2, options=SHORT, start=True)
    play(client, t, 5)
    r = client.post(f"/api/tables/{t.id}/games/1/shares", headers=bearer(t.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"
    client.cookies.clear()
    r = client.post(f"/api/tables/{t.id}/games/1/shares")
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    r = client.get(f"/api/tables/{t.id}/games/1/record", headers=bearer(t.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"
    r = client.get(f"/api/tables/{t.id}/games/1/replay/3", params={"seat": 0}, headers=bearer(t.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"


def test_C9_view_as_a_seat_shows_that_seats_view_and_events(client: TestClient, finished: Table) -> None:
    t = finished
    record = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    ruleset = registry.get("mattel")
    k = 6
    state = replay(ruleset, record["seed"], 3, ruleset.parse_options(record["options"]),
                   [(c["seat"], ruleset.parse_command(c["command"])) for c in record["commands"][:k]])
    for seat in range(3):
        data = client.get(f"/api/tables/{t.id}/games/1/replay/{k}", params={"seat": seat},
                          headers=bearer(t.tokens[0])).json()
        assert data["seat"] == seat and "state" not in data
        assert data["view"] == json.loads(json.dumps(ruleset.player_view(state, seat)))
    r = client.get(f"/api/tables/{t.id}/games/1/replay/{k}", params={"seat": 3}, headers=bearer(t.tokens[0]))
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_seat"


def test_the_record_marks_round_starts_and_each_commands_turn(client: TestClient,
                                                                         finished: Table) -> None:
    """M-2: each round starts with a deal; the record's rounds name the step after the command that dealt it."""
    t = finished
    record = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    rounds = record["rounds"]
    assert rounds[0] == {"round": 1, "step": 0} and [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert record["total_rounds"] == len(rounds) >= 2
    ruleset = registry.get("mattel")
    state = ruleset.new_game(record["seed"], 3, ruleset.parse_options(record["options"]))
    starts = {}
    for c in record["commands"]:
        assert c["round"] == ruleset.full_view(state)["round"]  # the round the command was played in
        assert c["turn_seat"] in (None, ruleset.full_view(state)["turn"])
        state, _ = ruleset.apply(state, c["seat"], ruleset.parse_command(c["command"]))
        starts.setdefault(ruleset.full_view(state)["round"], c["seq"])
    assert {r["round"]: r["step"] for r in rounds[1:]} == {r: s for r, s in starts.items() if r > 1}
    turns = [c["turn"] for c in record["commands"]]
    assert turns == sorted(turns) and turns[-1] > len(rounds)


def test_C10_a_downloaded_record_opens_again_as_the_same_game(client: TestClient, finished: Table) -> None:
    t = finished
    r = client.get(f"/api/tables/{t.id}/games/1/record", headers=bearer(t.tokens[2]))
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["format"] == "phase10-game-record" and record["format_version"] == 2
    assert isinstance(record["seed"], str) and all(isinstance(c["move"], str) for c in record["commands"])
    assert record["rules_version"] == 1 and record["result"]["status"] == "finished"
    assert record["result"]["winners"] == record["winners"] and len(record["result"]["scores"]) == 3
    text = json.dumps(record)
    assert all(token not in text for token in t.tokens) and t.code not in text
    client.cookies.clear()
    opened = client.post("/api/records", json=record)
    assert opened.status_code == 201, opened.text
    new = opened.json()
    assert new["replay"] == f"/tables/{new['table_id']}/games/{new['number']}/replay"
    original = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    client.cookies.clear()
    copy = client.get(f"/api/tables/{new['table_id']}/games/1/replay").json()
    assert (original.pop("can_share"), copy.pop("can_share")) == (True, False)  # nobody sits at the copy
    for key in ("table_id", "game_id", "created_at", "finished_at"):
        original.pop(key), copy.pop(key)
    for c in original["commands"] + copy["commands"]:
        c.pop("created_at")
    assert copy == original


@pytest.mark.parametrize(("change", "code"), [
    ("command", "record_does_not_replay"),
    ("score", "record_does_not_replay"),
    ("seed", "record_does_not_replay"),
    ("format", "bad_record"),
    ("rules_version", "record_version_unsupported"),
    ("players", "bad_record"),
    ("nul", "record_bad_name"),
    ("number", "bad_record"),
    ("huge_seed", "bad_record"),
])
def test_C10_a_record_that_does_not_replay_is_refused(client: TestClient, finished: Table,
                                                                        change: str, code: str) -> None:
    record = client.get(f"/api/tables/{finished.id}/games/1/record", headers=bearer(finished.tokens[0])).json()
    if change == "command":
        record["commands"][5]["seat"] = (record["commands"][5]["seat"] + 1) % 3
    elif change == "score":
        record["result"]["scores"][0] += 5
    elif change == "seed":
        record["seed"] = str(int(record["seed"]) + 1)
    elif change == "format":
        record["format"] = "phase10-table-record"
    elif change == "rules_version":
        record["rules_version"] = 99
    elif change == "players":
        record["players"] = "three"
    elif change == "nul":
        record["seats"][0]["name"] = "An\x00na"
    elif change == "number":
        record["number"] = 2**40
    elif change == "huge_seed":
        record["seed"] = str(2**70)
    before = table_count(client)
    r = client.post("/api/records", json=record)
    assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text
    assert table_count(client) == before


def test_the_series_lists_every_game_and_the_standings(client: TestClient) -> None:
    t = new_table(client, players=3, options={"phases_to_win": 1}, start=True)
    play_to_end(client, t, seed=4)
    for seat in range(3):  # a rematch: everyone accepts, the second game is dealt
        r = client.post(f"/api/tables/{t.id}/rematch", headers=bearer(t.tokens[seat]))
        assert r.status_code == 200, r.text
    play(client, t, 4)
    data = client.get(f"/api/tables/{t.id}/series", headers=bearer(t.tokens[1])).json()
    first, second = data["games"]
    assert (first["number"], first["status"], second["status"]) == (1, "finished", "playing")
    record = client.get(f"/api/tables/{t.id}/games/1/record", headers=bearer(t.tokens[0])).json()
    assert [p["score"] for p in first["players"]] == record["result"]["scores"]
    assert first["winners"] == [record["seats"][w]["name"] for w in record["winners"]]
    assert first["rounds"] == record["result"]["rounds"] and first["replay"].endswith("/games/1/replay")
    standings = {row["name"]: row for row in data["standings"]}
    assert set(standings) == {"Host", "P1", "P2"}
    assert sum(row["games_won"] for row in standings.values()) == len(record["winners"])
    assert sum(row["rounds_won"] for row in standings.values()) <= first["rounds"]
    for i, seat in enumerate(record["seats"]):
        row = standings[seat["name"]]
        assert row["games"] == 1
        assert row["average_score"] == round(record["result"]["scores"][i] / first["rounds"], 1)
    mine = client.get("/api/my/tables", headers={"Cookie": f"p10_seat_{t.id}={t.tokens[1]}"}).json()["tables"]
    assert [g["number"] for g in mine[0]["games"]] == [1, 2] and mine[0]["standings"] == data["standings"]


def test_opening_records_is_limited_per_address(client: TestClient, finished: Table) -> None:
    client.app.state.record_uploads.limit = 1  # type: ignore[attr-defined]
    try:
        assert client.post("/api/records", json={"format": "x"}).status_code == 422
        r = client.post("/api/records", json={"format": "x"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_records"
    finally:
        client.app.state.record_uploads._hits.clear()  # type: ignore[attr-defined]


def test_commands_still_work_with_a_share_link_in_the_url(client: TestClient, finished: Table) -> None:
    """A share token grants reading only: a command with it and no seat is refused."""
    made = share(client, finished)
    client.cookies.clear()
    r = client.post(f"/api/tables/{finished.id}/commands", params={"share": made["token"]},
                    json=command_body({"type": "draw", "pile": "draw"}))
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"


def test_a_record_may_be_larger_than_other_bodies(client: TestClient, finished: Table) -> None:
    """Only POST /api/records takes bodies past the general limit (a long game's record), up to its own."""
    settings = client.app.state.settings  # type: ignore[attr-defined]
    padding = "x" * (settings.max_body_bytes + 10)
    r = client.post("/api/records", json={"format": "phase10-game-record", "padding": padding})
    assert r.status_code == 422 and r.json()["error"]["code"] == "record_version_unsupported", r.text
    r = client.post(f"/api/tables/{finished.id}/commands", json={"command_id": "x", "padding": padding})
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    r = client.post("/api/records", json={"padding": "x" * (settings.max_record_bytes + 10)})
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    client.app.state.record_uploads._hits.clear()  # type: ignore[attr-defined]
