"""Fixtures of the service tests: a Web Push service on loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import delete

from app.persistence.db import Database
from app.persistence.push import PushSubscription
from tests.services.push_receiver import PushReceiver


@pytest.fixture()
def receiver(database_url: str) -> Iterator[PushReceiver]:
    """A push service on loopback; its subscriptions are deleted afterwards (a Postgres test database outlives
    the session: a later server would push to this receiver's closed port)."""
    rec = PushReceiver().start()
    yield rec
    rec.stop()
    db = Database(database_url)
    with db.write() as s:
        s.execute(delete(PushSubscription).where(PushSubscription.endpoint.like(f"{rec.origin}/%")))
    db.dispose()
