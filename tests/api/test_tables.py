"""REST: rule sets, tables, seats, join codes, start, views and every lobby error path."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.server_helpers import bearer, new_table


def test_rulesets_lists_every_registry_ruleset(client: TestClient) -> None:
    r = client.get("/api/rulesets")
    assert r.status_code == 200
    by_id = {x["id"]: x for x in r.json()}
    from app.rules.registry import ruleset_ids

    assert set(by_id) == set(ruleset_ids())
    mattel = by_id["mattel"]
    assert mattel["min_players"] >= 2 and mattel["max_players"] <= 6 and mattel["title"]
    assert any(o["name"] == "phases_to_win" for o in mattel["options_schema"])
    # C-11: an option whose values are a closed list names them (the lobby and the rematch offer them in a list)
    choices = {x["id"]: {o["name"]: o.get("choices") for o in x["options_schema"]} for x in r.json()}
    assert choices["mattel"]["phase_selection"] == ["all", "even", "odd"]
    assert choices["master"]["scoring"] == ["minus", "points"]
    assert choices["mattel"]["phases_to_win"] is None and choices["board"]["first_player"] is None


def test_create_table_gives_link_token_cookie(client: TestClient) -> None:
    r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 4, "name": "Anna",
                                         "options": {"phases_to_win": 3}, "spectators": True})
    assert r.status_code == 201, r.text
    data = r.json()
    assert data["invite_link"] == f"/join/{data['table_id']}?code={data['join_code']}"  # no page origin: relative
    assert len(data["token"]) >= 40 and data["seat"] == 0
    assert r.cookies.get(f"p10_seat_{data['table_id']}") == data["token"]
    table = data["table"]
    assert table["status"] == "waiting" and table["host_seat"] == 0 and table["capacity"] == 4
    assert table["options"]["phases_to_win"] == 3 and table["spectators"] is True
    assert table["seats"] == [{"seat": 0, "name": "Anna", "is_host": True, "is_bot": False, "connected": False}]
    info = client.get(f"/api/tables/{data['table_id']}").json()
    assert info["table_id"] == data["table_id"] and info["game"] is None


def test_create_table_errors_name_the_field(client: TestClient) -> None:
    def err(body: dict[str, object]) -> tuple[int, dict[str, str]]:
        r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 3, "name": "A", **body})
        return r.status_code, r.json()["error"]

    status, e = err({"ruleset": "nope"})
    assert status == 422 and e["code"] == "invalid_options" and e["field"] == "ruleset"
    status, e = err({"options": {"bogus": 1}})
    assert status == 422 and e["field"] == "bogus"
    status, e = err({"options": {"phase_selection": "sometimes"}})
    assert status == 422 and e["field"] == "phase_selection"
    status, e = err({"seats": 7})
    assert status == 422 and e["code"] == "invalid_request" and e["field"] == "seats"
    status, e = err({"name": "   "})
    assert status == 422 and e["field"] == "name"
    status, e = err({"turbo": True})
    assert status == 422 and e["field"] == "turbo"


def test_join_and_its_errors(client: TestClient) -> None:
    t = new_table(client, players=1, seats=2)
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Bob", "code": "wrong"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "wrong_join_code"
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Bob", "code": t.code})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert r.cookies.get(f"p10_seat_{t.id}") == r.json()["token"]
    assert [s["name"] for s in r.json()["table"]["seats"]] == ["Host", "Bob"]
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Cy", "code": t.code})
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"
    r = client.post("/api/tables/nope/join", json={"name": "Cy", "code": t.code})
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found"


def test_join_after_start_is_game_started(client: TestClient) -> None:
    t = new_table(client, players=2, seats=3, start=True)
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Late", "code": t.code})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_started"


def test_wrong_join_codes_are_rate_limited(settings: Settings) -> None:
    limited = settings.model_copy(update={"join_failures_per_table": 3, "join_failures_per_address": 100})
    # The counts live in the shared database: each app gets a client address of its own.
    with TestClient(create_app(limited), client=(f"limit-{uuid.uuid4().hex}", 50000)) as client:
        t = new_table(client, players=1, seats=3)
        codes = [client.post(f"/api/tables/{t.id}/join", json={"name": "X", "code": "bad"}).status_code
                 for _ in range(4)]
        assert codes == [403, 403, 403, 429]
        r = client.post(f"/api/tables/{t.id}/join", json={"name": "X", "code": t.code})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        # another table is not blocked by this table's limit
        other = new_table(client, players=2, seats=2)
        assert len(other.tokens) == 2
    per_address = settings.model_copy(update={"join_failures_per_table": 100, "join_failures_per_address": 2})
    with TestClient(create_app(per_address), client=(f"limit-{uuid.uuid4().hex}", 50000)) as client:
        a, b = new_table(client, players=1), new_table(client, players=1)
        assert client.post(f"/api/tables/{a.id}/join", json={"name": "X", "code": "bad"}).status_code == 403
        assert client.post(f"/api/tables/{b.id}/join", json={"name": "X", "code": "bad"}).status_code == 403
        assert client.post(f"/api/tables/{b.id}/join", json={"name": "X", "code": b.code}).status_code == 429


def test_wrong_codes_from_one_address_never_lock_out_others(settings: Settings) -> None:
    """An attacker who knows the table id sends wrong codes until refused; the invitee, on another address,
    still joins with the right code (and a wrong code of the invitee's own is only a 403, not a 429)."""
    uid = uuid.uuid4().hex[:8]
    app = create_app(settings)
    with TestClient(app, client=(f"127.0.0.2-{uid}", 50000)) as attacker, \
            TestClient(app, client=(f"127.0.0.3-{uid}", 50000)) as invitee:
        t = new_table(attacker, players=1, seats=3)
        codes = [attacker.post(f"/api/tables/{t.id}/join", json={"name": "X", "code": f"guess{i}"}).status_code
                 for i in range(settings.join_failures_per_table + 2)]
        assert codes == [403] * settings.join_failures_per_table + [429, 429]
        r = attacker.post(f"/api/tables/{t.id}/join", json={"name": "X", "code": t.code})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        r = invitee.post(f"/api/tables/{t.id}/join", json={"name": "Friend", "code": "typo"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "wrong_join_code"
        r = invitee.post(f"/api/tables/{t.id}/join", json={"name": "Friend", "code": t.code})
        assert r.status_code == 200, r.text
        assert [s["name"] for s in r.json()["table"]["seats"]] == ["Host", "Friend"]


def test_host_reorders_and_removes_seats(client: TestClient) -> None:
    t = new_table(client, players=3, seats=4)
    host, p1, p2 = (bearer(x) for x in t.tokens)
    r = client.post(f"/api/tables/{t.id}/seats/order", json={"order": [2, 0, 1]}, headers=p1)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = client.post(f"/api/tables/{t.id}/seats/order", json={"order": [0, 0, 1]}, headers=host)
    assert r.status_code == 422 and r.json()["error"]["field"] == "order"
    r = client.post(f"/api/tables/{t.id}/seats/order", json={"order": [2, 0, 1]}, headers=host)
    assert r.status_code == 200
    assert [s["name"] for s in r.json()["seats"]] == ["P2", "Host", "P1"]
    assert r.json()["host_seat"] == 1
    r = client.delete(f"/api/tables/{t.id}/seats/1", headers=host)
    assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_remove_host"
    r = client.delete(f"/api/tables/{t.id}/seats/9", headers=host)
    assert r.status_code == 404 and r.json()["error"]["code"] == "seat_not_found"
    r = client.delete(f"/api/tables/{t.id}/seats/0", headers=p2)
    assert r.status_code == 403
    r = client.delete(f"/api/tables/{t.id}/seats/0", headers=host)
    assert r.status_code == 200 and [s["name"] for s in r.json()["seats"]] == ["Host", "P1"]
    # the removed seat's token is dead
    r = client.get(f"/api/tables/{t.id}/view", headers=p2)
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    r = client.post(f"/api/tables/{t.id}/start", headers=host)
    assert r.status_code == 200 and r.json()["status"] == "playing"
    r = client.post(f"/api/tables/{t.id}/seats/order", json={"order": [1, 0]}, headers=host)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_started"
    r = client.delete(f"/api/tables/{t.id}/seats/1", headers=host)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_started"


def test_start_rules(client: TestClient) -> None:
    t = new_table(client, players=1, seats=3)
    r = client.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_enough_players"
    t = new_table(client, players=2, seats=3)
    assert client.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[1])).status_code == 403
    assert client.post(f"/api/tables/{t.id}/start").status_code == 401
    r = client.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
    assert r.status_code == 200
    assert r.json()["game"]["number"] == 1 and r.json()["game"]["players"] == 2
    r = client.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_started"


def test_views_are_per_seat_and_spectators_need_permission(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    v0 = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()
    v1 = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[1])).json()
    assert v0["seat"] == 0 and v1["seat"] == 1 and v0["version"] == 0
    ids0 = {c["id"] for c in v0["view"]["hand"]}
    ids1 = {c["id"] for c in v1["view"]["hand"]}
    assert ids0 and ids1 and not ids0 & ids1
    assert str(sorted(ids0)) not in str(v1)
    r = client.get(f"/api/tables/{t.id}/view")
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    r = client.get(f"/api/tables/{t.id}/view", headers=bearer("forged"))
    assert r.status_code == 401
    open_table = new_table(client, players=2, spectators=True, start=True)
    r = client.get(f"/api/tables/{open_table.id}/view")
    assert r.status_code == 200 and r.json()["seat"] is None
    assert r.json()["view"].get("hand") in (None, [])


def test_cookie_authenticates_like_bearer(client: TestClient) -> None:
    r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "C"})
    table_id = r.json()["table_id"]
    assert client.get(f"/api/tables/{table_id}/view").json()["seat"] == 0  # cookie from the response
    client.cookies.clear()
    assert client.get(f"/api/tables/{table_id}/view").status_code == 401


def test_view_before_start_and_unknown_table(client: TestClient) -> None:
    t = new_table(client, players=2)
    r = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[1]))
    assert r.json() == {"game_id": None, "number": None, "version": 0, "seat": 1, "view": None}
    for method, path in [("get", "/api/tables/zz"), ("get", "/api/tables/zz/view"),
                         ("post", "/api/tables/zz/start"), ("get", "/api/tables/zz/hint")]:
        r = client.request(method.upper(), path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found", path


def test_healthz_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}
    paths = client.get("/openapi.json").json()["paths"]
    for p in ["/api/rulesets", "/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/join",
              "/api/tables/{table_id}/seats/order", "/api/tables/{table_id}/seats/{seat}",
              "/api/tables/{table_id}/start", "/api/tables/{table_id}/rematch", "/api/tables/{table_id}/view",
              "/api/tables/{table_id}/commands", "/api/tables/{table_id}/events", "/api/tables/{table_id}/hint",
              "/api/tables/{table_id}/games/{number}/replay",
              "/api/tables/{table_id}/games/{number}/replay/{step}", "/healthz"]:
        assert p in paths, p
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_every_api_route_documents_its_answer(client: TestClient) -> None:
    """The OpenAPI schema is complete: every JSON route under /api names the schema of its answer."""
    schema = client.get("/openapi.json").json()
    checked = 0
    for path, methods in schema["paths"].items():
        if not path.startswith("/api"):
            continue
        for method, op in methods.items():
            ok = next(v for k, v in op["responses"].items() if k.startswith("2"))
            body = ok.get("content", {}).get("application/json", {}).get("schema", {})
            assert "$ref" in body or "items" in body or "properties" in body, (method, path, body)
            checked += 1
    assert checked >= 20


def test_B4_the_first_player_must_be_one_of_the_seats(client: TestClient) -> None:
    """C-11, B-4: an option that can never work with the table's seats is refused at creation (not at the
    start, when the host could no longer change it), naming the field."""
    body = {"ruleset": "board", "seats": 2, "options": {"first_player": 5}, "name": "Host"}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "invalid_options" and r.json()["error"]["field"] == "first_player"
    r = client.post("/api/tables", json=body | {"seats": 6})
    assert r.status_code == 201, r.text


def test_joining_with_a_seated_name_is_name_taken(client: TestClient) -> None:
    """Two seats may not carry the same name (names tell the players apart in the log, the scores and the
    chat): case and surrounding or repeated spaces do not make a name different."""
    t = new_table(client, players=1, seats=3)
    for name in ("Host", "host", "  HOST "):
        r = client.post(f"/api/tables/{t.id}/join", json={"name": name, "code": t.code})
        assert r.status_code == 409, (name, r.text)
        assert r.json()["error"]["code"] == "name_taken" and r.json()["error"]["field"] == "name"
    assert [s["name"] for s in client.get(f"/api/tables/{t.id}").json()["seats"]] == ["Host"]
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "Hostess", "code": t.code})
    assert r.status_code == 200 and r.json()["seat"] == 1
