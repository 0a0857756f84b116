"""Bot decision-time benchmark: six bots of one level play whole games; every decision is timed.

    python bench/bots.py [--level hard] [--ruleset mattel] [--games 3] [--players 6]

Per rule set it prints the decisions' median, p99 and worst time, by this process's CPU time
(``time.process_time_ns``: one core, the fair figure on a shared machine) and by the wall clock, for all
decisions (each with the seat's memory of the round, for a level that keeps one) and for those taken with the
longest hands (hands at least as long as the top tenth seen); the seconds a whole game of six bots takes (wall
clock, median and worst, and CPU); and the process's peak memory (the bots' caches are bounded:
``app.bots.evaluate`` keeps at most 65,536 solver answers). The targets: median
at most 50 ms and p99 at most 250 ms per decision, on one core.
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import REMEMBERING, choose  # noqa: E402
from app.bots.driver import bot_inputs, first_memory, remember  # noqa: E402
from app.rules import registry  # noqa: E402


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(ruleset_id: str, level: str, games: int, players: int, seed: int) -> dict[str, float]:
    ruleset = registry.get(ruleset_id)
    cpu: list[float] = []
    wall: list[float] = []
    sizes: list[int] = []
    game_seconds: list[float] = []
    game_cpu: list[float] = []
    for game in range(games):
        state = ruleset.new_game(seed + game, players, ruleset.parse_options({}))
        rngs = [random.Random((seed + game) * 7919 + s) for s in range(players)]
        memories = {s: first_memory(ruleset, state, s) for s in range(players)} if level in REMEMBERING else {}
        start, start_cpu = time.perf_counter(), time.process_time()
        while not ruleset.is_over(state):
            seat = ruleset.awaited(state)[0]
            view, legal = bot_inputs(ruleset, state, seat)
            c0, w0 = time.process_time_ns(), time.perf_counter_ns()
            command = choose(level, ruleset_id, view, legal, rngs[seat], memories.get(seat))
            cpu.append((time.process_time_ns() - c0) / 1e6)
            wall.append((time.perf_counter_ns() - w0) / 1e6)
            sizes.append(len(view.get("hand") or ()))
            state, events = ruleset.apply(state, seat, command)
            for s, memory in memories.items():
                memories[s] = remember(ruleset, memory, s, events)
        game_seconds.append(time.perf_counter() - start)
        game_cpu.append(time.process_time() - start_cpu)
    cut = int(_quantile([float(s) for s in sizes], 0.9))
    long_cpu = [t for t, s in zip(cpu, sizes, strict=True) if s >= cut]
    return {"decisions": len(cpu), "cpu_median": statistics.median(cpu), "cpu_p99": _quantile(cpu, 0.99),
            "cpu_max": max(cpu), "wall_median": statistics.median(wall), "wall_p99": _quantile(wall, 0.99),
            "long_cut": cut, "long_decisions": len(long_cpu),
            "long_median": statistics.median(long_cpu) if long_cpu else 0.0,
            "long_p99": _quantile(long_cpu, 0.99), "game_seconds": statistics.median(game_seconds),
            "game_max": max(game_seconds), "game_cpu": statistics.median(game_cpu)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--ruleset", choices=registry.ruleset_ids(), action="append")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=101)
    args = parser.parse_args()
    gc.freeze()
    print(f"level {args.level} · {args.players} players · {args.games} games per rule set · times in ms "
          "(CPU = this process's CPU time)")
    print(f"{'rule set':<9}{'decisions':>10}{'CPU p50':>9}{'CPU p99':>9}{'CPU max':>9}{'wall p50':>9}{'wall p99':>9}"
          f"{'long hands':>12}{'p50':>7}{'p99':>7}{'s/game':>8}{'worst':>7}{'CPU s/game':>11}")
    for ruleset_id in args.ruleset or registry.ruleset_ids():
        r = run(ruleset_id, args.level, args.games, args.players, args.seed)
        long = f"≥{r['long_cut']:.0f}: {r['long_decisions']:.0f}"
        print(f"{ruleset_id:<9}{r['decisions']:>10.0f}{r['cpu_median']:>9.2f}{r['cpu_p99']:>9.2f}{r['cpu_max']:>9.1f}"
              f"{r['wall_median']:>9.2f}{r['wall_p99']:>9.2f}{long:>12}"
              f"{r['long_median']:>7.2f}{r['long_p99']:>7.2f}{r['game_seconds']:>8.1f}{r['game_max']:>7.1f}{r['game_cpu']:>11.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of the process: {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
