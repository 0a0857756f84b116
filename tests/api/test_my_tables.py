"""My tables: the lobby's list of the tables this browser holds seats at, from its seat cookies (no accounts),
newest first, each marked your_turn, waiting or finished, with its games' winners and replay links."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.server_helpers import Table, bearer, command_body, pick, play_to_end, server_game


def mine(browser: TestClient) -> list[dict[str, Any]]:
    r = browser.get("/api/my/tables")
    assert r.status_code == 200, r.text
    tables: list[dict[str, Any]] = r.json()["tables"]
    return tables


def create(browser: TestClient, name: str, options: dict[str, Any] | None = None) -> Table:
    r = browser.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": name, "options": options or {}})
    assert r.status_code == 201, r.text
    return Table(r.json()["table_id"], r.json()["join_code"], r.json()["invite_link"], [r.json()["token"]])


def join(browser: TestClient, t: Table, name: str) -> None:
    r = browser.post(f"/api/tables/{t.id}/join", json={"name": name, "code": t.code})
    assert r.status_code == 200, r.text
    t.tokens.append(r.json()["token"])


def play_until_awaited(client: TestClient, t: Table, seat: int) -> None:
    rnd = random.Random(1)
    for _ in range(50):
        ruleset, state, _ = server_game(client, t.id)
        if ruleset.awaited(state) == (seat,):
            return
        chosen = pick(client, t.id, rnd)
        assert chosen is not None
        r = client.post(f"/api/tables/{t.id}/commands", json=command_body(chosen[1]),
                        headers=bearer(t.tokens[chosen[0]]))
        assert r.status_code == 200, r.text
    raise AssertionError("the seat was never awaited")


def test_a_returning_browser_finds_its_tables_newest_first(client: TestClient) -> None:
    me, other = client, TestClient(client.app)
    assert mine(me) == []
    waiting = create(me, "Anna")  # a waiting room I host
    running = create(other, "Ben")  # a game I joined
    join(me, running, "Anna")
    assert other.post(f"/api/tables/{running.id}/start", headers=bearer(running.tokens[0])).status_code == 200
    done = create(other, "Ben", {"phases_to_win": 1})  # a finished game
    join(me, done, "Anna")
    assert other.post(f"/api/tables/{done.id}/start", headers=bearer(done.tokens[0])).status_code == 200
    play_to_end(other, done, seed=5)

    play_until_awaited(other, running, 0)  # Ben's turn
    tables = mine(me)
    assert [x["table_id"] for x in tables] == [done.id, running.id, waiting.id]  # newest first
    assert [x["badge"] for x in tables] == ["finished", "waiting", "waiting"]
    assert [x["status"] for x in tables] == ["finished", "playing", "waiting"]
    assert tables[2]["players"] == ["Anna"] and tables[1]["players"] == ["Ben", "Anna"]
    assert all(x["name"] == "Anna" and x["link"] == f"/tables/{x['table_id']}" for x in tables)
    game = tables[0]["games"][0]
    winners = server_game(other, done.id)[2].winners
    assert winners and game["winners"] == [["Ben", "Anna"][w] for w in winners]
    assert game["replay"] == f"/tables/{done.id}/games/1/replay" and game["status"] == "finished"
    assert tables[1]["games"][0]["winners"] is None

    play_until_awaited(other, running, 1)  # now mine
    assert [x["badge"] for x in mine(me)] == ["finished", "your_turn", "waiting"]
    # Ben's browser sees his own two tables only; a browser without seats sees none
    assert [x["table_id"] for x in mine(other)] == [done.id, running.id]
    assert mine(TestClient(client.app)) == []


def test_forged_or_foreign_cookies_show_nothing(client: TestClient) -> None:
    me = client
    t = create(TestClient(client.app), "Ben")
    me.cookies.set(f"p10_seat_{t.id}", "forged-token")
    other = create(TestClient(client.app), "Cara")
    me.cookies.set(f"p10_seat_{t.id}x", other.tokens[0])  # a real token under another table's cookie
    assert mine(me) == []
