"""Analysis benchmark: prints the CPU time the analysis of a finished game takes (``app.analysis.analyse``), per
rule set, for long games.

    python bench/analysis.py [--ruleset mattel] [--games 6] [--players 4] [--level normal] [--profile]

The games are whole games with the full phase list, played by bots of one level in every seat (4 seats; seeded,
so the same games every run); their length varies as real games' do. Only the analysis is timed, by this
process's own CPU time (``time.process_time``): the fair figure on a machine shared with other work. Printed
per rule set: the games' commands (steps), CPU seconds per game (median and worst), and CPU milliseconds per 100
steps (median), which gives the cost of a game of any length (an 800-step Mattel game: 8 times that figure).
``--profile`` also prints a pyinstrument profile of the analyses (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.analysis import analyse  # noqa: E402
from app.bots.driver import bot_command  # noqa: E402
from app.rules import registry  # noqa: E402

SEED = 20261127


def bot_game(rid: str, seed: int, players: int, level: str) -> tuple[Any, list[tuple[int, Any]]]:
    """A whole game of bots: its options and its commands."""
    ruleset = registry.get(rid)
    options = ruleset.parse_options({})
    state = ruleset.new_game(seed, players, options)
    rngs = [random.Random(seed * 7919 + seat) for seat in range(players)]
    commands: list[tuple[int, Any]] = []
    while not ruleset.is_over(state):
        seat = ruleset.awaited(state)[0]
        command = bot_command(level, ruleset, state, seat, rngs[seat])
        state, _ = ruleset.apply(state, seat, command)
        commands.append((seat, command))
    return options, commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", choices=registry.ruleset_ids())
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    profiler: Any = None
    if args.profile:
        from pyinstrument import Profiler
        profiler = Profiler()
    print(f"analysis CPU time per game: {args.games} bot games ({args.level}) of {args.players} players per rule set")
    print(f"{'rule set':<8} {'steps (min-median-max)':>24} {'CPU s/game median':>18} {'worst':>7} "
          f"{'CPU ms/100 steps':>17}")
    for rid in args.ruleset or registry.ruleset_ids():
        ruleset = registry.get(rid)
        games = [(SEED + i, *bot_game(rid, SEED + i, args.players, args.level)) for i in range(args.games)]
        gc.collect()
        cpu: list[float] = []
        per_100: list[float] = []
        for seed, options, commands in games:
            if profiler is not None:
                profiler.start()
            started = time.process_time()
            analyse(ruleset, seed, args.players, options, commands)
            spent = time.process_time() - started
            if profiler is not None:
                profiler.stop()
            cpu.append(spent)
            per_100.append(spent * 1000 * 100 / len(commands))
        steps = sorted(len(c) for _, _, c in games)
        print(f"{rid:<8} {f'{steps[0]}-{int(statistics.median(steps))}-{steps[-1]}':>24} "
              f"{statistics.median(cpu):>18.3f} {max(cpu):>7.3f} {statistics.median(per_100):>17.2f}")
    if profiler is not None:
        print(profiler.output_text(unicode=False, color=False, show_all=False))


if __name__ == "__main__":
    main()
