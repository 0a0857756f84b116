"""The Ravensburger Phase 10 board game (B-1..B-11): a 32-field ring, two dice, eight action types."""

from __future__ import annotations

from collections.abc import Iterable

from ..core.cards import Card
from ..core.phases import phase_list_schema
from ..core.ruleset import CodecMixin, JSONDict
from ..core.table import Player
from . import game, views
from .material import BOARD_KINDS, MAX_PLAYERS, MIN_PLAYERS
from .state import (
    BOARD_COMMANDS,
    BoardCommand,
    BoardEvent,
    BoardOptions,
    BoardRoundEnded,
    BoardState,
    Stage,
    TurnStarted,
)


class BoardRuleset(CodecMixin[BoardState, BoardCommand, BoardEvent, BoardOptions]):
    """The ``board`` rule set (see ``app.rules.core.ruleset.Ruleset``)."""

    id = "board"
    title = "Phase 10 (Ravensburger board game)"
    summary = "Roll, move round a ring of 32 action fields, lay your phase; first marker past phase 10 wins."
    # The version of these rules as the engine plays them: a game record names it, and a record of another
    # version is refused rather than replayed under different rules (C-10).
    rules_version = 1
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = BoardState
    options_type = BoardOptions
    command_types = BOARD_COMMANDS
    viewer_dependent_events = views.VIEWER_DEPENDENT
    option_help = {
        "phases_to_win": "End the game with the N-th phase of the list (empty = all of them).",
        "phases": "Your own phase list: [[{\"kind\": \"set\", \"size\": 3}, ...], ...] (empty = the box's).",
        "ring": "Your own ring: field types clockwise from the start field (empty = the box's 32 fields).",
        "first_player": "The seat that starts the first round (empty = at random).",
    }
    option_schema_extra = {"phases": phase_list_schema(BOARD_KINDS)}

    def check_options(self, options: BoardOptions) -> None:
        game.check_options(options)

    def check_players(self, options: BoardOptions, players: int) -> None:
        """B-4: ``first_player`` names one of the table's seats."""
        game.check_players(options, players)

    def new_game(self, seed: int, players: int, options: BoardOptions) -> BoardState:
        """B-4: deal round 1 (C-10)."""
        return game.new_game(seed, players, options)[0]

    def apply(self, state: BoardState, seat: int,
              command: BoardCommand) -> tuple[BoardState, tuple[BoardEvent, ...]]:
        """B-5: one command of one seat."""
        return game.apply(state, seat, command)

    def awaited(self, state: BoardState) -> tuple[int, ...]:
        return game.awaited(state)

    def legal_commands(self, state: BoardState, seat: int) -> tuple[BoardCommand, ...]:
        return game.legal_commands(state, seat)

    def player_view(self, state: BoardState, seat: int | None) -> JSONDict:
        return views.player_view(state, seat)

    def player_views(self, state: BoardState, seats: Iterable[int | None]) -> dict[int | None, JSONDict]:
        return views.player_views(state, seats)

    def full_view(self, state: BoardState) -> JSONDict:
        return views.full_view(state)

    def redact_event(self, event: BoardEvent, seat: int | None) -> JSONDict:
        return views.redact_event(event, seat)

    def is_over(self, state: BoardState) -> bool:
        return state.stage is Stage.OVER

    def winners(self, state: BoardState) -> tuple[int, ...]:
        return state.winners

    def hint(self, state: BoardState, seat: int) -> tuple[tuple[int, ...], ...] | None:
        return game.hint(state, seat)

    def players(self, state: BoardState) -> tuple[Player, ...]:
        """Each seat's hand (printed cards, B-6), phase-marker position (B-8, B-9) and laid flag."""
        return state.players

    def card_points(self, state: BoardState, card: Card) -> int | None:
        """B-8: cards left in hand count no points (the race is the phase markers')."""
        return None

    def turn_started(self, event: BoardEvent) -> int | None:
        """The seat whose turn ``event`` begins (C-7), also the further turn of an ``again`` field (B-5)."""
        return event.seat if isinstance(event, TurnStarted) else None

    def round_scored(self, event: BoardEvent) -> tuple[tuple[Card, ...], ...] | None:
        """B-8: the cards each seat had left in hand when ``event`` ended the round (turned cards as jokers)."""
        return event.hands if isinstance(event, BoardRoundEnded) else None


RULESET = BoardRuleset()

__all__ = ["RULESET", "BoardRuleset", "BoardOptions", "BoardState"]
