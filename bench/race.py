"""How a four-seat win rate follows from how often each seat makes its phase: a model of the race, not a game.

    python bench/race.py [--rates 0.627,0.622,0.622,0.622] [--games 100000] [--seed 1] [--target 0.35]

Each seat makes its phase in a round with its own fixed chance, independently of the others and of earlier
rounds (C-5: a phase made moves its player on); the first round in which a seat completes the last phase ends
the game, and seats that complete it in the same round share the win (the card games' points are not modelled,
M-8). Prints the first seat's modelled win rate, and with ``--target`` the chance per round the first seat would
need, the others' staying as given, to win that share. ``docs/bots.md`` compares the model with the simulator.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

PHASES = 10


def win_rate(rates: Sequence[float], games: int, seed: int = 1, phases: int = PHASES) -> float:
    """The first seat's share of ``games`` modelled races (a shared win counts as a share)."""
    rng = random.Random(seed)
    won = 0.0
    for _ in range(games):
        done = [0] * len(rates)
        while True:
            for seat, rate in enumerate(rates):
                if rng.random() < rate:
                    done[seat] += 1
            finished = [seat for seat, count in enumerate(done) if count >= phases]
            if finished:
                won += (0 in finished) / len(finished)
                break
    return won / games


def needed(rates: Sequence[float], target: float, games: int, seed: int = 1) -> float:
    """The first seat's chance per round that wins ``target`` of the races (bisection to half a point)."""
    low, high = 0.0, 1.0
    while high - low > 0.005:
        mid = (low + high) / 2
        if win_rate([mid, *rates[1:]], games, seed) < target:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="0.627,0.622,0.622,0.622",
                        help="each seat's chance of making its phase in a round, the first seat first")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=float, default=None, help="a win share for the first seat")
    args = parser.parse_args()
    rates = [float(r) for r in args.rates.split(",")]
    print(f"rates {rates}: the first seat wins {win_rate(rates, args.games, args.seed):.1%} of {args.games} races")
    if args.target is not None:
        need = needed(rates, args.target, args.games, args.seed)
        print(f"to win {args.target:.0%} it must make its phase in about {need:.1%} of the rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
