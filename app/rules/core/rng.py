"""Seeded, immutable random generator held inside the game state (C-10).

A tiny SplitMix64 generator: its whole state is one 64-bit integer, so it is cheap to store in every
snapshot and a game replays bit for bit from its seed. ``Rng`` is a frozen value; every draw returns the
value together with the advanced generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Rng:
    """SplitMix64 state (C-10). Never exposed in a player view (C-9)."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK)

    def next64(self) -> tuple[int, Rng]:
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``0 .. n-1`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            value, rng = rng.next64()
            if value < limit:
                return value % n, rng

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher-Yates shuffle of ``items`` (C-10)."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    def dice(self, count: int = 2, sides: int = 6) -> tuple[tuple[int, ...], Rng]:
        """Roll ``count`` dice of ``sides`` faces (B-5)."""
        rng = self
        values = []
        for _ in range(count):
            v, rng = rng.below(sides)
            values.append(v + 1)
        return tuple(values), rng
