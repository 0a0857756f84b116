"""The Mattel Phase 10 card game (M-1..M-9): 108 cards, 8 wilds, 4 skips, penalty points."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.cards import Card
from ..core.events import VIEWER_DEPENDENT, RoundEnded, redact
from ..core.ruleset import CodecMixin, JSONDict
from ..core.table import Player
from . import game, views
from .deck import MAX_PLAYERS, MIN_PLAYERS, card_points
from .state import MATTEL_COMMANDS, MattelCommand, MattelEvent, MattelOptions, MattelState, Stage, TurnStarted


class MattelRuleset(CodecMixin[MattelState, MattelCommand, MattelEvent, MattelOptions]):
    """The ``mattel`` rule set (see ``app.rules.core.ruleset.Ruleset``)."""

    id = "mattel"
    title = "Phase 10 (Mattel card game)"
    summary = "The classic: 108 cards, 8 wilds, 4 skips; lowest penalty points after phase 10 wins."
    # The version of these rules as the engine plays them: a game record names it, and a record of another
    # version is refused rather than replayed under different rules (C-10).
    rules_version = 1
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = MattelState
    options_type = MattelOptions
    command_types = MATTEL_COMMANDS
    viewer_dependent_events = VIEWER_DEPENDENT
    option_help = {
        "fixed_rounds": "Exactly one round per phase; everyone plays the round's phase; lowest total wins.",
        "phases_to_win": "End the game with the N-th phase of the list (empty = all of them).",
        "phase_selection": "Play all phases, only the even ones or only the odd ones.",
    }

    def check_options(self, options: MattelOptions) -> None:
        game.check_options(options)

    def new_game(self, seed: int, players: int, options: MattelOptions) -> MattelState:
        """M-2: deal round 1 with a random dealer (C-10)."""
        return game.new_game(seed, players, options)[0]

    def apply(self, state: MattelState, seat: int,
              command: MattelCommand) -> tuple[MattelState, tuple[MattelEvent, ...]]:
        """M-4: one command of one seat."""
        return game.apply(state, seat, command)

    def awaited(self, state: MattelState) -> tuple[int, ...]:
        return game.awaited(state)

    def legal_commands(self, state: MattelState, seat: int) -> tuple[MattelCommand, ...]:
        return game.legal_commands(state, seat)

    def player_view(self, state: MattelState, seat: int | None) -> JSONDict:
        return views.player_view(state, seat)

    def player_views(self, state: MattelState, seats: Iterable[int | None]) -> dict[int | None, JSONDict]:
        return views.player_views(state, seats)

    def full_view(self, state: MattelState) -> JSONDict:
        return views.full_view(state)

    def redact_event(self, event: MattelEvent, seat: int | None) -> JSONDict:
        return redact(event, seat)

    def is_over(self, state: MattelState) -> bool:
        return state.stage is Stage.OVER

    def winners(self, state: MattelState) -> tuple[int, ...]:
        return state.winners

    def hint(self, state: MattelState, seat: int) -> tuple[tuple[int, ...], ...] | None:
        return game.hint(state, seat)

    def players(self, state: MattelState) -> tuple[Player, ...]:
        """Each seat's hand, phase, laid flag and penalty total (C-5, M-7)."""
        return state.players

    def card_points(self, state: MattelState, card: Card) -> int | None:
        """M-7: what ``card`` counts if a round ends with it in hand."""
        return card_points(card)

    def turn_started(self, event: MattelEvent) -> int | None:
        """The seat whose turn ``event`` begins (M-4; a skipped seat's turn never begins, M-6)."""
        return event.seat if isinstance(event, TurnStarted) else None

    def round_scored(self, event: MattelEvent) -> tuple[tuple[Card, ...], ...] | None:
        """M-7: the cards each seat had left in hand when ``event`` scored the round."""
        return event.hands if isinstance(event, RoundEnded) else None


RULESET = MattelRuleset()

__all__ = ["RULESET", "MattelRuleset", "MattelOptions", "MattelState", "Any"]
