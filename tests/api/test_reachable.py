"""Reachable tables: every link the server builds (the invite, a seat's move to another device) has one base:
``PHASE10_PUBLIC_BASE_URL``, else the origin of the page that asked (its browser's ``Origin``: behind a proxy the
proxy's address and scheme), else none (a relative link); never the ``Host`` header. Seat cookies are
``Secure`` whenever the request came over HTTPS (behind a trusted proxy, from its ``X-Forwarded-Proto``)."""

from __future__ import annotations

from typing import Any

import httpx
import yaml
from fastapi.testclient import TestClient

from app.main import create_app
from tests.ops.caddy import needs_caddy
from tests.ops.test_caddy import proxied  # noqa: F401  (the fixture: the real proxy before a real app)
from tests.realtime.processes import ROOT, running

BODY = {"ruleset": "mattel", "seats": 2, "name": "Anna"}


def _created(client: TestClient, **headers: str) -> tuple[dict[str, Any], str]:
    r = client.post("/api/tables", json=BODY, headers=headers)
    assert r.status_code == 201, r.text
    return r.json(), r.headers["set-cookie"]


def test_invite_link_uses_the_origin_of_the_page(client: TestClient) -> None:
    data, cookie = _created(client, origin="http://friends.example.org:8443", host="friends.example.org:8443")
    assert data["invite_link"] == f"http://friends.example.org:8443/join/{data['table_id']}?code={data['join_code']}"
    assert "secure" not in cookie.lower()  # plain HTTP: a Secure cookie would never come back


def test_every_link_has_the_invites_base_never_the_host_header(client: TestClient) -> None:
    """A forged ``Host`` names no link: the invite and the seat's move link both take the page's origin, and
    without one they are relative."""
    data, _ = _created(client, origin="http://testserver", host="evil.example")
    assert data["invite_link"] == f"http://testserver/join/{data['table_id']}?code={data['join_code']}"
    client.cookies.clear()
    headers = {"Authorization": f"Bearer {data['token']}", "Host": "evil.example"}
    moved = client.post(f"/api/tables/{data['table_id']}/seat/transfer", headers=headers | {"Origin": "http://testserver"})
    assert moved.status_code == 200, moved.text
    assert moved.json()["link"].startswith(f"http://testserver/tables/{data['table_id']}/move?code=")
    bare, _ = _created(client, host="evil.example")
    assert bare["invite_link"] == f"/join/{bare['table_id']}?code={bare['join_code']}"
    client.cookies.clear()
    moved = client.post(f"/api/tables/{data['table_id']}/seat/transfer", headers=headers)
    assert moved.json()["link"].startswith(f"/tables/{data['table_id']}/move?code="), moved.text
    for origin in ("null", "https://a@b.example", "javascript://x"):
        assert "evil" not in client.post("/api/tables", json=BODY, headers={"Host": "evil.example",
                                                                            "Origin": origin}).json()["invite_link"]
    client.cookies.clear()


def test_public_base_url_wins(settings: Any) -> None:
    configured = settings.model_copy(update={"public_base_url": "https://phase10.example.org/"})
    with TestClient(create_app(configured)) as client:
        data, _ = _created(client, host="10.0.0.5:8000", origin="http://10.0.0.5:8000")
        moved = client.post(f"/api/tables/{data['table_id']}/seat/transfer",
                            headers={"Authorization": f"Bearer {data['token']}", "Host": "10.0.0.5:8000"})
    assert data["invite_link"] == f"https://phase10.example.org/join/{data['table_id']}?code={data['join_code']}"
    assert moved.json()["link"].startswith(f"https://phase10.example.org/tables/{data['table_id']}/move?code=")


def test_https_gives_an_https_link_and_secure_cookies(settings: Any) -> None:
    with TestClient(create_app(settings), base_url="https://phase10.example.org") as client:
        data, cookie = _created(client, origin="https://phase10.example.org")
        assert data["invite_link"].startswith("https://phase10.example.org/join/")
        assert "secure" in cookie.lower() and "httponly" in cookie.lower()
        client.cookies.clear()
        r = client.post(f"/api/tables/{data['table_id']}/join", json={"name": "Ben", "code": data["join_code"]})
        assert r.status_code == 200 and "secure" in r.headers["set-cookie"].lower()


def test_behind_a_trusted_proxy_the_forwarded_scheme_counts(database_url: str) -> None:
    """A real uvicorn process (``--proxy-headers`` by default, loopback trusted by ``FORWARDED_ALLOW_IPS``):
    the proxy terminates TLS and says so in ``X-Forwarded-Proto``; the Host header passes through."""
    with running(database_url, count=1) as (server,):
        r = httpx.post(f"http://{server.url}/api/tables", json=BODY, timeout=10,
                       headers={"Host": "phase10.example.org", "X-Forwarded-Proto": "https",
                                "Origin": "https://phase10.example.org"})
        assert r.status_code == 201, r.text
        assert r.json()["invite_link"].startswith("https://phase10.example.org/join/")
        assert "secure" in r.headers["set-cookie"].lower()
        plain = httpx.post(f"http://{server.url}/api/tables", json=BODY, timeout=10,
                           headers={"Origin": f"http://{server.url}"})
        assert plain.json()["invite_link"].startswith(f"http://{server.url}/join/")
        assert "secure" not in plain.headers["set-cookie"].lower()


def test_the_domain_override_serves_https_on_the_domain() -> None:
    """deploy/domain.yml (README "Play with friends elsewhere"): the proxy serves the domain given in PHASE10_SITE
    (Caddy's automatic HTTPS) on ports 80 and 443 and keeps its certificates in a volume."""
    override = yaml.safe_load((ROOT / "deploy" / "domain.yml").read_text())
    proxy = override["services"]["proxy"]
    assert proxy["environment"]["PHASE10_SITE"].startswith("${PHASE10_SITE:?")
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    data = [v for v in proxy["volumes"] if v.endswith(":/data")]
    assert data and data[0].split(":")[0] in override["volumes"]
    base = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert "proxy" in base["services"] and "{$PHASE10_SITE" in (ROOT / "deploy" / "Caddyfile").read_text()


@needs_caddy
def test_through_the_caddy_proxy_the_invite_link_names_the_proxy(proxied: str) -> None:  # noqa: F811
    """The real proxy (deploy/Caddyfile) in front of a real app process: the link carries the address the
    host used (the proxy's), not the app's own."""
    r = httpx.post(f"http://{proxied}/api/tables", json=BODY, timeout=10, headers={"Origin": f"http://{proxied}"})
    assert r.status_code == 201, r.text
    assert r.json()["invite_link"].startswith(f"http://{proxied}/join/")
