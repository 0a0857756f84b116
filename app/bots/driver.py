"""Running bots against the engine in-process: the one place where a game state meets a bot (C-9).

``bot_command`` turns a state into the bot's only inputs — ``player_view(state, seat)`` and
``legal_commands(state, seat)``, with the seat's memory of the round where its level keeps one — and asks the
bot. ``remember`` folds a command's events, redacted for the seat, into that memory. ``play_game`` plays a whole
game with bots in every seat (used by the simulation and the tests); any command the engine rejects raises
``BotError``.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.rules.core.errors import RuleError
from app.rules.core.events import RoundEnded
from app.rules.registry import AnyRuleset

from . import REMEMBERING, choose
from .memory import Memory, observe, start


class BotError(RuntimeError):
    """A bot chose a command the engine rejected, or a game did not finish."""


def bot_inputs(ruleset: AnyRuleset, state: Any, seat: int) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """Everything a bot may know about ``state``: the seat's own view and its legal commands (C-9)."""
    return ruleset.player_view(state, seat), tuple(ruleset.legal_commands(state, seat))


def bot_command(level: str, ruleset: AnyRuleset, state: Any, seat: int, rng: random.Random,
                memory: Memory | None = None) -> Any:
    """The command the bot of ``level`` plays for ``seat`` now."""
    view, legal = bot_inputs(ruleset, state, seat)
    if not legal:
        raise BotError(f"seat {seat} has no legal command")
    return choose(level, ruleset.id, view, legal, rng, memory)


def first_memory(ruleset: AnyRuleset, state: Any, seat: int) -> Memory:
    """What ``seat`` knows of the first round before any command: the discard pile's top in its view."""
    return start(ruleset.player_view(state, seat))


def remember(ruleset: AnyRuleset, memory: Memory, seat: int, events: Sequence[Any]) -> Memory:
    """``memory`` after ``events``, as ``seat`` was shown them (C-9: ``redact_event``)."""
    return observe(memory, [ruleset.redact_event(e, seat) for e in events])


@dataclass
class GameRecord:
    """What one simulated game produced."""

    winners: tuple[int, ...] = ()
    rounds: int = 0
    turns: int = 0
    commands: int = 0
    # phase number -> [first attempts, made on the first attempt], per seat
    first_try: dict[int, dict[int, list[int]]] = field(default_factory=lambda: defaultdict(dict))
    # seat -> [rounds played, phase laid, went out, cards left in hand at round end, discard-pile draws]
    round_stats: dict[int, list[int]] = field(default_factory=dict)


def _phases(ruleset: AnyRuleset, state: Any) -> dict[int, int]:
    """Seat -> phase number this round, from the public (spectator) view."""
    out: dict[int, int] = {}
    for p in ruleset.player_view(state, None).get("players") or ():
        if p.get("in_round", True) and p.get("phase") is not None:
            out[int(p["seat"])] = int(p["phase"])
    return out


def _round_end(event: object) -> bool:
    """A round-end event of any rule set (``RoundEnded``, the board game's ``BoardRoundEnded``)."""
    return isinstance(event, RoundEnded) or type(event).__name__.endswith("RoundEnded")


def _advanced(event: Any, phases: Mapping[int, int]) -> set[int]:
    """The seats that made their phase this round: ``advanced``, or (B-8) everyone but the keepers."""
    advanced = getattr(event, "advanced", None)
    if advanced is not None:
        return set(advanced)
    keepers = set(getattr(event, "keepers", ()))
    return {s for s in phases if s not in keepers}


def _count_round(record: GameRecord, event: Any, phases: Mapping[int, int], laid: set[int]) -> None:
    """Add one finished round to each playing seat's round figures (who laid, who went out, cards left)."""
    hands = getattr(event, "hands", ())
    went_out = getattr(event, "went_out", None)
    for seat in phases:
        cell = record.round_stats.setdefault(seat, [0] * 5)
        cell[0] += 1
        cell[1] += seat in laid
        cell[2] += seat == went_out
        cell[3] += len(hands[seat]) if seat < len(hands) else 0


Override = Callable[[Any, int, random.Random], Any]
"""``(state, seat, the seat's random generator) -> command``, or ``None`` to let the seat's bot choose."""


def play_game(ruleset: AnyRuleset, levels: Sequence[str], seed: int, options: Mapping[str, Any] | None = None,
              max_commands: int = 100_000, override: Override | None = None) -> GameRecord:
    """Play one whole game with a bot of ``levels[seat]`` in every seat; every command must be accepted.
    ``override`` may play a command instead of the bot (a benchmark that gives one seat hidden information on
    purpose, ``bench/denial.py``; never a bot, C-9)."""
    state = ruleset.new_game(seed, len(levels), ruleset.parse_options(options or {}))
    rngs = [random.Random(seed * 7919 + seat) for seat in range(len(levels))]
    memories = {seat: first_memory(ruleset, state, seat) for seat, level in enumerate(levels) if level in REMEMBERING}
    record = GameRecord()
    tried: set[tuple[int, int]] = set()
    phases = _phases(ruleset, state)
    laid: set[int] = set()
    while not ruleset.is_over(state):
        if record.commands >= max_commands:
            raise BotError(f"game seed {seed} did not finish in {max_commands} commands")
        awaited = ruleset.awaited(state)
        if not awaited:
            raise BotError("no seat is awaited in a running game")
        seat = awaited[0]
        command = override(state, seat, rngs[seat]) if override is not None else None
        if command is None:
            command = bot_command(levels[seat], ruleset, state, seat, rngs[seat], memories.get(seat))
        try:
            state, events = ruleset.apply(state, seat, command)
        except RuleError as err:
            raise BotError(f"{levels[seat]} bot at seat {seat} played a rejected command {command!r}: {err}") \
                from err
        record.commands += 1
        for s, memory in memories.items():
            memories[s] = remember(ruleset, memory, s, events)
        for event in events:
            name = type(event).__name__
            if name == "TurnStarted":
                record.turns += 1
            elif name == "PhaseLaid":
                laid.add(event.seat)
            elif name == "CardDrawn" and event.pile == "discard":
                record.round_stats.setdefault(event.seat, [0] * 5)[4] += 1
            elif _round_end(event):
                record.rounds += 1
                _count_round(record, event, phases, laid)
                laid = set()
                advanced = _advanced(event, phases)
                for s, number in phases.items():
                    if (s, number) not in tried:
                        tried.add((s, number))
                        cell = record.first_try[s].setdefault(number, [0, 0])
                        cell[0] += 1
                        cell[1] += s in advanced
        if any(_round_end(e) for e in events) and not ruleset.is_over(state):
            phases = _phases(ruleset, state)
    record.winners = tuple(ruleset.winners(state))
    return record
