"""The ``Ruleset`` protocol every rule set implements, and deterministic replay (C-9, C-10, C-11).

This is the whole surface the server, the bots and the tests use. A rule set is a stateless object whose
methods are pure functions of immutable values:

* ``new_game(seed, players, options)`` deals round 1 from the seeded generator (C-10);
* ``apply(state, seat, command)`` returns the new state and the events, or raises a ``RuleError``;
* ``awaited(state)`` lists the seats whose decision the game waits for (several at once is normal);
* ``legal_commands(state, seat)`` enumerates concrete legal commands (lay-downs: the solver's one);
* ``player_view(state, seat)`` / ``redact_event(event, seat)`` are the only way state leaves the server
  (``seat=None`` is a spectator) and never reveal hidden information (C-9); ``player_views(state, seats)`` is
  ``player_view`` of several seats at once (the part all seats see alike is made once);
* ``full_view(state)`` shows everything, for finished games and replays (C-9).

The analysis of a finished game (``app/analysis``) reads a game through four more hooks, never through a rule
set's own types: ``players(state)`` (each seat's hand and progress, C-5), ``card_points(state, card)`` (what a
card left in hand counts at a round's end, M-7, R-12; ``None`` where cards count nothing, B-8),
``turn_started(event)`` (the seat whose turn an event begins, C-7) and ``round_scored(event)`` (the hands left
when an event scores a round, M-7, R-12, B-8).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar, get_args, get_origin, get_type_hints

from . import codec
from .cards import Card
from .errors import InvalidCommand, InvalidOptions
from .table import Player

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
O = TypeVar("O")  # noqa: E741

JSONDict = dict[str, Any]


class Ruleset(Protocol[S, C, E, O]):
    """A complete rule set (``mattel``, ``master``, ``board``)."""

    id: str
    title: str
    summary: str
    rules_version: int
    min_players: int
    max_players: int
    # The event types whose ``redact_event`` JSON depends on the seat asking (C-9); any other event is redacted
    # once and the same JSON serves every seat and spectators.
    viewer_dependent_events: tuple[type, ...]

    def options_schema(self) -> list[JSONDict]: ...
    def parse_options(self, raw: Mapping[str, Any] | None) -> O: ...
    def check_players(self, options: O, players: int) -> None: ...
    def options_to_json(self, options: O) -> JSONDict: ...
    def new_game(self, seed: int, players: int, options: O) -> S: ...
    def parse_command(self, raw: Any) -> C: ...
    def command_to_json(self, command: C) -> JSONDict: ...
    def apply(self, state: S, seat: int, command: C) -> tuple[S, tuple[E, ...]]: ...
    def awaited(self, state: S) -> tuple[int, ...]: ...
    def legal_commands(self, state: S, seat: int) -> tuple[C, ...]: ...
    def player_view(self, state: S, seat: int | None) -> JSONDict: ...
    def player_views(self, state: S, seats: Iterable[int | None]) -> dict[int | None, JSONDict]: ...
    def full_view(self, state: S) -> JSONDict: ...
    def redact_event(self, event: E, seat: int | None) -> JSONDict: ...
    def event_to_json(self, event: E) -> JSONDict: ...
    def state_to_json(self, state: S) -> JSONDict: ...
    def state_from_json(self, data: JSONDict) -> S: ...
    def is_over(self, state: S) -> bool: ...
    def winners(self, state: S) -> tuple[int, ...]: ...
    def hint(self, state: S, seat: int) -> tuple[tuple[int, ...], ...] | None: ...
    def players(self, state: S) -> tuple[Player, ...]: ...
    def card_points(self, state: S, card: Card) -> int | None: ...
    def turn_started(self, event: E) -> int | None: ...
    def round_scored(self, event: E) -> tuple[tuple[Card, ...], ...] | None: ...


class CodecMixin(Generic[S, C, E, O]):
    """The JSON plumbing every rule set shares, driven by its dataclass types (C-11)."""

    state_type: type[S]
    options_type: type[O]
    command_types: tuple[type[C], ...]
    option_help: Mapping[str, str] = {}
    option_schema_extra: Mapping[str, JSONDict] = {}
    """More about an option for the lobby form, e.g. the group kinds a custom phase list may use (C-2)."""
    options_omitted_at_default: frozenset[str] = frozenset()
    """Options added after games were recorded: left out of ``options_to_json`` while at their default, so the
    record of a game that does not use them (stored tables, golden playthroughs) stays the same (C-11)."""

    def parse_options(self, raw: Mapping[str, Any] | None) -> O:
        """Validate table options against this rule set; unknown or bad fields raise ``InvalidOptions``."""
        data = dict(raw or {})
        data.pop("type", None)
        known = {f.name for f in fields(self.options_type)}  # type: ignore[arg-type]
        for name in data:
            if name not in known:
                raise InvalidOptions(name, "unknown option")
        try:
            options: O = codec.from_json(self.options_type, data)
        except InvalidCommand as err:
            # the option and its item (``phases[0][1]``, ``ring[3]``); a deeper field goes into the message
            field, _, rest = err.path.partition(".")
            reason = err.reason or err.message
            raise InvalidOptions(field or "options", f"{rest}: {reason}" if rest else reason) from None
        self.check_options(options)
        return options

    def check_options(self, options: O) -> None:
        """Cross-field checks of options; raise ``InvalidOptions``. Override when needed."""

    def check_players(self, options: O, players: int) -> None:
        """Checks of options against the number of seats (C-11), made when a table is created for that many
        seats and again when its game starts; raise ``InvalidOptions``. Override when needed."""

    def options_to_json(self, options: O) -> JSONDict:
        """Options as plain JSON, in the form a host writes them (``phases: [[{"kind", "size"}]]``, C-11)."""
        data: JSONDict = _untagged(codec.to_json(options))
        if self.options_omitted_at_default:
            default = _untagged(codec.to_json(self.options_type()))
            for name in self.options_omitted_at_default:
                if name in data and data[name] == default[name]:
                    del data[name]
        return data

    def options_schema(self) -> list[JSONDict]:
        """Every option with its default, for the lobby form and the rematch's options (C-11); an option whose
        values are a closed list (a ``Literal``) also gives its ``choices``."""
        default = codec.to_json(self.options_type())
        out = []
        assert is_dataclass(self.options_type)
        hints = get_type_hints(self.options_type)
        for f in fields(self.options_type):
            closed = get_origin(hints[f.name]) is Literal
            out.append({"name": f.name, "default": default[f.name], "help": self.option_help.get(f.name, ""),
                        **({"choices": list(get_args(hints[f.name]))} if closed else {}),
                        **self.option_schema_extra.get(f.name, {})})
        return out

    def parse_command(self, raw: Any) -> C:
        """Decode a command ``{"type": ..., ...}``; malformed input raises ``InvalidCommand``."""
        return codec.decode_union(self.command_types, raw)

    def command_to_json(self, command: C) -> JSONDict:
        data: JSONDict = codec.to_json(command)
        return data

    def event_to_json(self, event: E) -> JSONDict:
        data: JSONDict = codec.to_json(event)
        return data

    def state_to_json(self, state: S) -> JSONDict:
        data: JSONDict = codec.to_json(state)
        return data

    def state_from_json(self, data: JSONDict) -> S:
        state: S = codec.from_json(self.state_type, data)
        return state


def _untagged(data: Any) -> Any:
    """Options hold no unions: the codec's ``"type"`` tags are left out at every depth."""
    if isinstance(data, dict):
        return {k: _untagged(v) for k, v in data.items() if k != "type"}
    if isinstance(data, list):
        return [_untagged(v) for v in data]
    return data


def replay(ruleset: Ruleset[S, C, E, O], seed: int, players: int, options: O,
           commands: Iterable[tuple[int, C]]) -> S:
    """Rebuild a game from its seed, options and accepted commands, bit for bit (C-10)."""
    state = ruleset.new_game(seed, players, options)
    for seat, command in commands:
        state, _ = ruleset.apply(state, seat, command)
    return state
