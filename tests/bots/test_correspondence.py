"""Correspondence play: turn timers of hours and days (``1h``, ``12h``, ``1d``, ``3d``). When the time is up the
stand-in (the ``easy`` bot) makes that decision; the clock runs from stored moments, so it survives a restart.
The wall clock of the bot runner is set forward in the test instead of waiting a day."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.autoplay.models import TableClock
from app.autoplay.settings import BotSettings
from app.main import create_app
from app.services.games import GameService
from tests.bots.test_live import commands, wait_for
from tests.server_helpers import bearer

QUICK = BotSettings(delay_seconds=0.0, tick_seconds=0.05)
DAY = timedelta(days=1)


class Wall:
    """A wall clock the test moves forward."""

    def __init__(self) -> None:
        self.ahead = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead


def serve(settings: Any, wall: Wall) -> TestClient:
    app = create_app(settings, bot_settings=QUICK)
    app.state.bots.now = wall
    return TestClient(app)


@pytest.fixture()
def cleanup(settings: Any) -> Iterator[None]:
    yield
    with TestClient(create_app(settings, bot_settings=QUICK)) as client:
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        with service.db.write() as s:  # leave no timer running for later apps on the shared database
            s.execute(update(TableClock).values(turn_timer="off", stand_in=False))


def correspondence_table(client: TestClient, timer: str) -> tuple[str, list[str]]:
    r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host", "turn_timer": timer})
    assert r.status_code == 201, r.text
    table_id, code, tokens = r.json()["table_id"], r.json()["join_code"], [r.json()["token"]]
    client.cookies.clear()
    r = client.post(f"/api/tables/{table_id}/join", json={"name": "Far", "code": code})
    tokens.append(r.json()["token"])
    client.cookies.clear()
    assert client.post(f"/api/tables/{table_id}/start", headers=bearer(tokens[0])).status_code == 200
    return table_id, tokens


def settle(check: Callable[[], Any], seconds: float = 0.6) -> Any:
    time.sleep(seconds)
    return check()


@pytest.mark.parametrize("timer, seconds", [("1h", 3600), ("12h", 43200), ("1d", 86400), ("3d", 259200)])
def test_correspondence_timers_show_their_length(settings: Any, cleanup: None, timer: str, seconds: int) -> None:
    with serve(settings, Wall()) as client:
        table_id, tokens = correspondence_table(client, timer)
        view = client.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()["view"]
        assert view["timer"]["mode"] == timer and view["timer"]["seconds"] == seconds
        assert seconds - 5 < view["timer"]["remaining"] <= seconds
        info = client.get(f"/api/tables/{table_id}/bots").json()
        assert info["turn_timers"][timer] == seconds


def test_an_expired_one_day_timer_moves_across_a_restart(settings: Any,
                                                                                   cleanup: None) -> None:
    wall = Wall()
    with serve(settings, wall) as client:
        table_id, tokens = correspondence_table(client, "1d")
        wall.ahead = DAY - timedelta(minutes=1)  # a minute before the deadline: nobody moves for the player
        client.app.state.bots.poke(table_id)  # type: ignore[attr-defined]
        assert settle(lambda: commands(client, table_id)) == []
        view = client.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()["view"]
        assert 0 < view["timer"]["remaining"] <= 60
    # The server restarts when the day is over: the clock kept running (it did not start again at the restart),
    # so the stand-in makes the decision at once.
    wall.ahead = DAY + timedelta(seconds=5)
    with serve(settings, wall) as client:
        moved = wait_for(lambda: commands(client, table_id))
        assert moved[0].command_id.startswith("timer:") and moved[0].seq == 1
