"""Play many bot-only games in-process (no server) and print a table of figures.

    python -m app.bots.simulate --ruleset mattel --players 2 --games 100 --bots normal,easy
    python -m app.bots.simulate --ruleset board --players 4 --games 1000 --bots hard,normal,normal,normal
    python -m app.bots.simulate --ruleset master --rating --games 300

Bots rotate through the seats from game to game so that no bot keeps the first seat. With fewer bots than
players the list is repeated. A shared win (a tie the rules leave shared) counts for each winner. Every level
at the table gets its win rate (its wins over the games times its seats) with a 95 % Wilson score interval.
Per level it also prints where rounds are won or lost: the share of rounds its seats laid their phase (C-3,
C-5) and went out, the cards they held when a round ended, and their draws from the discard pile.
``--rating`` plays a round robin of heads-up matches between the levels (``--games`` per pair) and rates them
with ``openskill`` (Plackett-Luce; winners ranked first, a shared win a tie).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

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
    winners: list[list[int]] = field(default_factory=list)  # per game, in order: the winning entries
    # level -> phase -> [first attempts, made]
    first_try: dict[str, dict[int, list[int]]] = field(default_factory=lambda: defaultdict(dict))
    # level -> [rounds, phase laid, went out, cards left at round end, discard-pile draws] (driver.GameRecord)
    round_stats: dict[str, list[int]] = field(default_factory=dict)

    def add(self, record: GameRecord, seat_bot: Sequence[int]) -> None:
        self.games += 1
        for seat in record.winners:
            self.wins[seat_bot[seat]] += 1
        self.winners.append(sorted({seat_bot[seat] for seat in record.winners}))
        self.rounds.append(record.rounds)
        self.turns.append(record.turns)
        self.commands += record.commands
        for seat, figures in record.round_stats.items():
            self._add_round_stats(self.bots[seat_bot[seat]], figures)
        for seat, phases in record.first_try.items():
            level = self.bots[seat_bot[seat]]
            for number, (tries, made) in phases.items():
                cell = self.first_try[level].setdefault(number, [0, 0])
                cell[0] += tries
                cell[1] += made

    def _add_round_stats(self, level: str, figures: Sequence[int]) -> None:
        cell = self.round_stats.setdefault(level, [0] * len(figures))
        self.round_stats[level] = [a + b for a, b in zip(cell, figures, strict=True)]

    def merge(self, other: Summary) -> None:
        """Add the figures of ``other`` (later games of the same match)."""
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.winners += other.winners
        self.rounds += other.rounds
        self.turns += other.turns
        self.commands += other.commands
        for level, figures in other.round_stats.items():
            self._add_round_stats(level, figures)
        for level, phases in other.first_try.items():
            for number, (tries, made) in phases.items():
                cell = self.first_try[level].setdefault(number, [0, 0])
                cell[0] += tries
                cell[1] += made

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(ruleset_id: str, players: int, games: int, bots: Sequence[str], seed: int = 1,
             options: dict[str, object] | None = None, jobs: int = 1, progress: int = 0) -> Summary:
    """Play ``games`` games and collect the figures; ``jobs`` worker processes share the games (the figures are
    the same as with one: game ``i`` always has seed ``seed + i`` and the same seating). With one job and
    ``progress`` > 0 the figures so far are printed every ``progress`` games."""
    ruleset = registry.get(ruleset_id)
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise ValueError(f"{ruleset_id} is for {ruleset.min_players}-{ruleset.max_players} players")
    for level in bots:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; one of {sorted(LEVELS)}")
    if len(bots) > players:
        raise ValueError("more bots than players")
    entries = [bots[i % len(bots)] for i in range(players)]
    start = time.perf_counter()
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        summary = _play(ruleset_id, players, entries, range(games), seed, options, progress)
    else:
        bounds = [games * j // jobs for j in range(jobs + 1)]
        chunks = [range(bounds[j], bounds[j + 1]) for j in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_play, *zip(*[(ruleset_id, players, entries, chunk, seed, options)
                                                 for chunk in chunks], strict=True)))
        summary = parts[0]
        for part in parts[1:]:
            summary.merge(part)
    summary.seconds = time.perf_counter() - start
    return summary


def _play(ruleset_id: str, players: int, entries: list[str], games: range, seed: int,
          options: dict[str, object] | None, progress: int = 0) -> Summary:
    ruleset = registry.get(ruleset_id)
    summary = Summary(ruleset_id, players, entries, wins=[0] * players)
    start = time.perf_counter()
    for game in games:
        seat_bot = [(seat + game) % players for seat in range(players)]
        levels = [entries[b] for b in seat_bot]
        summary.add(play_game(ruleset, levels, seed + game, options), seat_bot)
        if progress and summary.games % progress == 0 and summary.games < len(games):
            summary.seconds = time.perf_counter() - start
            print(f"-- after {summary.games} games\n{render(summary)}\n", flush=True)
    return summary


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % for the default ``z``), as fractions."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def level_rates(summary: Summary) -> dict[str, tuple[int, int]]:
    """Level -> (wins, chances): a level seated ``k`` times at each table had ``k`` chances per game."""
    out: dict[str, tuple[int, int]] = {}
    for i, level in enumerate(summary.bots):
        wins, chances = out.get(level, (0, 0))
        out[level] = (wins + summary.wins[i], chances + summary.games)
    return out


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
    lines += ["", f"{'level':<12}{'wins':>8}{'of':>8}{'win %':>9}   95 % interval (Wilson)"]
    for level, (wins, chances) in level_rates(summary).items():
        low, high = wilson(wins, chances)
        rate = 100.0 * wins / chances if chances else 0.0
        lines.append(f"{level:<12}{wins:>8}{chances:>8}{rate:>8.1f}%   {100 * low:.1f}–{100 * high:.1f} %")
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
    lines += ["", "per round a seat played: phase laid, went out, cards left in hand, draws from the discard pile",
              f"{'level':<12}{'rounds':>8}{'laid':>9}{'out':>9}{'left':>8}{'taken':>8}"]
    for level in sorted(summary.round_stats):
        rounds, laid, out, left, taken = summary.round_stats[level]
        if rounds:
            lines.append(f"{level:<12}{rounds:>8}{100 * laid / rounds:>8.1f}%{100 * out / rounds:>8.1f}%"
                         f"{left / rounds:>8.2f}{taken / rounds:>8.2f}")
    per_game = summary.seconds / summary.games if summary.games else 0.0
    lines += ["", f"seconds per game  {per_game:.2f}",
              f"games per second  {summary.games_per_second:.2f}  "
              f"({summary.commands} commands, {summary.commands / summary.seconds if summary.seconds else 0:.0f}"
              " commands/s)"]
    return "\n".join(lines)


@dataclass
class Rating:
    level: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate ``mu - 3 sigma`` that ranks the levels."""
        return self.mu - 3 * self.sigma


def rate(ruleset_id: str, games: int, levels: Sequence[str], seed: int = 1,
         options: dict[str, object] | None = None, jobs: int = 1) -> tuple[list[Rating], list[Summary]]:
    """A round robin of heads-up matches (``games`` per pair of ``levels``) rated with openskill's
    Plackett-Luce model, one rating update per game in the order the games were dealt."""
    model = PlackettLuce()
    ratings = {level: model.rating(name=level) for level in levels}
    summaries: list[Summary] = []
    for a, first in enumerate(levels):
        for second in levels[a + 1:]:
            pair = [first, second]
            summary = simulate(ruleset_id, 2, games, pair, seed, options, jobs)
            summaries.append(summary)
            for won in summary.winners:
                ranks = [0.0 if i in won else 1.0 for i in range(2)]
                [[ra], [rb]] = model.rate([[ratings[first]], [ratings[second]]], ranks=ranks)
                ratings[first], ratings[second] = ra, rb
    out = [Rating(level, r.mu, r.sigma) for level, r in ratings.items()]
    return sorted(out, key=lambda r: -r.ordinal), summaries


def render_ratings(ruleset_id: str, ratings: Sequence[Rating], summaries: Sequence[Summary]) -> str:
    lines = [f"rule set {ruleset_id} · round robin, heads-up · openskill Plackett-Luce", "",
             f"{'match':<18}{'games':>7}   first's win % (95 % interval)"]
    for summary in summaries:
        wins, games = summary.wins[0], summary.games
        low, high = wilson(wins, games)
        rate_ = 100.0 * wins / games if games else 0.0
        lines.append(f"{' v '.join(summary.bots):<18}{games:>7}   {rate_:.1f} % ({100 * low:.1f}–{100 * high:.1f} %)")
    lines += ["", f"{'level':<10}{'mu':>8}{'sigma':>8}{'ordinal':>9}"]
    lines += [f"{r.level:<10}{r.mu:>8.2f}{r.sigma:>8.2f}{r.ordinal:>9.2f}" for r in ratings]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.bots.simulate", description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="mattel", choices=registry.ruleset_ids())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", default="normal,easy", help="comma-separated bot levels, one per seat")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (game i uses seed+i)")
    parser.add_argument("--options", default="{}", help="table options as JSON")
    parser.add_argument("--rating", action="store_true",
                        help="rate the levels of --levels from a round robin of heads-up matches (--games each)")
    parser.add_argument("--levels", default="easy,normal,hard", help="the levels of --rating")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes sharing the games")
    parser.add_argument("--progress", type=int, default=0, help="with one job: print the figures every N games")
    args = parser.parse_args(argv)
    try:
        if args.rating:
            levels = [b.strip() for b in args.levels.split(",")]
            for level in levels:
                if level not in LEVELS:
                    raise ValueError(f"unknown bot level {level!r}; one of {sorted(LEVELS)}")
            ratings, summaries = rate(args.ruleset, args.games, levels, args.seed, json.loads(args.options),
                                      args.jobs)
            print(render_ratings(args.ruleset, ratings, summaries))
            return 0
        summary = simulate(args.ruleset, args.players, args.games, [b.strip() for b in args.bots.split(",")],
                           args.seed, json.loads(args.options), args.jobs, args.progress)
    except ValueError as err:
        parser.error(str(err))
    print(render(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
