"""Engine benchmark: prints full games per second, commands per second and solver latency per phase.

    python bench/engine.py [--ruleset mattel] [--games 20] [--hands 300]

Full games: 4 players, a greedy playout policy (lay whenever the solver finds a lay-down, hit whenever
possible, otherwise a random legal command). Commands per second counts ``apply`` calls only. The solver is
timed on random 11-card hands holding exactly 0, 1, 2 or 3 jokers, for every phase of the rule set.
Everything runs on one core, after ``gc.freeze()`` of the start-up objects.

Every figure is given by the wall clock and by this process's own CPU time; the CPU figures are the fair ones
on a machine shared with other work. Commands per CPU-second replays the games' recorded commands with
``apply`` alone; the solver's CPU times are per call (``time.process_time_ns``, about half a microsecond of
overhead per call).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules import registry  # noqa: E402
from app.rules.core.cards import Card  # noqa: E402
from app.rules.core.groups import JokerPolicy  # noqa: E402
from app.rules.core.phases import Phase  # noqa: E402
from app.rules.core.solver import find_laydown  # noqa: E402
from tests.rules.playout import choose  # noqa: E402


@dataclass
class SolverCase:
    naturals: list[Card]
    jokers: list[Card]
    phases: tuple[Phase, ...]
    policy: JokerPolicy


def _mattel() -> SolverCase:
    from app.rules.mattel.deck import DECK, PHASES, WILDS
    return SolverCase([c for c in DECK if c.is_natural], [c for c in DECK if c.is_joker], PHASES, WILDS)


def _master() -> SolverCase:
    from app.rules.master.deck import DECK, PHASES, RANGED_JOKERS
    return SolverCase([c for c in DECK if c.is_natural], [c for c in DECK if c.is_joker], PHASES, RANGED_JOKERS)


def _board() -> SolverCase:
    """B-6: jokers are turned number cards; twelve of the 96 (the second blue copies) serve as the joker pool
    so that a hand never holds the same physical card twice."""
    from app.rules.board.material import DECK, PHASES, TURNED
    from app.rules.core.cards import Colour, as_joker
    pool = [c for c in DECK if c.colour is Colour.BLUE and c.id % 2 == 1]
    return SolverCase([c for c in DECK if c not in pool], [as_joker(c) for c in pool], PHASES, TURNED)


# Each rule set registers how to build its solver benchmark here.
SOLVER_CASES: dict[str, Callable[[], SolverCase]] = {"mattel": _mattel, "master": _master}
SOLVER_CASES["board"] = _board


def bench_games(ruleset_id: str, games: int, players: int = 4) -> dict[str, float]:
    ruleset = registry.get(ruleset_id)
    options = ruleset.parse_options({})
    commands = 0
    apply_time = 0.0
    rounds = 0
    played: list[list[tuple[int, Any]]] = []
    start, cpu_start = time.perf_counter(), time.process_time()
    for seed in range(games):
        rnd = random.Random(seed)
        state: Any = ruleset.new_game(seed, players, options)
        moves: list[tuple[int, Any]] = []
        while not ruleset.is_over(state):
            seat = rnd.choice(ruleset.awaited(state))
            command = choose(ruleset.legal_commands(state, seat), rnd, greed=1.0)
            t = time.perf_counter()
            state, _ = ruleset.apply(state, seat, command)
            apply_time += time.perf_counter() - t
            commands += 1
            moves.append((seat, command))
        rounds += getattr(state, "round", 0)
        played.append(moves)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    # the same games again, ``apply`` alone, for the commands' CPU time
    cpu_start = time.process_time()
    for seed, moves in enumerate(played):
        state = ruleset.new_game(seed, players, options)
        for seat, command in moves:
            state, _ = ruleset.apply(state, seat, command)
    apply_cpu = time.process_time() - cpu_start
    return {"games_per_s": games / elapsed, "games_per_cpu_s": games / cpu, "commands_per_s": commands / apply_time,
            "commands_per_cpu_s": commands / apply_cpu, "commands_per_game": commands / games,
            "rounds_per_game": rounds / games}


def _median_p99(times: list[float]) -> tuple[float, float]:
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def bench_solver(case: SolverCase, hands: int) -> list[tuple[int, int, float, float, float, float]]:
    """Per phase and joker count: wall-clock median and p99, then CPU median and p99, in milliseconds."""
    rnd = random.Random(11)
    rows = []
    for number, phase in enumerate(case.phases, 1):
        for jokers in range(4):
            times, cpu_times = [], []
            for _ in range(hands):
                hand = rnd.sample(case.naturals, 11 - jokers) + rnd.sample(case.jokers, jokers)
                c, t = time.process_time_ns(), time.perf_counter_ns()
                find_laydown(hand, phase.requirement, case.policy)
                t, c = time.perf_counter_ns() - t, time.process_time_ns() - c
                times.append(t / 1e6)
                cpu_times.append(c / 1e6)
            rows.append((number, jokers, *_median_p99(times), *_median_p99(cpu_times)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", action="append", choices=registry.ruleset_ids())
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--hands", type=int, default=300)
    args = parser.parse_args()
    # Long-lived start-up objects (modules, decks, phase tables) are moved out of the collector's way, as a
    # serving process does; the games' own garbage is still collected as usual.
    gc.freeze()
    for rid in args.ruleset or registry.ruleset_ids():
        print(f"== {rid} ==")
        g = bench_games(rid, args.games)
        print(f"full 4-player games per second: {g['games_per_s']:.1f} wall-clock, "
              f"{g['games_per_cpu_s']:.1f} per CPU-second of this process "
              f"({g['commands_per_game']:.0f} commands, {g['rounds_per_game']:.1f} rounds per game)")
        print(f"commands applied per second:    {g['commands_per_s']:.0f} wall-clock, "
              f"{g['commands_per_cpu_s']:.0f} per CPU-second (apply alone, replayed)")
        if rid in SOLVER_CASES:
            rows = bench_solver(SOLVER_CASES[rid](), args.hands)
            print("solver on 11-card hands (ms):  phase jokers median    p99 | CPU median    p99")
            for number, jokers, median, p99, cpu_median, cpu_p99 in rows:
                print(f"                               {number:5d} {jokers:6d} {median:6.3f} {p99:6.3f} | "
                      f"    {cpu_median:6.3f} {cpu_p99:6.3f}")
            print(f"solver overall: worst median {max(r[2] for r in rows):.3f} ms, "
                  f"worst p99 {max(r[3] for r in rows):.3f} ms wall-clock; "
                  f"worst median {max(r[4] for r in rows):.3f} ms, worst p99 {max(r[5] for r in rows):.3f} ms CPU")


if __name__ == "__main__":
    main()
