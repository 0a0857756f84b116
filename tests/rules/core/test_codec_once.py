"""C-11 codec: values of an ``encode_once`` class (cards) are encoded once and copied afterwards; the copies
decode to the same value and are independent of each other."""

from __future__ import annotations

import pytest

from app.rules import registry
from app.rules.core import codec
from app.rules.core.cards import Card, CardKind, Colour, as_joker


@pytest.mark.parametrize("ruleset_id", ["mattel", "master", "board"])
def test_c11_a_card_encodes_the_same_each_time_and_decodes_back(ruleset_id: str) -> None:
    ruleset = registry.get(ruleset_id)
    state = ruleset.new_game(3, 4, ruleset.parse_options({}))
    data = ruleset.state_to_json(state)
    assert ruleset.state_from_json(data) == state
    assert ruleset.state_to_json(state) == data  # the second encoding comes from the copies
    cards = [c for p in state.players for c in p.hand] + list(state.piles.draw)
    assert len(cards) > 50
    for card in cards + [as_joker(c) for c in cards[:5]]:
        first, second = codec.to_json(card), codec.to_json(card)
        assert first == second and first is not second
        assert codec.from_json(Card, second) == card


def test_c11_a_caller_changing_an_encoding_leaves_the_next_alone() -> None:
    card = Card(7, CardKind.NUMBER, number=3, colour=Colour.RED)
    first = codec.to_json(card)
    first["id"] = -1
    first["colours"].append("nonsense")
    again = codec.to_json(card)
    assert again["id"] == 7 and "nonsense" not in again["colours"]
