"""Table-driven cases per Mattel rules paragraph (M-1..M-9, C-5, C-7, C-8, C-12), with the rulebook examples."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile
from app.rules.core.errors import GameOver, IllegalMove, InvalidCommand, InvalidOptions, NotYourTurn, WrongStage
from app.rules.core.events import CardDrawn, DrawPileRebuilt, GameEnded, RoundEnded
from app.rules.core.groups import End
from app.rules.mattel import RULESET
from app.rules.mattel.deck import DECK, PHASES, card_points
from app.rules.mattel.game import all_cards, current_phase, hint, legal_commands
from app.rules.mattel.state import MattelOptions, SkipPlayed, Stage, TieBreakStarted, TurnSkipped

from .helpers import SKIPS, WILDS, B, G, Y, hand, ids, num, position


def apply(state, seat, command):  # type: ignore[no-untyped-def]
    return RULESET.apply(state, seat, command)


# -- M-1 deck, M-2 deal --------------------------------------------------------------------------------------

def test_M1_deck_has_108_cards() -> None:
    kinds = Counter((c.kind.value, c.action) for c in DECK)
    assert len(DECK) == 108 == len({c.id for c in DECK})
    assert kinds[("number", None)] == 96 and kinds[("joker", None)] == 8 and kinds[("action", "skip")] == 4
    per_face = Counter((c.number, c.colour) for c in DECK if c.is_natural)
    assert set(per_face.values()) == {2} and len(per_face) == 48


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_M2_deal_ten_each_and_turn_up_one(players: int) -> None:
    state = RULESET.new_game(42, players, MattelOptions())
    assert [len(p.hand) for p in state.players] == [10] * players
    assert len(state.piles.discard) == 1
    assert len(state.piles.draw) == 108 - 10 * players - 1
    assert len(all_cards(state)) == 108
    if state.piles.discard[-1].action != "skip":
        assert state.turn == (state.dealer + 1) % players  # C-7: left of the dealer starts


def test_M2_first_dealer_is_random_but_seeded() -> None:
    dealers = {RULESET.new_game(seed, 6, MattelOptions()).dealer for seed in range(40)}
    assert len(dealers) > 3
    assert RULESET.new_game(5, 4, MattelOptions()) == RULESET.new_game(5, 4, MattelOptions())


@pytest.mark.parametrize("players", [1, 7])
def test_M1_two_to_six_players(players: int) -> None:
    with pytest.raises(InvalidOptions):
        RULESET.new_game(1, players, MattelOptions())


# -- M-3 phases ----------------------------------------------------------------------------------------------

def test_M3_the_ten_phases() -> None:
    assert [p.describe() for p in PHASES] == [
        "2 sets of 3", "1 set of 3 + 1 run of 4", "1 set of 4 + 1 run of 4", "1 run of 7", "1 run of 8",
        "1 run of 9", "2 sets of 4", "7 cards of one colour", "1 set of 5 + 1 set of 2", "1 set of 5 + 1 set of 3"]


# -- M-4 turn ------------------------------------------------------------------------------------------------

def test_M4_draw_from_either_pile_then_discard() -> None:
    state = position([hand(1, 2, 3), hand(4, 5, 6)], stage=Stage.DRAW, discard=[num(9)])
    after, events = apply(state, 0, Draw(Pile.DISCARD))
    assert num(9) in after.players[0].hand and after.piles.discard == ()
    assert isinstance(events[0], CardDrawn) and events[0].card == num(9)
    after, _ = apply(after, 0, Discard(num(1).id))
    assert after.turn == 1 and after.stage is Stage.DRAW and after.piles.discard[-1] == num(1)
    top = state.piles.draw[-1]
    after, _ = apply(state, 0, Draw(Pile.DRAW))
    assert after.players[0].hand[-1] == top


def test_M4_order_is_enforced_with_clear_codes() -> None:
    state = position([hand(1, 2, 3), hand(4, 5, 6)], stage=Stage.DRAW, discard=[num(9)])
    with pytest.raises(NotYourTurn):
        apply(state, 1, Draw())
    with pytest.raises(WrongStage) as err:
        apply(state, 0, Discard(num(1).id))
    assert err.value.code == "draw_first"
    drawn, _ = apply(state, 0, Draw())
    with pytest.raises(WrongStage) as err:
        apply(drawn, 0, Draw())
    assert err.value.code == "already_drawn"
    with pytest.raises(IllegalMove) as err:
        apply(drawn, 0, Discard(num(4).id))
    assert err.value.code == "card_not_in_hand"
    with pytest.raises(InvalidCommand):
        RULESET.parse_command({"type": "draw", "pile": "blue"})
    with pytest.raises(InvalidCommand):
        RULESET.parse_command({"type": "teleport"})


def test_M4_rejected_commands_change_nothing() -> None:
    state = position([hand(1, 2, 3), hand(4, 5, 6)], stage=Stage.PLAY, discard=[num(9)])
    snapshot = RULESET.state_to_json(state)
    for command in [Discard(999), LayPhase(((1, 2, 3),)), Hit(num(1).id, 0)]:
        with pytest.raises(IllegalMove):
            apply(state, 0, command)
    assert RULESET.state_to_json(state) == snapshot


def test_M4_going_out_by_discarding_the_last_card() -> None:
    state = position([hand(5), hand(4, 5, 6)], discard=[num(9)], laid=[True, False])
    after, events = apply(state, 0, Discard(num(5).id))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.went_out == 0 and ended.points == (0, 15)
    assert after.round == state.round + 1


def test_M4_laying_the_whole_hand_goes_out_at_once() -> None:
    cards = hand(5, 5, 5, 7, 7, 7)
    state = position([cards, hand(4, 4, 9)], discard=[num(9)])
    after, events = apply(state, 0, LayPhase((ids(cards[:3]), ids(cards[3:]))))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.went_out == 0 and after.round == state.round + 1


def test_M4_going_out_by_hitting_the_last_card_needs_no_discard() -> None:
    first = position([hand(5, 5, 5, 7, 7, 7, 7), hand(4, 4, 9)], discard=[num(9)])
    state, _ = apply(first, 0, LayPhase((ids(hand(5, 5, 5)), ids(hand(7, 7, 7)))))
    assert state.players[0].hand == (num(7, B),)
    after, events = apply(state, 0, Hit(num(7, B).id, 1))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.went_out == 0 and ended.points == (0, 15)
    assert after.players[0].phase == 1  # C-5: moved on to phase 2


# -- C-3 laying, C-4 hitting (rulebook examples) ---------------------------------------------------------

def test_C3_rulebook_phase1_then_hit_the_extra_fives_same_turn() -> None:
    """Mattel rulebook: 5-5-5 and 7-7-7 for phase 1; two more 5s are hit onto the 5s at once."""
    cards = hand(5, 5, 5, 7, 7, 7, 5, 5, 2)
    state = position([cards, hand(1, 1, 1)], discard=[num(9)])
    laid, _ = apply(state, 0, LayPhase((ids(cards[:3]), ids(cards[3:6]))))
    assert laid.players[0].laid and len(laid.table) == 2
    after, _ = apply(laid, 0, Hit(cards[6].id, 0))
    after, _ = apply(after, 0, Hit(cards[7].id, 0))
    assert len(after.table[0].cards) == 5 and after.players[0].hand == (cards[8],)


def test_C3_the_extra_triple_may_not_be_laid_with_phase_1() -> None:
    """C-3: a third triple is not part of '2 sets of 3'."""
    cards = hand(6, 6, 6, 8, 8, 8, 5, 5, 5, 2)
    state = position([cards, hand(1)], discard=[num(9)])
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, LayPhase((ids(cards[:3]), ids(cards[3:6]), ids(cards[6:9]))))
    assert err.value.code == "wrong_group_count"


def test_C3_never_part_of_a_phase_and_longer_groups_allowed() -> None:
    cards = hand(3, 4, 5, 6, 7, 8, 9, 10, 11, 1)
    state = position([cards, hand(1)], discard=[num(9)], phases=[3, 0])
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, LayPhase((ids(cards[:6]),)))
    assert err.value.code == "group_too_small"
    after, _ = apply(state, 0, LayPhase((ids(cards[:9]),)))  # a run of 9 counts as phase 4's run of 7
    assert after.players[0].laid and after.table[0].end == 11


def test_C4_hit_before_own_phase_is_refused() -> None:
    table_state = position([hand(5, 5, 5, 7, 7, 7, 1), hand(7, 2, 3)], discard=[num(9)])
    laid, _ = apply(table_state, 0, LayPhase((ids(hand(5, 5, 5)), ids(hand(7, 7, 7)))))
    laid = replace(laid, players=(replace(laid.players[0], hand=(num(1),)), laid.players[1]), turn=1)
    with pytest.raises(IllegalMove) as err:
        apply(laid, 1, Hit(laid.players[1].hand[0].id, 1))
    assert err.value.code == "phase_not_laid"


def test_C4_rulebook_hits_on_other_players_groups() -> None:
    """Mattel rulebook: a 2 onto another player's 3-4-5-6, then a 7 and an 8; a wild on any group."""
    run_cards = hand(3, 4, 5, 6)
    mine = hand(9, 9, 9, 2, 7, 8, "W", 11)
    state = position([mine, run_cards + hand(10, 10, 10, 1)], discard=[num(12)], phases=[1, 1])
    other, _ = apply(replace(state, turn=1), 1, LayPhase((ids(hand(10, 10, 10)), ids(run_cards))))
    state = replace(other, turn=0, stage=Stage.PLAY,
                    players=(replace(other.players[0], laid=True), other.players[1]))
    for card in (num(2), num(7), num(8)):
        state, _ = apply(state, 0, Hit(card.id, 1))
    assert (state.table[1].start, state.table[1].end) == (2, 8)
    state, _ = apply(state, 0, Hit(WILDS[0].id, 0))
    assert len(state.table[0].cards) == 4


# -- M-5 wilds -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("order", "start"), [(("3", "W", "W"), 3), (("W", "3", "W"), 2), (("W", "W", "3"), 1)])
def test_M5_C6_wild_positions_in_a_run(order: tuple[str, ...], start: int) -> None:
    """C-6 rulebook examples 3·J·J, J·3·J (and J·J·3) for a run of 4 with a 4th natural."""
    wilds = iter(WILDS)
    cards = [num(3) if x == "3" else next(wilds) for x in order]
    tail = num(start + 3, Y)
    state = position([hand(9, 9, 9) + tuple(cards) + (tail, num(1, G)), hand(1)], discard=[num(12)],
                     phases=[1, 0])
    after, _ = apply(state, 0, LayPhase((ids(hand(9, 9, 9)), ids(cards) + (tail.id,))))
    run = after.table[1]
    assert run.start == start and run.end == start + 3


def test_M5_every_group_needs_a_natural_card() -> None:
    cards = hand(5, 5, 5, "W", "W", "W", 1)
    state = position([cards, hand(1)], discard=[num(9)])
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, LayPhase((ids(cards[:3]), ids(cards[3:6]))))
    assert err.value.code == "too_few_naturals"
    fine = hand(5, 5, 5, 8, "W", "W", 1)
    state = position([fine, hand(1)], discard=[num(9)])
    after, _ = apply(state, 0, LayPhase((ids(fine[:3]), ids(fine[3:6]))))
    assert after.table[1].number == 8


def test_M5_a_wild_turned_up_first_may_be_taken() -> None:
    state = position([hand(1, 2), hand(3, 4)], stage=Stage.DRAW, discard=[WILDS[0]])
    after, _ = apply(state, 0, Draw(Pile.DISCARD))
    assert WILDS[0] in after.players[0].hand


def test_M5_a_laid_wild_stays_no_wild_extends_a_full_run() -> None:
    cards = hand(*range(1, 13))
    state = position([cards + (WILDS[0],), hand(1)], discard=[num(9)], phases=[5, 0])
    after, _ = apply(state, 0, LayPhase((ids(cards),)))
    with pytest.raises(IllegalMove) as err:
        apply(after, 0, Hit(WILDS[0].id, 0, End.HIGH))
    assert err.value.code == "run_full"


# -- M-6 skips -----------------------------------------------------------------------------------------------

def test_M6_skip_makes_the_named_player_lose_their_next_turn() -> None:
    state = position([hand(1, "S"), hand(2, 3), hand(4, 5)], discard=[num(9)])
    after, events = apply(state, 0, Discard(SKIPS[0].id, target=1))
    assert any(isinstance(e, SkipPlayed) and e.target == 1 for e in events)
    assert any(isinstance(e, TurnSkipped) and e.seat == 1 for e in events)
    assert after.turn == 2 and not any(after.skipped)


def test_M6_skip_can_never_be_drawn_from_the_discard_pile() -> None:
    state = position([hand(1, 2), hand(3, 4)], stage=Stage.DRAW, discard=[SKIPS[0]])
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, Draw(Pile.DISCARD))
    assert err.value.code == "cannot_take_skip"
    assert Draw(Pile.DISCARD) not in legal_commands(state, 0)


def test_M6_skip_never_part_of_a_phase_or_hit() -> None:
    cards = hand(5, 5, "S", 7, 7, 7, 1)
    state = position([cards, hand(1)], discard=[num(9)])
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, LayPhase((ids(cards[:3]), ids(cards[3:6]))))
    assert err.value.code == "not_a_group_card"


def test_M6_only_one_pending_skip_per_player() -> None:
    state = position([hand(1, 2), hand(3, "S"), hand(4, 5), hand(6, 7)], turn=1, discard=[num(9)],
                     skipped=[False, False, False, True])
    with pytest.raises(IllegalMove) as err:
        apply(state, 1, Discard(SKIPS[0].id, target=3))
    assert err.value.code == "skip_already_pending"
    with pytest.raises(IllegalMove) as err:
        apply(state, 1, Discard(SKIPS[0].id, target=1))
    assert err.value.code == "invalid_skip_target"
    with pytest.raises(IllegalMove) as err:
        apply(state, 1, Discard(SKIPS[0].id))
    assert err.value.code == "skip_needs_target"
    after, _ = apply(state, 1, Discard(SKIPS[0].id, target=0))
    # seat 2 plays next; seat 3 and seat 0 will each be skipped when their turns come
    assert after.turn == 2 and after.skipped == (True, False, False, True)


def test_M6_skip_turned_up_first_skips_the_first_player() -> None:
    for seed in range(400):
        state = RULESET.new_game(seed, 3, MattelOptions())
        if state.piles.discard[-1].action == "skip":
            assert state.turn == (state.dealer + 2) % 3
            return
    pytest.fail("no seed turned up a skip")


def test_M6_with_two_players_a_skip_gives_two_turns_in_a_row() -> None:
    state = position([hand(1, "S"), hand(2, 3)], discard=[num(9)])
    after, _ = apply(state, 0, Discard(SKIPS[0].id, target=1))
    assert after.turn == 0 and after.stage is Stage.DRAW


def test_M6_skip_may_be_kept_for_later() -> None:
    state = position([hand(1, "S"), hand(2, 3)], discard=[num(9)])
    after, _ = apply(state, 0, Discard(num(1).id))
    assert SKIPS[0] in after.players[0].hand


# -- M-7 scoring ---------------------------------------------------------------------------------------------

def test_M7_penalty_points() -> None:
    assert [card_points(c) for c in (num(1), num(9), num(10), num(12), SKIPS[0], WILDS[0])] == [5, 5, 10, 10, 15, 25]
    state = position([hand(4), hand(1, 10, "S", "W"), hand(12, 12)], discard=[num(9)], laid=[True, True, False])
    after, events = apply(state, 0, Discard(num(4).id))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == (0, 55, 20) and ended.advanced == (0, 1)
    assert [p.phase for p in after.players] == [1, 1, 0]  # C-5
    assert [p.score for p in after.players] == [0, 55, 20]
    assert after.dealer == (state.dealer + 1) % 3  # C-7: the deal passes left
    assert all(len(p.hand) == 10 for p in after.players) and not after.table


# -- M-8 winning ---------------------------------------------------------------------------------------------

def test_M8_lowest_total_among_phase_10_finishers_wins() -> None:
    state = position([hand(4), hand(1), hand(2)], discard=[num(9)], laid=[True, True, False], phases=[9, 9, 2])
    state = replace(state, players=tuple(replace(p, score=s) for p, s in zip(state.players, (50, 30, 0), strict=True)))
    after, events = apply(state, 0, Discard(num(4).id))
    assert after.stage is Stage.OVER and after.winners == (1,)  # 30 + 5 = 35 < 50; seat 2 did not finish
    assert isinstance(events[-1], GameEnded)
    with pytest.raises(GameOver):
        apply(after, 1, Draw())


def test_M8_a_tie_is_broken_by_one_more_round_on_phase_10() -> None:
    state = position([hand(4), hand(1), hand(2)], discard=[num(9)], laid=[True, True, False], phases=[9, 9, 2])
    state = replace(state, players=tuple(replace(p, score=s) for p, s in zip(state.players, (45, 40, 0), strict=True)))
    after, events = apply(state, 0, Discard(num(4).id))
    assert any(isinstance(e, TieBreakStarted) and e.seats == (0, 1) for e in events)
    assert after.tiebreak and after.contenders == (0, 1) and after.stage is Stage.DRAW
    assert after.players[2].hand == () and current_phase(after, 0) == PHASES[9]
    # whoever goes out first wins
    out = replace(after, stage=Stage.PLAY,
                  players=(replace(after.players[0], hand=(num(3),), laid=True), *after.players[1:]),
                  turn=0)
    final, _ = apply(out, 0, Discard(num(3).id))
    assert final.winners == (0,)


# -- M-9 variants --------------------------------------------------------------------------------------------

def test_M9_phase_selection_plays_five_rounds_with_fixed_rounds() -> None:
    options = RULESET.parse_options({"phase_selection": "even", "fixed_rounds": True})
    state = RULESET.new_game(3, 2, options)
    assert current_phase(state, 0) == PHASES[1]
    for rnd in range(1, 6):
        assert state.round == rnd and current_phase(state, 1) == PHASES[2 * rnd - 1]
        seat = state.turn
        state = replace(state, stage=Stage.PLAY,
                        players=tuple(replace(p, hand=(p.hand[0],)) if s == seat else p
                                      for s, p in enumerate(state.players)))
        state, _ = apply(state, seat, Discard(state.players[seat].hand[0].id))
    assert state.stage is Stage.OVER


def test_M9_fixed_rounds_tie_is_a_shared_win() -> None:
    options = MattelOptions(fixed_rounds=True, phases_to_win=1)
    state = position([hand(4), hand(10)], discard=[num(9)], options=options)
    state = replace(state, players=(state.players[0], replace(state.players[1], score=-10)))
    after, _ = apply(state, 0, Discard(num(4).id))
    assert after.winners == (0, 1)


def test_M9_phases_to_win_and_odd_selection() -> None:
    options = RULESET.parse_options({"phases_to_win": 2, "phase_selection": "odd"})
    state = position([hand(4), hand(10)], discard=[num(9)], options=options, laid=[True, False], phases=[1, 0])
    assert current_phase(state, 0) == PHASES[2]  # odd phases: 1, 3 -> the second is phase 3
    after, _ = apply(state, 0, Discard(num(4).id))
    assert after.winners == (0,)


@pytest.mark.parametrize(("raw", "field"), [
    ({"phases_to_win": 0}, "phases_to_win"), ({"phases_to_win": 6, "phase_selection": "odd"}, "phases_to_win"),
    ({"phase_selection": "prime"}, "phase_selection"), ({"fixed_rounds": "yes"}, "fixed_rounds"),
    ({"wilds": 4}, "wilds"),
])
def test_C11_invalid_options_name_the_field(raw: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        RULESET.parse_options(raw)
    assert err.value.field == field


# -- C-8 empty draw pile, C-12 stalled round ----------------------------------------------------------------

def test_C8_an_empty_draw_pile_is_rebuilt_from_discards_but_top() -> None:
    state = position([hand(1), hand(2)], stage=Stage.DRAW, discard=[num(3), num(4), num(5)], draw=[])
    after, events = apply(state, 0, Draw())
    assert isinstance(events[0], DrawPileRebuilt) and after.piles.discard == (num(5),)
    assert len(after.players[0].hand) == 2 and len(after.piles.draw) == 1


def test_C8_no_card_at_all_means_no_draw() -> None:
    state = position([hand(1), hand(2)], stage=Stage.DRAW, discard=[num(3)], draw=[])
    after, _ = apply(state, 0, Draw())
    assert after.stage is Stage.PLAY and len(after.players[0].hand) == 1


def test_C12_third_rebuild_ends_the_round_with_nobody_out() -> None:
    state = position([hand(1), hand(2)], stage=Stage.DRAW, discard=[num(3), num(4)], draw=[], laid=[True, False])
    state = replace(state, piles=replace(state.piles, rebuilds=2))
    after, events = apply(state, 0, Draw())
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.went_out is None and ended.points == (5, 5) and ended.advanced == (0,)
    assert after.round == state.round + 1 and after.piles.rebuilds == 0


# -- hints and legal commands --------------------------------------------------------------------------------

def test_C3_hint_proposes_a_valid_lay_down() -> None:
    cards = hand(5, 5, 9, 9, 9, "W", 1, 2)
    state = position([cards, hand(1)], discard=[num(9, G, 1)])
    groups = hint(state, 0)
    assert groups is not None
    after, _ = apply(state, 0, LayPhase(groups))
    assert after.players[0].laid
    assert LayPhase(groups) in legal_commands(state, 0)
    assert hint(position([hand(1, 2, 3, 4, 5), hand(1)], discard=[num(9)]), 0) is None


def test_C12_stalled_round_that_ends_the_game_keeps_every_card() -> None:
    """C-12 with M-9 fixed rounds: the last round stalls; all 108 cards are still accounted for at the end."""
    options = MattelOptions(fixed_rounds=True, phases_to_win=1)
    state = RULESET.new_game(9, 2, options)
    discard = state.piles.draw + state.piles.discard
    state = replace(state, stage=Stage.DRAW, piles=replace(state.piles, draw=(), discard=discard, rebuilds=2))
    after, events = apply(state, state.turn, Draw())
    assert after.stage is Stage.OVER and isinstance(events[-1], GameEnded)
    assert sorted(c.id for c in all_cards(after)) == list(range(108))
