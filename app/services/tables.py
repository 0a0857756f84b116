"""What a table looks like to its readers (``Tables``: the table info every answer and socket carries, the
extensions' fields on views) and who hears that it changed (``Changes``).

``Changes`` is the one way out of a commit: ``publish`` inside the transaction (the notifier's part that must
commit with it: a Postgres NOTIFY), ``committed`` after it -- a lobby change (version 0) drops the table from the
fan-out's cache, then the notifier wakes the sockets (``app.realtime``) and every extension hears of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sqlalchemy.orm import Session

from app.persistence.models import Game, GameTable, Seat
from app.rules.core.ruleset import JSONDict

from .base import GameRef, Notifier, Step, TableExtension
from .repo import GameRepo

Presence = Callable[[str], set[int]]  # the seat ids with an open socket at a table (the realtime hub's)


def nobody(_table_id: str) -> set[int]:
    return set()


class Tables:
    """Table info and view decoration, over the repo, the sockets' presence and the extensions (a shared list:
    an extension registered later, before serving, is seen)."""

    def __init__(self, repo: GameRepo, extensions: list[TableExtension], presence: Presence = nobody) -> None:
        self.repo = repo
        self.extensions = extensions
        self.presence = presence

    def info(self, s: Session, table: GameTable, seats: list[Seat] | None = None,
             game: Game | None = None, with_game: bool = True) -> JSONDict:
        """The table info (docs/protocol.md): seats with their ``connected`` flags, the current game, and the
        extensions' fields."""
        seats = self.repo.seats(s, table.id) if seats is None else seats
        if with_game and game is None:
            game = self.repo.game(s, table.id)
        online = self.presence(table.id)
        status = "waiting" if game is None else game.status
        host = next((seat.position for seat in seats if seat.is_host), None)
        info: JSONDict = {
            "table_id": table.id,
            "ruleset": table.ruleset,
            "options": table.options,
            "capacity": table.capacity,
            "spectators": table.spectators,
            "status": status,
            "host_seat": host,
            "revision": table.revision,
            "practice": table.practice,
            "practice_from": table.practice_from,
            "seats": [{"seat": seat.position, "name": seat.name, "is_host": seat.is_host,
                       "is_bot": seat.is_bot, "connected": seat.id in online} for seat in seats],
            "game": None if game is None else {
                "game_id": game.id, "number": game.number, "status": game.status,
                "version": game.version, "players": game.players, "winners": game.winners,
            },
        }
        if self.extensions:
            positions = {seat.id: seat.position for seat in seats}
            for extension in self.extensions:
                info.update(extension.table_extras(s, table.id, positions, game))
        return info

    def table_info(self, table_id: str) -> JSONDict:
        with self.repo.db.read() as s:
            return self.info(s, self.repo.table(s, table_id))

    def decorate(self, s: Session, table_id: str, game: object, views: Iterable[JSONDict | None]) -> None:
        """Let the extensions add their fields to the views of ``game`` (a ``Game``, a row or a ``GameRef``; one
        call per batch of views)."""
        batch = [view for view in views if view is not None]
        if not batch or not self.extensions:
            return
        ref = game if isinstance(game, GameRef) else GameRef.of(game)
        for extension in self.extensions:
            extension.decorate_views(s, table_id, ref, batch)


class Changes:
    """A table changed: told inside the transaction (``publish``) and after the commit (``committed``).
    ``forget`` is the fan-out cache's: a lobby change is followed only by a full read."""

    def __init__(self, notifier: Notifier, extensions: list[TableExtension],
                 forget: Callable[[str], None]) -> None:
        self.notifier = notifier
        self.extensions = extensions
        self.forget = forget

    def publish(self, s: Session, table_id: str, version: int, step: Step | None = None) -> None:
        """In the transaction of the change: the notifier's part that commits with it."""
        self.notifier.in_transaction(s, table_id, version, step)

    def notification(self, table_id: str, version: int, step: Step) -> tuple[str, str] | None:
        """The NOTIFY that an append sends itself (``None``: this notifier publishes nothing in the database)."""
        return self.notifier.notification(table_id, version, step)

    def committed(self, table_id: str, version: int) -> None:
        """After the commit of a change ``publish``-ed (``version`` 0: a lobby change)."""
        if not version:
            self.forget(table_id)
        self.notifier.after_commit(table_id, version)
        for extension in self.extensions:
            extension.after_commit(table_id, version)
