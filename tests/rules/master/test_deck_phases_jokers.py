"""R-1 deck, R-2 ranged jokers, R-3 phases as data, R-4 joker constraints on lay-down and hits."""

from __future__ import annotations

from collections import Counter

import pytest

from app.rules.core.errors import IllegalMove
from app.rules.core.groups import End, GroupKind, build_group, extend_group, validate_laydown
from app.rules.core.solver import find_laydown
from app.rules.master.deck import DECK, PHASES, RANGED_JOKERS
from tests.rules.master.helpers import cards, ids


def test_R1_deck_has_128_cards_with_distinct_ids() -> None:
    assert len(DECK) == 128
    assert sorted(c.id for c in DECK) == list(range(128))
    kinds = Counter(c.kind.value for c in DECK)
    assert kinds == {"number": 96, "joker": 14, "action": 18}


def test_R1_number_cards_twice_per_colour() -> None:
    faces = Counter((c.colour, c.number) for c in DECK if c.is_natural)
    assert len(faces) == 48 and set(faces.values()) == {2}


def test_R1_action_cards() -> None:
    actions = Counter(c.action for c in DECK if c.action is not None)
    assert actions == {"take_two": 4, "all_mine": 4, "skip": 6, "give_me_five": 4}


def test_R2_fourteen_ranged_jokers() -> None:
    jokers = [c for c in DECK if c.is_joker]
    assert len(jokers) == 14
    combos = Counter(((c.low, c.high), c.colours) for c in jokers)
    assert set(combos.values()) == {1}
    assert {r for r, _ in combos} == {(1, 6), (7, 12)}
    sizes = Counter(len(cs) for _, cs in combos)
    assert sizes == {2: 12, 4: 2}


def test_R3_ten_phases_as_data() -> None:
    assert [p.describe() for p in PHASES] == [
        "4 sets of 2", "6 cards of one colour", "1 set of 4 + 1 run of 4", "1 run of 8",
        "7 cards of one colour", "1 run of 9", "2 sets of 4", "1 colour run of 4 + 1 set of 3",
        "1 set of 5 + 1 set of 3", "1 set of 5 + 1 colour run of 3",
    ]


S, R, C, CR = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR, GroupKind.COLOUR_RUN

# (case id, kind, min size, cards in laid order, error code or None)
GROUP_CASES = [
    ("set_one_natural_ok", S, 2, "r8 J7-12:ry", None),
    ("set_jokers_only", S, 2, "J7-12:ry J7-12:gb", "too_few_naturals"),
    ("set_joker_out_of_range", S, 2, "r8 J1-6:all", "joker_out_of_range"),
    ("set_mixed_numbers", S, 2, "r8 g9", "set_mixed_numbers"),
    ("colour_one_natural_ok", C, 6, "g1 J1-6:gb J1-6:rg J7-12:gb J7-12:rg J7-12:all", None),
    ("colour_joker_colour_not_allowed", C, 2, "g1 J1-6:ry", "joker_colour_not_allowed"),
    ("colour_jokers_only", C, 2, "J1-6:ry J7-12:ry", "too_few_naturals"),
    ("run_two_naturals_ok", R, 4, "r3 J1-6:ry J1-6:gb b6", None),
    ("run_needs_two_naturals", R, 4, "r3 J1-6:ry J1-6:gb J1-6:all", "too_few_naturals"),
    ("run_joker_outside_its_range", R, 4, "r4 y5 g6 J1-6:all", "joker_out_of_range"),
    ("run_joker_high_range_ok", R, 4, "r4 y5 g6 J7-12:all", None),
    ("run_12_1_not_adjacent", R, 3, "r11 y12 g1", "run_not_consecutive"),
    ("run_joker_past_12", R, 3, "r11 y12 J7-12:all", "run_out_of_bounds"),
    ("colour_run_ok", CR, 4, "g8 g9 g10 g11", None),
    ("colour_run_mixed_colours", CR, 3, "g8 g9 r10", "colour_mismatch"),
    ("colour_run_needs_two_naturals", CR, 3, "g8 J7-12:gb J7-12:rg", "too_few_naturals"),
    ("colour_run_joker_colour_not_allowed", CR, 3, "g8 g9 J7-12:ry", "joker_colour_not_allowed"),
    ("colour_run_joker_range_and_colour_ok", CR, 3, "g5 g6 J7-12:gb", None),
    ("colour_run_joker_colour_ok_range_not", CR, 3, "g7 g8 J1-6:gb", "joker_out_of_range"),
]


@pytest.mark.parametrize(("kind", "size", "spec", "error"), [c[1:] for c in GROUP_CASES],
                         ids=[c[0] for c in GROUP_CASES])
def test_R4_group_constraints(kind: GroupKind, size: int, spec: str, error: str | None) -> None:
    group = list(cards(spec))
    if error is None:
        build_group(kind, size, group, RANGED_JOKERS)
    else:
        with pytest.raises(IllegalMove) as err:
            build_group(kind, size, group, RANGED_JOKERS)
        assert err.value.code == error


def test_R4_run_needs_two_naturals() -> None:
    with pytest.raises(IllegalMove, match="too_few_naturals"):
        build_group(R, 8, list(cards("r1 J1-6:ry J1-6:gb J1-6:rg J1-6:all J1-6:yb J7-12:ry J7-12:all")),
                    RANGED_JOKERS)
    build_group(R, 8, list(cards("r1 J1-6:ry J1-6:gb J1-6:rg J1-6:all J1-6:yb y7 J7-12:all")), RANGED_JOKERS)


def test_R3_rulebook_phase1_may_repeat_numbers() -> None:
    """Rulebook: phase 1 (four pairs) may be laid as 3/3, 3/3, 7/7, 7/7."""
    hand = cards("r3 y3 g3 b3 r7 y7 g7 b7 r1")
    groups = (ids(hand[0:2]), ids(hand[2:4]), ids(hand[4:6]), ids(hand[6:8]))
    laid = validate_laydown(hand, PHASES[0].requirement, groups, RANGED_JOKERS)
    assert [g.number for g in laid] == [3, 3, 7, 7]


def test_R3_rulebook_astrid_phase1() -> None:
    """Rulebook: Astrid lays 4/4, 8/8, 8/8, 11/11 as phase 1; the solver finds it too."""
    hand = cards("r4 y4 r8 y8 g8 b8 r11 y11 g2 b5 r12")
    assert find_laydown(hand, PHASES[0].requirement, RANGED_JOKERS) is not None


def test_R3_whole_phase_only() -> None:
    """C-3 / rulebook: never part of a phase — two of the four pairs are refused."""
    hand = cards("r3 y3 r7 y7")
    with pytest.raises(IllegalMove, match="wrong_group_count"):
        validate_laydown(hand, PHASES[0].requirement, (ids(hand[0:2]), ids(hand[2:4])), RANGED_JOKERS)


def test_R4_rulebook_green_colour_run_extended_by_green_7_and_12() -> None:
    """Rulebook: Bernd's phase 8 (green 8/9/10/11 + 3/3/3) takes a green 7 (then 6, 5 ...) and a green 12."""
    hand = cards("g8 g9 g10 g11 r3 y3 b3 g7 g12 g6 g5 r12 J7-12:ry J1-6:gb")
    laid = validate_laydown(hand, PHASES[7].requirement, (ids(hand[0:4]), ids(hand[4:7])), RANGED_JOKERS)
    run = laid[0]
    g7, g12, g6, g5, r12, j_ry, j_gb = hand[7:14]
    for bad, code in ((r12, "hit_does_not_fit"), (j_ry, "joker_colour_not_allowed")):
        with pytest.raises(IllegalMove) as err:
            extend_group(run, bad, RANGED_JOKERS, End.HIGH)
        assert err.value.code == code
    run = extend_group(run, g7, RANGED_JOKERS)
    run = extend_group(run, g12, RANGED_JOKERS)
    run = extend_group(run, g6, RANGED_JOKERS)
    run = extend_group(run, g5, RANGED_JOKERS)
    assert (run.start, run.end) == (5, 12)
    run = extend_group(run, j_gb, RANGED_JOKERS, End.LOW)  # green joker 1-6 stands for green 4
    assert (run.start, run.end) == (4, 12)


def test_R4_rulebook_second_triple_may_not_be_laid() -> None:
    """Rulebook: with phase 8 down, a further triple 9/9/9 or a new colour run green 10/11/12 may not be laid."""
    hand = cards("g8 g9 g10 g11 r3 y3 b3 r9 y9 b9")
    groups = (ids(hand[0:4]), ids(hand[4:7]), ids(hand[7:10]))
    with pytest.raises(IllegalMove, match="wrong_group_count"):
        validate_laydown(hand, PHASES[7].requirement, groups, RANGED_JOKERS)


# (case id, group kind, laid spec, hit card, end, error code or None)
HIT_CASES = [
    ("set_joker_in_range", S, "r8 y8 g8", "J7-12:ry", None, None),
    ("set_joker_out_of_range", S, "r8 y8 g8", "J1-6:all", None, "joker_out_of_range"),
    ("colour_joker_colour_ok", C, "g1 g2 g5 g9 g9 g12", "J1-6:gb", None, None),
    ("colour_joker_colour_bad", C, "g1 g2 g5 g9 g9 g12", "J1-6:ry", None, "joker_colour_not_allowed"),
    ("run_joker_high_end_in_range", R, "r1 y2 g3 b4", "J1-6:ry", End.HIGH, None),
    ("run_joker_high_end_out_of_range", R, "r3 y4 g5 b6", "J1-6:ry", End.HIGH, "joker_out_of_range"),
    ("run_joker_low_end_in_range", R, "r8 y9 g10 b11", "J7-12:ry", End.LOW, None),
    ("run_natural_past_12", R, "r9 y10 g11 b12", "g1", None, "hit_does_not_fit"),
    ("colour_run_natural_wrong_colour", CR, "g8 g9 g10 g11", "r12", None, "hit_does_not_fit"),
    ("colour_run_joker_colour_and_range", CR, "g8 g9 g10 g11", "J7-12:gb", End.HIGH, None),
]


@pytest.mark.parametrize(("kind", "laid", "card", "end", "error"), [c[1:] for c in HIT_CASES],
                         ids=[c[0] for c in HIT_CASES])
def test_R4_hit_constraints(kind: GroupKind, laid: str, card: str, end: End | None, error: str | None) -> None:
    all_cards = cards(f"{laid} {card}")
    group = build_group(kind, 3, list(all_cards[:-1]), RANGED_JOKERS)
    if error is None:
        extend_group(group, all_cards[-1], RANGED_JOKERS, end)
    else:
        with pytest.raises(IllegalMove) as err:
            extend_group(group, all_cards[-1], RANGED_JOKERS, end)
        assert err.value.code == error


@pytest.mark.parametrize("number", range(1, 11))
def test_R3_R4_solver_finds_every_phase(number: int) -> None:
    """Every Master phase can be laid from a suitable hand with ranged jokers (solver + validator)."""
    hands = {
        1: "r1 y1 r2 J1-6:ry r3 y3 g4 b4 r12 r11 r10",
        2: "g1 g3 g5 g9 J7-12:gb J1-6:rg r1 r2 r3 r4 r5",
        3: "r5 y5 g5 J1-6:all r7 y8 J7-12:ry b10 r1 r2 r3",
        4: "r1 y2 J1-6:ry b4 r5 J1-6:gb g7 y8 r12 r12 b12",
        5: "b1 b2 b3 b4 b5 J7-12:yb J7-12:all r1 r2 r3 r4",
        6: "r1 y2 g3 b4 r5 y6 g7 J7-12:ry b9 r12 r12",
        7: "r9 y9 g9 J7-12:all r2 y2 J1-6:ry J1-6:gb r12 g12 b11",
        8: "g3 g4 J1-6:gb g6 r9 y9 J7-12:ry r1 r2 y12 b12",
        9: "r6 y6 g6 b6 J1-6:all r11 y11 J7-12:ry r1 r2 b3",
        10: "r6 y6 g6 b6 J1-6:all r9 r10 J7-12:ry g1 g2 b3",
    }
    hand = cards(hands[number])
    assert len(hand) == 11
    assert find_laydown(hand, PHASES[number - 1].requirement, RANGED_JOKERS) is not None
