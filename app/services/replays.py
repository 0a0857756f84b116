"""Replays: a game's record and the state after any step, rebuilt by the engine from the stored seed, options and
commands (C-10); of a running game only its public part (C-9)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.persistence.models import Game, GameCommand

from .base import SPECTATOR, JSONDict
from .errors import ServiceError
from .history import History


class Replays(History):
    """Replay records and steps."""

    def _replayable(self, s: Session, table_id: str, token: str | None, number: int) -> tuple[Game, bool]:
        """The game and whether only its public part may be shown: the whole record once it has finished,
        before that what a spectator sees (C-9), to the table's seats or to anyone at a spectators' table."""
        table = self._table(s, table_id)
        self._viewer(s, table, token)
        game = self._game_number(s, table_id, number)
        return game, game.status != "finished"

    def _commands(self, s: Session, game: Game, upto: int | None = None) -> list[GameCommand]:
        stmt = select(GameCommand).where(GameCommand.game_id == game.id)
        if upto is not None:
            stmt = stmt.where(GameCommand.seq <= upto)
        return list(s.scalars(stmt.order_by(GameCommand.seq)))

    def replay_record(self, table_id: str, token: str | None, number: int) -> JSONDict:
        """A finished game's full record (C-10); a running game's public record: no seed, each command
        reduced to its type (its fields may name hidden cards) with the events a spectator received (C-9)."""
        with self.db.read() as s:
            game, public = self._replayable(s, table_id, token, number)
            record: JSONDict = {
                "public": public,
                "table_id": table_id, "game_id": game.id, "number": game.number, "ruleset": game.ruleset,
                "options": game.options, "seed": game.seed, "players": game.players,
                "seats": [{"seat": i, "name": x["name"]} for i, x in enumerate(game.seats)],
                "status": game.status, "version": game.version, "winners": game.winners,
                "created_at": game.created_at.isoformat(),
                "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            }
            commands = self._commands(s, game, game.version)
            if not public:
                record["commands"] = [{"seq": c.seq, "seat": c.seat, "command": c.command,
                                       "created_at": c.created_at.isoformat()} for c in commands]
                return record
            del record["seed"]
            steps = self._steps(s, self._ruleset(game.ruleset), game, 0, game.version)  # events: by the engine
            record["commands"] = [{"seq": c.seq, "seat": c.seat, "command": {"type": c.command["type"]},
                                   "created_at": c.created_at.isoformat(), "events": events[SPECTATOR]}
                                  for c, (_, events) in zip(commands, steps, strict=True)]
            return record

    def replay_step(self, table_id: str, token: str | None, number: int, step: int) -> JSONDict:
        """The full state (every hand) after ``step`` commands of a finished game, rebuilt by the engine from
        the record (C-10); of a running game the spectator's view and events at that step only (C-9)."""
        with self.db.read() as s:
            game, public = self._replayable(s, table_id, token, number)
            if not 0 <= step <= game.version:
                raise ServiceError(422, "invalid_step", f"step must be between 0 and {game.version}",
                                   field="step")
            commands = self._commands(s, game, step)
        ruleset = self._ruleset(game.ruleset)
        state = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
        events: Iterable[Any] = ()
        for c in commands:
            state, events = ruleset.apply(state, c.seat, ruleset.parse_command(c.command))
        last = commands[-1] if commands else None
        if public:
            return {"public": True, "step": step, "version": game.version,
                    "command": None if last is None else {"seq": last.seq, "seat": last.seat,
                                                          "command": {"type": last.command["type"]}},
                    "events": [ruleset.redact_event(e, None) for e in events],
                    "view": ruleset.player_view(state, None)}
        return {"public": False, "step": step, "version": game.version,
                "command": None if last is None else {"seq": last.seq, "seat": last.seat, "command": last.command},
                "events": [ruleset.event_to_json(e) for e in events],
                "state": ruleset.full_view(state)}
