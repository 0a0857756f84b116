"""The game service is a graph of collaborators, each with one job, wired once (docs/architecture.md, "The
service"): no class of it inherits another's methods, and the server's graph is finished when ``create_app``
returns (the hub's presence reaches the table info through the link it was built on)."""

from __future__ import annotations

import inspect

from app.main import create_app
from app.persistence.db import Database
from app.realtime.backends import PgListener
from app.realtime.hub import HubLink
from app.services import fanout, games, history, lobby, player, replays, repo, tables
from app.services.games import GameService
from app.settings import Settings


def test_no_service_class_inherits_another() -> None:
    for module in (games, repo, tables, history, fanout, lobby, player, replays):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and not issubclass(cls, Exception):
                assert cls.__bases__ == (object,), cls


def test_each_collaborator_is_built_with_the_same_repo(tmp_path: object) -> None:
    url = f"sqlite:///{tmp_path}/graph.db"
    service = GameService(Database(url), Settings(database_url=url))
    assert service.player.repo is service.lobby.repo is service.replays.repo is service.fan_out.repo is service.repo
    assert service.player.fanout is service.fan_out and service.changes.forget == service.fan_out.forget
    assert service.tables.extensions is service.extensions is service.changes.extensions


def test_the_postgres_listener_is_the_hubs_hearing() -> None:
    """With Postgres the listener is given to the hub when it is built (the hub's ``Hearing``) and is itself built
    on the hub's link: nothing is set on the hub afterwards. No connection is made until the app serves."""
    app = create_app(Settings(database_url="postgresql+psycopg://postgres@127.0.0.1:1/unused"))
    hub = app.state.hub
    assert isinstance(hub.hearing, PgListener) and isinstance(hub.hearing.hub, HubLink)
    assert hub.hearing.presence.hub is hub.hearing.hub
    assert not {"remote", "watch", "release", "on_local_change"} & set(vars(hub))
    single = create_app(Settings(database_url="sqlite:///:memory:"))
    assert single.state.hub.hearing is None
