"""Bots finish whole games of every registered rule set with 2-6 players, every command accepted."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.bots import LEVELS
from app.bots.driver import BotError, play_game
from app.bots.simulate import main, render, simulate
from app.rules import registry

RULESETS = registry.ruleset_ids()


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_finish_a_whole_game_without_a_rejected_command(ruleset_id: str, players: int) -> None:
    ruleset = registry.get(ruleset_id)
    if not ruleset.min_players <= players <= ruleset.max_players:
        pytest.skip(f"{ruleset_id} is not for {players} players")
    levels = [("normal", "easy")[seat % 2] for seat in range(players)]
    record = play_game(ruleset, levels, seed=1000 + players)
    assert record.winners, "a finished game has at least one winner"
    assert record.rounds >= 1
    assert record.commands > 0


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_each_level_alone_finishes_games(ruleset_id: str, level: str) -> None:
    ruleset = registry.get(ruleset_id)
    for seed in range(2):
        assert play_game(ruleset, [level] * 3, seed=seed).winners


@pytest.mark.parametrize("options", [{"fixed_rounds": True}, {"phase_selection": "even"}, {"phases_to_win": 3}])
def test_bots_play_the_official_variants(options: dict[str, object]) -> None:
    ruleset = registry.get("mattel")
    assert play_game(ruleset, ["normal", "easy", "normal"], seed=5, options=options).winners


def test_a_rejected_bot_command_fails_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver never swallows an illegal command: a bot that discards a card it lacks raises BotError."""
    from app.rules.core.commands import Discard

    def cheat(ruleset_id, view, legal, rng, memory):  # type: ignore[no-untyped-def]
        return Discard(card=-99)

    monkeypatch.setitem(LEVELS, "cheat", cheat)
    with pytest.raises(BotError, match="rejected"):
        play_game(registry.get("mattel"), ["cheat", "cheat"], seed=1)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_normal_beats_easy_in_two_player_games(ruleset_id: str) -> None:
    """A small, fixed-seed sample of the issue's figure (normal wins >= 70% of 2-player games vs easy)."""
    summary = simulate(ruleset_id, 2, 12, ["normal", "easy"], seed=300)
    assert summary.wins[0] >= 9, summary.wins


def test_simulate_cli_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ruleset", "mattel", "--players", "3", "--games", "2", "--bots", "normal,easy"]) == 0
    out = capsys.readouterr().out
    for needle in ("0:normal", "1:easy", "2:normal", "rounds per game", "turns per game",
                   "phase made on the first try", "games per second"):
        assert needle in out


def test_simulate_rejects_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        simulate("mattel", 2, 1, ["genius"])


def test_wilson_interval_matches_the_textbook_figures() -> None:
    from app.bots.simulate import wilson
    low, high = wilson(60, 100)
    assert round(low, 4) == 0.5020 and round(high, 4) == 0.6906
    assert wilson(0, 10)[0] < 1e-9 and wilson(10, 10)[1] > 1 - 1e-9 and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def test_simulate_with_worker_processes_gives_the_same_figures() -> None:
    one = simulate("board", 2, 4, ["easy", "easy"], seed=40)
    two = simulate("board", 2, 4, ["easy", "easy"], seed=40, jobs=2)
    assert (one.wins, one.winners, one.rounds, one.turns, one.commands) == \
        (two.wins, two.winners, two.rounds, two.turns, two.commands)


_REPLAY = (
    "from app.bots.driver import play_game\n"
    "from app.rules import registry\n"
    "for seed in range(1, 41):\n"
    "    r = play_game(registry.get('board'), ['hard', 'normal'], seed)\n"
    "    print(seed, r.winners, r.rounds, r.turns, r.commands)\n"
)


def test_bot_games_do_not_depend_on_the_interpreters_hash_seed() -> None:
    """A bot is deterministic for a given seed: in another process (another ``PYTHONHASHSEED``, as in a worker
    of the simulator or another server) the same games are played the same way, whatever the order of a set
    (the board game's ask once broke a tie between colours by the order of a set of them)."""
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", _REPLAY], env=env, capture_output=True, text=True, check=True)
        runs.append(done.stdout)
    assert runs[0].count("\n") == 40
    assert runs[0] == runs[1]


def test_simulate_prints_win_rates_with_intervals_and_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ruleset", "board", "--games", "3", "--bots", "easy,easy"]) == 0
    out = capsys.readouterr().out
    assert "95 % interval (Wilson)" in out and "seconds per game" in out
    assert main(["--ruleset", "board", "--rating", "--games", "2", "--levels", "easy,normal"]) == 0
    out = capsys.readouterr().out
    assert "easy v normal" in out and "ordinal" in out
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line.split()[:1] in (["easy"], ["normal"])}
    assert set(lines) == {"easy", "normal"}


def test_round_figures_count_who_laid_and_who_went_out() -> None:
    """Every Mattel round ends by someone going out (M-7); the winner laid all ten phases (M-8); a seat can lay
    at most once a round."""
    record = play_game(registry.get("mattel"), ["normal", "normal"], seed=5)
    stats = record.round_stats
    assert sorted(stats) == [0, 1]
    assert all(stats[seat][0] == record.rounds for seat in stats)
    assert sum(stats[seat][2] for seat in stats) == record.rounds
    assert all(stats[seat][1] <= record.rounds for seat in stats)
    assert all(stats[w][1] >= 10 for w in record.winners)
    summary = simulate("mattel", 2, 2, ["normal", "easy"], seed=5)
    assert {"normal", "easy"} <= set(summary.round_stats)
    table = render(summary)
    for level in ("normal", "easy"):
        rounds, laid, *_ = summary.round_stats[level]
        assert f"{100 * laid / rounds:.1f}%" in table
