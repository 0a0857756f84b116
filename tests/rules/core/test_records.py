"""The engine's fast ``replace`` (C-10: states are immutable values; every command returns a copy) behaves
exactly like ``dataclasses.replace``."""

from __future__ import annotations

import dataclasses
from dataclasses import FrozenInstanceError, InitVar, dataclass, field

import pytest

from app.rules import registry
from app.rules.core.cards import Card, CardKind
from app.rules.core.groups import GroupKind, LaidGroup
from app.rules.core.records import replace
from app.rules.core.table import Piles, Player


def test_C10_replace_copies_like_dataclasses_replace() -> None:
    card = Card(3, CardKind.NUMBER, number=4)
    player = Player(hand=(card,), phase=2, laid=True, score=7)
    for changes in ({}, {"hand": ()}, {"phase": 3, "score": 9}, {"hand": (), "phase": 0, "laid": False, "score": 1}):
        copy = replace(player, **changes)
        assert copy == dataclasses.replace(player, **changes)
        assert copy is not player and type(copy) is Player
    assert player == Player(hand=(card,), phase=2, laid=True, score=7)  # the original is untouched
    group = LaidGroup(1, GroupKind.RUN, (card,), start=4)
    assert replace(group, start=3, extra=1) == LaidGroup(1, GroupKind.RUN, (card,), start=3, extra=1)
    assert replace(Piles(), rebuilds=2) == Piles(rebuilds=2)


def test_C10_replace_copies_every_rule_sets_state() -> None:
    for rid in registry.ruleset_ids():
        ruleset = registry.get(rid)
        state = ruleset.new_game(5, 3, ruleset.parse_options({}))
        copy = replace(state, round=state.round + 1)
        assert copy == dataclasses.replace(state, round=state.round + 1)
        assert copy != state and replace(copy, round=state.round) == state


def test_C10_replaced_records_stay_frozen_unknown_fields_refused() -> None:
    copy = replace(Player(), score=1)
    with pytest.raises(FrozenInstanceError):
        copy.score = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        replace(Player(), hnd=())  # type: ignore[call-arg]


@dataclass
class Mutable:
    a: int
    b: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class WithPostInit:
    a: int
    twice: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "twice", self.a * 2)


@dataclass(frozen=True, slots=True)
class WithInitVar:
    a: int
    scale: InitVar[int] = 1
    scaled: int = field(init=False, default=0)

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, "scaled", self.a * scale)


def test_C10_replace_falls_back_to_dataclasses_for_other_classes() -> None:
    assert replace(Mutable(1, [2]), a=3) == Mutable(3, [2])
    assert replace(WithPostInit(2), a=5).twice == 10
    assert replace(WithInitVar(2, 3), a=4, scale=5).scaled == 20
    with pytest.raises(TypeError):
        replace(object(), a=1)  # type: ignore[type-var]


@dataclass(frozen=True, slots=True)
class WithOwnInit:
    a: int
    b: int = 0

    def __init__(self, a: int, b: int = 0) -> None:
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", a + b)


def test_C10_replace_runs_a_hand_written_init_like_dataclasses() -> None:
    assert replace(WithOwnInit(1, 2), b=5) == dataclasses.replace(WithOwnInit(1, 2), b=5) == WithOwnInit(1, 5)
    assert replace(WithOwnInit(1, 2), b=5).b == 6
