"""Requests that change something at a table: authenticated first, and, when the seat cookie is their only
credential, only from this server's own pages.

Another site's page can make a player's browser send a request with the seat cookie; ``Origin`` (or, without
it, ``Sec-Fetch-Site``) tells where the request came from. A bearer token is not sent by a browser on its own,
so those requests are not checked. A request without a token, or with a wrong one, is 401 before anything is
said about its body (422) or the table's state (409)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.api.deps import cookie_name
from tests.server_helpers import Table, bearer, command_body, new_table, pick

EVIL = {"Origin": "https://evil.example"}
CROSS_SITE = {"Sec-Fetch-Site": "cross-site"}
SAME = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}


Write = tuple[str, Callable[[dict[str, str]], httpx.Response]]


def _writes(client: TestClient, table: Table) -> tuple[list[Write], int]:
    """State-changing requests a page of the seat that may move sends with the cookie alone, and that seat."""
    chosen = pick(client, table.id, random.Random(1))
    assert chosen is not None
    who, command = chosen
    return [
        ("commands", lambda h: client.post(f"/api/tables/{table.id}/commands", json=command_body(command), headers=h)),
        ("chat", lambda h: client.post(f"/api/tables/{table.id}/chat", json={"text": "hi"}, headers=h)),
        ("seat transfer", lambda h: client.post(f"/api/tables/{table.id}/seat/transfer", headers=h)),
    ], who


def _as_cookie(client: TestClient, table: Table, seat: int) -> None:
    client.cookies.clear()
    client.cookies.set(cookie_name(table.id), table.tokens[seat])


@pytest.mark.parametrize("foreign", [EVIL, CROSS_SITE, {"Origin": "null"}, {"Sec-Fetch-Site": "same-site"},
                                     {"Sec-Fetch-Site": "none"}],
                         ids=["origin", "sec-fetch-site", "null-origin", "same-site", "typed-url"])
def test_cookie_writes_from_another_site_are_refused(client: TestClient, foreign: dict[str, str]) -> None:
    """``/commands``, ``/chat``, ``/seat/transfer`` and ``DELETE /seats/2`` with the cookie alone from another
    site: 403 ``cross_origin`` and nothing changes; the same requests from the server's own page go through."""
    table = new_table(client, players=2, start=True)
    writes, who = _writes(client, table)
    _as_cookie(client, table, who)
    version = client.get(f"/api/tables/{table.id}/view").json()["version"]
    for name, send in writes:
        r = send(foreign)
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin", (name, r.text)
    assert client.get(f"/api/tables/{table.id}/view").json()["version"] == version  # no command applied
    assert client.get(f"/api/tables/{table.id}/chat").json()["messages"] == []

    lobby = new_table(client, players=3)
    _as_cookie(client, lobby, 0)
    r = client.delete(f"/api/tables/{lobby.id}/seats/2", headers=foreign)
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin", r.text
    assert len(client.get(f"/api/tables/{lobby.id}").json()["seats"]) == 3
    assert client.delete(f"/api/tables/{lobby.id}/seats/2", headers=SAME).status_code == 200

    _as_cookie(client, table, who)
    for name, send in writes:
        assert send(SAME).status_code in (200, 201), name
    # a page's own request without an Origin header still goes through
    r = client.post(f"/api/tables/{table.id}/chat", json={"text": "mine"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 201, r.text
    client.cookies.clear()


def test_bearer_and_headerless_clients_are_not_checked(client: TestClient) -> None:
    table = new_table(client, players=2, start=True)
    client.cookies.clear()
    r = client.post(f"/api/tables/{table.id}/chat", json={"text": "from an app"},
                    headers={**bearer(table.tokens[0]), **EVIL})
    assert r.status_code == 201, r.text
    _as_cookie(client, table, 1)
    assert client.post(f"/api/tables/{table.id}/chat", json={"text": "no headers"}).status_code == 201
    client.cookies.clear()


def test_the_public_base_url_and_allowed_origins_count_as_own(settings: Any) -> None:
    from app.main import create_app

    configured = settings.model_copy(update={"public_base_url": "https://phase10.example.org",
                                             "ws_allowed_origins": "https://other.example.net"})
    with TestClient(create_app(configured)) as c:
        table = new_table(c, players=2, start=True)
        _as_cookie(c, table, 0)
        for origin in ("https://phase10.example.org", "https://other.example.net", "http://testserver"):
            r = c.post(f"/api/tables/{table.id}/chat", json={"text": origin}, headers={"Origin": origin})
            assert r.status_code == 201, (origin, r.text)


def test_a_request_is_authenticated_before_its_body_is_read(client: TestClient) -> None:
    """Without a token, or with a wrong one: 401 ``bad_token``, never the 422 of a bad body or the 409 of a
    rematch at a table whose game has not finished; an unknown table is 404 before the body too."""
    table = new_table(client, players=2, start=True)
    client.cookies.clear()
    url = f"/api/tables/{table.id}"
    requests = [
        ("PUT", f"{url}/push", {"endpoint": 5}),
        ("DELETE", f"{url}/push", {}),
        ("POST", f"{url}/rematch", None),
        ("POST", f"{url}/rematch/answer", {"accept": "yes"}),
        ("POST", f"{url}/commands", {"command": "x"}),
        ("POST", f"{url}/chat", {"text": 5}),
        ("PUT", f"{url}/clock", {"turn_timer": 5}),
        ("POST", f"{url}/seats/order", {"order": "x"}),
    ]
    for headers in ({}, bearer("not-a-token")):
        for method, path, body in requests:
            r = client.request(method, path, json=body, headers=headers)
            assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token", (method, path, r.text)
    r = client.request("PUT", "/api/tables/nowhere/push", json={"endpoint": 5}, headers=bearer(table.tokens[0]))
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found", r.text
    r = client.request("PUT", f"{url}/push", json={"endpoint": 5}, headers=bearer(table.tokens[0]))
    assert r.status_code == 422, r.text  # a seat's bad body is still a 422
    r = client.post(f"{url}/rematch", headers=bearer(table.tokens[0]))
    assert r.status_code == 409, r.text
