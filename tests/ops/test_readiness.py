"""``/readyz``: 200 only when the database answers and is at the Alembic head; ``/healthz`` stays liveness."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from fastapi.testclient import TestClient

from app.main import create_app
from app.persistence.db import alembic_config, head_revisions
from app.settings import Settings


def test_ready_at_the_head(client: TestClient) -> None:
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "database": "ok", "revision": ",".join(sorted(head_revisions()))}
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}


def test_not_ready_behind_the_head_but_alive(tmp_path: Path) -> None:
    """A database one migration behind (a new release started before ``alembic upgrade head``) is not ready;
    the process is still alive. After the upgrade the same process is ready."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0004_join_failures")
    client = TestClient(create_app(Settings(database_url=url, log_level="WARNING")))
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json() == {"status": "unavailable", "database": "behind", "revision": "0004_join_failures"}
    assert client.get("/healthz").status_code == 200
    command.upgrade(alembic_config(url), "head")
    assert client.get("/readyz").status_code == 200


def test_not_ready_when_the_database_is_unreachable() -> None:
    url = "postgresql+psycopg://nobody@127.0.0.1:9/nothing?connect_timeout=2"  # port 9 (discard): refused
    client = TestClient(create_app(Settings(database_url=url, log_level="WARNING")))
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json() == {"status": "unavailable", "database": "down", "revision": None}
    assert client.get("/healthz").status_code == 503


def test_an_empty_database_is_not_ready(tmp_path: Path) -> None:
    client = TestClient(create_app(Settings(database_url=f"sqlite:///{tmp_path / 'new.db'}", log_level="WARNING")))
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["database"] == "behind" and r.json()["revision"] is None
