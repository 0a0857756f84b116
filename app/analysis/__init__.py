"""Finished-game analysis from the full record (docs/architecture.md): missed lay-downs, missed hits, discards that fed
the next player and the race's turning points, found by replaying the record through the engine with the exact
solver and the rule sets' own legal commands (``review``), off the command path: computed once per game in a
worker thread and stored (``worker``, ``models``)."""

from .marks import ANALYSIS_VERSION, Analysis, Kind, Mark, PlayerCard
from .review import analyse

__all__ = ["ANALYSIS_VERSION", "Analysis", "Kind", "Mark", "PlayerCard", "analyse"]
