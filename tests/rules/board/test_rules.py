"""Table-driven cases per board-game rules paragraph (B-1..B-11, C-3..C-12), with the rulebook's examples."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from app.rules.board import RULESET
from app.rules.board.game import all_cards, can_lay, choosable, hidden_from, legal_commands, walk
from app.rules.board.material import DECK, PHASES, RING, TURNED
from app.rules.board.state import (
    Ask,
    BoardOptions,
    BoardRoundEnded,
    CardGiven,
    CardSearched,
    CardsKept,
    CardsSwapped,
    ChooseAction,
    DiceRolled,
    EndTurn,
    Give,
    JokerTurned,
    Keep,
    MarkerMoved,
    Move,
    NobodyHad,
    RollDice,
    Search,
    Stage,
    Swap,
    TurnStarted,
)
from app.rules.core.cards import as_joker
from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile
from app.rules.core.errors import IllegalMove, InvalidOptions, NotYourTurn, WrongStage
from app.rules.core.events import CardDrawn, DrawPileRebuilt, GameEnded, HandsDealt
from app.rules.core.groups import End, GroupKind, LaidGroup, build_group, group_is_complete
from app.rules.core.rng import Rng
from app.rules.core.table import Piles
from tests.cards import card_ids

from .helpers import B, G, R, Y, cards, ids, num, position


def apply(state: Any, seat: int, command: Any) -> Any:
    return RULESET.apply(state, seat, command)


def land(hands: Any, field: int, seat: int = 0, **kw: Any) -> tuple[Any, tuple[Any, ...]]:
    """Put ``seat``'s pawn just before ``field`` (others elsewhere) and move one step onto it (B-5)."""
    n = len(hands)
    size = len(kw["options"].ring) if "options" in kw and kw["options"].ring else 32
    pawns = list(kw.pop("pawns", [(field + 10 + 3 * i) % size for i in range(n)]))
    pawns[seat] = (field - 1) % size
    state = position(hands, turn=seat, stage=Stage.MOVE, dice=(1, 2), pawns=pawns, **kw)
    return apply(state, seat, Move(1))


def group(kind: GroupKind, cs: Any, owner: int = 1) -> LaidGroup:
    return build_group(kind, 1, cs, TURNED, owner)


# -- B-1 material, B-2 ring, B-3 phases ------------------------------------------------------------------


def test_B1_only_the_96_number_cards() -> None:
    assert len(DECK) == 96 == len({c.id for c in DECK}) and all(c.is_natural for c in DECK)
    assert set(Counter((c.number, c.colour) for c in DECK).values()) == {2}


def test_B2_ring_has_32_fields_and_eight_action_types() -> None:
    assert len(RING) == 32 and RING[0] == "choice"
    kinds = {("+N" if f.startswith("+") else f) for f in RING}
    assert kinds == {"+N", "search", "again", "swap", "all", "joker", "ask", "choice"}
    view = RULESET.player_view(RULESET.new_game(1, 3, BoardOptions()), 0)
    assert [f["field"] for f in view["ring"]] == list(RING) and view["pawns"] == [0, 0, 0]


@pytest.mark.parametrize("raw, field", [
    (["+1"] * 7, "ring"),
    (["choice", "+1", "+2", "nope", "ask", "all", "swap", "joker"], "ring[3]"),
    (["choice"] * 8, "ring"),
    ("+1", "ring"),
    (["+4", "+1", "+2", "ask", "ask", "all", "swap", "joker"], "ring[0]"),
])
def test_B2_custom_ring_is_validated(raw: Any, field: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        RULESET.parse_options({"ring": raw})
    assert err.value.field == field


def test_B2_custom_ring_is_used() -> None:
    ring = ["choice", "+1", "joker", "+1", "swap", "+3", "ask", "all", "again"]
    options = RULESET.parse_options({"ring": ring})
    assert RULESET.parse_options(RULESET.options_to_json(options)) == options
    state, _ = land([cards(1, 2, 3), cards(4, 5, 6)], 5, options=options)
    assert state.stage is Stage.TAKE and state.to_take == 3
    assert [f["field"] for f in RULESET.player_view(state, 1)["ring"]] == ring


def test_B3_phase_list() -> None:
    described = [p.describe() for p in PHASES]
    assert described[0] == "5 cards of one colour" and described[1] == "4 sets of 2"
    assert described[5] == "1 run of 8" and described[7] == "2 sets of 4" and described[8] == "1 run of 9"
    assert described[4] == "6 cards of one colour + 1 set of 2"


# -- B-4 setup ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_B4_setup(players: int) -> None:
    state = RULESET.new_game(7, players, BoardOptions())
    assert [len(p.hand) for p in state.players] == [10] * players
    assert len(state.piles.discard) == 5 and len(state.piles.draw) == 96 - 10 * players - 5
    assert sorted(c.id for c in all_cards(state)) == list(range(96))
    assert state.pawns == (0,) * players and all(p.phase == 0 and not p.laid for p in state.players)
    assert state.stage is Stage.ROLL
    for seat in [*range(players), None]:
        view = RULESET.player_view(state, seat)
        assert view["discard_size"] == 5 and view["discard_top"]["id"] == state.piles.discard[-1].id
        assert not card_ids(view) & {c.id for c in state.piles.discard[:-1]}  # only the top is visible
        assert {c.id for c in state.piles.discard[:-1]} <= hidden_from(state, seat)


def test_B4_first_player_from_options_or_seeded_random() -> None:
    assert RULESET.new_game(3, 4, RULESET.parse_options({"first_player": 2})).turn == 2
    firsts = {RULESET.new_game(seed, 5, BoardOptions()).turn for seed in range(40)}
    assert len(firsts) > 2
    assert RULESET.new_game(9, 4, BoardOptions()) == RULESET.new_game(9, 4, BoardOptions())
    with pytest.raises(InvalidOptions) as err:
        RULESET.new_game(3, 3, RULESET.parse_options({"first_player": 4}))
    assert err.value.field == "first_player"


@pytest.mark.parametrize("players", [1, 7])
def test_B1_two_to_six_players(players: int) -> None:
    with pytest.raises(InvalidOptions):
        RULESET.new_game(1, players, BoardOptions())


# -- B-5 the move ------------------------------------------------------------------------------------------


def test_B5_roll_is_an_event_from_the_seeded_generator() -> None:
    state = RULESET.new_game(11, 3, RULESET.parse_options({"first_player": 1}))
    expected, _ = Rng(state.rng.state).dice(2)
    with pytest.raises(NotYourTurn):
        apply(state, 0, RollDice())
    with pytest.raises(WrongStage):
        apply(state, 1, Move(3))
    after, events = apply(state, 1, RollDice())
    assert events == (DiceRolled(1, expected),) and after.dice == expected and after.stage is Stage.MOVE
    assert RULESET.redact_event(events[0], 0)["dice"] == list(expected)
    assert set(c.steps for c in legal_commands(after, 1)) == set(expected) | (
        {2 * expected[0]} if expected[0] == expected[1] else set())


@pytest.mark.parametrize("dice, steps, ok", [
    ((3, 5), 3, True), ((3, 5), 5, True), ((3, 5), 8, False), ((3, 5), 4, False),
    ((4, 4), 4, True), ((4, 4), 8, True), ((4, 4), 6, False),
])
def test_B5_choose_one_die_or_the_double(dice: tuple[int, int], steps: int, ok: bool) -> None:
    state = position([cards(1, 2), cards(3, 4)], stage=Stage.MOVE, dice=dice, pawns=(0, 20))
    if ok:
        after, _ = apply(state, 0, Move(steps))
        assert after.pawns[0] == steps
    else:
        with pytest.raises(IllegalMove) as err:
            apply(state, 0, Move(steps))
        assert err.value.code == "not_a_die"


@pytest.mark.parametrize("pawns, seat, steps, field", [
    ((0, 0), 0, 3, 3),                # everyone starts on field 0, which the mover leaves
    ((0, 2), 0, 3, 4),                # field 2 jumped, not counted
    ((0, 1, 2, 3), 0, 1, 4),          # several occupied fields in a row
    ((0, 1, 2, 3), 0, 2, 5),
    ((30, 5), 0, 4, 2),               # round the ring
    ((30, 0), 0, 3, 2),               # field 0 occupied: jumped
    ((29, 30, 31, 0), 0, 1, 1),
    ((5, 8, 5), 2, 3, 9),             # a pawn on the mover's own field does not matter
])
def test_B5_occupied_fields_are_jumped(pawns: tuple[int, ...], seat: int, steps: int, field: int) -> None:
    assert walk(pawns, seat, steps, 32) == field
    state = position([cards(i + 1, i + 2) for i in range(len(pawns))], turn=seat, stage=Stage.MOVE,
                     dice=(steps, steps), pawns=pawns)
    after, events = apply(state, seat, Move(steps))
    assert after.pawns[seat] == field and field not in {p for s, p in enumerate(pawns) if s != seat}


# -- B-5 the actions ---------------------------------------------------------------------------------------


def test_B5_plus_n_picks_each_cards_pile_after_seeing_the_last() -> None:
    d1, top = num(1, B), num(12, G)
    state, _ = land([cards(1, 2, 3), cards(4, 5, 6)], 2, discard=(num(9, Y), top), draw_top=(d1,))
    assert state.stage is Stage.TAKE and state.to_take == 2
    assert set(legal_commands(state, 0)) == {Draw(Pile.DRAW), Draw(Pile.DISCARD)}
    state, events = apply(state, 0, Draw(Pile.DRAW))
    assert events == (CardDrawn(0, "draw", d1),) and state.stage is Stage.TAKE and state.to_take == 1
    assert RULESET.redact_event(events[0], 1)["card"] is None and RULESET.redact_event(events[0], 0)["card"]
    state, events = apply(state, 0, Draw(Pile.DISCARD))
    assert events == (CardDrawn(0, "discard", top),) and state.stage is Stage.PLAY
    assert state.players[0].hand[-2:] == (d1, top)


def test_B5_plus_three() -> None:
    state, _ = land([cards(1, 2, 3), cards(4, 5, 6)], 12)
    for _ in range(3):
        assert state.stage is Stage.TAKE
        state, _ = apply(state, 0, Draw(Pile.DRAW))
    assert state.stage is Stage.PLAY and len(state.players[0].hand) == 6


def test_B5_search_shows_only_the_searcher_the_pile_order_kept() -> None:
    pile = (num(1, B), num(7, G), num(10, Y), num(3, R))
    state, _ = land([cards(1, 2, 3), cards(4, 5, 6), cards(7, 8, 9)], 3, discard=pile)
    assert state.stage is Stage.SEARCH
    mine = RULESET.player_view(state, 0)
    assert [c["id"] for c in mine["prompt"]["discard_pile"]] == list(ids(pile))
    below = set(ids(pile[:-1]))
    assert not below & hidden_from(state, 0)
    for other in (1, 2, None):
        assert not card_ids(RULESET.player_view(state, other)) & below
        assert below <= hidden_from(state, other)
    assert set(legal_commands(state, 0)) == {Search(c.id) for c in pile}
    with pytest.raises(IllegalMove):
        apply(state, 0, Search(num(5, R).id))
    after, events = apply(state, 0, Search(pile[1].id))
    assert after.piles.discard == (pile[0], pile[2], pile[3]) and after.players[0].hand[-1] == pile[1]
    assert events == (CardSearched(0, pile[1]),) and after.stage is Stage.PLAY
    assert RULESET.redact_event(events[0], 0)["card"]["id"] == pile[1].id
    for other in (1, 2, None):
        seen = RULESET.redact_event(events[0], other)
        assert seen == {"type": "card_searched", "seat": 0, "card": None}
    assert "discard_pile" not in str(RULESET.player_view(after, 0)["prompt"])


def test_B5_search_an_empty_discard_pile_takes_nothing() -> None:
    state, _ = land([cards(1, 2, 3), cards(4, 5, 6)], 3, discard=())
    assert state.stage is Stage.PLAY and len(state.players[0].hand) == 3


def test_B5_again_gives_a_card_then_a_further_turn_and_chains() -> None:
    state, _ = land([cards(1, 2, 3), cards(4, 5, 6)], 11)
    assert state.stage is Stage.TAKE and state.to_take == 1 and state.again
    state, _ = apply(state, 0, Draw(Pile.DRAW))
    assert state.stage is Stage.PLAY
    state, events = apply(state, 0, Discard(state.players[0].hand[0].id))
    assert TurnStarted(0, True) in events and state.turn == 0 and state.stage is Stage.ROLL and not state.again
    assert RULESET.player_view(state, 0)["prompt"] == {"seat": 0, "action": "roll", "again": True}
    # the further turn lands on again once more: another further turn (chaining)
    state = replace(state, stage=Stage.MOVE, dice=(1, 2), pawns=(18, 25))
    state, _ = apply(state, 0, Move(1))
    assert state.pawns[0] == 19 and state.again
    state, _ = apply(state, 0, Draw(Pile.DRAW))
    state, events = apply(state, 0, Discard(state.players[0].hand[0].id))
    assert TurnStarted(0, True) in events and state.turn == 0
    # a plain field afterwards: the turn passes on
    state = replace(state, stage=Stage.MOVE, dice=(1, 2), pawns=(0, 25))
    state, _ = apply(state, 0, Move(1))
    state, _ = apply(state, 0, Draw(Pile.DRAW))
    state, events = apply(state, 0, Discard(state.players[0].hand[0].id))
    assert TurnStarted(1) in events and state.turn == 1
    assert RULESET.player_view(state, 1)["prompt"] == {"seat": 1, "action": "roll", "again": False}


def test_B5_a_second_move_is_lost_if_the_first_ends_the_round() -> None:
    run = group(GroupKind.RUN, cards(4, 5, 6), owner=0)
    state, _ = land([cards(9), cards(1, 2, 3)], 11, laid=(True, False), table=(run,), draw_top=(num(7, B),))
    state, _ = apply(state, 0, Draw(Pile.DRAW))
    state, _ = apply(state, 0, Hit(num(7, B).id, 0, End.HIGH))
    state, events = apply(state, 0, Discard(num(9, R).id))
    assert any(isinstance(e, BoardRoundEnded) and e.went_out == 0 for e in events)
    assert TurnStarted(0, True) not in events and not state.again
    assert state.stage is Stage.KEEP and state.keepers == (1,)
    state, events = apply(state, 1, Keep(()))
    assert state.turn == 1 and state.stage is Stage.ROLL  # the left neighbour of the round-ender starts


def test_B5_swap_one_to_four_out_one_more_in() -> None:
    hand = cards(1, 2, 3, 4, 5, 6)
    fresh = (num(10, B), num(11, B), num(12, B), num(9, B))
    state, _ = land([hand, cards(7, 8, 9)], 8, discard=(num(12, G),), draw_top=fresh)
    assert state.stage is Stage.SWAP
    for bad, code in [((), "swap_count"), (ids(hand[:5]), "swap_count"), ((hand[0].id, hand[0].id), "duplicate_card"),
                      ((num(7, R).id,), "card_not_in_hand")]:
        with pytest.raises(IllegalMove) as err:
            apply(state, 0, Swap(bad))
        assert err.value.code == code
    out = (hand[4], hand[0], hand[2])
    after, events = apply(state, 0, Swap(ids(out)))
    assert after.piles.discard == (num(12, G), *out)  # in the chosen order, the last on top
    assert len(after.players[0].hand) == 6 - 3 + 4 and set(fresh) <= set(after.players[0].hand)
    assert events[0] == CardsSwapped(0, out) and after.stage is Stage.PLAY
    assert [c["id"] for c in RULESET.redact_event(events[0], 1)["cards"]] == [hand[2].id]
    assert [c["id"] for c in RULESET.redact_event(events[0], 0)["cards"]] == list(ids(out))
    assert all(isinstance(c, Swap) and 1 <= len(c.cards) <= 4 for c in legal_commands(state, 0))


def test_B5_all_everybody_takes_a_card_clockwise() -> None:
    x, y, z = num(10, B), num(11, B), num(12, B)
    state, events = land([cards(1), cards(2), cards(3)], 10, seat=1, draw_top=(x, y, z))
    assert [e.seat for e in events if isinstance(e, CardDrawn)] == [1, 2, 0]
    assert state.players[1].hand[-1] == z and state.players[2].hand[-1] == y and state.players[0].hand[-1] == x
    assert state.stage is Stage.PLAY and state.turn == 1


def test_B6_joker_field_turns_a_card_its_face_seen_by_all() -> None:
    j = num(9, G)
    state, events = land([cards(1, 2, 3), cards(4, 5, 6), cards(7, 8)], 6, draw_top=(j,))
    assert JokerTurned(0, j) in events and j.id in state.turned and state.stage is Stage.PLAY
    own = RULESET.player_view(state, 0)["hand"]
    assert {"id": j.id, "kind": "joker"}.items() <= own[-1].items()
    for other in (1, 2, None):
        view = RULESET.player_view(state, other)
        face = view["players"][0]["turned"]
        assert face[0]["id"] == j.id and face[0]["number"] == 9 and face[0]["colour"] == "green"
        assert j.id not in hidden_from(state, other)
        assert RULESET.redact_event(JokerTurned(0, j), other)["card"]["id"] == j.id
    assert {c.id for c in cards(1, 2, 3)} <= hidden_from(state, 1)


def test_B5_ask_first_holder_chooses_and_draws_a_replacement() -> None:
    hands = [cards(1, 2), cards(3, 4), cards(7, 7, 5), cards(7, 8)]
    repl = num(12, B)
    state, events = land(hands, 4, draw_top=(repl,))
    assert state.stage is Stage.ASK and len(legal_commands(state, 0)) == 24
    with pytest.raises(IllegalMove):
        apply(state, 0, Ask(13, "left"))
    asked, events = apply(state, 0, Ask(7, "left"))
    assert asked.stage is Stage.GIVE and RULESET.awaited(asked) == (2,)
    assert set(legal_commands(asked, 2)) == {Give(c.id) for c in hands[2][:2]}
    assert RULESET.player_view(asked, 1)["waiting"] == [{"seat": 2, "action": "give", "number": 7, "to": 0}]
    with pytest.raises(IllegalMove) as err:
        apply(asked, 2, Give(hands[2][2].id))
    assert err.value.code == "must_give_asked_number"
    with pytest.raises(NotYourTurn):
        apply(asked, 0, Give(hands[2][0].id))
    after, events = apply(asked, 2, Give(hands[2][1].id))
    assert after.players[0].hand[-1] == hands[2][1] and repl in after.players[2].hand
    assert len(after.players[2].hand) == 3 and after.stage is Stage.PLAY
    given = events[0]
    assert isinstance(given, CardGiven) and not given.was_joker
    assert RULESET.redact_event(given, 1)["card"] is None and RULESET.redact_event(given, 1)["number"] == 7
    assert RULESET.redact_event(given, 0)["card"]["id"] == hands[2][1].id
    # to the right seat 3 is asked first; one natural 7: no choice to make
    after, events = apply(state, 0, Ask(7, "right"))
    assert after.players[0].hand[-1] == hands[3][0] and after.stage is Stage.PLAY


def test_B5_ask_nobody_has_it_the_asker_draws() -> None:
    top = num(12, B)
    state, _ = land([cards(1, 2), cards(3, 4), cards(5, 6)], 4, draw_top=(top,))
    after, events = apply(state, 0, Ask(9, "right"))
    assert NobodyHad(0, 9) in events and after.players[0].hand[-1] == top and after.stage is Stage.PLAY


def test_B5_an_asked_turned_joker_is_given_and_ordinary_again() -> None:
    joker7 = num(7, G)
    state, _ = land([cards(1, 2), (num(3, R), joker7), cards(7)], 4, turned=(joker7,))
    after, events = apply(state, 0, Ask(7, "left"))
    assert after.players[0].hand[-1] == joker7 and joker7.id not in after.turned
    assert isinstance(events[1], CardGiven) and events[1].was_joker and events[1].giver == 1
    assert RULESET.redact_event(events[1], 2)["card"]["id"] == joker7.id  # its face was public anyway
    # a natural card of the number is given before a turned one
    both = (num(7, R), joker7)
    state, _ = land([cards(1, 2), both, cards(5)], 4, turned=(joker7,))
    after, _ = apply(state, 0, Ask(7, "left"))
    assert after.players[0].hand[-1] == num(7, R) and joker7 in after.players[1].hand


def test_B5_choice_runs_the_next_free_field_of_the_chosen_type() -> None:
    state, _ = land([cards(1, 2, 3), cards(4, 5, 6)], 0, pawns=(31, 20))
    assert state.stage is Stage.CHOOSE and "choice" not in choosable(state, 0)
    assert set(choosable(state, 0)) == {"+N", "search", "again", "swap", "all", "joker", "ask"}
    after, _ = apply(state, 0, ChooseAction("swap"))
    assert after.pawns[0] == 8 and after.stage is Stage.SWAP
    after, _ = apply(replace(state, pawns=(0, 8)), 0, ChooseAction("swap"))
    assert after.pawns[0] == 18  # field 8 occupied: the next swap field
    after, _ = apply(state, 0, ChooseAction("+N"))
    assert after.pawns[0] == 1 and after.stage is Stage.TAKE and after.to_take == 1
    with pytest.raises(IllegalMove):
        apply(state, 0, ChooseAction("choice"))


def test_B5_choice_refuses_a_fully_occupied_type() -> None:
    options = RULESET.parse_options({"ring": ["choice", "+1", "joker", "+1", "+1", "+1", "+1", "+2"]})
    state, _ = land([cards(1, 2), cards(3, 4)], 0, pawns=(7, 2), options=options)
    assert state.stage is Stage.CHOOSE and choosable(state, 0) == ("+N",)
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, ChooseAction("joker"))
    assert err.value.code == "action_not_available"
    with pytest.raises(IllegalMove):
        apply(state, 0, ChooseAction("search"))  # not on this ring at all


# -- steps 2 and 3: lay, hit, discard (C-3, C-4, B-5, B-6) ------------------------------------------------


def test_B5_four_pairs_completed_by_the_card_an_action_gave() -> None:
    """Rulebook example: on phase 2 (4 pairs) Anna holds two 4s, two 11s and three 8s; her action gives
    her a fourth 8 and she lays 4-4, 8-8, 8-8, 11-11."""
    anna = (*cards(4, 4, 11, 11, 8, 8, 8), num(1, B), num(2, B), num(6, B))
    eight = num(8, B)
    before = position([anna, cards(3, 5)], stage=Stage.PLAY, markers=(1, 0))
    assert can_lay(before, 0) is None
    with pytest.raises(IllegalMove):
        apply(before, 0, LayPhase((ids(anna[0:2]), ids(anna[2:4]), ids(anna[4:6]))))
    state, _ = land([anna, cards(3, 5)], 1, markers=(1, 0), draw_top=(eight,))
    state, _ = apply(state, 0, Draw(Pile.DRAW))
    assert any(isinstance(c, LayPhase) for c in legal_commands(state, 0))
    groups = (ids(anna[0:2]), ids(anna[4:6]), (anna[6].id, eight.id), ids(anna[2:4]))
    state, events = apply(state, 0, LayPhase(groups))
    assert state.players[0].laid and len(state.table) == 4 and len(state.players[0].hand) == 3


def test_B5_never_lay_or_hit_the_last_card() -> None:
    pairs = cards(4, 4, 8, 8, 8, 8, 11, 11)
    state = position([pairs, cards(3, 5)], markers=(1, 0))
    assert can_lay(state, 0) is None and not any(isinstance(c, LayPhase) for c in legal_commands(state, 0))
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, LayPhase((ids(pairs[0:2]), ids(pairs[2:4]), ids(pairs[4:6]), ids(pairs[6:8]))))
    assert err.value.code == "last_card"
    run = group(GroupKind.RUN, cards(4, 5, 6), owner=0)
    state = position([(num(7, B),), cards(3, 5)], laid=(True, False), table=(run,))
    assert not any(isinstance(c, Hit) for c in legal_commands(state, 0))
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, Hit(num(7, B).id, 0))
    assert err.value.code == "last_card"


def test_C4_no_hit_before_the_own_phase() -> None:
    run = group(GroupKind.RUN, cards(4, 5, 6), owner=1)
    state = position([(num(7, B), num(1, B)), cards(3, 5)], table=(run,))
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, Hit(num(7, B).id, 0))
    assert err.value.code == "phase_not_laid"


RUN3 = {"phases": [[{"kind": "run", "size": 3}]]}


@pytest.mark.parametrize("order, start, low, high", [
    ("3JJ", 3, 2, 6),   # rulebook: 3-J-J stands for 3, 4, 5
    ("J3J", 2, 1, 5),   # J-3-J stands for 2, 3, 4
    ("JJ3", 1, None, 4),  # J-J-3 stands for 1, 2, 3: only a 4 extends it
])
def test_B6_joker_positions_in_a_run(order: str, start: int, low: int | None, high: int) -> None:
    three, j1, j2 = num(3, R), num(9, G), num(10, Y)
    jokers = iter((j1, j2))
    laid = tuple(three if ch == "3" else next(jokers) for ch in order)
    hand = (*laid, num(low or 12, B), num(high, B))
    state = position([hand, cards(5, 6)], turned=(j1, j2), options=RULESET.parse_options(RUN3))
    state, events = apply(state, 0, LayPhase((ids(laid),)))
    g = state.table[0]
    assert g.start == start and g.end == start + 2 and [c.is_joker for c in g.cards] == [ch == "J" for ch in order]
    hits = {(c.card, c.end) for c in legal_commands(state, 0) if isinstance(c, Hit)}
    assert (num(high, B).id, End.HIGH) in hits
    assert ((num(low, B).id, End.LOW) in hits) if low else not any(e is End.LOW for _, e in hits)


def test_B6_every_group_needs_a_real_card() -> None:
    j1, j2 = num(9, G), num(10, Y)
    state = position([(j1, j2, num(1, B)), cards(5, 6)], turned=(j1, j2),
                     options=RULESET.parse_options({"phases": [[{"kind": "set", "size": 2}]]}))
    with pytest.raises(IllegalMove) as err:
        apply(state, 0, LayPhase(((j1.id, j2.id),)))
    assert err.value.code == "too_few_naturals"
    laid = can_lay(state, 0)  # the solver pairs the real card with a joker
    assert laid is not None and num(1, B).id in laid[0]


def test_B6_all_eight_9s_and_a_run_1_to_12_still_take_jokers() -> None:
    nines = group(GroupKind.SET, tuple(c for c in DECK if c.number == 9), owner=1)
    full = group(GroupKind.RUN, cards(*range(1, 13)), owner=1)
    j1, j2, spare = num(4, G), num(5, G), num(6, G)
    state = position([(j1, j2, spare), cards(1)], laid=(True, True), table=(nines, full), turned=(j1, j2))
    assert group_is_complete(nines) and group_is_complete(full)
    state, _ = apply(state, 0, Hit(j1.id, 0))
    assert len(state.table[0].cards) == 9 and state.table[0].cards[-1] == as_joker(j1)
    state, _ = apply(state, 0, Hit(j2.id, 1))
    assert state.table[1].extra == 1 and (state.table[1].start, state.table[1].end) == (1, 12)
    with pytest.raises(IllegalMove):
        apply(position([(num(9, B, 1), spare), cards(1)], laid=(True, True),
                       table=(replace(nines, cards=nines.cards[:7]), full)), 0, Hit(spare.id, 0))


@pytest.mark.parametrize("table_kind, is_complete", [
    ("eight 9s", True), ("six 9s + 2 jokers", True), ("seven 9s", False), ("run 1-12", True),
    ("run 1-12 with jokers", True), ("run 2-12", False), ("23 reds", False), ("24 reds", True),
])
def test_B7_complete_groups(table_kind: str, is_complete: bool) -> None:
    nines = tuple(c for c in DECK if c.number == 9)
    reds = tuple(c for c in DECK if c.colour == R)
    jokers = (as_joker(num(1, G)), as_joker(num(2, G)))
    made = {
        "eight 9s": (GroupKind.SET, nines), "six 9s + 2 jokers": (GroupKind.SET, nines[:6] + jokers),
        "seven 9s": (GroupKind.SET, nines[:7]), "run 1-12": (GroupKind.RUN, cards(*range(1, 13))),
        "run 1-12 with jokers": (GroupKind.RUN, (jokers[0], *cards(*range(2, 12)), jokers[1])),
        "run 2-12": (GroupKind.RUN, cards(*range(2, 13))), "23 reds": (GroupKind.COLOUR, reds[:23]),
        "24 reds": (GroupKind.COLOUR, reds),
    }
    kind, cs = made[table_kind]
    g = group(kind, cs)
    assert group_is_complete(g) is is_complete
    used = {c.id for c in cs}
    spare = [c for c in DECK if c.id not in used][:4]
    state = position([spare[:3], spare[3:]], laid=(True, True), table=(g,))
    after, _ = apply(state, 0, Discard(spare[0].id))
    assert (after.stage is Stage.DISCARD2) is is_complete


def test_B7_two_discards_only_with_own_phase_down_all_complete() -> None:
    nines = group(GroupKind.SET, tuple(c for c in DECK if c.number == 9), owner=1)
    full = group(GroupKind.RUN, cards(*range(1, 13)), owner=0)
    hand = (num(10, B), num(11, B), num(12, B, 1))
    state = position([hand, cards(4)], laid=(True, True), table=(nines, full))
    assert RULESET.player_view(state, 0)["prompt"]["two_discards"]
    after, events = apply(state, 0, Discard(hand[0].id))
    assert after.stage is Stage.DISCARD2 and after.turn == 0 and EndTurn() in legal_commands(after, 0)
    done, events = apply(after, 0, Discard(hand[1].id))
    assert done.turn == 1 and len(done.players[0].hand) == 1 and done.piles.discard[-2:] == hand[:2]
    skipped, _ = apply(after, 0, EndTurn())
    assert skipped.turn == 1 and len(skipped.players[0].hand) == 2
    with pytest.raises(WrongStage):
        apply(state, 0, EndTurn())
    not_laid = position([hand, cards(4)], laid=(False, True), table=(nines, full))
    assert apply(not_laid, 0, Discard(hand[0].id))[0].turn == 1
    # the second discard may be the last card: the round ends
    last = position([hand[:2], cards(4)], laid=(True, True), table=(nines, full))
    after, _ = apply(last, 0, Discard(hand[0].id))
    after, events = apply(after, 0, Discard(hand[1].id))
    assert any(isinstance(e, BoardRoundEnded) and e.went_out == 0 for e in events)


# -- B-8 round end, B-9 game end, B-10 new round ----------------------------------------------------------


def _out(hands: Any, seat: int, laid: Any, markers: Any, **kw: Any) -> tuple[Any, tuple[Any, ...]]:
    state = position(hands, turn=seat, laid=laid, markers=markers, pawns=(3, 9, 14, 27)[:len(hands)], **kw)
    return apply(state, seat, Discard(hands[seat][0].id))


def test_B8_scoring_order_and_keep_choices() -> None:
    hands = [(num(1, B, 1), num(2, B, 1)), (num(5, B),), cards(1, 2, 3, 4, 5, 6, 7), cards(8, 9)]
    state, events = _out(hands, 1, (True, True, False, True), (2, 2, 2, 2))
    moved = [(e.seat, e.fields, e.position) for e in events if isinstance(e, MarkerMoved)]
    assert moved == [(1, 2, 4), (3, 1, 3), (0, 1, 3)]  # +2 for going out, then clockwise from the left
    assert [p.phase for p in state.players] == [3, 4, 2, 3] and all(p.score == 0 for p in state.players)
    assert state.stage is Stage.KEEP and RULESET.awaited(state) == (2,)
    assert state.players[0].hand == () and state.players[3].hand == ()  # laid players discard their hands
    assert sorted(c.id for c in all_cards(state)) == list(range(96))
    with pytest.raises(IllegalMove) as err:
        apply(state, 2, Keep(ids(hands[2][:6])))
    assert err.value.code == "keep_too_many"
    keep = ids(hands[2][1:6])
    state, events = apply(state, 2, Keep(keep))
    assert isinstance(events[0], CardsKept) and RULESET.redact_event(events[0], 0)["cards"] is None
    assert RULESET.redact_event(events[0], 2)["count"] == 5
    dealt = next(e for e in events if isinstance(e, HandsDealt))
    assert dealt.round == 2 and dealt.first == 2
    # B-10: kept cards kept, everyone topped up to 10, a new 5-card discard pile, pawns stay, left of ender starts
    assert set(keep) <= set(ids(state.players[2].hand)) and [len(p.hand) for p in state.players] == [10] * 4
    assert len(state.piles.discard) == 5 and state.pawns == (3, 9, 14, 27) and state.turn == 2
    assert state.stage is Stage.ROLL and not any(p.laid for p in state.players) and state.table == ()
    assert sorted(c.id for c in all_cards(state)) == list(range(96))


def test_B8_every_keeper_is_awaited_at_once() -> None:
    hands = [cards(1, 2, 3, 4, 5, 6), (num(5, B),), cards(7, 8, 9)]
    state, _ = _out(hands, 1, (False, True, False), (0, 0, 0))
    assert RULESET.awaited(state) == (0, 2)
    assert legal_commands(state, 0) and legal_commands(state, 2) and not legal_commands(state, 1)
    view = RULESET.player_view(state, 1)
    assert [w["seat"] for w in view["waiting"]] == [0, 2] and view["prompt"] is None
    state, _ = apply(state, 2, Keep(ids(hands[2])))
    assert RULESET.awaited(state) == (0,) and state.stage is Stage.KEEP
    with pytest.raises(NotYourTurn):
        apply(state, 2, Keep(()))
    state, _ = apply(state, 0, Keep(()))
    assert state.stage is Stage.ROLL and state.turn == 2 and set(hands[2]) <= set(state.players[2].hand)


def test_B8_turned_jokers_stay_turned_in_kept_hands() -> None:
    t1, t2 = num(11, G), num(12, G)
    hands = [(t1, t2, *cards(1, 2, 3)), (num(5, B),)]
    state, _ = _out(hands, 1, (False, True), (0, 0), turned=(t1, t2))
    state, _ = apply(state, 0, Keep((t1.id, hands[0][2].id)))
    assert t1.id in state.turned and t2.id not in state.turned and t1 in state.players[0].hand
    view = RULESET.player_view(state, 1)
    assert [c["id"] for c in view["players"][0]["turned"]] == [t1.id]
    assert RULESET.player_view(state, 0)["hand"][0]["kind"] == "joker"


def test_B9_game_ends_at_once_in_scoring_order() -> None:
    hands = [(num(5, B),), cards(1, 2), cards(3, 4)]
    # seat 0 goes out from phase 8 to 10 of 10 = not yet finished; seat 1 reaches the finish first; seat 2 not moved
    state, events = _out(hands, 0, (True, True, True), (7, 9, 9))
    assert state.stage is Stage.OVER and state.winners == (1,)
    assert [(e.seat, e.position) for e in events if isinstance(e, MarkerMoved)] == [(0, 9), (1, 10)]
    assert state.players[2].phase == 9 and isinstance(events[-1], GameEnded) and events[-1].winners == (1,)
    # the player who goes out moves first and wins even though others would finish too
    state, events = _out(hands, 0, (True, True, True), (8, 9, 9))
    assert state.winners == (0,) and [e.seat for e in events if isinstance(e, MarkerMoved)] == [0]
    assert not RULESET.awaited(state) and not legal_commands(state, 0)


def test_B11_phases_to_win_and_custom_phase_list() -> None:
    options = RULESET.parse_options({"phases_to_win": 2})
    hands = [(num(5, B),), cards(1, 2)]
    state, _ = _out(hands, 0, (True, False), (0, 0), options=options)
    assert state.winners == (0,)
    for bad in (0, 11):
        with pytest.raises(InvalidOptions) as err:
            RULESET.parse_options({"phases_to_win": bad})
        assert err.value.field == "phases_to_win"
    custom = RULESET.parse_options({"phases": [[{"kind": "set", "size": 2}], [{"kind": "colour", "size": 4}]]})
    view = RULESET.player_view(RULESET.new_game(1, 2, custom), 0)
    assert [p["description"] for p in view["phases"]] == ["1 set of 2", "4 cards of one colour"]
    assert view["finish"] == 2
    assert RULESET.parse_options(RULESET.options_to_json(custom)) == custom
    with pytest.raises(InvalidOptions):
        RULESET.parse_options({"phases": [[{"kind": "set", "size": 2}]], "phases_to_win": 2})


@pytest.mark.parametrize("raw", [
    [], [[]], [[{"kind": "colour_run", "size": 3}]], [[{"kind": "set", "size": 1}]],
    [[{"kind": "run", "size": 11}]], [[{"kind": "pair", "size": 2}]], [[{"kind": "set"}]],
    [[{"kind": "set", "size": 2, "extra": 1}]], "4 sets of 2",
])
def test_B11_malformed_phase_lists_are_refused(raw: Any) -> None:
    with pytest.raises(InvalidOptions) as err:
        RULESET.parse_options({"phases": raw})
    assert err.value.field.startswith("phases")


def test_C12_a_stalled_board_round_ends_at_the_third_rebuild() -> None:
    """C-12: the draw that makes the third rebuild of the draw pile ends the round at once, with nobody going
    out (board game: no +2) -- even a player who could now go out; the pending again turn is lost."""
    hands = [cards(1, 2, 3), cards(4), cards(6, 7)]
    pile = cards(8, 9, 10, 11)
    state = position(hands, turn=1, stage=Stage.TAKE, to_take=1, laid=(True, True, True), markers=(1, 1, 1),
                     draw=(), discard=pile, again=True)
    state = replace(state, piles=Piles(draw=(), discard=pile, rebuilds=2))
    after, events = apply(state, 1, Draw(Pile.DRAW))
    assert any(isinstance(e, DrawPileRebuilt) for e in events)
    assert TurnStarted(1, True) not in events  # the pending again turn is lost
    ended = next(e for e in events if isinstance(e, BoardRoundEnded))
    assert ended.went_out is None
    # clockwise from the left of seat 1 (whose turn stalled), everyone with the phase down moves one field
    assert [(e.seat, e.fields) for e in events if isinstance(e, MarkerMoved)] == [(2, 1), (0, 1), (1, 1)]
    assert after.round == 2 and after.turn == 2  # nobody kept cards: the next deal, the left neighbour starts
    assert after.piles.rebuilds == 0


def test_C12_a_round_that_stalls_with_keepers_asks_them_first() -> None:
    """C-12 with B-8: the stalled round still asks the players without their phase which cards to keep."""
    hands = [cards(1, 2, 3), cards(4, 5), cards(6, 7)]
    pile = cards(8, 9, 10, 11)
    state = position(hands, turn=1, stage=Stage.TAKE, to_take=1, laid=(True, False, True), markers=(1, 1, 1),
                     draw=(), discard=pile)
    state = replace(state, piles=Piles(draw=(), discard=pile, rebuilds=2))
    after, events = apply(state, 1, Draw(Pile.DRAW))
    assert next(e for e in events if isinstance(e, BoardRoundEnded)).went_out is None
    assert [(e.seat, e.fields) for e in events if isinstance(e, MarkerMoved)] == [(2, 1), (0, 1)]
    assert after.stage is Stage.KEEP and after.keepers == (1,)
    after, _ = apply(after, 1, Keep(()))
    assert after.turn == 2 and after.round == 2  # the left neighbour of the player whose turn stalled


def test_C8_draw_from_an_empty_pile_rebuilds_from_the_discards() -> None:
    pile = cards(8, 9, 10, 11)
    state = position([cards(1), cards(2)], stage=Stage.TAKE, to_take=1, draw=(), discard=pile)
    after, events = apply(state, 0, Draw(Pile.DRAW))
    assert isinstance(events[0], DrawPileRebuilt) and after.piles.discard == pile[-1:]
    assert len(after.players[0].hand) == 2 and len(after.piles.draw) == 2


def test_commands_round_trip_as_json() -> None:
    for command in (RollDice(), Move(3), ChooseAction("+N"), Draw(Pile.DISCARD), Search(4), Swap((1, 2)),
                    Ask(7, "left"), Give(5), EndTurn(), Keep((1, 2, 3)), Keep(())):
        assert RULESET.parse_command(RULESET.command_to_json(command)) == command
    assert RULESET.parse_command({"type": "ask", "number": 3, "direction": "right"}) == Ask(3, "right")
