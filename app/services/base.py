"""The values the game service's collaborators share (docs/architecture.md, "The service"): who is asking
(``Viewer``), an accepted command as another process needs it (``Step``), the notifier and extension interfaces,
the per-process state cache, and the redaction of a command's events per seat (C-9).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.persistence.db import Database
from app.persistence.models import Game, GameTable
from app.rules import registry
from app.rules.core.ruleset import JSONDict

AnyRuleset = registry.AnyRuleset
SPECTATOR = "spectator"


@dataclass(frozen=True)
class RulesetCatalog:
    """Where the server finds rule sets: the registry, or a fake in tests."""

    get: Callable[[str], AnyRuleset] = registry.get
    ids: Callable[[], tuple[str, ...]] = registry.ruleset_ids


@dataclass(frozen=True)
class Step:
    """An accepted command, as another server process needs it to bring its copy of the game from ``version - 1``
    to ``version`` with the deterministic engine (C-10) instead of reading the game back."""

    game_id: int
    seat: int
    command: JSONDict
    by: str | None = None  # who decided for the seat (``ATTRIBUTIONS``), ``None`` when the seat did


class Notifier(Protocol):
    """Publishes "table X changed, its game is at version N" (with the command that got it there, if any) to
    the realtime hub."""

    def in_transaction(self, session: Session, table_id: str, version: int, step: Step | None = None) -> None: ...
    def notification(self, table_id: str, version: int, step: Step) -> tuple[str, str] | None:
        """What ``in_transaction`` would publish, as the ``(channel, payload)`` of a Postgres NOTIFY for a writer
        that runs its own statement (``None``: this notifier publishes nothing in the database)."""
    def after_commit(self, table_id: str, version: int) -> None: ...


class NullNotifier:
    def in_transaction(self, session: Session, table_id: str, version: int, step: Step | None = None) -> None:
        pass

    def notification(self, table_id: str, version: int, step: Step) -> tuple[str, str] | None:
        return None

    def after_commit(self, table_id: str, version: int) -> None:
        pass


@dataclass(frozen=True)
class GameRef:
    """The game a ``TableExtension`` hook is about, as plain values (the same attributes as a ``Game`` row:
    the fan-out's fast path has no ORM instance). ``created_at`` is ``None`` when the caller did not read it."""

    id: int
    version: int
    status: str
    ruleset: str
    seats: list[Any]
    created_at: datetime | None = None

    @classmethod
    def of(cls, game: Any) -> GameRef:
        return cls(game.id, game.version, game.status, game.ruleset, list(game.seats),
                   getattr(game, "created_at", None))


class TableExtension(Protocol):
    """What a server extension (the bot runner, app/autoplay/runner.py) adds to the service, registered with
    ``GameService.add_extension``. The service calls the hooks itself; they only read (inside the caller's
    session) or schedule work: loading, applying, persisting and publishing stay in this module.

    * ``table_extras``: extra fields of every table info (REST and socket); ``positions`` maps seat id ->
      seat number, ``game`` is the table's current game (``None`` before the first start).
    * ``decorate_views``: add fields to views of ``game`` made together (every view of one fan-out, or the
      view a REST call returns); called once per batch, so per-table data is read once, not once per view.
    * ``after_commit``: a table changed (a command at ``version``, or a lobby change with ``version`` 0);
      called after the commit, after the notifier.
    """

    def table_extras(self, s: Session, table_id: str, positions: dict[int, int], game: Game | None) -> JSONDict: ...
    def decorate_views(self, s: Session, table_id: str, game: GameRef, views: list[JSONDict]) -> None: ...
    def after_commit(self, table_id: str, version: int) -> None: ...


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a seat (``seat_id``) or a spectator (``seat_id is None``)."""

    seat_id: int | None
    is_host: bool = False




def key(seat: int | None) -> str:
    return SPECTATOR if seat is None else str(seat)


class StateCache:
    """The latest decoded state per game, keyed by version (states are immutable, so sharing is safe).

    Decoding a snapshot is the costliest step of a command; a process usually holds the state of the
    version it just wrote or fanned out, so it rarely decodes twice.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget every entry (a test's cold process)."""
        with self._lock:
            self._items.clear()

    def get(self, game_id: int, version: int) -> Any | None:
        with self._lock:
            item = self._items.get(game_id)
            if item is None or item[0] != version:
                return None
            self._items.move_to_end(game_id)
            return item[1]

    def put(self, game_id: int, version: int, state: Any) -> None:
        if self.size <= 0:
            return
        with self._lock:
            current = self._items.get(game_id)
            if current is not None and current[0] > version:
                return
            self._items[game_id] = (version, state)
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)




# Who may make a seat's decision for it: its turn timer ran out ("timer") or a stand-in plays for an absent
# seat ("stand_in"). The events of such a command that tell of the seat's own move carry ``"by"`` in every
# redaction (docs/protocol.md).
ATTRIBUTIONS = ("timer", "stand_in")


def attributed(events: list[JSONDict], by: str | None, seat: int) -> list[JSONDict]:
    """``events`` with ``"by": by`` added to those that tell of ``seat``'s own move (their ``seat`` is it: not a
    turn it skipped for another seat, nor the round's end); new dicts, as stored redactions are shared read-only."""
    if by is None:
        return events
    return [{**e, "by": by} if e.get("seat") == seat else e for e in events]


class LazyRedaction(dict[str, Any]):
    """``redact_all`` made on demand: each key (a seat's, or ``spectator``) is redacted when first read. For a
    step another process accepted (it stored the full redaction): this process needs only its sockets' seats."""

    def __init__(self, ruleset: AnyRuleset, players: int, events: Iterable[Any], by: str | None = None,
                 seat: int = -1) -> None:
        super().__init__()
        self._ruleset, self._events, self._by, self._seat = ruleset, tuple(events), by, seat
        self._keys = frozenset([*(key(i) for i in range(players)), SPECTATOR])

    def __missing__(self, name: str) -> list[JSONDict]:
        if name not in self._keys:
            raise KeyError(name)
        seat = None if name == SPECTATOR else int(name)
        value = self[name] = attributed([self._ruleset.redact_event(e, seat) for e in self._events], self._by,
                                        self._seat)
        return value

    def _whole(self) -> dict[str, Any]:
        """Every key redacted (for the whole-mapping reads below, so this is a ``redact_all`` in every respect)."""
        for name in self._keys:
            self[name]  # noqa: B018 - computes and stores the key
        return self

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self._keys else default

    def __contains__(self, name: object) -> bool:
        return name in self._keys

    def __iter__(self) -> Iterator[str]:
        return dict.__iter__(self._whole())

    def __len__(self) -> int:
        return len(self._keys)

    def keys(self) -> Any:
        return dict.keys(self._whole())

    def values(self) -> Any:
        return dict.values(self._whole())

    def items(self) -> Any:
        return dict.items(self._whole())

    def __eq__(self, other: object) -> bool:
        return dict.__eq__(self._whole(), other._whole() if isinstance(other, LazyRedaction) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other


def redact_all(ruleset: AnyRuleset, players: int, events: Iterable[Any], by: str | None = None,
               seat: int = -1) -> JSONDict:
    """A command's events as each seat and a spectator may see them (C-9), keyed by ``key``. An event whose JSON
    does not depend on the viewer (not in the rule set's ``viewer_dependent_events``) is redacted once, as a
    spectator sees it, and that JSON is shared by every key (read-only, like every stored redaction). ``by``: who
    made ``seat``'s decision for it (``ATTRIBUTIONS``), added to the events of its own move (``attributed``)."""
    events = list(events)
    dependent = ruleset.viewer_dependent_events
    spectator = [ruleset.redact_event(e, None) for e in events]
    redacted: JSONDict = {key(i): [ruleset.redact_event(e, i) if isinstance(e, dependent) else alike
                                   for e, alike in zip(events, spectator, strict=True)] for i in range(players)}
    redacted[SPECTATOR] = spectator
    if by is not None:
        redacted = {name: attributed(value, by, seat) for name, value in redacted.items()}
    return redacted


def count_tables(db: Database) -> int:
    with db.read() as s:
        return int(s.scalar(select(func.count()).select_from(GameTable)) or 0)
