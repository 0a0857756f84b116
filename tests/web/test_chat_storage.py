"""Table chat in the database (``chat_message``, app/services/chat.py): the history survives a restart of the
app, only the last 50 messages of a table are kept, and the per-seat limit (5 messages per 5 s) is counted
in the database, so two app instances on one database (like two server processes) share it, even when
their posts race. Runs on SQLite and, with TEST_DATABASE_URL, on Postgres. (No rules paragraph covers chat:
it is outside the game record.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.main import create_app
from app.persistence.db import Database
from app.persistence.models import ChatMessage
from app.services.chat import ChatStore
from app.settings import Settings


def _table(client: Any, seats: int = 2) -> tuple[str, list[str]]:
    created = client.post("/api/tables", json={"ruleset": "mattel", "seats": seats, "name": "Anna"}).json()
    tokens = [created["token"]]
    for name in ("Ben", "Cara", "Dan", "Eve", "Finn")[:seats - 1]:
        tokens.append(client.post(f"/api/tables/{created['table_id']}/join",
                                  json={"name": name, "code": created["join_code"]}).json()["token"])
    client.cookies.clear()
    return created["table_id"], tokens


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _say(client: Any, table_id: str, token: str, text: str) -> int:
    return int(client.post(f"/api/tables/{table_id}/chat", json={"text": text}, headers=_auth(token)).status_code)


def _log(client: Any, table_id: str, token: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/tables/{table_id}/chat", headers=_auth(token))
    assert response.status_code == 200, response.text
    messages: list[dict[str, Any]] = response.json()["messages"]
    return messages


def _rows(url: str, table_id: str) -> int:
    db = Database(url)
    try:
        with db.read() as s:
            return int(s.scalar(select(func.count()).select_from(ChatMessage)
                                .where(ChatMessage.table_id == table_id)) or 0)
    finally:
        db.dispose()


@pytest.fixture()
def two_apps(settings: Settings) -> Iterator[tuple[TestClient, TestClient]]:
    """Two app instances on one database, each with its own engine, pool, hub and chat store."""
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        yield one, two


def test_the_chat_history_survives_a_restart_of_the_app(settings: Settings) -> None:
    with TestClient(create_app(settings)) as first:
        table_id, (anna, ben) = _table(first)
        assert _say(first, table_id, anna, "hello") == 201
        react = first.post(f"/api/tables/{table_id}/chat", json={"emoji": "🎉"}, headers=_auth(ben))
        assert react.status_code == 201
        before = _log(first, table_id, ben)
    assert _rows(settings.database_url, table_id) == 2  # in the database, not in the process
    with TestClient(create_app(settings)) as second:
        after = _log(second, table_id, anna)
    assert after == before
    assert [(m["name"], m["seat"], m["text"], m["emoji"]) for m in after] == [
        ("Anna", 0, "hello", None), ("Ben", 1, None, "🎉")]
    assert after[0]["id"] < after[1]["id"]


def test_only_the_last_50_messages_of_a_table_are_kept(client: TestClient) -> None:
    now = [time.time()]
    client.app.state.chat = ChatStore(client.app.state.service.db, clock=lambda: now[0])  # type: ignore[attr-defined]
    table_id, (anna, ben) = _table(client)
    other_id, (other_anna, _) = _table(client)
    assert _say(client, other_id, other_anna, "elsewhere") == 201
    for i in range(57):
        if i and i % 5 == 0:
            now[0] += 5.0  # the seat's limit: 5 messages per 5 s
        assert _say(client, table_id, anna, str(i)) == 201, i
    log = _log(client, table_id, ben)
    assert [m["text"] for m in log] == [str(i) for i in range(7, 57)]
    ids = [m["id"] for m in log]
    assert ids == sorted(ids) and len(set(ids)) == 50
    url = client.app.state.settings.database_url  # type: ignore[attr-defined]
    assert _rows(url, table_id) == 50  # pruned on insert, not just cut on reading
    assert [m["text"] for m in _log(client, other_id, other_anna)] == ["elsewhere"]  # other tables untouched


def test_the_seat_limit_window_slides(client: TestClient) -> None:
    now = [time.time()]
    client.app.state.chat = ChatStore(client.app.state.service.db, clock=lambda: now[0])  # type: ignore[attr-defined]
    table_id, (anna, _) = _table(client)
    start = now[0]
    codes = []
    for i in range(5):
        now[0] = start + i
        codes.append(_say(client, table_id, anna, str(i)))
    assert codes == [201] * 5
    now[0] = start + 4.99
    assert _say(client, table_id, anna, "too soon") == 429  # the first is not yet 5 s old
    now[0] = start + 5.0
    assert _say(client, table_id, anna, "now") == 201  # the first left the window
    assert _say(client, table_id, anna, "again too soon") == 429  # the second is 4 s old
    refused = client.post(f"/api/tables/{table_id}/chat", json={"text": "x"}, headers=_auth(anna)).json()
    assert refused["error"]["code"] == "chat_rate"


def test_the_seat_limit_holds_across_two_app_instances(two_apps: tuple[TestClient, TestClient]) -> None:
    """5 messages per 5 s per seat in all: the second instance does not allow 5 more."""
    one, two = two_apps
    table_id, (anna, ben) = _table(one)
    codes = [_say(by, table_id, anna, str(i)) for i, by in enumerate((one, two, one, two, one, two, one))]
    assert codes == [201] * 5 + [429, 429]
    assert _say(two, table_id, ben, "me too") == 201  # per seat
    texts = [m["text"] for m in _log(one, table_id, ben)]
    assert texts == ["0", "1", "2", "3", "4", "me too"] == [m["text"] for m in _log(two, table_id, anna)]


def test_racing_posts_of_one_seat_on_two_instances_count_up(
        two_apps: tuple[TestClient, TestClient]) -> None:
    """12 posts of one seat at once, 6 through each instance: exactly 5 are stored, 7 refused."""
    one, two = two_apps
    table_id, (anna, ben) = _table(one)
    barrier = threading.Barrier(12)
    codes: list[int] = []

    def post(by: TestClient, i: int) -> None:
        barrier.wait()
        codes.append(_say(by, table_id, anna, f"race {i}"))

    threads = [threading.Thread(target=post, args=(by, i)) for i, by in enumerate((one, two) * 6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert sorted(codes) == [201] * 5 + [429] * 7
    assert len(_log(two, table_id, ben)) == 5


def test_message_ids_are_unique_across_app_instances(two_apps: tuple[TestClient, TestClient]) -> None:
    one, two = two_apps
    table_id, tokens = _table(one, seats=4)
    sent = [by.post(f"/api/tables/{table_id}/chat", json={"text": f"{n}"}, headers=_auth(token)).json()
            for n, (by, token) in enumerate(zip((one, two, one, two), tokens, strict=True))]
    ids = [m["id"] for m in sent]
    assert len(set(ids)) == 4 and ids == sorted(ids)
    assert [m["id"] for m in _log(two, table_id, tokens[0])] == ids
