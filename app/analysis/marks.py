"""What the analysis of a finished game finds: marks on the replay's timeline and a card per player, and their
JSON (``GET /api/tables/{table_id}/games/{number}/analysis``, docs/protocol.md "Analysis").

``step`` numbers positions as the replay does (``GET .../replay/{k}`` shows the state after ``k`` commands):

* a decision mark (``missed_laydown``, ``missed_hit``, ``fed_next``, ``discarded_hit``, ``missed_go_out``,
  ``missed_pickup``) is on the position in which the seat
  chose: the state *before* the command that ended its turn (the command with ``seq = step + 1``), where the
  better command was legal; the next step shows what the seat did instead;
* a ``turning_point`` is on the step of the command that scored the round (its events hold the round's end).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

ANALYSIS_VERSION = 2
"""The format of a stored analysis; a stored one of another version is computed again."""


class Kind(StrEnum):
    """The kinds of marks, in the order marks of one step are listed."""

    TURNING_POINT = "turning_point"
    MISSED_LAYDOWN = "missed_laydown"
    MISSED_HIT = "missed_hit"
    FED_NEXT = "fed_next"
    DISCARDED_HIT = "discarded_hit"
    MISSED_GO_OUT = "missed_go_out"
    MISSED_PICKUP = "missed_pickup"


_ORDER = {kind: i for i, kind in enumerate(Kind)}


@dataclass(frozen=True, slots=True)
class Mark:
    """One finding. ``points``: for a missed hit, the points the card counted at the round's end because it
    stayed in hand (0 if it left the hand before, ``None`` where cards count no points, B-8); for a turning
    point, the penalty points the new leader gained on the previous leader that round (``None`` likewise);
    ``None`` for the other kinds; for the coaching kinds (``discarded_hit``, ``missed_go_out``,
    ``missed_pickup``) what the better move would have saved at the round's end (``review``).

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
    detail: dict[str, Any] | None = field(default=None, compare=False)
    """For the coaching kinds: ``card`` (the card's public JSON) and ``move`` (the better move in words'
    parts: ``{"do": "take" | "hit" | "discard" | "lay" | "play", "card", "group"}``) and ``commands`` (its
    commands' JSON, each legal after the ones before it)."""

    def to_json(self) -> dict[str, Any]:
        out = {"step": self.step, "seat": self.seat, "kind": self.kind.value, "round": self.round,
               "points": self.points}
        if self.detail is not None:
            out.update(self.detail)
        return out

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
    discarded_hits: int = 0
    missed_go_outs: int = 0
    missed_pickups: int = 0
    coaching_points: int = 0
    """What the coaching marks' better moves would have saved, counting each round's go-out once."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "missed_laydowns": self.missed_laydowns, "missed_hits": self.missed_hits,
                "missed_hit_points": self.missed_hit_points, "fed_next": self.fed_next,
                "discarded_hits": self.discarded_hits, "missed_go_outs": self.missed_go_outs,
                "missed_pickups": self.missed_pickups, "coaching_points": self.coaching_points}


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of one finished game: its marks sorted by step (then kind, seat and card)."""

    ruleset: str
    players: int
    marks: tuple[Mark, ...]
    points: bool = True
    """Whether the rule set's cards count points at a round's end (``False`` in the board game, B-8)."""

    def of_kind(self, kind: Kind) -> list[Mark]:
        return [m for m in self.marks if m.kind is kind]

    def cards(self) -> list[PlayerCard]:
        """One card per seat, counted from the marks."""
        out = []
        for seat in range(self.players):
            mine = [m for m in self.marks if m.seat == seat]
            hits = [m for m in mine if m.kind is Kind.MISSED_HIT]
            go_outs = [m for m in mine if m.kind is Kind.MISSED_GO_OUT]
            once = {m.round: m.points or 0 for m in go_outs}  # one go-out saves a round's points once
            saved = sum(once.values()) + sum(m.points or 0 for m in mine
                                             if m.kind in (Kind.DISCARDED_HIT, Kind.MISSED_PICKUP))
            out.append(PlayerCard(seat, missed_laydowns=sum(m.kind is Kind.MISSED_LAYDOWN for m in mine),
                                  missed_hits=len(hits), missed_hit_points=sum(m.points or 0 for m in hits),
                                  fed_next=sum(m.kind is Kind.FED_NEXT for m in mine),
                                  discarded_hits=sum(m.kind is Kind.DISCARDED_HIT for m in mine),
                                  missed_go_outs=len(go_outs),
                                  missed_pickups=sum(m.kind is Kind.MISSED_PICKUP for m in mine),
                                  coaching_points=saved))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"version": ANALYSIS_VERSION, "ruleset": self.ruleset, "points": self.points,
                "marks": [m.to_json() for m in self.marks], "players": [c.to_json() for c in self.cards()]}
