"""The hard bot on scripted positions where one move is clearly best, and its card counting (C-9)."""

from __future__ import annotations

import random
from typing import Any

from app.bots import LEVELS, choose
from app.bots.board import progress_chance
from app.bots.counting import feed_risk, outs, unseen
from app.bots.hard import gap, remembered_take_chance, take_chance
from app.bots.memory import Memory
from app.rules.board.state import Move
from app.rules.core.cards import Card, CardKind, Colour, card_to_json
from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile
from app.rules.core.events import group_to_json
from app.rules.core.groups import End, GroupKind, LaidGroup
from app.rules.master.state import KeepHand, OfferCard, PlayAction

SET, RUN = GroupKind.SET, GroupKind.RUN
_ids = iter(range(1000))


def num(number: int, colour: Colour = Colour.RED) -> Card:
    return Card(next(_ids), CardKind.NUMBER, number=number, colour=colour)


def wild() -> Card:
    return Card(next(_ids), CardKind.JOKER)


def action(name: str) -> Card:
    return Card(next(_ids), CardKind.ACTION, action=name)


def view(hand: list[Card], phase: list[tuple[GroupKind, int]] | None, players: list[dict[str, Any]],
         table: list[LaidGroup] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": 0, "hand": [card_to_json(c) for c in hand],
                           "table": [group_to_json(g) for g in table or ()], "discard_top": None, "players": players,
                           "phases": [{"number": 1, "groups": [{"kind": "set", "size": 3}] * 2},
                                      {"number": 7, "groups": [{"kind": "set", "size": 4}] * 2}]}
    if phase is not None:
        out["my_phase"] = [{"kind": k.value, "size": n} for k, n in phase]
    out.update(extra)
    return out


def two(me_laid: bool = False, other: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return [{"seat": 0, "laid": me_laid, "hand_size": 8, "phases_done": 0, "phase": 1},
            {"seat": 1, "laid": False, "hand_size": 10, "phases_done": 0, "phase": 1, **(other or {})}]


def test_hard_is_a_level_everywhere_a_level_is_chosen() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard"]


def test_hard_lays_its_phase_as_soon_as_it_can() -> None:
    hand = [num(3), num(3, Colour.BLUE), num(3, Colour.GREEN), num(8), num(8, Colour.BLUE), num(8, Colour.GREEN),
            num(11), num(12)]
    lay = LayPhase(((hand[0].id, hand[1].id, hand[2].id), (hand[3].id, hand[4].id, hand[5].id)))
    legal = (*(Discard(c.id) for c in hand), lay)
    chosen = choose("hard", "mattel", view(hand, [(SET, 3), (SET, 3)], two()), legal, random.Random(0))
    assert chosen == lay


def test_hard_never_feeds_the_next_player_a_card_they_can_hit() -> None:
    """The next player has laid a set of 12s: hard keeps its 12 although it is the costliest card (M-7)."""
    twelve, five = num(12, Colour.BLUE), num(5)
    hand = [num(3), num(3, Colour.BLUE), num(9), num(9, Colour.BLUE), twelve, five]
    sets = [LaidGroup(owner=1, kind=SET, cards=(num(12), num(12, Colour.GREEN), num(12, Colour.YELLOW)),
                      number=12)]
    players = two(other={"laid": True, "hand_size": 3})
    legal = (Discard(twelve.id), Discard(five.id))
    chosen = choose("hard", "mattel", view(hand, [(SET, 3), (SET, 3)], players, sets), legal, random.Random(0))
    assert chosen == Discard(five.id)


def test_hard_once_laid_keeps_the_card_nearest_a_hit() -> None:
    """Phase down, the other player's not: the 10 is one card from a hit on the run 2–8, the 4 can never be hit
    (the run already holds a 4). Hard discards the 4 although the 10 costs more (M-7): going out sooner ends the
    round before the other player lays their phase. Normal, by cost, throws the 10."""
    ten, four = num(10), num(4, Colour.BLUE)
    run = LaidGroup(owner=0, kind=RUN, cards=tuple(num(n) for n in range(2, 9)), start=2)
    v = view([ten, four], None, two(me_laid=True), [run])
    for legal in ((Discard(ten.id), Discard(four.id)), (Discard(four.id), Discard(ten.id))):
        assert choose("hard", "mattel", v, legal, random.Random(0)) == Discard(four.id)
        assert choose("normal", "mattel", v, legal, random.Random(0)) == Discard(ten.id)


def test_hard_discards_the_card_least_likely_collected_next() -> None:
    """Both junk cards are spare and fit nothing of the next player's; six of the eight 11s are in sight (hand
    and table), so an 11 is far less likely to complete the next player's sets than a 10, of which all seven
    others are unseen."""
    ten, eleven = num(10), num(11)
    hand = [num(3), num(3, Colour.BLUE), num(6), num(6, Colour.BLUE), ten, eleven]
    laid = LaidGroup(owner=2, kind=SET, cards=tuple(num(11, c) for c in (Colour.GREEN, Colour.YELLOW, Colour.RED,
                                                                         Colour.GREEN, Colour.YELLOW)), number=11)
    players = [{"seat": 0, "laid": False, "hand_size": 6, "phases_done": 0, "phase": 1},
               {"seat": 1, "laid": False, "hand_size": 10, "phases_done": 0, "phase": 1},
               {"seat": 2, "laid": True, "hand_size": 6, "phases_done": 0, "phase": 7}]
    v = view(hand, [(SET, 3), (SET, 3)], players, [laid])
    left = unseen(v)
    assert sum(left[(11, c)] for c in Colour) == 2 and sum(left[(10, c)] for c in Colour) == 7
    assert feed_risk(eleven, [(SET, 3), (SET, 3)], left, 10) < feed_risk(ten, [(SET, 3), (SET, 3)], left, 10)
    for legal in ((Discard(ten.id), Discard(eleven.id)), (Discard(eleven.id), Discard(ten.id))):
        assert choose("hard", "mattel", v, legal, random.Random(0)) == Discard(eleven.id)


def test_hard_keeps_the_card_with_more_outs() -> None:
    """Run of 4 + set of 3 (M-3 phase 2): with 4-5-6 in hand, a lone 12 has no use while the 8 can still make
    4-5-6-7-8 with one card; card counting says the 8 leaves more outs, so the 12 goes."""
    hand = [num(4), num(5), num(6), num(9), num(9, Colour.BLUE), num(8), num(12)]
    req = [(GroupKind.SET, 3), (GroupKind.RUN, 4)]
    left = unseen(view(hand, req, two()))
    assert outs(hand[:-1], req, 2, left) >= outs(hand[:-2] + hand[-1:], req, 2, left)
    legal = tuple(Discard(c.id) for c in hand)
    assert choose("hard", "mattel", view(hand, req, two()), legal, random.Random(0)) == Discard(hand[-1].id)


def test_hard_master_skips_the_leader() -> None:
    skip = action("skip")
    hand = [num(3), num(4), skip]
    players = [{"seat": 0, "laid": False, "hand_size": 3, "phases_done": 2},
               {"seat": 1, "laid": False, "hand_size": 9, "phases_done": 3},
               {"seat": 2, "laid": True, "hand_size": 2, "phases_done": 6},
               {"seat": 3, "laid": False, "hand_size": 7, "phases_done": 4}]
    legal = (Discard(hand[0].id), Discard(hand[1].id), *(PlayAction(skip.id, target=s) for s in (1, 2, 3)))
    assert choose("hard", "master", view(hand, [(SET, 3)], players), legal, random.Random(0)) == PlayAction(skip.id, 2)


def test_hard_master_offers_the_card_least_useful_to_the_taker() -> None:
    """Seat 1 (phase 7: two sets of 4) asked for an offer (Give me five). Of hard's two spare cards, the 4 and
    the 9, six of the eight 9s lie on the table and hard holds the seventh, so a 9 hardly helps the taker, while
    seven 4s are unseen. ``normal`` cannot tell the two apart and offers the first; hard offers the 9."""
    nine, four = num(9, Colour.YELLOW), num(4)
    hand = [num(5), num(5, Colour.BLUE), num(5, Colour.GREEN), num(7), num(7, Colour.BLUE), four, nine]
    nines = LaidGroup(owner=2, kind=SET, number=9, cards=tuple(
        num(9, colour) for colour in (Colour.RED, Colour.BLUE, Colour.GREEN) for _ in range(2)))
    players = [{"seat": 0, "laid": False, "hand_size": 7, "phases_done": 0, "phase": 1},
               {"seat": 1, "laid": False, "hand_size": 10, "phases_done": 6, "phase": 7},
               {"seat": 2, "laid": True, "hand_size": 4, "phases_done": 0, "phase": 1}]
    v = view(hand, [(SET, 3), (SET, 3)], players, [nines], prompt={"action": "offer", "taker": 1, "count": 1})
    legal = (OfferCard(four.id), OfferCard(nine.id))
    assert choose("normal", "master", v, legal, random.Random(0)) == OfferCard(four.id)
    assert choose("hard", "master", v, legal, random.Random(0)) == OfferCard(nine.id)


def test_hard_master_keeps_an_all_mine_hand_closer_to_its_phase() -> None:
    """All mine at round end, next phase 7 (two sets of 4): four 5s and three 9s are one card from it, better
    than 10 new cards, so hard keeps them (``normal`` keeps only a hand with a joker or a Skip); nine cards of
    nine numbers, six cards from it, are worse than 10 new cards, so hard lets them go; eleven cards with the
    good seven are kept too (none are dealt to a hand of more than 10)."""
    good = [*(num(5, c) for c in Colour), num(9), num(9, Colour.BLUE), num(9, Colour.GREEN)]
    poor = [num(n, list(Colour)[n % 4]) for n in range(1, 10)]
    legal = (KeepHand(True), KeepHand(False))
    eleven = [*good, num(1), num(2), num(3), num(4)]  # more than 10 cards are all kept
    for hand, keep in ((good, True), (poor, False), (eleven, True)):
        me = {"seat": 0, "laid": True, "hand_size": len(hand), "phases_done": 6, "phase": 7}
        players = [me, {"seat": 1, "laid": False, "hand_size": 6, "phases_done": 5, "phase": 6}]
        v = view(hand, None, players, prompt={"action": "keep_hand", "hand_size": len(hand)})
        assert choose("normal", "master", v, legal, random.Random(0)) == KeepHand(False)
        for seed in range(5):
            assert choose("hard", "master", v, legal, random.Random(seed)) == KeepHand(keep)


_RING = ["choice", "+1", "+3", "again", "joker", "+2", "search", "all"]


def _board(hand: list[Card], phase: list[tuple[GroupKind, int]], moves: dict[int, int]) -> dict[str, Any]:
    ring = [{"index": i, "field": f, "action": f} for i, f in enumerate(_RING)]
    prompt = {"action": "move", "moves": [{"steps": s, "field": f} for s, f in moves.items()]}
    return view(hand, phase, two(), ring=ring, prompt=prompt, discard_size=5)


def test_hard_board_picks_the_die_whose_field_completes_it() -> None:
    """One card short of 2 sets of 3: the joker field (B-6) completes it for sure; +3 only perhaps."""
    hand = [num(3), num(3, Colour.BLUE), num(3, Colour.GREEN), num(8), num(8, Colour.BLUE), num(1), num(11)]
    v = _board(hand, [(SET, 3), (SET, 3)], {2: 2, 4: 4})
    assert choose("hard", "board", v, (Move(2), Move(4)), random.Random(0)) == Move(4)


def test_hard_board_that_can_lay_goes_where_it_sheds_cards() -> None:
    """The phase is complete in hand: hard moves to again (another turn to shed cards, and the player who goes
    out moves two phases, B-8) rather than +3, which normal prefers before its phase is down."""
    hand = [num(3), num(3, Colour.BLUE), num(3, Colour.GREEN), num(8), num(8, Colour.BLUE), num(8, Colour.GREEN),
            num(11)]
    v = _board(hand, [(SET, 3), (SET, 3)], {2: 2, 3: 3})
    assert choose("hard", "board", v, (Move(2), Move(3)), random.Random(0)) == Move(3)
    assert choose("normal", "board", v, (Move(2), Move(3)), random.Random(0)) == Move(2)


def test_hard_board_far_from_its_phase_goes_for_a_needed_card() -> None:
    """Three cards short of 2 sets of 3 (B-5): a search looks through the five cards of the discard pile, which
    bring one of the many cards it needs (a third 3, a second 8, 1, 5, 11 or 12) with a chance of at least 0.9;
    again brings one card and a further turn, 0.7. Ranked by the fields' fixed order alone, hard went to again."""
    hand = [num(3), num(3, Colour.BLUE), num(8), num(1), num(5, Colour.GREEN), num(11), num(12, Colour.YELLOW)]
    v = _board(hand, [(SET, 3), (SET, 3)], {3: 3, 6: 6})
    assert progress_chance("search", hand, [(SET, 3), (SET, 3)], v, 3) == 0.9
    assert round(progress_chance("again", hand, [(SET, 3), (SET, 3)], v, 3), 1) == 0.7
    assert choose("hard", "board", v, (Move(3), Move(6)), random.Random(0)) == Move(6)


def test_hard_board_far_from_its_phase_prefers_a_further_turn() -> None:
    """The same hand with a 3 on top of the discard pile: a search and again both bring a card it needs for
    sure, and again adds a whole further turn (another field that brings cards), so hard goes there; normal,
    by its fixed order, to the search."""
    hand = [num(3), num(3, Colour.BLUE), num(8), num(1), num(5, Colour.GREEN), num(11), num(12, Colour.YELLOW)]
    v = {**_board(hand, [(SET, 3), (SET, 3)], {3: 3, 6: 6}), "discard_top": card_to_json(num(3, Colour.GREEN))}
    assert choose("hard", "board", v, (Move(3), Move(6)), random.Random(0)) == Move(3)
    assert choose("normal", "board", v, (Move(3), Move(6)), random.Random(0)) == Move(6)


def test_gap_counts_the_cards_missing_before_a_hit() -> None:
    run = LaidGroup(owner=1, kind=RUN, cards=(num(4), num(5), num(6), num(7)), start=4)
    sets = LaidGroup(owner=1, kind=SET, cards=(num(9), num(9), num(9)), number=9)
    assert gap(num(8), [run, sets]) == 0
    assert gap(num(9), [run, sets]) == 0
    assert gap(num(2), [run, sets]) == 1
    assert gap(num(11), [run, sets]) == 3
    assert gap(num(12), [sets]) == 99


def test_hard_once_laid_does_not_feed_the_next_players_phase() -> None:
    """Phase down, the next player's (two sets of three) not: a 12 of which seven copies are unseen is the card
    they most likely collect (M-4), while six of the eight 10s are in hand. Hard keeps the 12 although it is
    further from a hit (C-4) and throws a 10; by distance from a hit alone it would throw the 12."""
    twelve = num(12, Colour.BLUE)
    tens = [num(10, c) for c in (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW, Colour.RED, Colour.BLUE)]
    run = LaidGroup(owner=0, kind=RUN, cards=tuple(num(n) for n in range(2, 9)), start=2)
    v = view([twelve, *tens], None, two(me_laid=True), [run])
    left = unseen(v)
    assert take_chance(twelve, [(SET, 3), (SET, 3)], left, 10) > take_chance(tens[0], [(SET, 3), (SET, 3)], left, 10)
    assert take_chance(twelve, None, left, 10) == 0.0
    for legal in ((Discard(twelve.id), *(Discard(c.id) for c in tens)), (*(Discard(c.id) for c in tens),
                                                                        Discard(twelve.id))):
        assert choose("hard", "mattel", v, legal, random.Random(0)) != Discard(twelve.id)


def test_hard_hits_a_wild_at_the_run_end_its_next_card_continues() -> None:
    """Phase down, holding a wild, an 11 and a 2: the wild may go below or above the run 5–9 (C-4). Above, as the
    10, the 11 can follow it this turn; below, as the 4, nothing can. Normal takes the first legal end; hard the
    high one whatever the order."""
    joker, eleven, two_ = wild(), num(11, Colour.BLUE), num(2, Colour.GREEN)
    run = LaidGroup(owner=0, kind=RUN, cards=tuple(num(n) for n in range(5, 10)), start=5)
    v = view([joker, eleven, two_], None, two(me_laid=True), [run], ruleset="mattel")
    low, high = Hit(joker.id, 0, End.LOW), Hit(joker.id, 0, End.HIGH)
    for legal in ((low, high, Discard(joker.id), Discard(eleven.id)), (high, low, Discard(eleven.id))):
        assert choose("hard", "mattel", v, legal, random.Random(0)) == high
    assert choose("normal", "mattel", v, (low, high), random.Random(0)) == low


def test_hard_hits_a_card_onto_a_run_rather_than_a_set() -> None:
    """Phase down, holding a 7 and an 8: the 7 fits the set of 7s and the run 3–6. On the run it makes room for
    the 8 this turn, on the set it does not. Normal hits the lower-numbered group, the set."""
    seven, eight = num(7, Colour.BLUE), num(8, Colour.GREEN)
    sevens = LaidGroup(owner=1, kind=SET, cards=(num(7), num(7, Colour.GREEN), num(7, Colour.YELLOW)), number=7)
    run = LaidGroup(owner=0, kind=RUN, cards=tuple(num(n) for n in range(3, 7)), start=3)
    v = view([seven, eight, num(12)], None, two(me_laid=True), [sevens, run], ruleset="mattel")
    legal = (Hit(seven.id, 0), Hit(seven.id, 1, End.HIGH))
    assert choose("hard", "mattel", v, legal, random.Random(0)) == Hit(seven.id, 1, End.HIGH)
    assert choose("normal", "mattel", v, legal, random.Random(0)) == Hit(seven.id, 0)


def test_hard_sheds_its_costliest_card_when_one_nears_out() -> None:
    """Both phases down, the other player holds two cards: the round may end on their turn, so hard throws the
    10 (10 points, M-7) although it is one card from a hit and the 4 (5 points) never will be."""
    ten, four = num(10), num(4, Colour.BLUE)
    run = LaidGroup(owner=0, kind=RUN, cards=tuple(num(n) for n in range(2, 9)), start=2)
    v = view([ten, four], None, two(me_laid=True, other={"laid": True, "hand_size": 2}), [run])
    for legal in ((Discard(ten.id), Discard(four.id)), (Discard(four.id), Discard(ten.id))):
        assert choose("hard", "mattel", v, legal, random.Random(0)) == Discard(ten.id)


def _spares_position() -> tuple[list[Card], dict[str, Any]]:
    """Phase 1 (two sets of three) with the 3s made and a pair of 9s: the 1, the 7 and the 11 are all spare."""
    hand = [num(3), num(3, Colour.BLUE), num(3, Colour.GREEN), num(9), num(9, Colour.BLUE),
            num(1, Colour.YELLOW), num(7, Colour.YELLOW), num(11, Colour.GREEN)]
    return hand, view(hand, [(SET, 3), (SET, 3)], two(), round=1)


def test_hard_in_the_last_round_keeps_its_lead_or_races_out() -> None:
    """Both players have their last phase down, so the lower total wins (M-8). Left: a 10, one card from a hit on
    the run 5–8, and a 1, three cards from one. Ahead on points, hard throws the costly 10 (if the other goes
    out first, what it holds counts), although the other player holds five cards; behind, only going out first
    can win, so it throws the far 1, although the other player may go out next turn."""
    ten, one = num(10), num(1, Colour.BLUE)
    run = LaidGroup(owner=0, kind=RUN, cards=tuple(num(n, Colour.GREEN) for n in range(5, 9)), start=5)
    sets = LaidGroup(owner=1, kind=SET, cards=(num(12), num(12, Colour.GREEN), num(12, Colour.YELLOW)), number=12)
    phases = [{"number": 10, "groups": [{"kind": "set", "size": 3}, {"kind": "run", "size": 4}]}]
    legal = (Discard(ten.id), Discard(one.id))
    for mine, theirs, their_hand, thrown in ((50, 100, 5, ten), (150, 100, 2, one)):
        players = [{"seat": 0, "laid": True, "hand_size": 2, "phase": 10, "phases_done": 9, "score": mine},
                   {"seat": 1, "laid": True, "hand_size": their_hand, "phase": 10, "phases_done": 9,
                    "score": theirs}]
        v = view([ten, one], None, players, [run, sets], phases=phases)
        assert choose("hard", "mattel", v, legal, random.Random(0)) == Discard(thrown.id)


def test_hard_keeps_back_the_number_the_next_player_took() -> None:
    """Of three spare cards ``hard`` throws the 11 (the costliest, M-7). Told that the next player took two 11s
    from the discard pile this round (everyone saw it), it keeps the 11 back, as a third one makes their set."""
    hand, seen = _spares_position()
    legal = tuple(Discard(c.id) for c in hand)
    spare = {hand[5].id, hand[6].id, hand[7].id}
    assert choose("hard", "mattel", seen, legal, random.Random(0)).card == hand[7].id
    memory = Memory(round=1, held=((1, num(11)), (1, num(11, Colour.BLUE))))
    chosen = choose("hard", "mattel", seen, legal, random.Random(0), memory)
    assert chosen.card in spare - {hand[7].id}


def test_a_remembered_take_is_read_from_cards_held_and_passed() -> None:
    """The chance that the next player takes a card: far higher for the number whose pair they took (unless the
    rest of their hand holds its third already) than for any other, and lower for a number they just left on the
    discard pile."""
    hand, seen = _spares_position()
    held = Memory(round=1, held=((1, num(7)), (1, num(7, Colour.BLUE))))
    chance = remembered_take_chance(seen, held, random.Random(1))
    blind = remembered_take_chance(seen, Memory(round=1), random.Random(1))
    assert chance is not None and blind is not None
    seven, twelve = num(7, Colour.GREEN), num(12, Colour.GREEN)
    assert chance(seven) > blind(seven) + 0.25
    assert chance(seven) > chance(twelve) + 0.25
    passed = Memory(round=1, passed=((1, num(12, Colour.BLUE)),))
    after_pass = remembered_take_chance(seen, passed, random.Random(1))
    assert after_pass is not None
    assert after_pass(twelve) < blind(twelve)
    assert remembered_take_chance(dict(seen, players=two(other={"laid": True})), held, random.Random(1)) is None


def test_a_memory_of_another_round_is_not_read() -> None:
    """A memory left from the round before (its cards are back in the deck) is ignored: the same choice as with
    no memory at all."""
    hand, seen = _spares_position()
    legal = tuple(Discard(c.id) for c in hand)
    old = Memory(round=0, held=((1, num(7)), (1, num(7, Colour.BLUE))))
    assert choose("hard", "mattel", seen, legal, random.Random(0), old) == \
        choose("hard", "mattel", seen, legal, random.Random(0))


def test_hard_master_take_two_draws_for_the_card_below_the_top() -> None:
    """R-8: a Take-two owner drawing from the discard pile gets its top and the card below. The top (a 12) does
    not help a hand one pair short of four sets of two; the 3 below it, remembered from when it was thrown, does:
    with a Take two in front of it ``hard`` draws from the discard pile, without one (or not knowing the card
    below) from the draw pile."""
    hand = [num(7), num(7, Colour.BLUE), num(9), num(9, Colour.BLUE), num(11), num(11, Colour.BLUE), num(3),
            num(5)]
    top, below = num(12), num(3, Colour.BLUE)
    legal = (Draw(Pile.DRAW), Draw(Pile.DISCARD))
    remembered = Memory(round=1, top=top, buried=(num(10), below))

    def drawn(take_two: bool, memory: Memory) -> Draw:
        seen = view(hand, [(SET, 2)] * 4, two(), discard_top=card_to_json(top), round=1,
                    prompt={"action": "draw", "take_two": take_two})
        return choose("hard", "master", seen, legal, random.Random(0), memory)

    assert drawn(True, remembered) == Draw(Pile.DISCARD)
    assert drawn(False, remembered) == Draw(Pile.DRAW)
    assert drawn(True, Memory(round=1, top=top)) == Draw(Pile.DRAW)


def test_hard_board_keeps_pairs_until_its_phase_of_sets_is_down() -> None:
    """3 sets of 3 (B-3 phase 7), two cards short with three pairs beside the 3s: a card of any pair is spare
    too (the other two pairs still wait for one card each), and four 8s lie on the table, so an 8 would hardly
    complete the next player's sets while the lone 2 could. In the card games ``hard`` weighs that and breaks
    the pair of 8s (it still waits for a 5 or an 11); on the board, where the next player takes the discard
    pile's top only from a ``+N`` or ``again`` field, it keeps every pair and lets the 2 go, as ``normal`` does."""
    two_, eight = num(2), num(8)
    hand = [num(3), num(3, Colour.BLUE), num(3, Colour.GREEN), eight, num(8, Colour.BLUE), num(5),
            num(5, Colour.BLUE), num(11), num(11, Colour.BLUE), two_]
    eights = LaidGroup(owner=2, kind=SET, number=8,
                       cards=tuple(num(8, c) for c in (Colour.GREEN, Colour.YELLOW, Colour.RED, Colour.GREEN)))
    players = [{"seat": 0, "laid": False, "hand_size": 10, "phases_done": 6, "phase": 7},
               {"seat": 1, "laid": False, "hand_size": 10, "phases_done": 0, "phase": 1},
               {"seat": 2, "laid": True, "hand_size": 6, "phases_done": 6, "phase": 7}]
    v = view(hand, [(SET, 3)] * 3, players, [eights])
    legal = tuple(Discard(c.id) for c in hand)
    assert choose("hard", "mattel", v, legal, random.Random(0)) == Discard(eight.id)
    assert choose("hard", "board", v, legal, random.Random(0)) == Discard(two_.id)
    assert choose("normal", "board", v, legal, random.Random(0)) == Discard(two_.id)


SKIP_PHASE = [(SET, 3), (SET, 3)]


def skip_table(my_phases: int) -> tuple[Card, list[Card], list[dict[str, Any]], tuple[Discard, ...]]:
    """A Mattel turn of ``hard`` (seat 0, ``my_phases`` phases done) holding a skip, a spare 11 and two sets of
    3 one card short, at a table of three where seat 2 leads with 3 phases done and nobody has laid: the skip,
    the hand, the players and the legal discards."""
    s = action("skip")
    hand = [num(3), num(3, Colour.BLUE), num(3, Colour.GREEN), num(8), num(8, Colour.BLUE), num(11), s]
    players = [{"seat": 0, "laid": False, "hand_size": 7, "phases_done": my_phases},
               {"seat": 1, "laid": False, "hand_size": 10, "phases_done": 1},
               {"seat": 2, "laid": False, "hand_size": 9, "phases_done": 3}]
    legal = (*(Discard(c.id) for c in hand[:-1]), Discard(s.id, 1), Discard(s.id, 2))
    return s, hand, players, legal


def test_hard_mattel_keeps_its_skip_until_an_opponent_may_go_out() -> None:
    """M-6 lets a skip be kept. With no opponent near going out, ``hard`` throws its spare 11 and keeps the skip
    (``normal`` plays it at once); when an opponent has their phase down and two cards left, or when no natural
    card is spare, or once its own phase is down, it plays the skip on the biggest threat."""
    s, hand, quiet, legal = skip_table(my_phases=3)
    close = [quiet[0], quiet[1], {**quiet[2], "laid": True, "hand_size": 2}]
    req = SKIP_PHASE
    assert choose("hard", "mattel", view(hand, req, quiet), legal, random.Random(0)) == Discard(hand[5].id)
    assert choose("normal", "mattel", view(hand, req, quiet), legal, random.Random(0)) == Discard(s.id, 2)
    assert choose("hard", "mattel", view(hand, req, close), legal, random.Random(0)) == Discard(s.id, 2)
    needed = [c for c in hand if c.id != hand[5].id]
    legal_needed = (*(Discard(c.id) for c in needed[:-1]), Discard(s.id, 1), Discard(s.id, 2))
    assert choose("hard", "mattel", view(needed, req, quiet), legal_needed, random.Random(0)) == Discard(s.id, 2)
    laid = [{**quiet[0], "laid": True}, quiet[1], quiet[2]]
    eleven = num(11)
    legal_laid = (Discard(eleven.id), Discard(s.id, 1), Discard(s.id, 2))
    assert choose("hard", "mattel", view([eleven, s], None, laid), legal_laid, random.Random(0)) == Discard(s.id, 2)


def test_hard_mattel_skips_a_leader_before_their_phase_is_down() -> None:
    """M-6, C-3: the biggest threat has more phases done than ``hard`` and has not laid this round's phase, so a
    turn lost now may cost them that phase: ``hard`` plays its skip on them at once rather than keep it. Once
    their phase is down it keeps the skip again (nobody is near going out, and its 11 is spare)."""
    s, hand, ahead, legal = skip_table(my_phases=2)
    down = [ahead[0], ahead[1], {**ahead[2], "laid": True, "hand_size": 5}]
    req = SKIP_PHASE
    assert choose("hard", "mattel", view(hand, req, ahead), legal, random.Random(0)) == Discard(s.id, 2)
    assert choose("hard", "mattel", view(hand, req, down), legal, random.Random(0)) == Discard(hand[5].id)
