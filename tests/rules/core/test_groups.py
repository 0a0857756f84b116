"""Group kinds, lay-down and hit validation with precise error codes (C-2, C-3, C-4, C-6)."""

from __future__ import annotations

import pytest

from app.rules.core.cards import Card, CardKind, Colour
from app.rules.core.errors import IllegalMove, InvalidOptions
from app.rules.core.groups import End, GroupKind, JokerPolicy, build_group, extend_group, validate_laydown
from app.rules.core.phases import parse_phase_list

S, RN, C, CR = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR, GroupKind.COLOUR_RUN
ONE = JokerPolicy({k: 1 for k in GroupKind})
TWO_IN_RUNS = JokerPolicy({S: 1, C: 1, RN: 2, CR: 2})
_next = iter(range(10_000))


def n(number: int, colour: Colour = Colour.RED) -> Card:
    return Card(next(_next), CardKind.NUMBER, number=number, colour=colour)


def j(low: int = 1, high: int = 12, colours: frozenset[Colour] | None = None) -> Card:
    if colours is None:
        return Card(next(_next), CardKind.JOKER, low=low, high=high)
    return Card(next(_next), CardKind.JOKER, low=low, high=high, colours=colours)


@pytest.mark.parametrize(("kind", "cards", "code"), [
    (S, lambda: [n(5), n(5), n(6)], "set_mixed_numbers"),
    (S, lambda: [n(5), n(5)], "group_too_small"),
    (S, lambda: [j(), j(), j()], "too_few_naturals"),
    (RN, lambda: [n(3), n(4), n(6), n(7)], "run_not_consecutive"),
    (RN, lambda: [n(4), n(3), n(5), n(6)], "run_not_consecutive"),
    (RN, lambda: [n(10), n(11), n(12), j()], "run_out_of_bounds"),
    (RN, lambda: [j(), n(1), n(2), n(3)], "run_out_of_bounds"),
    (RN, lambda: [n(12), n(1), n(2), n(3)], "run_not_consecutive"),
    (C, lambda: [n(1), n(5), n(9, Colour.GREEN)], "colour_mismatch"),
    (CR, lambda: [n(1), n(2), n(3, Colour.GREEN)], "colour_mismatch"),
    (S, lambda: [n(5), n(5), Card(999, CardKind.ACTION, action="skip")], "not_a_group_card"),
])
def test_C2_invalid_groups_have_precise_codes(kind: GroupKind, cards: object, code: str) -> None:
    with pytest.raises(IllegalMove) as err:
        build_group(kind, 3, cards(), ONE)  # type: ignore[operator]
    assert err.value.code == code


@pytest.mark.parametrize(("order", "start"), [
    ("3JJ", 3), ("J3J", 2), ("JJ3", 1),
])
def test_C6_joker_position_fixes_its_number(order: str, start: int) -> None:
    """C-6: 3·J·J is 3,4,5; J·3·J is 2,3,4; J·J·3 is 1,2,3."""
    cards = [n(3) if ch == "3" else j() for ch in order]
    group = build_group(RN, 3, cards, ONE)
    assert group.start == start and group.end == start + 2


def test_C6_joker_below_one_is_illegal() -> None:
    with pytest.raises(IllegalMove) as err:
        build_group(RN, 3, [j(), j(), n(2)], ONE)
    assert err.value.code == "run_out_of_bounds"


def test_R4_ranged_joker_must_cover_its_position_and_colour() -> None:
    low = j(1, 6)
    with pytest.raises(IllegalMove) as err:
        build_group(RN, 4, [n(5), n(6), low, n(8)], TWO_IN_RUNS)
    assert err.value.code == "joker_out_of_range"
    with pytest.raises(IllegalMove) as err:
        build_group(C, 3, [n(1), n(2), j(colours=frozenset({Colour.GREEN, Colour.BLUE}))], ONE)
    assert err.value.code == "joker_colour_not_allowed"
    with pytest.raises(IllegalMove) as err:
        build_group(RN, 3, [n(5), j(), j()], TWO_IN_RUNS)
    assert err.value.code == "too_few_naturals"


def test_C3_wrong_group_count_and_cards_not_in_hand() -> None:
    hand = [n(5), n(5), n(5), n(7), n(7), n(7), n(9), n(9), n(9)]
    ids = [c.id for c in hand]
    req = [(S, 3), (S, 3)]
    with pytest.raises(IllegalMove) as err:
        validate_laydown(hand, req, [ids[0:3], ids[3:6], ids[6:9]], ONE)
    assert err.value.code == "wrong_group_count"
    with pytest.raises(IllegalMove) as err:
        validate_laydown(hand, req, [ids[0:3], [ids[3], ids[4], 12345]], ONE)
    assert err.value.code == "card_not_in_hand"
    with pytest.raises(IllegalMove) as err:
        validate_laydown(hand, req, [ids[0:3], [ids[3], ids[4], ids[0]]], ONE)
    assert err.value.code == "duplicate_card"
    groups = validate_laydown(hand, req, [ids[0:3], ids[3:6]], ONE)
    assert [g.number for g in groups] == [5, 7]


def test_C3_groups_may_be_submitted_in_any_order() -> None:
    hand = [n(4), n(5), n(6), n(7), n(9), n(9), n(9)]
    ids = [c.id for c in hand]
    groups = validate_laydown(hand, [(S, 3), (RN, 4)], [ids[0:4], ids[4:7]], ONE)
    assert [g.kind for g in groups] == [RN, S]


def test_C4_hits_at_either_end_within_bounds() -> None:
    run = build_group(RN, 4, [n(3), n(4), n(5), n(6)], ONE)
    assert extend_group(run, n(2), ONE).start == 2
    assert extend_group(run, n(7), ONE).end == 7
    with pytest.raises(IllegalMove) as err:
        extend_group(run, n(9), ONE)
    assert err.value.code == "hit_does_not_fit"
    low = extend_group(run, j(), ONE, End.LOW)
    assert low.start == 2 and low.cards[0].is_joker
    top = build_group(RN, 4, [n(9), n(10), n(11), n(12)], ONE)
    assert extend_group(top, j(), ONE).start == 8  # the high end is closed: the joker goes low
    full = build_group(RN, 12, [n(k) for k in range(1, 13)], ONE)
    with pytest.raises(IllegalMove) as err:
        extend_group(full, j(), ONE)
    assert err.value.code == "run_full"
    board = JokerPolicy({k: 1 for k in GroupKind}, hit_on_complete=True)
    assert extend_group(full, j(), board).extra == 1
    with pytest.raises(IllegalMove) as err:
        extend_group(top, n(1), ONE)  # C-1: 12 and 1 are never adjacent
    assert err.value.code == "hit_does_not_fit"


def test_C4_hits_on_sets_and_colour_groups() -> None:
    sevens = build_group(S, 3, [n(7), n(7, Colour.GREEN), j()], ONE)
    assert len(extend_group(sevens, n(7, Colour.BLUE), ONE).cards) == 4
    with pytest.raises(IllegalMove) as err:
        extend_group(sevens, n(4), ONE)
    assert err.value.code == "hit_does_not_fit"
    greens = build_group(C, 7, [n(k, Colour.GREEN) for k in range(1, 8)], ONE)
    assert len(extend_group(greens, n(12, Colour.GREEN), ONE).cards) == 8
    with pytest.raises(IllegalMove):
        extend_group(greens, n(12, Colour.RED), ONE)


def test_B11_custom_phase_lists_are_validated() -> None:
    phases = parse_phase_list([[{"kind": "set", "size": 3}, {"kind": "run", "size": 4}]])
    assert phases[0].describe() == "1 set of 3 + 1 run of 4"
    for bad, where in [([], "phases"), ([[{"kind": "pair", "size": 2}]], "phases[0][0]"),
                       ([[{"kind": "run", "size": 2}]], "phases[0][0]"),
                       ([[{"kind": "set", "size": 6}, {"kind": "set", "size": 6}]], "phases[0]")]:
        with pytest.raises(InvalidOptions) as err:
            parse_phase_list(bad)
        assert err.value.field == where
