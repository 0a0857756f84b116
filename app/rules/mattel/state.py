"""The Mattel game state, options, commands and events (M-1..M-9)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from ..core.cards import Card
from ..core.commands import Discard, Draw, Hit, LayPhase
from ..core.events import (
    CardDiscarded,
    CardDrawn,
    CardHit,
    DrawFailed,
    DrawPileRebuilt,
    GameEnded,
    HandsDealt,
    PhaseLaid,
    RoundEnded,
)
from ..core.groups import LaidGroup
from ..core.rng import Rng
from ..core.table import Piles, Player, RoundScore


@dataclass(frozen=True, slots=True)
class MattelOptions:
    """M-9 variants, all off by default (C-11). They combine."""

    fixed_rounds: bool = False
    phases_to_win: int | None = None
    phase_selection: Literal["all", "even", "odd"] = "all"


class Stage(StrEnum):
    """What the game waits for: the player on turn to ``draw``, then to ``play`` (lay, hit, and discard to end
    the turn) (M-4); ``over`` once the game is won (M-8)."""

    DRAW = "draw"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class MattelState:
    """One moment of a Mattel game (M-1..M-9), immutable.

    ``rng`` is the seeded generator all chance comes from (C-10); ``dealer`` and ``turn`` move clockwise (C-7,
    M-2); ``skipped[s]`` is true while a skip is pending against seat ``s`` (M-6); ``contenders`` are the seats
    still playing (all of them, or those tied in a tie-break round, M-8, ``tiebreak``); ``history`` holds one
    score-sheet row per round (M-7); ``winners`` is set when the game is over (M-8).
    """

    options: MattelOptions
    rng: Rng
    players: tuple[Player, ...]
    piles: Piles
    table: tuple[LaidGroup, ...]
    round: int
    dealer: int
    turn: int
    stage: Stage
    skipped: tuple[bool, ...]
    contenders: tuple[int, ...]
    tiebreak: bool = False
    winners: tuple[int, ...] = ()
    history: tuple[RoundScore, ...] = ()


@dataclass(frozen=True, slots=True)
class SkipPlayed:
    """M-6: ``seat`` discarded a skip naming ``target`` (``None``: nobody could be named)."""

    seat: int
    card: Card
    target: int | None


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    """M-6: ``seat`` lost its turn to a skip."""

    seat: int


@dataclass(frozen=True, slots=True)
class TieBreakStarted:
    """M-8: the seats tied on the lowest total play one more round on the last phase."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """``seat``'s turn begins (M-4): the turn passed clockwise, skipped players passed over (M-6)."""

    seat: int


MattelCommand = Draw | LayPhase | Hit | Discard
MATTEL_COMMANDS = (Draw, LayPhase, Hit, Discard)
MattelEvent = (HandsDealt | CardDrawn | DrawPileRebuilt | DrawFailed | PhaseLaid | CardHit | CardDiscarded
               | SkipPlayed | TurnSkipped | TurnStarted | RoundEnded | TieBreakStarted | GameEnded)
