"""The solver's quick count (C-3, R-4) rules a hand out only where the full search finds nothing, so the
solver's answers are the same with and without it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.core.cards import Card, CardKind, Colour
from app.rules.core.groups import GroupKind, JokerPolicy
from app.rules.core.phases import Phase
from app.rules.core.solver import _hopeless, _Search, find_laydown
from app.rules.master.deck import DECK, PHASES, RANGED_JOKERS
from app.rules.mattel.deck import WILDS

from .test_solver import BOARD, MASTER, cases, joker, keyed_cases, natural

S, R, C, CR = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR, GroupKind.COLOUR_RUN
NO_NATURAL = JokerPolicy({k: 0 for k in GroupKind})


def searched(hand: list[Card], req: list[tuple[GroupKind, int]], policy: JokerPolicy) -> object:
    return _Search(hand, req, policy).solve()


@settings(max_examples=300, deadline=None)
@given(cases())
def test_C3_quick_count_rules_out_only_hands_without_a_laydown(
        case: tuple[list[Card], list[tuple[GroupKind, int]], JokerPolicy]) -> None:
    hand, req, policy = case
    if _hopeless(hand, req, policy):
        assert searched(hand, req, policy) is None, (hand, req)


@settings(max_examples=150, deadline=None)
@given(keyed_cases())
def test_C3_quick_count_on_identical_groups(case: tuple[list[Card], list[tuple[GroupKind, int]], JokerPolicy]) -> None:
    hand, req, policy = case
    if _hopeless(hand, req, policy):
        assert searched(hand, req, policy) is None, (hand, req)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(PHASES), st.integers(0, 4))
def test_R4_quick_count_on_master_hands(seed: int, phase: Phase, jokers: int) -> None:
    """Eleven-card Master hands (R-1, R-2) for every phase (R-3): the same answer as the search alone."""
    rnd = random.Random(seed)
    naturals = [c for c in DECK if c.is_natural]
    pool = [c for c in DECK if c.is_joker]
    hand = rnd.sample(naturals, 11 - jokers) + rnd.sample(pool, jokers)
    req = list(phase.requirement)
    expected = searched(hand, req, RANGED_JOKERS)
    assert find_laydown(hand, req, RANGED_JOKERS) == expected
    if _hopeless(hand, req, RANGED_JOKERS):
        assert expected is None


def test_C3_quick_count_rules_out_sets_jokers_cannot_complete() -> None:
    """2 sets of 4 from 7 7 7 | 3 3 | 9 9 and one joker: each set alone could be made, both together need
    three jokers (R-4)."""
    numbers = [7, 7, 7, 3, 3, 9, 9, 1, 5, 11]
    hand = [natural(i, n, list(Colour)[i % 4]) for i, n in enumerate(numbers)] + [joker(20)]
    req = [(S, 4), (S, 4)]
    assert _hopeless(hand, req, MASTER)
    assert searched(hand, req, MASTER) is None and find_laydown(hand, req, MASTER) is None
    hand += [joker(21), joker(22)]  # three jokers: 7 7 7 J + 3 3 J J
    assert not _hopeless(hand, req, MASTER)
    assert find_laydown(hand, req, MASTER) is not None


def test_C3_quick_count_keeps_what_the_search_finds() -> None:
    """Hands just rich enough pass the count and are laid (C-3): a colour run of 4 with two jokers and two
    naturals (R-4), a run of jokers alone under a policy that asks for no natural, and a colour group of 7."""
    red = [natural(0, 3, Colour.RED), natural(1, 6, Colour.RED)]
    hand = red + [joker(2, 1, 6), joker(3, 1, 6), natural(4, 9, Colour.BLUE), natural(5, 9, Colour.GREEN),
                  natural(6, 9, Colour.YELLOW)]
    for req in ([(CR, 4)], [(CR, 4), (S, 3)]):
        assert not _hopeless(hand, req, MASTER)
        assert find_laydown(hand, req, MASTER) is not None
    jokers = [joker(i) for i in range(3)]
    assert not _hopeless(jokers, [(R, 3)], NO_NATURAL)
    assert find_laydown(jokers, [(R, 3)], NO_NATURAL) == searched(jokers, [(R, 3)], NO_NATURAL)
    greens = [natural(i, i + 1, Colour.GREEN) for i in range(6)] + [joker(9)]
    assert not _hopeless(greens, [(C, 7)], WILDS) and find_laydown(greens, [(C, 7)], WILDS) is not None
    assert _hopeless(greens[:5] + [joker(9)], [(C, 7)], WILDS)
    assert _hopeless([Card(0, CardKind.ACTION, action="skip")] * 3, [(S, 2)], BOARD)


def test_R4_quick_count_rules_out_runs_no_window_can_hold() -> None:
    """A run of 8 from 1 2 3 4 and 9 10 11 12: eight numbers, but any 8 consecutive ones hold at most four of
    them, so four jokers are needed (C-6, R-4); with four jokers 1 2 3 4 J J J J is laid. The same for a colour
    run of 6 from red 1 2 3 and red 10 11 12."""
    hand = [natural(i, n, Colour.RED if n < 5 else Colour.BLUE) for i, n in enumerate([1, 2, 3, 4, 9, 10, 11, 12])]
    for jokers in range(4):
        more = hand + [joker(20 + i) for i in range(jokers)]
        assert _hopeless(more, [(R, 8)], MASTER) and searched(more, [(R, 8)], MASTER) is None
    rich = hand + [joker(20 + i) for i in range(4)]
    assert not _hopeless(rich, [(R, 8)], MASTER)
    assert find_laydown(rich, [(R, 8)], MASTER) is not None
    red = [natural(i, n, Colour.RED) for i, n in enumerate([1, 2, 3, 10, 11, 12])]
    for jokers in range(3):
        more = red + [joker(20 + i) for i in range(jokers)]
        assert _hopeless(more, [(CR, 6)], MASTER) and searched(more, [(CR, 6)], MASTER) is None
    rich = red + [joker(20 + i) for i in range(3)]
    assert not _hopeless(rich, [(CR, 6)], MASTER)
    assert find_laydown(rich, [(CR, 6)], MASTER) is not None
