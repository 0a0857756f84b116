"""The Master game state, options, commands and events (R-1..R-15)."""

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
from ..core.phases import CustomPhases
from ..core.rng import Rng
from ..core.table import Piles, Player, RoundScore


@dataclass(frozen=True, slots=True)
class MasterOptions:
    """R-12 scoring, the R-15 variants and the phase list (R-3) (C-11); the defaults are the rulebook's.

    ``phases``: a host's own phase list (``None`` = the ten R-3 phases, of which 9 and 10 are Reconstructed
    and so editable), validated like every custom list (C-2, R-3).
    """

    scoring: Literal["minus", "points"] = "minus"
    fixed_rounds: bool = False
    phases_to_win: int | None = None
    phase_selection: Literal["all", "even", "odd"] = "all"
    phases: CustomPhases | None = None


class Stage(StrEnum):
    """What the game waits for.

    ``draw``/``play``: the player on turn (R-6); ``choose``: which of the two Take-two cards to keep (R-8);
    ``offer``: Give-me-five offers from several seats at once (R-11); ``take``: the taker's pick (R-11);
    ``keep``: the All-mine keep choices at round end, several seats at once (R-9); ``over``: finished (R-14).
    """

    DRAW = "draw"
    CHOOSE = "choose"
    PLAY = "play"
    OFFER = "offer"
    TAKE = "take"
    KEEP = "keep"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class GiveMeFive:
    """A pending Give-me-five (R-11): ``slots`` are the offering seats in the rulebook's order, ``offered``
    the card lying face up in each slot (``None`` while that seat has not offered it yet)."""

    taker: int
    slots: tuple[int, ...]
    offered: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class MasterState:
    """One moment of a Master game (R-1..R-15), immutable.

    ``rng`` is the seeded generator all chance comes from (C-10); ``dealer`` and ``turn`` move clockwise (C-7,
    R-5); ``stage`` says what the game waits for; ``drawn_from`` is the pile the Take-two cards came from
    (R-8; from the draw pile they stay hidden from the others, C-9); ``give`` a pending Give me five (R-11);
    ``history`` one score-sheet row per round (R-12); ``winners`` is set once the game is over (R-14).
    """

    options: MasterOptions
    rng: Rng
    players: tuple[Player, ...]
    piles: Piles
    blue: tuple[Card, ...]
    """R-6: the blue pile of played action cards; last element on top; never drawn from."""
    table: tuple[LaidGroup, ...]
    fronts: tuple[tuple[Card, ...], ...]
    """R-7: the action cards lying face up in front of each seat."""
    round: int
    dealer: int
    turn: int
    stage: Stage
    drawn: tuple[Card, ...] = ()
    """R-8: the two cards drawn with Take two, waiting for the keep choice."""
    drawn_from: str = "draw"
    give: GiveMeFive | None = None
    keep_pending: tuple[int, ...] = ()
    """R-9: seats with All mine still to choose whether to keep their hand."""
    kept: tuple[bool, ...] = ()
    """R-9: per seat, whether its hand is kept into the next round."""
    winners: tuple[int, ...] = ()
    history: tuple[RoundScore, ...] = ()


# -- commands (imperatives) ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayAction:
    """R-6: end the turn by playing an action card instead of a discard (R-8..R-11).

    ``target`` names the player a Skip is laid in front of (R-10); ``ask`` says whether a Give me five asks
    for the offer of five cards (``False`` declines, R-11).
    """

    card: int
    target: int | None = None
    ask: bool = True


@dataclass(frozen=True, slots=True)
class ChooseTakeTwo:
    """R-8: keep this one of the two cards drawn; the other goes away without effect."""

    keep: int


@dataclass(frozen=True, slots=True)
class OfferCard:
    """R-11: lay this hand card face up as an offer to the Give-me-five player."""

    card: int


@dataclass(frozen=True, slots=True)
class TakeOffer:
    """R-11: take this one of the offered cards."""

    card: int


@dataclass(frozen=True, slots=True)
class KeepHand:
    """R-9: at round end, keep the whole hand (``True``) or none of it (``False``)."""

    keep: bool


# -- events (past tense) -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StarterReturned:
    """R-5: a joker or action card turned up as the first discard went under the draw pile."""

    card: Card


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """``seat``'s turn begins: the first player after a deal (C-7, R-5) or the next player clockwise, players
    with a Skip in front of them passed over (R-10)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TwoCardsDrawn:
    """R-8: a Take-two owner drew two cards from one pile; from the draw pile only the drawer sees them."""

    seat: int
    pile: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TakeTwoChosen:
    """R-8: ``kept`` went to the hand, ``returned`` face up onto ``to_pile`` (``discard`` or ``blue``)."""

    seat: int
    pile: str
    kept: Card
    returned: Card
    to_pile: str


@dataclass(frozen=True, slots=True)
class ActionPlayed:
    """R-6..R-11: ``effect`` is ``placed`` (in front of ``target``), ``no_effect`` (onto the blue pile:
    a second card of a kind, R-7, or the last card of the hand, R-6), ``asked`` or ``declined`` (Give me five)."""

    seat: int
    card: Card
    target: int | None
    effect: str


@dataclass(frozen=True, slots=True)
class OffersAsked:
    """R-11: the seats that offer, one entry per offered card, in the rulebook's order."""

    seat: int
    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardOffered:
    """R-11: an offered card lies face up (public)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class OfferTaken:
    """R-11: ``seat`` took ``card`` from ``owner``; the other offered cards went back to their owners."""

    seat: int
    card: Card
    owner: int


@dataclass(frozen=True, slots=True)
class ReplacementDrawn:
    """R-11: the owner of the taken card drew a replacement (seen by that owner only; ``None``: none left)."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    """R-10: ``seat``'s turn was only moving the Skip in front of it onto the blue pile."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class HandKept:
    """R-9: an All-mine owner chose to keep (or give back) its whole hand."""

    seat: int
    keep: bool
    size: int


@dataclass(frozen=True, slots=True)
class KeepChoicesAsked:
    """R-9: the round ended; these All-mine owners choose whether to keep their hands."""

    seats: tuple[int, ...]


MasterCommand = Draw | LayPhase | Hit | Discard | PlayAction | ChooseTakeTwo | OfferCard | TakeOffer | KeepHand
MASTER_COMMANDS = (Draw, LayPhase, Hit, Discard, PlayAction, ChooseTakeTwo, OfferCard, TakeOffer, KeepHand)
MasterEvent = (HandsDealt | StarterReturned | TurnStarted | CardDrawn | TwoCardsDrawn | TakeTwoChosen
               | DrawPileRebuilt | DrawFailed | PhaseLaid | CardHit | CardDiscarded | ActionPlayed | OffersAsked
               | CardOffered | OfferTaken | ReplacementDrawn | TurnSkipped | RoundEnded | KeepChoicesAsked
               | HandKept | GameEnded)
