"""``turn_timer`` and ``stand_in`` in the ``POST /api/tables`` body: validated, stored like
``PUT /api/tables/{id}/clock``, and shown in the REST table info."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.autoplay.models import TableClock
from app.services.games import GameService
from tests.server_helpers import bearer


def create(client: TestClient, **extra: Any) -> Any:
    r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Anna", **extra})
    client.cookies.clear()
    return r


def test_create_clock_fields_are_stored_like_the_clock_route(client: TestClient) -> None:
    r = create(client, turn_timer="relaxed", stand_in=True)
    assert r.status_code == 201, r.text
    created = r.json()
    table_id, token = created["table_id"], created["token"]
    assert created["table"]["turn_timer"] == "relaxed" and created["table"]["stand_in"] is True
    assert created["table"]["revision"] == 0
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        row = s.get(TableClock, table_id)
        assert row is not None and (row.turn_timer, row.stand_in) == ("relaxed", True)
    info = client.get(f"/api/tables/{table_id}").json()
    assert (info["turn_timer"], info["stand_in"], info["stand_ins"], info["bots"]) == ("relaxed", True, [], [])
    bots = client.get(f"/api/tables/{table_id}/bots").json()
    assert (bots["turn_timer"], bots["stand_in"]) == ("relaxed", True)
    # Once a game runs, the stored clock drives the timer of views and of the REST table info.
    code = created["join_code"]
    assert client.post(f"/api/tables/{table_id}/join", json={"name": "Ben", "code": code}).status_code == 200
    client.cookies.clear()
    assert client.post(f"/api/tables/{table_id}/start", headers=bearer(token)).status_code == 200
    view = client.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()["view"]
    assert view["timer"]["mode"] == "relaxed" and view["timer"]["seats"] == view["awaited"]
    assert client.get(f"/api/tables/{table_id}").json()["timer"]["mode"] == "relaxed"
    # Cleanup: the database is shared by the whole session; leave no clock running for later apps.
    r = client.put(f"/api/tables/{table_id}/clock", json={"turn_timer": "off", "stand_in": False},
                   headers=bearer(token))
    assert r.status_code == 200 and r.json()["turn_timer"] == "off" and r.json()["timer"] is None


def test_create_body_clock_fields_default_to_off(client: TestClient) -> None:
    r = create(client)
    assert r.status_code == 201
    table = r.json()["table"]
    assert (table["turn_timer"], table["stand_in"], table["timer"]) == ("off", False, None)


def test_create_body_clock_errors_name_the_field(client: TestClient) -> None:
    for body, field in (({"turn_timer": "turbo"}, "turn_timer"), ({"turn_timer": None}, "turn_timer"),
                        ({"stand_in": "sometimes"}, "stand_in"), ({"stand_in": [True]}, "stand_in")):
        r = create(client, **body)
        assert r.status_code == 422, body
        error = r.json()["error"]
        assert error["code"] == "invalid_request" and error["field"] == field, error
