"""The fault tests' private Postgres (``tests.faults.postgres``): one cluster for the module that asks for it,
migrated to the head, removed afterwards."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.postgres import PrivatePostgres, postgres_binaries


@pytest.fixture(scope="package")
def private_pg() -> Iterator[PrivatePostgres]:
    from app.persistence.db import upgrade

    bin_dir = postgres_binaries()
    with tempfile.TemporaryDirectory(prefix="phase10-pg-") as folder:
        pg = PrivatePostgres(Path(folder), bin_dir)
        pg.init()
        try:
            upgrade(pg.url)
            yield pg
        finally:
            pg.close()
