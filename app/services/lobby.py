"""The lobby: tables, seats, joins, reordering and removing seats, starting a game (the next game at a table is
dealt by consent: app/services/rematch.py).

Every lobby change bumps the table's ``revision`` and publishes ``(table_id, 0)`` in its transaction, then tells
the notifier and the extensions after the commit.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.persistence.models import Game, GameTable, Seat
from app.rules.core.errors import InvalidOptions
from app.rules.core.ruleset import JSONDict
from app.settings import Settings

from .errors import ServiceError
from .repo import GameRepo
from .security import JoinLimiter, digest, matches, new_join_code, new_table_id, new_token
from .tables import Changes, Tables
from .text import same_name

log = logging.getLogger("phase10.games")


class Lobby:
    """Tables, seats, joins and the start: over the repo, the table info (``tables``), the changes' publisher
    (``changes``) and the wrong join codes' limiter."""

    def __init__(self, repo: GameRepo, tables: Tables, changes: Changes, settings: Settings,
                 join_limiter: JoinLimiter) -> None:
        self.repo = repo
        self.tables = tables
        self.changes = changes
        self.settings = settings
        self.join_limiter = join_limiter
        self.db = repo.db

    def invite_link(self, table_id: str, code: str, base: str | None = None) -> str:
        """The join link; ``base``: where friends reach the server (default ``PHASE10_PUBLIC_BASE_URL``)."""
        base = self.settings.public_base_url if base is None else base
        return f"{base.rstrip('/')}/join/{table_id}?code={code}"

    def create_table(self, ruleset_id: str, seats: int, options: JSONDict | None, spectators: bool,
                     name: str, setup: Callable[[Session, str], Any] | None = None) -> JSONDict:
        """A new table with the host in seat 0. ``setup(session, table_id)`` stores extra table settings
        (the bot runner's clock) in the same transaction, before the table info is made."""
        ruleset = self.repo.ruleset(ruleset_id)
        if not ruleset.min_players <= seats <= ruleset.max_players or not 2 <= seats <= 6:
            lo, hi = max(2, ruleset.min_players), min(6, ruleset.max_players)
            raise InvalidOptions("seats", f"must be between {lo} and {hi} for {ruleset_id}")
        parsed = ruleset.parse_options(options or {})
        ruleset.check_players(parsed, seats)
        token, code = new_token(), new_join_code()
        with self.db.write() as s:
            table = GameTable(id=new_table_id(), ruleset=ruleset_id, options=ruleset.options_to_json(parsed),
                              capacity=seats, spectators=spectators, join_code_hash=digest(code), revision=0)
            s.add(table)
            s.flush()
            seat = Seat(table_id=table.id, position=0, name=name, is_host=True, is_bot=False,
                        token_hash=digest(token))
            s.add(seat)
            s.flush()
            if setup is not None:
                setup(s, table.id)
            info = self.tables.info(s, table, [seat], with_game=False)
        log.info("table created", extra={"table_id": table.id, "ruleset": ruleset_id})
        return {"table_id": table.id, "seat": 0, "token": token, "join_code": code,
                "invite_link": self.invite_link(table.id, code), "table": info}

    def join(self, table_id: str, name: str, code: str, client: str) -> JSONDict:
        token = new_token()
        with self.db.write() as s:
            table = self.repo.table(s, table_id, lock=True)
            # Counted after the table lock, so racing attempts on one table (from any process) count one by one.
            if self.join_limiter.blocked(s, table_id, client):
                raise ServiceError(429, "rate_limited", "too many wrong join codes; try again later")
            right_code = matches(code, table.join_code_hash)
            if right_code:
                seat, info = self.take_seat(s, table, name, token)
            else:
                self.join_limiter.hit(s, table_id, client)  # committed with this transaction, then the 403
        if not right_code:
            raise ServiceError(403, "wrong_join_code", "the join code is wrong")
        self.changes.committed(table_id, 0)
        log.info("seat joined", extra={"table_id": table_id, "seat": seat.position})
        return {"table_id": table_id, "seat": seat.position, "token": token, "table": info}

    def take_seat(self, s: Session, table: GameTable, name: str, token: str) -> tuple[Seat, JSONDict]:
        """The next seat of a waiting table with room, for a joiner whose code was right."""
        if self.repo.game(s, table.id) is not None:
            raise ServiceError(409, "game_started", "the game has already started")
        seats = self.repo.seats(s, table.id)
        if len(seats) >= table.capacity:
            raise ServiceError(409, "table_full", "every seat is taken")
        check_name_free(seats, name)
        seat = Seat(table_id=table.id, position=len(seats), name=name, is_host=False, is_bot=False,
                    token_hash=digest(token))
        s.add(seat)
        self.repo.bump(table)
        s.flush()
        info = self.tables.info(s, table, [*seats, seat], with_game=False)
        self.changes.publish(s, table.id, 0)
        return seat, info

    def host_lobby(self, s: Session, table_id: str, token: str | None) -> tuple[GameTable, list[Seat]]:
        table = self.repo.table(s, table_id, lock=True)
        viewer = self.repo.seated(s, table, token)
        if not viewer.is_host:
            raise ServiceError(403, "not_host", "only the host may do this")
        if self.repo.game(s, table_id) is not None:
            raise ServiceError(409, "game_started", "the game has already started")
        return table, self.repo.seats(s, table_id)

    def reorder(self, table_id: str, token: str | None, order: list[int]) -> JSONDict:
        with self.db.write() as s:
            table, seats = self.host_lobby(s, table_id, token)
            if sorted(order) != list(range(len(seats))):
                raise ServiceError(422, "invalid_order", "order must list every current seat exactly once",
                                   field="order")
            for new_position, old_position in enumerate(order):
                seats[old_position].position = new_position
            self.repo.bump(table)
            s.flush()
            info = self.tables.info(s, table, sorted(seats, key=lambda x: x.position), with_game=False)
            self.changes.publish(s, table_id, 0)
        self.changes.committed(table_id, 0)
        return info

    def remove_seat(self, table_id: str, token: str | None, position: int) -> JSONDict:
        with self.db.write() as s:
            table, seats = self.host_lobby(s, table_id, token)
            if not 0 <= position < len(seats):
                raise ServiceError(404, "seat_not_found", f"no seat {position}")
            if seats[position].is_host:
                raise ServiceError(409, "cannot_remove_host", "the host cannot remove their own seat")
            s.delete(seats.pop(position))
            for index, seat in enumerate(seats):
                seat.position = index
            self.repo.bump(table)
            s.flush()
            info = self.tables.info(s, table, seats, with_game=False)
            self.changes.publish(s, table_id, 0)
        self.changes.committed(table_id, 0)
        return info

    def _seed(self) -> int:
        if self.settings.fixed_seed is not None:
            return self.settings.fixed_seed
        return secrets.randbits(63)

    def new_game(self, s: Session, table: GameTable, seats: list[JSONDict], number: int) -> tuple[Game, Any]:
        ruleset = self.repo.ruleset(table.ruleset)
        if not ruleset.min_players <= len(seats) <= ruleset.max_players:
            raise ServiceError(409, "not_enough_players",
                               f"{table.ruleset} needs {ruleset.min_players}-{ruleset.max_players} players")
        options = ruleset.parse_options(table.options)
        seed = self._seed()
        state = ruleset.new_game(seed, len(seats), options)
        game = Game(table_id=table.id, number=number, ruleset=table.ruleset, options=table.options, seed=seed,
                    players=len(seats), seats=seats, status="playing", version=0,
                    snapshot=ruleset.state_to_json(state), snapshot_version=0, winners=None)
        s.add(game)
        self.repo.bump(table)
        try:
            s.flush()
        except IntegrityError:
            raise ServiceError(409, "game_started", "the game has already started") from None
        self.changes.publish(s, table.id, 0)
        return game, state

    def start(self, table_id: str, token: str | None) -> JSONDict:
        with self.db.write() as s:
            table, seats = self.host_lobby(s, table_id, token)
            game, state = self.new_game(s, table, [{"seat_id": x.id, "name": x.name} for x in seats], 1)
            info = self.tables.info(s, table, seats, game)
        self.repo.states.put(game.id, 0, state)
        self.changes.committed(table_id, 0)
        log.info("game started", extra={"table_id": table_id, "game_id": game.id})
        return info


def check_name_free(seats: list[Seat], name: str) -> None:
    """409 ``name_taken`` when a seat of ``seats`` (a player's or a bot's) has a name a reader could not tell
    from ``name`` (``same_name``)."""
    if any(same_name(other.name, name) for other in seats):
        raise ServiceError(409, "name_taken", f"someone at this table is already called {name.strip()}; "
                           "choose another name", field="name")


def free_bot_name(seats: list[Seat], count: int, level: str) -> str:
    """The default name of a table's ``count``-th bot, ``Bot N (level)``, N counting up past names taken."""
    while any(same_name(other.name, name := f"Bot {count} ({level})") for other in seats):
        count += 1
    return name
