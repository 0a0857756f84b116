"""The board-game state, options, commands and events (B-1..B-11)."""

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
)
from ..core.groups import LaidGroup
from ..core.phases import CustomPhases
from ..core.rng import Rng
from ..core.table import Piles, Player, RoundScore

Direction = Literal["left", "right"]


@dataclass(frozen=True, slots=True)
class BoardOptions:
    """Table options (B-11, C-11); the defaults are the rulebook's.

    * ``phases_to_win``: end the game with the N-th phase (``None`` = all of them);
    * ``phases``: a custom phase list (``None`` = B-3), validated like every custom list;
    * ``ring``: a custom ring of field types clockwise from field 0 (``None`` = B-2);
    * ``first_player``: the seat that starts round 1 (``None`` = at random, B-4).
    """

    phases_to_win: int | None = None
    phases: CustomPhases | None = None
    ring: tuple[str, ...] | None = None
    first_player: int | None = None


class Stage(StrEnum):
    """What the game waits for (B-5, B-7, B-8)."""

    ROLL = "roll"  # step 1: roll the dice
    MOVE = "move"  # step 1: choose a die
    CHOOSE = "choose"  # choice field: pick an action type
    TAKE = "take"  # +N, and the first card of again: draw from either pile
    SEARCH = "search"  # search: pick a card of the discard pile
    SWAP = "swap"  # swap: put 1-4 cards on the discard pile
    ASK = "ask"  # ask: name a number and a direction
    GIVE = "give"  # ask: the asked player chooses the card to give
    PLAY = "play"  # steps 2 and 3: lay / hit, then discard
    DISCARD2 = "discard2"  # B-7: an optional second discard
    KEEP = "keep"  # B-8: the players without their phase choose up to five cards
    OVER = "over"


@dataclass(frozen=True, slots=True)
class BoardState:
    """One board game. ``turned`` holds the ids of the turned cards (B-6) in hands and on the table;
    ``players[s].phase`` is the position of the phase marker (an index into the phase sequence; at its
    length the marker is on the finish field, B-9)."""

    options: BoardOptions
    rng: Rng
    players: tuple[Player, ...]
    piles: Piles
    table: tuple[LaidGroup, ...]
    pawns: tuple[int, ...]
    round: int
    turn: int
    stage: Stage
    turned: frozenset[int] = frozenset()
    dice: tuple[int, ...] = ()
    to_take: int = 0
    again: bool = False  # B-5 again: a further turn is due after this one
    further: bool = False  # B-5 again: the turn in progress is that further turn
    asked: int | None = None  # B-5 ask: the number asked for (GIVE stage)
    giver: int | None = None
    keepers: tuple[int, ...] = ()  # B-8: seats still to choose their kept cards
    round_ender: int | None = None
    winners: tuple[int, ...] = ()
    history: tuple[RoundScore, ...] = ()


# -- commands (imperatives) ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollDice:
    """B-5 step 1: roll both dice."""


@dataclass(frozen=True, slots=True)
class Move:
    """B-5 step 1: move by one die's value (or, on a double, the doubled value)."""

    steps: int


@dataclass(frozen=True, slots=True)
class ChooseAction:
    """B-5 choice: pick another action type (``+N``, ``search``, ...)."""

    action: str


@dataclass(frozen=True, slots=True)
class Search:
    """B-5 search: take this card out of the discard pile."""

    card: int


@dataclass(frozen=True, slots=True)
class Swap:
    """B-5 swap: put these 1-4 cards on the discard pile in this order (the last one ends on top)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Ask:
    """B-5 ask: name a number 1-12 and the direction in which the others are asked."""

    number: int
    direction: Direction


@dataclass(frozen=True, slots=True)
class Give:
    """B-5 ask: the asked player gives this card."""

    card: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """B-7: do without the second discard."""


@dataclass(frozen=True, slots=True)
class Keep:
    """B-8: keep these cards (at most five); the rest of the hand is discarded."""

    cards: tuple[int, ...]


BoardCommand = (RollDice | Move | ChooseAction | Draw | Search | Swap | Ask | Give | LayPhase | Hit | Discard
                | EndTurn | Keep)
BOARD_COMMANDS = (RollDice, Move, ChooseAction, Draw, Search, Swap, Ask, Give, LayPhase, Hit, Discard, EndTurn,
                  Keep)


# -- events (past tense) -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A turn began; ``extra`` marks the further turn of an ``again`` field (B-5)."""

    seat: int
    extra: bool = False


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """B-5: the dice were rolled (from the seeded generator, C-10)."""

    seat: int
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PawnMoved:
    """B-5: a pawn moved ``steps`` counted fields (occupied fields jumped) and landed on ``field``."""

    seat: int
    start: int
    field: int
    steps: int
    kind: str


@dataclass(frozen=True, slots=True)
class ActionChosen:
    """B-5 choice: the pawn moved on to the next free field of the chosen action type."""

    seat: int
    action: str
    start: int
    field: int
    kind: str


@dataclass(frozen=True, slots=True)
class CardSearched:
    """B-5 search: ``seat`` took ``card`` out of the discard pile; the others learn only that it took one."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardsSwapped:
    """B-5 swap: ``cards`` went onto the discard pile in this order; the others see only the last one."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class JokerTurned:
    """B-5 joker, B-6: ``card`` was drawn and turned round; its face is visible to everyone."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class NumberAsked:
    """B-5 ask: ``seat`` asked for ``number``, asking the others to its ``direction``."""

    seat: int
    number: int
    direction: str


@dataclass(frozen=True, slots=True)
class CardGiven:
    """B-5 ask: ``giver`` gave ``card`` to ``receiver``; ``was_joker`` if it was a turned card (B-6)."""

    giver: int
    receiver: int
    card: Card
    was_joker: bool


@dataclass(frozen=True, slots=True)
class NobodyHad:
    """B-5 ask: nobody held the number; the asker draws instead."""

    seat: int
    number: int


@dataclass(frozen=True, slots=True)
class MarkerMoved:
    """B-8: a phase marker moved ``fields`` fields to ``position`` (at the phase count: the finish, B-9)."""

    seat: int
    fields: int
    position: int


@dataclass(frozen=True, slots=True)
class BoardRoundEnded:
    """B-8: the round ended; ``went_out`` is ``None`` for a stalled round (C-12). ``hands`` are the cards each
    seat had left in hand before the scoring's discards and keeps: every seat learns how many, only their
    holder which (C-9)."""

    round: int
    went_out: int | None
    markers: tuple[int, ...]
    keepers: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class CardsKept:
    """B-8: ``seat`` kept ``cards`` (only it sees which) and discarded the rest of its hand."""

    seat: int
    cards: tuple[Card, ...]


BoardEvent = (HandsDealt | TurnStarted | DiceRolled | PawnMoved | ActionChosen | CardDrawn | DrawPileRebuilt
              | DrawFailed | CardSearched | CardsSwapped | JokerTurned | NumberAsked | CardGiven | NobodyHad
              | PhaseLaid | CardHit | CardDiscarded | MarkerMoved | BoardRoundEnded | CardsKept | GameEnded)
