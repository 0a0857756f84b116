"""REST: "Play on from here" -- a practice table at one step of a finished game (C-9, C-10).

The practice game starts at exactly the position the replay shows at that step (the engine's full state is the
same), the player holds the chosen seat and bots the others, its views hide the bots' hands, it is marked as
practice and goes on (the bots move), and only the readers of the finished game's replay may start one."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.autoplay.settings import BotSettings
from app.main import create_app
from app.persistence.commands import read_commands
from app.services.base import count_tables
from app.services.games import GameService
from tests.server_helpers import Table, bearer, new_table, play_to_end, server_game

SHORT = {"phases_to_win": 2}
FAST = BotSettings(delay_seconds=0.0, tick_seconds=0.05)


@pytest.fixture()
def live(settings: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings, bot_settings=FAST)) as client:
        yield client


@pytest.fixture(scope="module")
def finished(database_url: str) -> Table:
    """A three-player Mattel table whose first game is over (seat 0 hosts)."""
    from app.settings import Settings

    with TestClient(create_app(Settings(database_url=database_url, log_level="WARNING"))) as client:
        t = new_table(client, players=3, options=SHORT, start=True)
        play_to_end(client, t, seed=4)
    return t


def practice(client: TestClient, t: Table, body: dict[str, Any], token: str | None = None,
             share: str | None = None) -> Any:
    headers = bearer(token) if token else {}
    path = f"/api/shared/{share}/practice" if share else f"/api/tables/{t.id}/games/1/practice"
    return client.post(path, json=body, headers=headers)


def card_ids(value: Any) -> set[int]:
    """Every card id anywhere in a JSON value (a card is a dict with an ``id`` and a ``kind``)."""
    found: set[int] = set()
    if isinstance(value, dict):
        if isinstance(value.get("id"), int) and "kind" in value:
            found.add(value["id"])
        for item in value.values():
            found |= card_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids(item)
    return found


def wait_for_version(client: TestClient, table_id: str, token: str, above: int, timeout: float = 15.0) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        version = int(client.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()["version"])
        if version > above:
            return version
        time.sleep(0.05)
    raise AssertionError("the bots did not move")


def test_C10_practice_starts_at_exactly_the_replayed_position(client: TestClient, finished: Table) -> None:
    t = finished
    record = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    step = record["version"] // 2
    replayed = client.get(f"/api/tables/{t.id}/games/1/replay/{step}", headers=bearer(t.tokens[0])).json()
    r = practice(client, t, {"step": step, "seat": 1, "level": "hard"}, t.tokens[1])
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["url"] == f"/tables/{made['table_id']}" and made["seat"] == 1 and len(made["token"]) >= 40
    info = made["table"]
    assert info["practice"] is True
    assert info["practice_from"] == {"table_id": t.id, "number": 1, "step": step}
    assert info["spectators"] is False and info["status"] == "playing" and info["host_seat"] == 1
    assert [s["is_bot"] for s in info["seats"]] == [True, False, True]
    assert info["seats"][1]["name"] == record["seats"][1]["name"]
    assert info["bots"] == [{"seat": 0, "level": "hard"}, {"seat": 2, "level": "hard"}]
    # the engine's state at the practice game's first version is the replay's at that step
    ruleset, state, game = server_game(client, made["table_id"])
    assert game.seed == record["seed"] and game.options == record["options"] and game.version >= step
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        copied = read_commands(s, game.id, 0, step)
    rebuilt = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
    for c in copied:
        rebuilt, _ = ruleset.apply(rebuilt, c.seat, ruleset.parse_command(c.command))
    assert json.loads(json.dumps(ruleset.full_view(rebuilt))) == replayed["state"]
    if game.version == step:  # the bots have not moved yet
        assert json.loads(json.dumps(ruleset.full_view(state))) == replayed["state"]
    # its record holds the finished game's commands 1..step
    pr = client.get(f"/api/tables/{made['table_id']}/games/1/replay", headers=bearer(made["token"]))
    assert pr.status_code == 200 and pr.json()["public"] is True  # a running game: the public part only
    assert [c["command"]["type"] for c in pr.json()["commands"]][:step] == \
        [c["command"]["type"] for c in record["commands"][:step]]
    # the table is stored like any other: it answers its info without a token
    assert client.get(f"/api/tables/{made['table_id']}").json()["practice"] is True


def test_C9_the_practice_views_hide_the_bots_hands(client: TestClient, finished: Table) -> None:
    t = finished
    step = 3
    made = practice(client, t, {"step": step, "seat": 0, "level": "normal"}, t.tokens[0]).json()
    replayed = client.get(f"/api/tables/{t.id}/games/1/replay/{step}", headers=bearer(t.tokens[0])).json()
    hands = replayed["state"]["hands"]
    view = client.get(f"/api/tables/{made['table_id']}/view", headers=bearer(made["token"])).json()
    ruleset, state, game = server_game(client, made["table_id"])
    full = ruleset.full_view(state)
    others = card_ids(full["hands"][1]) | card_ids(full["hands"][2])
    assert others and not others & card_ids(view["view"])
    assert card_ids(view["view"]["hand"]) == card_ids(full["hands"][0])
    if game.version == step:  # the bots had not moved yet: the player's hand is the replay's
        assert card_ids(view["view"]["hand"]) == card_ids(hands[0])
    events = client.get(f"/api/tables/{made['table_id']}/events", params={"since": 0},
                      headers=bearer(made["token"])).json()
    # a card a bot took from the discard pile was face up when it was taken: only those may be named
    taken = card_ids([e for e in events.get("events", [])
                      if e.get("type") == "card_drawn" and e.get("pile") == "discard"])
    assert not others & card_ids(events) - card_ids(full.get("table")) - card_ids(full.get("discard_pile")) - taken
    # nobody else holds a token of the practice table: the page without one sees nothing
    client.cookies.clear()
    assert client.get(f"/api/tables/{made['table_id']}/view").status_code == 401


def test_the_bots_play_on_at_a_practice_table(live: TestClient, finished: Table) -> None:
    t = finished
    record = live.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    # a step whose next decision is seat 2's: seat 0 plays, the bots in seats 1 and 2 move by themselves
    step = next(c["seq"] - 1 for c in record["commands"][5:] if c["seat"] == 2)
    made = practice(live, t, {"step": step, "seat": 0, "level": "normal"}, t.tokens[0]).json()
    assert wait_for_version(live, made["table_id"], made["token"], step) > step


def test_only_the_replays_readers_may_start_a_practice(client: TestClient, finished: Table) -> None:
    t = finished
    body = {"step": 0, "seat": 0}
    assert practice(client, t, body).json()["error"]["code"] == "bad_token"
    # a share link of the finished game lets its holder play on
    made = client.post(f"/api/tables/{t.id}/games/1/shares", headers=bearer(t.tokens[2])).json()
    client.cookies.clear()
    r = practice(client, t, body, share=made["token"])
    assert r.status_code == 201, r.text
    # what a share link starts does not name the shared game's table
    assert t.id not in r.text and r.json()["table"]["practice_from"] == {"table_id": None, "number": None, "step": 0}
    assert r.cookies.get(f"p10_seat_{r.json()['table_id']}") == r.json()["token"]
    client.cookies.clear()
    assert practice(client, t, body, share="x" * 43).json()["error"]["code"] == "bad_share"
    # another site's page cannot start one with a player's cookie
    client.cookies.set(f"p10_seat_{t.id}", t.tokens[0])
    r = client.post(f"/api/tables/{t.id}/games/1/practice", json=body, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin"
    client.cookies.clear()


def test_bad_practice_requests_are_refused_and_make_no_table(client: TestClient, finished: Table) -> None:
    t = finished
    record = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    last = record["version"]
    cases = [({"step": last + 1, "seat": 0}, 422, "invalid_step"),
             ({"step": 0, "seat": 3}, 422, "invalid_seat"),
             ({"step": last, "seat": 0}, 409, "game_over_at_step"),
             ({"step": 0, "seat": 0, "level": "easy"}, 422, "invalid_request"),
             ({"step": -1, "seat": 0}, 422, "invalid_request")]
    before = count_tables(client.app.state.service.db)  # type: ignore[attr-defined]
    for body, status, code in cases:
        r = practice(client, t, body, t.tokens[0])
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (body, r.text)
    assert count_tables(client.app.state.service.db) == before  # type: ignore[attr-defined]
    # a running game cannot be played on from
    running = new_table(client, players=2, start=True)
    r = client.post(f"/api/tables/{running.id}/games/1/practice", json={"step": 0, "seat": 0},
                    headers=bearer(running.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"


def test_C10_an_opened_record_is_played_on_from_without_a_seat(client: TestClient, finished: Table) -> None:
    t = finished
    record = client.get(f"/api/tables/{t.id}/games/1/record", headers=bearer(t.tokens[0])).json()
    opened = client.post("/api/records", json=record)
    assert opened.status_code == 201, opened.text
    client.cookies.clear()
    table_id = opened.json()["table_id"]
    r = client.post(f"/api/tables/{table_id}/games/1/practice", json={"step": 7, "seat": 2, "level": "hard"})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["table"]["practice_from"] == {"table_id": table_id, "number": 1, "step": 7}
    view = client.get(f"/api/tables/{made['table_id']}/view", headers=bearer(made["token"])).json()
    assert view["seat"] == 2 and view["view"]["hand"]
