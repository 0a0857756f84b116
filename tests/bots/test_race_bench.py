"""bench/race.py models a game as a race of phases (C-5): the win share follows each seat's chance per round."""

from __future__ import annotations

from bench import race


def test_equal_seats_share_the_wins_and_a_likelier_one_wins_more() -> None:
    even = race.win_rate([0.62] * 4, 4000, seed=3)
    assert 0.22 < even < 0.28
    assert race.win_rate([0.72, 0.62, 0.62, 0.62], 4000, seed=3) > even + 0.1
    assert race.win_rate([0.62, 0.62], 4000, seed=3) > 0.45


def test_a_seat_that_always_lays_wins_or_shares_every_race() -> None:
    assert race.win_rate([1.0, 0.5], 200, seed=1) > 0.95
    assert race.win_rate([1.0, 1.0], 50, seed=1) == 0.5


def test_the_needed_chance_wins_the_target_share() -> None:
    need = race.needed([0.0, 0.62, 0.62, 0.62], 0.35, 3000, seed=2)
    assert 0.62 < need < 0.75
    assert race.win_rate([need, 0.62, 0.62, 0.62], 3000, seed=2) >= 0.33
