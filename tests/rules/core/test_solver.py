"""The solver is exact (C-3, C-6, M-5, R-4, B-6): cross-checked against a brute-force search."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.core.cards import ALL_COLOURS, Card, CardKind, Colour
from app.rules.core.errors import IllegalMove
from app.rules.core.groups import GroupKind, JokerPolicy, build_group, validate_laydown
from app.rules.core.solver import find_laydown
from app.rules.mattel.deck import WILDS

MASTER = JokerPolicy({GroupKind.SET: 1, GroupKind.COLOUR: 1, GroupKind.RUN: 2, GroupKind.COLOUR_RUN: 2})
BOARD = JokerPolicy({k: 1 for k in GroupKind}, hit_on_complete=True)
COLOURS = list(Colour)


def natural(i: int, number: int, colour: Colour) -> Card:
    return Card(i, CardKind.NUMBER, number=number, colour=colour)


def joker(i: int, low: int = 1, high: int = 12, colours: frozenset[Colour] = ALL_COLOURS) -> Card:
    return Card(i, CardKind.JOKER, low=low, high=high, colours=colours)


def group_ok(kind: GroupKind, size: int, cards: tuple[Card, ...], policy: JokerPolicy) -> bool:
    orders = itertools.permutations(cards) if kind.is_run else [cards]
    for order in orders:
        try:
            build_group(kind, size, order, policy)
            return True
        except IllegalMove:
            continue
    return False


def brute_force(hand: list[Card], req: list[tuple[GroupKind, int]], policy: JokerPolicy) -> bool:
    """Try every assignment of every card to a group or to nobody, every order of every run."""
    for assignment in itertools.product(range(len(req) + 1), repeat=len(hand)):
        groups = [tuple(c for c, a in zip(hand, assignment, strict=True) if a == g) for g in range(len(req))]
        if all(len(g) >= size for g, (_, size) in zip(groups, req, strict=True)) and all(
                group_ok(kind, size, g, policy) for g, (kind, size) in zip(groups, req, strict=True)):
            return True
    return False


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[Card], list[tuple[GroupKind, int]], JokerPolicy]:
    policy = draw(st.sampled_from([WILDS, MASTER, BOARD]))
    kinds = [GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR, GroupKind.COLOUR_RUN]
    req = [(k, 3 if k.is_run else draw(st.integers(2, 3)))
           for k in draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=2))]
    n = draw(st.integers(3, 7))
    hand = []
    for i in range(n):
        if draw(st.integers(0, 4)) == 0:
            if policy is MASTER:
                low = draw(st.sampled_from([1, 7]))
                colours = frozenset(draw(st.lists(st.sampled_from(COLOURS), min_size=2, max_size=4)))
                hand.append(joker(i, low, low + 5, colours))
            else:
                hand.append(joker(i))
        else:
            hand.append(natural(i, draw(st.integers(4, 9)), draw(st.sampled_from(COLOURS[:3]))))
    return hand, req, policy


@settings(max_examples=250, deadline=None)
@given(cases())
def test_C3_solver_matches_brute_force(case: tuple[list[Card], list[tuple[GroupKind, int]], JokerPolicy]) -> None:
    hand, req, policy = case
    found = find_laydown(hand, req, policy)
    assert (found is not None) == brute_force(hand, req, policy), (hand, req)
    if found is not None:
        validate_laydown(hand, req, found, policy)


def test_R4_solver_lays_a_long_run_when_two_naturals_need_it() -> None:
    """R-4: N J J J N is a run of 5 that is the only way to lay a run of 4 with two naturals."""
    hand = [natural(0, 3, Colour.RED), joker(1, 1, 6), joker(2, 1, 6), joker(3, 1, 6), natural(4, 7, Colour.RED),
            joker(5, 7, 12)]
    found = find_laydown(hand, [(GroupKind.RUN, 4)], MASTER)
    assert found is not None
    (group,) = found
    assert len(group) == 5 and group[0] == 0 and group[-1] == 4


def test_C3_solver_uses_colours_when_a_phase_needs_both() -> None:
    """A set and a colour group compete for the same card: the solver must pick the right copies."""
    red = [natural(i, n, Colour.RED) for i, n in enumerate([1, 2, 3, 4])]
    sevens = [natural(10, 7, Colour.RED), natural(11, 7, Colour.GREEN), natural(12, 7, Colour.YELLOW)]
    req = [(GroupKind.COLOUR, 5), (GroupKind.SET, 2)]
    found = find_laydown(red + sevens, req, WILDS)
    assert found is not None
    assert 10 in found[0] and set(found[1]) == {11, 12}
    assert find_laydown(red + sevens[1:], req, WILDS) is None


@st.composite
def keyed_cases(draw: st.DrawFn) -> tuple[list[Card], list[tuple[GroupKind, int]], JokerPolicy]:
    """Several identical sets or colour groups (B-3 "4 sets of 2"): exercises the solver's symmetry breaking."""
    kind = draw(st.sampled_from([GroupKind.SET, GroupKind.COLOUR]))
    req = [(kind, 2)] * draw(st.integers(2, 3))
    if draw(st.booleans()):
        req.append((GroupKind.COLOUR if kind is GroupKind.SET else GroupKind.SET, 2))
    hand = [joker(i) if draw(st.integers(0, 5)) == 0 else natural(i, draw(st.integers(1, 4)), draw(
        st.sampled_from(COLOURS))) for i in range(draw(st.integers(4, 8)))]
    return hand, req, BOARD


@settings(max_examples=150, deadline=None)
@given(keyed_cases())
def test_C3_solver_matches_brute_force_on_identical_groups(
        case: tuple[list[Card], list[tuple[GroupKind, int]], JokerPolicy]) -> None:
    hand, req, policy = case
    found = find_laydown(hand, req, policy)
    assert (found is not None) == brute_force(hand, req, policy), (hand, req)
