"""Play many bot-only games in-process (no server) and print a table of figures.

    python -m app.bots.simulate --ruleset mattel --players 2 --games 100 --bots normal,easy

Bots rotate through the seats from game to game so that no bot keeps the first seat. With fewer bots than
players the list is repeated. A shared win (a tie the rules leave shared) counts for each winner.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.rules import registry

from . import LEVELS
from .driver import GameRecord, play_game


@dataclass
class Summary:
    ruleset: str
    players: int
    bots: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    commands: int = 0
    seconds: float = 0.0
    # level -> phase -> [first attempts, made]
    first_try: dict[str, dict[int, list[int]]] = field(default_factory=lambda: defaultdict(dict))

    def add(self, record: GameRecord, seat_bot: Sequence[int]) -> None:
        self.games += 1
        for seat in record.winners:
            self.wins[seat_bot[seat]] += 1
        self.rounds.append(record.rounds)
        self.turns.append(record.turns)
        self.commands += record.commands
        for seat, phases in record.first_try.items():
            level = self.bots[seat_bot[seat]]
            for number, (tries, made) in phases.items():
                cell = self.first_try[level].setdefault(number, [0, 0])
                cell[0] += tries
                cell[1] += made

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(ruleset_id: str, players: int, games: int, bots: Sequence[str], seed: int = 1,
             options: dict[str, object] | None = None) -> Summary:
    """Play ``games`` games and collect the figures."""
    ruleset = registry.get(ruleset_id)
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise ValueError(f"{ruleset_id} is for {ruleset.min_players}-{ruleset.max_players} players")
    for level in bots:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; one of {sorted(LEVELS)}")
    if len(bots) > players:
        raise ValueError("more bots than players")
    entries = [bots[i % len(bots)] for i in range(players)]
    summary = Summary(ruleset_id, players, entries, wins=[0] * players)
    start = time.perf_counter()
    for game in range(games):
        seat_bot = [(seat + game) % players for seat in range(players)]
        levels = [entries[b] for b in seat_bot]
        summary.add(play_game(ruleset, levels, seed + game, options), seat_bot)
    summary.seconds = time.perf_counter() - start
    return summary


def _mean(values: Sequence[int]) -> str:
    if not values:
        return "-"
    return f"{sum(values) / len(values):.1f} (min {min(values)}, max {max(values)})"


def render(summary: Summary) -> str:
    """The printed table."""
    lines = [f"rule set {summary.ruleset} · {summary.players} players · {summary.games} games · "
             f"bots {','.join(summary.bots)}", "", f"{'bot':<12}{'wins':>8}{'win %':>9}"]
    for i, level in enumerate(summary.bots):
        share = 100.0 * summary.wins[i] / summary.games if summary.games else 0.0
        lines.append(f"{f'{i}:{level}':<12}{summary.wins[i]:>8}{share:>8.1f}%")
    lines += ["", f"rounds per game   {_mean(summary.rounds)}", f"turns per game    {_mean(summary.turns)}",
              "", "phase made on the first try (made / tried)"]
    numbers = sorted({n for phases in summary.first_try.values() for n in phases})
    lines.append(f"{'phase':<12}" + "".join(f"{n:>12}" for n in numbers))
    for level in sorted(summary.first_try):
        row = []
        for n in numbers:
            tries, made = summary.first_try[level].get(n, [0, 0])
            row.append(f"{100 * made / tries:5.0f}% {made:>2}/{tries:<3}" if tries else f"{'-':>12}")
        lines.append(f"{level:<12}" + "".join(f"{c:>12}" for c in row))
    lines += ["", f"games per second  {summary.games_per_second:.2f}  "
              f"({summary.commands} commands, {summary.commands / summary.seconds if summary.seconds else 0:.0f}"
              " commands/s)"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.bots.simulate", description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="mattel", choices=registry.ruleset_ids())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", default="normal,easy", help="comma-separated bot levels, one per seat")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (game i uses seed+i)")
    parser.add_argument("--options", default="{}", help="table options as JSON")
    args = parser.parse_args(argv)
    try:
        summary = simulate(args.ruleset, args.players, args.games, [b.strip() for b in args.bots.split(",")],
                           args.seed, json.loads(args.options))
    except ValueError as err:
        parser.error(str(err))
    print(render(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
