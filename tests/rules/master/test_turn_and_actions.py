"""R-5 deal, R-6 turn, R-7 cards in front of players, R-8 Take two, R-9 All mine, R-10 Skip, R-11 Give me five."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile
from app.rules.core.errors import IllegalMove, InvalidCommand, NotYourTurn, WrongStage
from app.rules.core.events import CardDrawn, RoundEnded
from app.rules.master import RULESET
from app.rules.master.game import all_cards, awaited, legal_commands, offer_slots
from app.rules.master.state import (
    ActionPlayed,
    ChooseTakeTwo,
    KeepHand,
    MasterOptions,
    OfferCard,
    OffersAsked,
    PlayAction,
    ReplacementDrawn,
    Stage,
    StarterReturned,
    TakeOffer,
    TakeTwoChosen,
    TurnSkipped,
    TwoCardsDrawn,
)
from tests.rules.master.helpers import apply_all, crafted, dealt, ids

TEN = "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10"
TEN_B = "y1 y2 y3 y4 y5 y6 y7 y8 y9 y10"
TEN_C = "g1 g2 g3 g4 g5 g6 g7 g8 g9 g10"
TEN_D = "b1 b2 b3 b4 b5 b6 b7 b8 b9 b10"


def _id(state: object, seat: int, label: str) -> int:
    hand = state.players[seat].hand  # type: ignore[attr-defined]
    return next(c.id for c in hand if c.label() == label)


# -- R-5 -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_R5_deal_ten_each_and_natural_first_discard(players: int) -> None:
    state = RULESET.new_game(7, players, MasterOptions())
    assert all(len(p.hand) == 10 for p in state.players)
    assert len(state.piles.discard) == 1 and state.piles.discard[0].is_natural
    assert state.turn == (state.dealer + 1) % players
    assert sorted(c.id for c in all_cards(state)) == list(range(128))


def test_R5_joker_or_action_turned_up_goes_under_the_draw_pile() -> None:
    from app.rules.master.game import new_game
    for seed in range(200):
        state, events = new_game(seed, 3, MasterOptions())
        returned = [e.card for e in events if isinstance(e, StarterReturned)]
        if returned:
            break
    else:
        pytest.fail("no seed turned up a joker or action card")
    assert all(not c.is_natural for c in returned)
    assert ids(state.piles.draw[:len(returned)]) == ids(tuple(reversed(returned)))
    assert state.piles.discard[-1].is_natural


def test_R5_dealer_random_then_clockwise() -> None:
    dealers = {RULESET.new_game(seed, 4, MasterOptions()).dealer for seed in range(30)}
    assert len(dealers) > 1
    state = crafted(["r1", TEN_B, TEN_C], turn=1)
    state = replace(state, players=(state.players[0], replace(state.players[1], laid=True), state.players[2]),
                    turn=0)
    assert state.dealer == 0
    state = replace(state, players=(replace(state.players[0], laid=True), *state.players[1:]))
    state, events = RULESET.apply(state, 0, Discard(_id(state, 0, "red 1")))
    hands = dealt(events)
    assert hands is not None and (hands.dealer, hands.first) == (1, 2)
    assert (state.dealer, state.turn) == (1, 2)


# -- R-6 -------------------------------------------------------------------------------------------------


def test_R6_never_draw_from_the_blue_pile() -> None:
    with pytest.raises(InvalidCommand):
        RULESET.parse_command({"type": "draw", "pile": "blue"})


def test_R6_draw_first() -> None:
    state = crafted([TEN, TEN_B], stage=Stage.DRAW, discard="g1")
    with pytest.raises(WrongStage):
        RULESET.apply(state, 0, Discard(state.players[0].hand[0].id))
    state, events = RULESET.apply(state, 0, Draw(Pile.DISCARD))
    assert isinstance(events[0], CardDrawn) and len(state.players[0].hand) == 11
    with pytest.raises(WrongStage):
        RULESET.apply(state, 0, Draw())


def test_R6_other_seat_cannot_act() -> None:
    state = crafted([TEN, TEN_B], stage=Stage.DRAW, discard="g1")
    with pytest.raises(NotYourTurn):
        RULESET.apply(state, 1, Draw())


def test_R6_action_cards_are_never_discarded() -> None:
    state = crafted(["r1 skip", TEN_B])
    with pytest.raises(IllegalMove, match="action_not_discardable"):
        RULESET.apply(state, 0, Discard(_id(state, 0, "skip")))
    with pytest.raises(IllegalMove, match="not_an_action_card"):
        RULESET.apply(state, 0, PlayAction(_id(state, 0, "red 1")))


def test_R6_discard_or_action_ends_the_turn() -> None:
    state = crafted(["r1 r2 take_two", TEN_B])
    after, _ = RULESET.apply(state, 0, Discard(_id(state, 0, "red 1")))
    assert (after.turn, after.stage) == (1, Stage.DRAW)
    after, _ = RULESET.apply(state, 0, PlayAction(_id(state, 0, "take two")))
    assert (after.turn, after.stage) == (1, Stage.DRAW)
    assert len(after.players[0].hand) == 2


def test_R6_laying_may_not_empty_the_hand() -> None:
    state = crafted(["r3 y3 g3 b3 r7 y7 g7 b7", TEN_B])
    hand = state.players[0].hand
    lay = LayPhase((ids(hand[0:2]), ids(hand[2:4]), ids(hand[4:6]), ids(hand[6:8])))
    with pytest.raises(IllegalMove, match="must_keep_a_card"):
        RULESET.apply(state, 0, lay)
    assert not any(isinstance(c, LayPhase) for c in legal_commands(state, 0))
    state = crafted(["r3 y3 g3 b3 r7 y7 g7 b7 r1", TEN_B])
    state, _ = RULESET.apply(state, 0, lay)
    assert state.players[0].laid and len(state.players[0].hand) == 1


def test_R6_hitting_may_not_empty_the_hand() -> None:
    state = crafted(["r3 y3 g3 b3 r7 y7 g7 b7 r3 y3", TEN_C])
    hand = state.players[0].hand
    state, _ = RULESET.apply(state, 0, LayPhase((ids(hand[0:2]), ids(hand[2:4]), ids(hand[4:6]),
                                                ids(hand[6:8]))))
    state, _ = RULESET.apply(state, 0, Hit(hand[8].id, 0))
    assert state.players[0].hand == (hand[9],)
    with pytest.raises(IllegalMove, match="must_keep_a_card"):
        RULESET.apply(state, 0, Hit(hand[9].id, 0))
    assert not any(isinstance(c, Hit) for c in legal_commands(state, 0))


def test_R6_hit_only_after_laying() -> None:
    state = crafted(["r3 y3 g3 b3 r7 y7 g7 b7 r1 g1", "y11 y12 r7"])
    hand = state.players[0].hand
    state, _ = RULESET.apply(state, 0, LayPhase((ids(hand[0:2]), ids(hand[2:4]), ids(hand[4:6]),
                                                ids(hand[6:8]))))
    state, _ = apply_all(state, (0, Discard(_id(state, 0, "red 1"))), (1, Draw()))
    with pytest.raises(IllegalMove, match="phase_not_laid"):
        RULESET.apply(state, 1, Hit(_id(state, 1, "red 7"), 2))


def test_R6_discarding_the_last_card_ends_the_round() -> None:
    state = crafted(["r1", TEN_B])
    state = replace(state, players=(replace(state.players[0], laid=True), state.players[1]))
    state, events = RULESET.apply(state, 0, Discard(_id(state, 0, "red 1")))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.went_out == 0 and ended.points == (0, 10)
    assert dealt(events) is not None and state.round == 2


@pytest.mark.parametrize("action", ["take_two", "all_mine", "skip", "give_me_five"])
def test_R6_an_action_card_played_last_only_ends_the_round(action: str) -> None:
    state = crafted([action, TEN_B])
    card = state.players[0].hand[0]
    state, events = RULESET.apply(state, 0, PlayAction(card.id))
    assert events[0] == ActionPlayed(0, card, None, "no_effect")
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.went_out == 0
    assert state.round == 2 and state.stage is Stage.DRAW
    assert not any(isinstance(e, OffersAsked) for e in events)


# -- Take two -------------------------------------------------------------------------------------


def test_R7_second_take_two_goes_to_the_blue_pile_without_effect() -> None:
    state = crafted(["take_two r1 r2", TEN_B], fronts=["take_two", ""])
    card = state.players[0].hand[0]
    state, events = RULESET.apply(state, 0, PlayAction(card.id))
    assert events[0] == ActionPlayed(0, card, None, "no_effect")
    assert state.blue[-1] == card and len(state.fronts[0]) == 1


def test_R8_take_two_draw_two_keep_one_from_draw_pile() -> None:
    state = crafted(["take_two r1 r2", TEN_B, TEN_C], discard="b12")
    state, events = RULESET.apply(state, 0, PlayAction(_id(state, 0, "take two")))
    assert [c.action for c in state.fronts[0]] == ["take_two"]
    state, _ = apply_all(state, (1, Draw()), (1, Discard(state.players[1].hand[0].id)),
                         (2, Draw()), (2, Discard(state.players[2].hand[0].id)))
    top_two = tuple(reversed(state.piles.draw[-2:]))
    state, events = RULESET.apply(state, 0, Draw())
    assert events[-1] == TwoCardsDrawn(0, "draw", top_two)
    assert state.stage is Stage.CHOOSE and awaited(state) == (0,)
    with pytest.raises(NotYourTurn):
        RULESET.apply(state, 1, ChooseTakeTwo(top_two[0].id))
    with pytest.raises(IllegalMove, match="not_a_drawn_card"):
        RULESET.apply(state, 0, ChooseTakeTwo(state.players[0].hand[0].id))
    # others do not see the two cards drawn from the draw pile (C-9)
    other = RULESET.player_view(state, 1)
    assert other["take_two_pending"] == 2 and other["prompt"]["action"] == "wait"
    assert RULESET.redact_event(events[-1], 1)["cards"] is None
    assert RULESET.redact_event(events[-1], 0)["cards"] is not None
    state, events = RULESET.apply(state, 0, ChooseTakeTwo(top_two[1].id))
    (chosen,) = events
    assert isinstance(chosen, TakeTwoChosen) and chosen.kept == top_two[1]
    assert top_two[1] in state.players[0].hand
    assert chosen.to_pile == ("blue" if top_two[0].action else "discard")
    assert RULESET.redact_event(chosen, 2)["kept"] is None
    assert RULESET.redact_event(chosen, 2)["returned"]["id"] == top_two[0].id
    assert state.stage is Stage.PLAY and sorted(c.id for c in all_cards(state)) == list(range(128))


@pytest.mark.parametrize(("discard", "expect_two"), [("r5 r6", True), ("r5", False)])
def test_R8_take_two_from_discard_pile_top_then_below(discard: str, expect_two: bool) -> None:
    state = crafted(["r1 r2", TEN_B], stage=Stage.DRAW, discard=discard, fronts=["take_two", ""])
    pile = state.piles.discard
    state, events = RULESET.apply(state, 0, Draw(Pile.DISCARD))
    if not expect_two:
        assert events[-1] == CardDrawn(0, "discard", pile[0]) and state.stage is Stage.PLAY
        return
    assert events[-1] == TwoCardsDrawn(0, "discard", (pile[-1], pile[-2]))
    assert RULESET.redact_event(events[-1], 1)["cards"] is not None  # the discard pile is face up
    state, events = RULESET.apply(state, 0, ChooseTakeTwo(pile[-2].id))
    assert state.piles.discard[-1] == pile[-1]  # the other one went back onto the discard pile


def test_R8_returned_action_card_goes_to_the_blue_pile() -> None:
    state = crafted(["r1 r2", TEN_B], stage=Stage.DRAW, fronts=["take_two", ""])
    skip = next(c for c in state.piles.draw if c.action == "skip")
    rest = tuple(c for c in state.piles.draw if c.id != skip.id)
    state = replace(state, piles=replace(state.piles, draw=rest + (skip,)))
    state, _ = RULESET.apply(state, 0, Draw())
    keep = state.drawn[1]
    state, events = RULESET.apply(state, 0, ChooseTakeTwo(keep.id))
    assert events[0].to_pile == "blue" and state.blue == (skip,)  # type: ignore[attr-defined]


# -- R-10 Skip ------------------------------------------------------------------------------------------


def test_R10_skip_in_front_of_another_player_and_served() -> None:
    state = crafted(["skip r1", TEN_B, TEN_C])
    skip = _id(state, 0, "skip")
    with pytest.raises(IllegalMove, match="skip_needs_target"):
        RULESET.apply(state, 0, PlayAction(skip))
    with pytest.raises(IllegalMove, match="invalid_skip_target"):
        RULESET.apply(state, 0, PlayAction(skip, target=0))
    state, events = RULESET.apply(state, 0, PlayAction(skip, target=1))
    assert isinstance(events[1], TurnSkipped) and events[1].seat == 1
    assert state.turn == 2 and state.fronts[1] == () and state.blue[-1].id == skip


def test_R10_two_players_skip_gives_another_turn() -> None:
    state = crafted(["skip r1 r2", TEN_B])
    state, _ = RULESET.apply(state, 0, PlayAction(_id(state, 0, "skip"), target=1))
    assert (state.turn, state.stage) == (0, Stage.DRAW)


def test_R7_no_skip_on_a_player_who_has_one() -> None:
    state = crafted(["skip r1", TEN_B, TEN_C], fronts=["", "skip", ""])
    with pytest.raises(IllegalMove, match="skip_already_in_front"):
        RULESET.apply(state, 0, PlayAction(_id(state, 0, "skip"), target=1))
    assert {c.target for c in legal_commands(state, 0) if isinstance(c, PlayAction)} == {2}  # type: ignore[union-attr]


def test_R10_ruling_skip_without_any_target_goes_to_blue_pile() -> None:
    state = crafted(["skip r1", TEN_B], fronts=["", "skip"])
    skip = state.players[0].hand[0]
    state, events = RULESET.apply(state, 0, PlayAction(skip.id))
    assert events[0] == ActionPlayed(0, skip, None, "no_effect")


# -- R-11 Give me five ----------------------------------------------------------------------------------

ORDERS = [
    (2, [1, 1, 1, 1, 1]),
    (3, [1, 2, 1, 2, 1]),
    (4, [1, 2, 3, 1, 2]),
    (5, [1, 2, 3, 4, 1]),
    (6, [1, 2, 3, 4, 5]),
]


@pytest.mark.parametrize(("players", "order"), ORDERS, ids=[f"{n}_players" for n, _ in ORDERS])
def test_R11_offer_order(players: int, order: list[int]) -> None:
    """Rulebook: 2: B B B B B · 3: B C B C B · 4: B C D B C · 5: B C D E B · 6: B C D E F."""
    hands = [TEN, TEN_B, TEN_C, TEN_D, "r11 r12 y11 y12 g11 g12", "b11 b12 r11 r12 y11 y12"][:players]
    state = crafted(hands)
    assert list(offer_slots(state, 0)) == order
    shifted = replace(state, players=state.players[2:] + state.players[:2])
    assert list(offer_slots(shifted, players - 2)) == [(players - 2 + k) % players for k in order]


@pytest.mark.parametrize(("hands", "order"), [
    (["x", "r1 r2 r3"], [1, 1, 1]),
    (["x", "r1", TEN_C], [1, 2, 2, 2, 2]),
    (["x", "r1", "y1", "g1"], [1, 2, 3]),
])
def test_R11_players_without_cards_are_passed_over(hands: list[str], order: list[int]) -> None:
    state = crafted(["r5 r6"] + hands[1:])
    assert list(offer_slots(state, 0)) == order


def test_R11_give_me_five_full_flow() -> None:
    state = crafted(["give_me_five r1 r2", TEN_B, TEN_C, TEN_D], discard="r12")
    gmf = _id(state, 0, "give me five")
    state, events = RULESET.apply(state, 0, PlayAction(gmf))
    assert events[-1] == OffersAsked(0, (1, 2, 3, 1, 2))
    assert state.stage is Stage.OFFER and awaited(state) == (1, 2, 3)
    assert state.blue[-1].id == gmf
    with pytest.raises(NotYourTurn):
        RULESET.apply(state, 0, OfferCard(_id(state, 0, "red 1")))
    with pytest.raises(IllegalMove, match="card_not_in_hand"):
        RULESET.apply(state, 1, OfferCard(_id(state, 2, "green 1")))
    view = RULESET.player_view(state, 0)
    assert view["prompt"] == {"action": "wait", "waiting_for": {"stage": "offer", "seats": [1, 2, 3]}}
    assert RULESET.player_view(state, 1)["prompt"]["count"] == 2
    state, _ = apply_all(state, (3, OfferCard(_id(state, 3, "blue 4"))))
    assert awaited(state) == (1, 2)
    with pytest.raises(NotYourTurn):
        RULESET.apply(state, 3, OfferCard(_id(state, 3, "blue 5")))
    state, _ = apply_all(state, (1, OfferCard(_id(state, 1, "yellow 1"))), (2, OfferCard(_id(state, 2, "green 1"))),
                         (1, OfferCard(_id(state, 1, "yellow 2"))))
    # offered cards lie face up: every seat and spectators see them
    spectator = RULESET.player_view(state, None)
    assert [o["card"]["label"] if o["card"] else None for o in spectator["give_me_five"]["offers"]] == [
        "yellow 1", "green 1", "blue 4", "yellow 2", None]
    state, _ = RULESET.apply(state, 2, OfferCard(_id(state, 2, "green 2")))
    assert state.stage is Stage.TAKE and awaited(state) == (0,)
    with pytest.raises(NotYourTurn):
        RULESET.apply(state, 1, TakeOffer(state.give.offered[0].id))  # type: ignore[union-attr]
    with pytest.raises(IllegalMove, match="not_offered"):
        RULESET.apply(state, 0, TakeOffer(_id(state, 0, "red 1")))
    green1 = state.give.offered[1]  # type: ignore[union-attr]
    replacement = state.piles.draw[-1]
    state, events = RULESET.apply(state, 0, TakeOffer(green1.id))  # type: ignore[union-attr]
    assert green1 in state.players[0].hand and len(state.players[0].hand) == 3
    assert [len(p.hand) for p in state.players[1:]] == [10, 10, 10]
    assert replacement in state.players[2].hand
    drawn = next(e for e in events if isinstance(e, ReplacementDrawn))
    assert RULESET.redact_event(drawn, 2)["card"]["id"] == replacement.id
    assert RULESET.redact_event(drawn, 1)["card"] is None
    assert (state.turn, state.stage) == (1, Stage.DRAW)  # no discard this turn
    assert state.piles.discard[-1].label() == "red 12"
    assert sorted(c.id for c in all_cards(state)) == list(range(128))


def test_R11_decline() -> None:
    state = crafted(["give_me_five r1", TEN_B, TEN_C])
    gmf = _id(state, 0, "give me five")
    assert {c.ask for c in legal_commands(state, 0) if isinstance(c, PlayAction)} == {True, False}  # type: ignore[union-attr]
    state, events = RULESET.apply(state, 0, PlayAction(gmf, ask=False))
    assert events[0].effect == "declined"  # type: ignore[attr-defined]
    assert (state.turn, state.stage, state.give) == (1, Stage.DRAW, None)


def test_R11_the_offerer_picks_any_card_legal_covers_every_seat() -> None:
    state = crafted(["give_me_five r1", "y1 skip J1-6:ry", TEN_C])
    state, _ = RULESET.apply(state, 0, PlayAction(_id(state, 0, "give me five")))
    for seat in awaited(state):
        offers = {c.card for c in legal_commands(state, seat) if isinstance(c, OfferCard)}  # type: ignore[union-attr]
        assert offers == {c.id for c in state.players[seat].hand}
    state, _ = RULESET.apply(state, 1, OfferCard(_id(state, 1, "skip")))
    assert state.give.offered[0].action == "skip"  # type: ignore[union-attr]


# -- R-9 All mine -----------------------------------------------------------------------------------------


def test_R9_all_mine_keep_choice_at_round_end() -> None:
    state = crafted(["r1", TEN_B + " y11 y12", TEN_C, "b1 b2 b3"], fronts=["", "all_mine", "all_mine", "all_mine"])
    state = replace(state, players=(replace(state.players[0], laid=True), *state.players[1:]))
    kept_b = state.players[1].hand
    state, events = RULESET.apply(state, 0, Discard(_id(state, 0, "red 1")))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == (0, 12, 10, 3)  # kept or not, the hand scores
    assert state.stage is Stage.KEEP and awaited(state) == (1, 2, 3)
    assert RULESET.player_view(state, 0)["prompt"]["waiting_for"] == {"stage": "keep", "seats": [1, 2, 3]}
    with pytest.raises(NotYourTurn):
        RULESET.apply(state, 0, KeepHand(True))
    with pytest.raises(WrongStage):
        RULESET.apply(state, 1, Draw())
    state, _ = apply_all(state, (1, KeepHand(True)), (3, KeepHand(True)))
    with pytest.raises(NotYourTurn):
        RULESET.apply(state, 1, KeepHand(False))
    kept_d = state.players[3].hand
    state, events = RULESET.apply(state, 2, KeepHand(False))
    assert dealt(events) is not None and state.round == 2
    assert state.players[1].hand == kept_b  # more than 10 kept: all kept, none dealt
    assert state.players[3].hand[:3] == kept_d and len(state.players[3].hand) == 10  # dealt up to 10
    assert len(state.players[2].hand) == 10 and len(state.players[0].hand) == 10
    assert state.fronts == ((), (), (), ())  # the All-mine cards themselves went back
    assert sorted(c.id for c in all_cards(state)) == list(range(128))


def test_R9_all_mine_placed_in_front_and_second_has_no_effect() -> None:
    state = crafted(["all_mine all_mine r1 r2", TEN_B])
    first, second = (c.id for c in state.players[0].hand[:2])
    state, _ = RULESET.apply(state, 0, PlayAction(first))
    assert [c.id for c in state.fronts[0]] == [first]
    state, _ = apply_all(state, (1, Draw()), (1, Discard(state.players[1].hand[0].id)), (0, Draw()))
    state, events = RULESET.apply(state, 0, PlayAction(second))
    assert events[0].effect == "no_effect" and state.blue[-1].id == second  # type: ignore[attr-defined]
