"""Replays: a game's record and the state after any step, rebuilt by the engine from the stored seed, options and
commands (C-10); of a running game only its public part (C-9). Who may read a replay is decided in one place,
``replay_access``: a seat of the table or anyone at a spectators' table; ``share_access``: the holder of a share
link of that finished game (``app.services.shares``), whose answers name no table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.persistence.models import Game, ReplayShare
from app.rules.core.ruleset import JSONDict

from .archive import game_record, iso_utc
from .base import SPECTATOR
from .errors import ServiceError
from .history import History
from .repo import GameRepo
from .security import digest

ROUND_STARTS = frozenset({"hands_dealt"})
TURN_STARTS = frozenset({"turn_started"})


@dataclass(frozen=True)
class ReplayAccess:
    """A granted read of one game's replay: the game, whether it has finished (only then is its whole record
    public, C-9), and how the reader got in (``seat_id`` of a seat at the table, or ``shared`` by a link)."""

    table_id: str
    number: int
    game_id: int
    finished: bool
    seat_id: int | None = None
    shared: bool = False

    @property
    def public(self) -> bool:
        """Only what a spectator sees: the game still runs."""
        return not self.finished


def bad_share() -> ServiceError:
    return ServiceError(401, "bad_share", "this share link is unknown or was revoked")


def timeline(per_command: Sequence[Iterable[JSONDict]]) -> tuple[list[JSONDict], list[JSONDict]]:
    """The rounds and turns of a game from its commands' public events (C-9: a spectator's suffice): each
    command's ``round`` (the round it was played in), ``turn`` (a counter of turns since the start) and
    ``turn_seat`` (whose turn it was); and every round with the step its deal is shown at (round 1: step 0)."""
    rounds: list[JSONDict] = [{"round": 1, "step": 0}]
    marks: list[JSONDict] = []
    current, turn, turn_seat = 1, 0, None
    for seq, events in enumerate(per_command, start=1):
        mark: JSONDict = {"round": current, "turn": turn, "turn_seat": turn_seat}
        for e in events:
            if e.get("type") in ROUND_STARTS and isinstance(e.get("round"), int) and e["round"] != current:
                current = e["round"]
                rounds.append({"round": current, "step": seq})
            elif e.get("type") in TURN_STARTS:
                turn += 1
                turn_seat = e.get("seat")
        marks.append(mark)
    return rounds, marks


class Replays:
    """Replay records and steps, over the repo and the recomputed history (``history``)."""

    def __init__(self, repo: GameRepo, history: History) -> None:
        self.repo = repo
        self.history = history
        self.db = repo.db
        self.catalog = repo.catalog

    def _replay_access(self, s: Session, table_id: str, number: int, token: str | None) -> tuple[Game, ReplayAccess]:
        table = self.repo.table(s, table_id)
        viewer = self.repo.viewer(s, table, token)
        game = self.repo.game_number(s, table_id, number)
        return game, ReplayAccess(table.id, number, game.id, game.status == "finished", viewer.seat_id)

    def replay_access(self, table_id: str, number: int, token: str | None) -> ReplayAccess:
        """Who may read game ``number``'s replay at its table, checked once for every replay route (record,
        steps, the download, the analysis): a seat of the table (``token``) or anyone at a table that admits
        spectators. Raises ``bad_token`` (401), ``table_not_found`` / ``game_not_found`` (404). A share link
        is ``share_access``."""
        with self.db.read() as s:
            return self._replay_access(s, table_id, number, token)[1]

    def share_access(self, share: str) -> ReplayAccess:
        """The one finished game a share link opens, found by its token alone (its address names no table):
        401 ``bad_share`` for a token that is unknown or was revoked, at every request, so revoking a link
        ends everything it opened."""
        with self.db.read() as s:
            game = s.scalar(select(Game).join(ReplayShare, ReplayShare.game_id == Game.id)
                            .where(ReplayShare.token_hash == digest(share)))
            if game is None or game.status != "finished":
                raise bad_share()
            return ReplayAccess(game.table_id, game.number, game.id, True, None, True)

    def replay_record(self, access: ReplayAccess) -> JSONDict:
        """A finished game's full record (C-10); a running game's public record: no seed, each command
        reduced to its type (its fields may name hidden cards) with the events a spectator received (C-9).
        Both with the game's ``rounds`` and each command's round and turn (from the public events)."""
        with self.db.read() as s:
            game = s.get(Game, access.game_id)
            assert game is not None
            public = access.public
            record: JSONDict = {
                "public": public, "shared": access.shared,
                "can_share": access.finished and access.seat_id is not None,
                "table_id": None if access.shared else access.table_id,
                "game_id": None if access.shared else game.id, "number": game.number, "ruleset": game.ruleset,
                "options": game.options, "seed": game.seed, "players": game.players,
                "seats": [{"seat": i, "name": x["name"]} for i, x in enumerate(game.seats)],
                "status": game.status, "version": game.version, "winners": game.winners,
                "created_at": iso_utc(game.created_at),
                "finished_at": iso_utc(game.finished_at),
            }
            commands = self.repo.commands(s, game.id, 0, game.version)
            # the public events of every command, recomputed by the engine (C-10): the rounds and turns
            steps = self.history.steps(s, self.repo.ruleset(game.ruleset), game, 0, game.version)
            public_events = [events[SPECTATOR] for _, events in steps]
            rounds, marks = timeline(public_events)
            record["rounds"] = rounds
            record["total_rounds"] = rounds[-1]["round"] if not public else None
            if not public:
                record["commands"] = [{"seq": c.seq, "seat": c.seat, "command": c.command,
                                       "created_at": iso_utc(c.created_at), **mark}
                                      for c, mark in zip(commands, marks, strict=True)]
                return record
            del record["seed"]
            record["commands"] = [{"seq": c.seq, "seat": c.seat, "command": {"type": c.command["type"]},
                                   "created_at": iso_utc(c.created_at), "events": events, **mark}
                                  for c, events, mark in zip(commands, public_events, marks, strict=True)]
            return record

    def replay_step(self, access: ReplayAccess, step: int, seat: int | None = None) -> JSONDict:
        """The full state (every hand) after ``step`` commands of a finished game, rebuilt by the engine from
        the record (C-10), or with ``seat`` what that seat saw then (its view and its events); of a running game
        the spectator's view and events at that step only (C-9), and no ``seat``."""
        with self.db.read() as s:
            game = s.get(Game, access.game_id)
            assert game is not None
            public = access.public
            if not 0 <= step <= game.version:
                raise ServiceError(422, "invalid_step", f"step must be between 0 and {game.version}",
                                   field="step")
            if seat is not None and public:
                raise ServiceError(409, "game_not_finished",
                                   "a running game's replay shows only what a spectator sees", field="seat")
            if seat is not None and not 0 <= seat < game.players:
                raise ServiceError(422, "invalid_seat", f"seat must be between 0 and {game.players - 1}",
                                   field="seat")
            commands = self.repo.commands(s, game.id, 0, step)
        ruleset = self.repo.ruleset(game.ruleset)
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
        command = None if last is None else {"seq": last.seq, "seat": last.seat, "command": last.command}
        if seat is not None:
            return {"public": False, "step": step, "version": game.version, "seat": seat, "command": command,
                    "events": [ruleset.redact_event(e, seat) for e in events],
                    "view": ruleset.player_view(state, seat)}
        return {"public": False, "step": step, "version": game.version, "command": command,
                "events": [ruleset.event_to_json(e) for e in events],
                "state": ruleset.full_view(state)}

    def game_record(self, access: ReplayAccess) -> JSONDict:
        """The game record of a finished game (docs/record.md); a running game has none yet (its seed would
        reveal the deck, C-9)."""
        if access.public:
            raise ServiceError(409, "game_not_finished", "the record of a game is there once it has finished")
        with self.db.read() as s:
            game = s.get(Game, access.game_id)
            assert game is not None
            return game_record(s, game, self.catalog)
