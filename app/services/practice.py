"""Practice tables ("Play on from here"): from any step of a finished game, a new table whose first game is at
exactly that position, the player in the seat they chose and bots in the others.

The new game has the finished game's rule set, options and seed and a copy of its commands 1 .. ``step``
(seats, command ids and who decided them; stored now), so the engine rebuilds that position bit for bit (C-10)
and the new game replays from its first step like any game. The table is marked ``practice`` and names the
step it came from (``practice_from``); it is stored like any table (its seat token, the lobby's table info, the
retention's rules) and its bot seats are played by the live runtime once the table is committed.

Who may start one is who may read the finished game's replay (``Replays.replay_access``: a seat of the table,
anyone at a spectators' table such as an opened record, the holder of a share link): they have seen every hand
of it already, so the copy reveals nothing new to them. The practice game itself is an ordinary game: its
views and events hide the bots' hands from the player (C-9).

This layer knows nothing of bots: the caller passes ``bot_seats``, which stores the bot seats' levels in the
same transaction, and their names.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from app.persistence.models import Game, GameCommand, GameTable, Seat, utcnow
from app.rules.core.ruleset import JSONDict

from .errors import ServiceError
from .games import GameService
from .lobby import free_bot_name
from .replays import ReplayAccess
from .security import digest, new_join_code, new_table_id, new_token

log = logging.getLogger("phase10.games")

# Stores the levels of the new table's bot seats (their rows are flushed), in the caller's transaction.
BotSeats = Callable[[Session, list[Seat]], Any]


def start_practice(service: GameService, access: ReplayAccess, step: int, seat: int, level: str,
                   bot_seats: BotSeats) -> JSONDict:
    """A practice table at step ``step`` of the finished game of ``access`` with the asking player in engine seat
    ``seat`` (its name as it was) and bots of ``level`` in the others. Answers as a join does (table id, seat,
    token, table info) with the table's page. 409 ``game_not_finished`` (a running game's position is hidden,
    C-9), 422 ``invalid_step`` / ``invalid_seat``, 409 ``game_over_at_step`` (nothing is left to play there)."""
    if not access.finished:
        raise ServiceError(409, "game_not_finished", "a game can be played on from once it has finished")
    token = new_token()
    with service.db.write() as s:
        game = s.get(Game, access.game_id)
        assert game is not None
        if not 0 <= step <= game.version:
            raise ServiceError(422, "invalid_step", f"step must be between 0 and {game.version}", field="step")
        if not 0 <= seat < game.players:
            raise ServiceError(422, "invalid_seat", f"seat must be between 0 and {game.players - 1}", field="seat")
        ruleset = service.repo.ruleset(game.ruleset)
        commands = service.repo.commands(s, game.id, 0, step)
        state = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
        for c in commands:
            state, _ = ruleset.apply(state, c.seat, ruleset.parse_command(c.command))
        if ruleset.is_over(state):
            raise ServiceError(409, "game_over_at_step", "the game is over at this step; choose an earlier one",
                               field="step")
        table = GameTable(id=new_table_id(), ruleset=game.ruleset, options=game.options, capacity=game.players,
                          spectators=False, join_code_hash=digest(new_join_code()), revision=0, practice=True,
                          practice_from=_origin(access, step))
        s.add(table)
        s.flush()
        seats: list[Seat] = []
        for position, entry in enumerate(game.seats):
            if position == seat:
                row = Seat(table_id=table.id, position=position, name=entry["name"], is_host=True, is_bot=False,
                           token_hash=digest(token))
            else:
                row = Seat(table_id=table.id, position=position, is_host=False, is_bot=True, token_hash=None,
                           name=free_bot_name([*seats, Seat(name=game.seats[seat]["name"])],
                                              sum(x.is_bot for x in seats) + 1, level))
            seats.append(row)
        s.add_all(seats)
        s.flush()
        bot_seats(s, [x for x in seats if x.is_bot])
        now = utcnow()
        copy = Game(table_id=table.id, number=1, ruleset=game.ruleset, options=game.options, seed=game.seed,
                    players=game.players, seats=[{"seat_id": x.id, "name": x.name} for x in seats],
                    status="playing", version=step, snapshot=ruleset.state_to_json(state), snapshot_version=step,
                    winners=None, created_at=now)
        s.add(copy)
        s.flush()
        s.add_all(GameCommand(game_id=copy.id, seq=c.seq, seat=c.seat, command_id=c.command_id, command=c.command,
                              created_at=now, made_by=c.made_by) for c in commands)
        s.flush()
        info = service.tables.info(s, table, seats, copy)
        service.changes.publish(s, table.id, 0)
        game_id = copy.id
    service.states.put(game_id, step, state)
    service.after_commit(table.id, 0)
    log.info("practice table started", extra={"table_id": table.id, "game_id": game_id})
    return {"table_id": table.id, "seat": seat, "token": token, "table": info, "url": f"/tables/{table.id}"}


def _origin(access: ReplayAccess, step: int) -> dict[str, object]:
    """Where a practice table began: the game and step, and its table unless a share link opened it (a share
    link names no table, so neither does what it starts)."""
    if access.shared:
        return {"table_id": None, "number": None, "step": step}
    return {"table_id": access.table_id, "number": access.number, "step": step}
