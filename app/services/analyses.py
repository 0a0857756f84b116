"""The analysis of a finished game over REST (docs/protocol.md "Analysis"): whoever may read the game's replay may
read its analysis; it is computed once, off the command path, by the process's ``AnalysisWorker``.

Reading an analysis reveals every hand's history, so it is only ever given for a finished game (C-9).
"""

from __future__ import annotations

from app.analysis.worker import AnalysisWorker, stored
from app.rules.core.ruleset import JSONDict

from .errors import ServiceError
from .games import GameService
from .replays import ReplayAccess

PENDING: JSONDict = {"status": "pending"}


class Analyses:
    """Finished-game analyses over a game service."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.worker = AnalysisWorker(service.db, service.catalog.get)

    def analysis(self, access: ReplayAccess) -> tuple[int, JSONDict]:
        """``(200, analysis)`` once stored, else ``(202, {"status": "pending"})`` after scheduling it. The reader
        was admitted exactly as for the game's replay (``access``: a seat, a spectator, or a share link); 409
        ``game_not_finished`` for a game still running."""
        if not access.finished:
            raise ServiceError(409, "game_not_finished", "a game is analysed once it has finished")
        game_id = access.game_id
        result = stored(self.service.db, game_id)
        if result is not None:
            return 200, result
        if not self.worker.request(game_id):
            raise ServiceError(500, "analysis_failed", "this game's record could not be analysed")
        return 202, PENDING

    def close(self) -> None:
        self.worker.close()
