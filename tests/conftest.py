"""Shared server fixtures: a migrated database (SQLite by default, Postgres when TEST_DATABASE_URL is
set), settings for it, and a TestClient on a fresh app instance."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One migrated database per test session; every test works on its own random table ids."""
    from app.persistence.db import upgrade

    url = TEST_DATABASE_URL or f"sqlite:///{Path(tmp_path_factory.mktemp('db')) / 'phase10.db'}"
    upgrade(url)
    return url


@pytest.fixture()
def settings(database_url: str):  # type: ignore[no-untyped-def]
    from app.settings import Settings

    return Settings(database_url=database_url, log_level="WARNING", ws_auth_timeout_seconds=2.0)


@pytest.fixture()
def client(settings) -> Iterator:  # type: ignore[no-untyped-def]
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(settings)) as test_client:
        yield test_client
