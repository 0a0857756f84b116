"""The story of a table: every game played at it (the first and its rematches) with winners and final scores, and
the standings across its finished games: games won, rounds won (went out first), phases made and the average
score per round of each seat (in the board game, whose cards carry no points, the marker fields gained instead).

Everything here is public once a game has finished (C-9): the final scores and phases of the spectator's view and
the spectator's events (round ends name who went out, lay-downs who laid). A finished game never changes, so its
summary is computed once per process and kept (``_SUMMARIES``).
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.persistence.models import Game, Seat
from app.rules.core.ruleset import JSONDict

from .base import SPECTATOR

if TYPE_CHECKING:
    from .games import GameService

ROUND_ENDS = frozenset({"round_ended", "board_round_ended"})
# The rule sets whose view's ``score`` is the marker's field on the phase track, not penalty points (B-8).
MARKER_RULESETS = frozenset({"board"})
_SUMMARIES: OrderedDict[int, JSONDict] = OrderedDict()
_LOCK = Lock()
_KEEP = 4096


def _summary(service: GameService, s: Session, game: Game) -> JSONDict:
    """Per engine seat of a game: final score and phase, rounds won and phases made; and the rounds played."""
    finished = game.status == "finished"
    if finished:
        with _LOCK:
            cached = _SUMMARIES.get(game.id)
        if cached is not None:
            return cached
    ruleset = service.repo.ruleset(game.ruleset)
    view = ruleset.player_view(service.repo.state(s, ruleset, game), None)
    rounds_won = [0] * game.players
    phases_made = [0] * game.players
    rounds = 0
    for _, events in service.history.steps(s, ruleset, game, 0, game.version):  # recomputed by the engine (C-10)
        for e in events[SPECTATOR]:
            kind = e.get("type")
            if kind in ROUND_ENDS:
                rounds += 1
                if isinstance(e.get("went_out"), int):
                    rounds_won[e["went_out"]] += 1
            elif kind == "phase_laid" and isinstance(e.get("seat"), int):
                phases_made[e["seat"]] += 1
    summary: JSONDict = {
        "rounds": rounds,
        "seats": [{"seat": i, "seat_id": entry["seat_id"], "name": entry["name"],
                   "score": view["players"][i].get("score"), "phase": view["players"][i].get("phase"),
                   "rounds_won": rounds_won[i], "phases_made": phases_made[i],
                   "winner": finished and i in (game.winners or [])}
                  for i, entry in enumerate(game.seats)],
    }
    if finished:
        with _LOCK:
            _SUMMARIES[game.id] = summary
            while len(_SUMMARIES) > _KEEP:
                _SUMMARIES.popitem(last=False)
    return summary


def table_series(service: GameService, s: Session, table_id: str) -> JSONDict:
    """The series of a table (see the module docstring); the caller has checked that the reader may see the
    table."""
    seats = list(s.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.position)))
    names = {seat.id: seat.name for seat in seats}
    games = []
    totals: dict[int, JSONDict] = {}
    for game in s.scalars(select(Game).where(Game.table_id == table_id).order_by(Game.number)):
        summary = _summary(service, s, game)
        games.append({
            "number": game.number, "ruleset": game.ruleset, "status": game.status, "rounds": summary["rounds"],
            "winners": None if game.winners is None else [game.seats[w]["name"] for w in game.winners],
            "players": [{k: x[k] for k in ("seat", "name", "score", "phase", "winner")} for x in summary["seats"]],
            "replay": f"/tables/{table_id}/games/{game.number}/replay",
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        })
        if game.status != "finished":
            continue
        for x in summary["seats"]:
            row = totals.setdefault(x["seat_id"], {"name": names.get(x["seat_id"], x["name"]), "games": 0,
                                                   "games_won": 0, "rounds": 0, "rounds_won": 0,
                                                   "phases_made": 0, "points": 0})
            row["games"] += 1
            row["games_won"] += int(x["winner"])
            row["rounds"] += summary["rounds"]
            row["rounds_won"] += x["rounds_won"]
            row["phases_made"] += x["phases_made"]
            row["points"] += x["score"] or 0
            row["board"] = game.ruleset in MARKER_RULESETS
    # The board game's "score" is the marker's field (higher is better, B-8): its standings total the fields
    # gained, and have no penalty points to average.
    standings = [{"name": row["name"], "games": row["games"], "games_won": row["games_won"],
                  "rounds_won": row["rounds_won"], "phases_made": row["phases_made"],
                  "average_score": None if row["board"] or not row["rounds"]
                  else round(row["points"] / row["rounds"], 1),
                  "fields": row["points"] if row["board"] else None}
                 for row in totals.values()]
    standings.sort(key=lambda r: (-r["games_won"], -r["rounds_won"], -r["phases_made"], r["name"]))
    return {"table_id": table_id, "games": games, "standings": standings}


def series(service: GameService, table_id: str, token: str | None) -> JSONDict:
    """``GET /api/tables/{id}/series``: for a seat of the table, or anyone at a spectators' table."""
    with service.db.read() as s:
        table = service.repo.table(s, table_id)
        service.repo.viewer(s, table, token)
        return table_series(service, s, table_id)
