"""What the analysis of a finished game finds: marks on the replay's timeline and a card per player, and their
JSON (``GET /api/tables/{table_id}/games/{number}/analysis``, docs/protocol.md "Analysis").

``step`` numbers positions as the replay does (``GET .../replay/{k}`` shows the state after ``k`` commands):

* a decision mark (``missed_laydown``, ``missed_hit``, ``fed_next``) is on the position in which the seat
  chose: the state *before* the command that ended its turn (the command with ``seq = step + 1``), where the
  better command was legal; the next step shows what the seat did instead;
* a ``turning_point`` is on the step of the command that scored the round (its events hold the round's end).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

ANALYSIS_VERSION = 1
"""The format of a stored analysis; a stored one of another version is computed again."""


class Kind(StrEnum):
    """The kinds of marks, in the order marks of one step are listed."""

    TURNING_POINT = "turning_point"
    MISSED_LAYDOWN = "missed_laydown"
    MISSED_HIT = "missed_hit"
    FED_NEXT = "fed_next"


_ORDER = {kind: i for i, kind in enumerate(Kind)}


@dataclass(frozen=True, slots=True)
class Mark:
    """One finding. ``points``: for a missed hit, the points the card counted at the round's end because it
    stayed in hand (0 if it left the hand before, ``None`` where cards count no points, B-8); for a turning
    point, the penalty points the new leader gained on the previous leader that round (``None`` likewise);
    ``None`` for the other kinds.

    ``card`` and ``commands`` say what the mark is about and are not part of the JSON: the card missed or fed,
    and the commands that were legal instead (the lay-down; the whole sequence of hits the missed card belongs
    to, each legal after the ones before it) or, for a fed card, the next player's command that used it."""

    step: int
    seat: int
    kind: Kind
    round: int
    points: int | None = None
    card: int | None = None
    commands: tuple[Any, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "seat": self.seat, "kind": self.kind.value, "round": self.round,
                "points": self.points}

    def sort_key(self) -> tuple[int, int, int, int]:
        return self.step, _ORDER[self.kind], self.seat, -1 if self.card is None else self.card


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """The short card of one player at the game's end: counts of its marks and the points its missed hits
    cost it."""

    seat: int
    missed_laydowns: int = 0
    missed_hits: int = 0
    missed_hit_points: int = 0
    fed_next: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "missed_laydowns": self.missed_laydowns, "missed_hits": self.missed_hits,
                "missed_hit_points": self.missed_hit_points, "fed_next": self.fed_next}


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of one finished game: its marks sorted by step (then kind, seat and card)."""

    ruleset: str
    players: int
    marks: tuple[Mark, ...]

    def of_kind(self, kind: Kind) -> list[Mark]:
        return [m for m in self.marks if m.kind is kind]

    def cards(self) -> list[PlayerCard]:
        """One card per seat, counted from the marks."""
        out = []
        for seat in range(self.players):
            mine = [m for m in self.marks if m.seat == seat]
            hits = [m for m in mine if m.kind is Kind.MISSED_HIT]
            out.append(PlayerCard(seat, missed_laydowns=sum(m.kind is Kind.MISSED_LAYDOWN for m in mine),
                                  missed_hits=len(hits), missed_hit_points=sum(m.points or 0 for m in hits),
                                  fed_next=sum(m.kind is Kind.FED_NEXT for m in mine)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"version": ANALYSIS_VERSION, "ruleset": self.ruleset,
                "marks": [m.to_json() for m in self.marks], "players": [c.to_json() for c in self.cards()]}
