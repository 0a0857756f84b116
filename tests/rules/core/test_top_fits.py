"""The discard pile's top card fits its drawer's phase (C-3, C-4): the prompt's ``discard_fits`` flag."""

from __future__ import annotations

from app.rules import registry
from app.rules.core.cards import Card, CardKind, Colour
from app.rules.core.groups import GroupKind, build_group
from app.rules.core.solver import top_fits
from app.rules.mattel.deck import WILDS

SETS = [(GroupKind.SET, 3), (GroupKind.SET, 3)]


def n(i: int, number: int, colour: Colour = Colour.RED) -> Card:
    return Card(i, CardKind.NUMBER, number=number, colour=colour)


def test_C3_top_fits_when_it_completes_the_phase() -> None:
    hand = [n(1, 5), n(2, 5), n(3, 5), n(4, 9), n(5, 9), n(6, 2)]
    assert top_fits(hand, n(7, 9, Colour.BLUE), SETS, WILDS, False, [])
    assert not top_fits(hand, n(7, 4), SETS, WILDS, False, [])


def test_C3_top_does_not_fit_a_phase_the_hand_lays_alone() -> None:
    hand = [n(1, 5), n(2, 5), n(3, 5), n(4, 9), n(5, 9), n(6, 9)]
    assert not top_fits(hand, n(7, 9, Colour.BLUE), SETS, WILDS, False, [])


def test_C4_top_fits_a_laid_group_once_down() -> None:
    group = build_group(GroupKind.SET, 3, (n(1, 8), n(2, 8), n(3, 8)), WILDS)
    assert top_fits([n(4, 1)], n(5, 8, Colour.GREEN), SETS, WILDS, True, [group])
    assert not top_fits([n(4, 1)], n(5, 7), SETS, WILDS, True, [group])


def test_draw_prompts_carry_discard_fits_matching_the_hand() -> None:
    for ruleset_id in ("mattel", "master"):
        ruleset = registry.get(ruleset_id)
        state = ruleset.new_game(11, 3, ruleset.parse_options({}))
        seen = set()
        for _ in range(400):
            if ruleset.is_over(state):
                break
            seat = ruleset.awaited(state)[0]
            prompt = ruleset.player_view(state, seat)["prompt"] or {}
            if prompt.get("action") == "draw":
                assert isinstance(prompt["discard_fits"], bool)
                seen.add(prompt["discard_fits"])
                if "discard" not in prompt["piles"]:
                    assert prompt["discard_fits"] is False
            legal = list(ruleset.legal_commands(state, seat))
            state, _ = ruleset.apply(state, seat, legal[0])
        assert seen == {True, False}, (ruleset_id, seen)
