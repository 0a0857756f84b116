"""Share links (docs/security.md, "Share links"): made and revoked only from this site's pages when the seat
cookie authenticates (403 ``cross_origin``), and never more than 20 a game, also when many requests arrive at
once (the game row is locked while a link is counted and made; run with ``TEST_DATABASE_URL`` on Postgres)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.persistence.models import Game, ReplayShare
from app.services.errors import ServiceError
from app.services.games import GameService
from app.services.shares import MAX_SHARES_PER_GAME, create_share
from tests.server_helpers import Table, bearer, new_table, play_to_end


@pytest.fixture()
def finished(client: TestClient) -> Table:
    t = new_table(client, players=2, options={"phases_to_win": 1}, start=True)
    play_to_end(client, t, seed=2)
    return t


def test_share_routes_with_a_seat_cookie_pass_the_origin_check(client: TestClient, finished: Table) -> None:
    t = finished
    path = f"/api/tables/{t.id}/games/1/shares"
    client.cookies.set(f"p10_seat_{t.id}", t.tokens[0])
    foreign = {"Origin": "https://elsewhere.example"}
    r = client.post(path, headers=foreign)
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin", r.text
    assert client.post(path, headers={"Sec-Fetch-Site": "cross-site"}).json()["error"]["code"] == "cross_origin"
    made = client.post(path, headers={"Origin": "http://testserver"})
    assert made.status_code == 201, made.text
    r = client.delete(f"{path}/{made.json()['id']}", headers=foreign)
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin"
    client.cookies.clear()
    assert client.get(f"/api/shared/{made.json()['token']}/replay").status_code == 200  # not revoked
    # a Bearer token (no cookie) is the client's own: no origin to check
    r = client.delete(f"{path}/{made.json()['id']}", headers={**foreign, **bearer(t.tokens[0])})
    assert r.status_code == 200
    assert client.get(f"/api/shared/{made.json()['token']}/replay").json()["error"]["code"] == "bad_share"


def test_at_most_20_links_a_game_under_concurrent_requests(client: TestClient, finished: Table) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    t = finished

    def make(i: int) -> str:
        try:
            create_share(service, t.id, t.tokens[i % 2], 1, "")
        except ServiceError as err:
            return err.code
        return "made"

    with ThreadPoolExecutor(max_workers=12) as pool:
        results = list(pool.map(make, range(3 * MAX_SHARES_PER_GAME)))
    with service.db.read() as s:
        game_id = s.scalar(select(Game.id).where(Game.table_id == t.id, Game.number == 1))
        stored = s.scalar(select(func.count()).select_from(ReplayShare).where(ReplayShare.game_id == game_id))
    assert stored == MAX_SHARES_PER_GAME == results.count("made"), results
    assert set(results) == {"made", "too_many_shares"}
