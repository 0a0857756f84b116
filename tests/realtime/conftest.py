"""Fixtures of the realtime tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.realtime.processes import Server, running


@pytest.fixture()
def servers(database_url: str) -> Iterator[list[Server]]:
    """Two real server processes on the test database."""
    with running(database_url) as both:
        yield both
