"""The Ravensburger Phase 10 Master card game (R-1..R-15): ranged jokers, colour runs, blue action cards."""

from __future__ import annotations

from collections.abc import Iterable

from ..core.cards import Card
from ..core.events import RoundEnded
from ..core.phases import phase_list_schema
from ..core.ruleset import CodecMixin, JSONDict
from ..core.table import Player
from . import game, views
from .deck import MASTER_KINDS, MAX_PLAYERS, MIN_PLAYERS
from .events import VIEWER_DEPENDENT, redact_event
from .state import MASTER_COMMANDS, MasterCommand, MasterEvent, MasterOptions, MasterState, Stage, TurnStarted


class MasterRuleset(CodecMixin[MasterState, MasterCommand, MasterEvent, MasterOptions]):
    """The ``master`` rule set (see ``app.rules.core.ruleset.Ruleset``)."""

    id = "master"
    title = "Phase 10 Master (Ravensburger card game)"
    summary = ("128 cards: ranged jokers, colour runs and blue action cards (Take two, All mine, Skip, "
               "Give me five); fewest minus points after phase 10 wins.")
    # The version of these rules as the engine plays them: a game record names it, and a record of another
    # version is refused rather than replayed under different rules (C-10).
    rules_version = 1
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = MasterState
    options_type = MasterOptions
    command_types = MASTER_COMMANDS
    viewer_dependent_events = VIEWER_DEPENDENT
    option_help = {
        "scoring": "minus: 1 minus point per card in hand (rulebook); points: 5 per 1-9, 10 per 10-12, "
                   "20 per joker or action card.",
        "fixed_rounds": "Exactly one round per phase; everyone plays the round's phase; lowest total wins.",
        "phases_to_win": "End the game with the N-th phase of the list (empty = all of them).",
        "phase_selection": "Play all phases, only the even ones or only the odd ones.",
        "phases": "Your own phase list: [[{\"kind\": \"colour_run\", \"size\": 4}, ...], ...] "
                  "(empty = the ten Master phases).",
    }
    option_schema_extra = {"phases": phase_list_schema(MASTER_KINDS)}
    options_omitted_at_default = frozenset({"phases"})  # added later: records of default games stay the same

    def check_options(self, options: MasterOptions) -> None:
        game.check_options(options)

    def new_game(self, seed: int, players: int, options: MasterOptions) -> MasterState:
        """R-5: deal round 1 with a random dealer (C-10)."""
        return game.new_game(seed, players, options)[0]

    def apply(self, state: MasterState, seat: int,
              command: MasterCommand) -> tuple[MasterState, tuple[MasterEvent, ...]]:
        """R-6..R-14: one command of one awaited seat."""
        return game.apply(state, seat, command)

    def awaited(self, state: MasterState) -> tuple[int, ...]:
        return game.awaited(state)

    def legal_commands(self, state: MasterState, seat: int) -> tuple[MasterCommand, ...]:
        return game.legal_commands(state, seat)

    def player_view(self, state: MasterState, seat: int | None) -> JSONDict:
        return views.player_view(state, seat)

    def player_views(self, state: MasterState, seats: Iterable[int | None]) -> dict[int | None, JSONDict]:
        return views.player_views(state, seats)

    def full_view(self, state: MasterState) -> JSONDict:
        return views.full_view(state)

    def redact_event(self, event: MasterEvent, seat: int | None) -> JSONDict:
        return redact_event(event, seat)

    def is_over(self, state: MasterState) -> bool:
        return state.stage is Stage.OVER

    def winners(self, state: MasterState) -> tuple[int, ...]:
        return state.winners

    def hint(self, state: MasterState, seat: int) -> tuple[tuple[int, ...], ...] | None:
        return game.hint(state, seat)

    def players(self, state: MasterState) -> tuple[Player, ...]:
        """Each seat's hand, phase, laid flag and minus points (C-5, R-12)."""
        return state.players

    def card_points(self, state: MasterState, card: Card) -> int | None:
        """R-12: what ``card`` counts if a round ends with it in hand, under the table's ``scoring``."""
        return game.points_of(state.options)(card)

    def turn_started(self, event: MasterEvent) -> int | None:
        """The seat whose turn ``event`` begins (R-6; a seat with a Skip in front is passed over, R-10)."""
        return event.seat if isinstance(event, TurnStarted) else None

    def round_scored(self, event: MasterEvent) -> tuple[tuple[Card, ...], ...] | None:
        """R-12: the cards each seat had left in hand when ``event`` scored the round."""
        return event.hands if isinstance(event, RoundEnded) else None


RULESET = MasterRuleset()

__all__ = ["RULESET", "MasterRuleset", "MasterOptions", "MasterState"]
