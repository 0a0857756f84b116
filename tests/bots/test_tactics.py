"""The normal bot's judgement on hand-made views: solver distance, draws, discards, skips, fields."""

from __future__ import annotations

import random
from typing import Any

from app.bots import choose
from app.bots.evaluate import closer, distance, spare_cards
from app.bots.hard import would_take
from app.rules.board.state import Keep, Move
from app.rules.core.cards import Card, CardKind, Colour, card_to_json
from app.rules.core.commands import Discard, Draw, Pile
from app.rules.core.groups import GroupKind

SET, RUN = GroupKind.SET, GroupKind.RUN
_ids = iter(range(1000))


def num(number: int, colour: Colour = Colour.RED) -> Card:
    return Card(next(_ids), CardKind.NUMBER, number=number, colour=colour)


def wild() -> Card:
    return Card(next(_ids), CardKind.JOKER)


def skip() -> Card:
    return Card(next(_ids), CardKind.ACTION, action="skip")


def view(hand: list[Card], phase: list[tuple[GroupKind, int]] | None, top: Card | None = None,
         players: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": 0, "hand": [card_to_json(c) for c in hand], "table": [],
        "discard_top": None if top is None else card_to_json(top),
        "players": players or [{"seat": 0, "laid": phase is None, "hand_size": len(hand), "phases_done": 0},
                               {"seat": 1, "laid": False, "hand_size": 10, "phases_done": 0}],
    }
    if phase is not None:
        out["my_phase"] = [{"kind": k.value, "size": n} for k, n in phase]
    out.update(extra)
    return out


def test_distance_counts_the_missing_cards() -> None:
    two_sets = [(SET, 3), (SET, 3)]
    assert distance([num(3), num(3), num(5), num(5), num(9)], two_sets) == 2
    assert distance([num(3), num(3), num(5), num(5), wild()], two_sets) == 1
    assert distance([num(3), num(3), num(3), num(5), num(5), num(5)], two_sets) == 0
    assert distance([num(n) for n in (1, 2, 3, 5, 6, 7, 8)], [(RUN, 8)]) == 1  # 4 is missing
    assert distance([], [(RUN, 4), (SET, 3)]) == 7


def test_closer_asks_the_solver_once_per_card() -> None:
    """``closer`` (and ``hard``'s ``would_take`` with the hand's distance known) answer as comparing the two
    full distances would, on random hands of the card games' phases."""
    rng = random.Random(5)
    phases = [[(SET, 3), (SET, 3)], [(SET, 3), (RUN, 4)], [(RUN, 7)], [(GroupKind.COLOUR, 7)], [(SET, 5), (SET, 2)]]
    deck = [(n, c) for n in range(1, 13) for c in Colour] * 2
    taken = 0
    for trial in range(300):
        requirement = phases[trial % len(phases)]
        drawn = rng.sample(deck, 11)
        cards = [Card(i, CardKind.NUMBER, number=n, colour=c) for i, (n, c) in enumerate(drawn)]
        hand = cards[:10] + ([Card(11, CardKind.JOKER)] if trial % 7 == 0 else [])
        card = cards[10]
        before, after = distance(hand, requirement), distance([*hand, card], requirement)
        expected = after if after < before else None
        assert closer(hand, requirement, card) == expected
        assert would_take(hand, requirement, card, before) is (expected is not None)
        assert would_take(hand, requirement, card) is (expected is not None)
        taken += expected is not None
    assert 20 < taken < 280  # both answers were met


def test_spare_cards_are_the_ones_a_lay_down_does_not_need() -> None:
    hand = [num(3), num(3), num(3), num(5), num(5), num(11)]
    spare = {c.id for c in spare_cards(hand, [(SET, 3), (SET, 3)])}
    assert spare == {hand[5].id}


def test_normal_takes_the_discard_only_when_it_helps() -> None:
    hand = [num(3), num(3), num(5), num(5), num(8), num(9), num(10), num(11), num(12), num(1)]
    legal = (Draw(Pile.DRAW), Draw(Pile.DISCARD))
    helpful = view(hand, [(SET, 3), (SET, 3)], top=num(3, Colour.BLUE))
    useless = view(hand, [(SET, 3), (SET, 3)], top=num(7, Colour.BLUE))
    assert choose("normal", "mattel", helpful, legal, random.Random(0)) == Draw(Pile.DISCARD)
    assert choose("normal", "mattel", useless, legal, random.Random(0)) == Draw(Pile.DRAW)
    assert choose("easy", "mattel", helpful, legal, random.Random(0)) == Draw(Pile.DRAW)


def test_normal_discards_a_spare_card_never_a_wild() -> None:
    keep = [num(3), num(3), num(5), num(5), wild()]
    loose = num(11)
    hand = [*keep, loose, num(7)]
    legal = tuple(Discard(c.id) for c in hand)
    chosen = choose("normal", "mattel", view(hand, [(SET, 3), (SET, 3)]), legal, random.Random(0))
    assert chosen.card in {loose.id, hand[6].id}
    assert chosen.card != hand[4].id


def test_normal_skips_the_player_closest_to_winning() -> None:
    s = skip()
    hand = [num(3), num(4), s]
    players = [{"seat": 0, "laid": False, "hand_size": 3, "phases_done": 2},
               {"seat": 1, "laid": False, "hand_size": 9, "phases_done": 1},
               {"seat": 2, "laid": True, "hand_size": 2, "phases_done": 5}]
    legal = (Discard(hand[0].id), Discard(hand[1].id), Discard(s.id, 1), Discard(s.id, 2))
    assert choose("normal", "mattel", view(hand, [(SET, 3)], players=players), legal,
                  random.Random(0)) == Discard(s.id, 2)


def test_normal_board_moves_to_the_joker_field() -> None:
    ring = [{"index": i, "field": f, "action": f} for i, f in enumerate(["choice", "+1", "all", "joker", "+1"])]
    prompt = {"action": "move", "moves": [{"steps": 2, "field": 2}, {"steps": 3, "field": 3}]}
    v = view([num(3), num(4)], [(SET, 3)], ring=ring, prompt=prompt)
    assert choose("normal", "board", v, (Move(2), Move(3)), random.Random(0)) == Move(3)


def test_normal_board_keeps_the_five_cards_closest_to_its_phase() -> None:
    hand = [num(3), num(3), num(3, Colour.BLUE), num(9), num(11), num(12), num(1), wild()]
    v = view(hand, [(SET, 3), (SET, 3)], prompt={"action": "keep", "max": 5})
    kept = choose("normal", "board", v, (Keep(()),), random.Random(0))
    assert isinstance(kept, Keep) and len(kept.cards) == 5
    assert {hand[0].id, hand[1].id, hand[2].id, hand[7].id} <= set(kept.cards)


def test_every_level_shares_one_decision_skeleton() -> None:
    """``play`` asks the level's policy in turn order (M-4): draw, else lay (C-3), else hit (C-4), else discard
    — number cards and wilds only, the rule set's tactics end a turn with an action card (M-6)."""
    from app.bots import easy, hard, normal
    from app.bots.tactics import Policy, plain_discards, play
    from app.rules.core.commands import Hit, LayPhase

    asked: list[str] = []

    def pick(name: str) -> Any:
        def answer(*args: Any) -> Any:
            asked.append(name)
            return args[-2][0] if name in ("draw", "discard") else args[-1][0] if name == "lay" else args[-2][0]
        return answer

    policy = Policy("normal", pick("draw"), pick("lay"), pick("hit"), pick("discard"))
    a, b, s = num(3), num(4), skip()
    v = view([a, b, s], [(SET, 3)])
    draw, lay, hit = Draw(Pile.DRAW), LayPhase(((a.id, b.id),)), Hit(a.id, 0)
    assert play(policy, "mattel", v, (draw, lay, hit, Discard(a.id)), random.Random(0)) == draw
    assert play(policy, "mattel", v, (lay, hit, Discard(a.id)), random.Random(0)) == lay
    assert play(policy, "mattel", v, (hit, Discard(a.id)), random.Random(0)) == hit
    assert play(policy, "mattel", v, (Discard(s.id, target=1), Discard(a.id)), random.Random(0)) == \
        Discard(s.id, target=1)
    assert play(policy, "mattel", v, (Discard(b.id),), random.Random(0)) == Discard(b.id)
    assert plain_discards(v, (Discard(s.id), Discard(b.id))) == [Discard(b.id)]
    assert asked == ["draw", "lay", "hit", "discard"]
    assert [easy.POLICY.level, normal.POLICY.level, hard.POLICY.level] == ["easy", "normal", "hard"]
