"""The ``hard`` bot: ``normal``'s solver play plus card counting and an eye on the next player (C-3, C-4, C-9).

It sees what ``normal`` sees — the seat's view, its legal commands, a private random generator — plus the
seat's memory of the round (``app.bots.memory``: the events as the seat was shown them), and infers the rest
from public information only (``app.bots.counting``: the cards it can see are in nobody's hidden hand).

* discard: of the spare cards, the one whose loss leaves the most unseen cards that would bring the phase one
  closer ("outs"), weighed against the chance that the next player takes it for their own phase (C-9: from
  the unseen cards and their hand size; in the card games, with the seat's memory of the round, from hands
  sampled for them that hold what they took from the discard pile and fit what they passed and threw); never
  a card the next player could hit onto the table (C-4); once its phase is down, first a card the next player
  is unlikely to collect while their phase is not down, then the card furthest from a hit (so it goes out
  sooner and the others have fewer turns to lay their phase, M-7, R-12) and, among equally far ones, the
  costliest; on the board, before a phase of sets only is down, as ``normal``, keeping its pairs (B-5,
  ``keeps_pairs``);
* draw: takes the discard pile's top card when it brings the phase closer, as ``normal``; in Master, with a Take
  two in front of it, also when the card below the top (remembered from when it was thrown) does (R-8);
* lays its phase at once, hits every card it can (going out as fast as it can), each where it lets the most
  of its other cards follow (a joker at the run's end its next card continues), and answers the rule sets'
  own prompts with their tactics at level ``hard`` (the board game's die, Master's and Mattel's skips).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from app.rules.core.cards import Card
from app.rules.core.commands import Discard, Draw, Hit, Pile
from app.rules.core.errors import IllegalMove
from app.rules.core.groups import GroupKind, LaidGroup, extend_group

from . import view as v
from .counting import Shape, deal, feed_risk, outs, pool, unseen
from .evaluate import Requirement, closer, distance, spare_cards, synergy
from .memory import Memory, for_round
from .normal import choose_discard as normal_discard
from .normal import choose_draw as normal_draw
from .normal import choose_lay, wants
from .tactics import Command, Policy, Tactics, play, tactics_for

LEVEL = "hard"


def choose_draw(tactics: Tactics, view: v.View, draws: Sequence[Draw], rng: random.Random | None = None) -> Draw:
    """M-4, R-6: the discard pile's top card only when it brings the phase closer (or, once it is down, can be
    hit), as ``normal``: a card that merely adds outs costs the blind draw's chance of a card that brings it
    closer, and measured over dealt hands taking such cards made the phase later, not sooner."""
    return normal_draw(tactics, view, draws, rng)


def choose_hit(view: v.View, hits: Sequence[Hit], rng: random.Random | None = None) -> Hit:
    """C-4: naturals before jokers (a joker can still be hit later, when a harder hit needs it), as ``normal``;
    of those, the hit after which the most of the other cards in hand fit the table: a joker at the run's end
    that the next card continues, a card on the run it extends rather than on a set, so that more cards follow
    it this turn and the hand empties sooner."""
    tactics = tactics_for(str(view.get("ruleset")))
    hand = v.hand(view)
    by_id = {c.id: c for c in hand}
    groups = v.table(view)

    def key(hit: Hit) -> tuple[bool, int, int]:
        card = by_id[hit.card]
        after = list(groups)
        try:
            after[hit.group] = extend_group(groups[hit.group], card, tactics.policy, hit.end)
        except IllegalMove:
            return (card.is_joker, 0, hit.group)
        follow = sum(1 for c in hand if c.id != card.id and tactics.fits_table(c, after))
        return (card.is_joker, -follow, hit.group)

    return min(hits, key=key)


OUTS_WEIGHT = 2.0
"""An out kept is worth this many cards fed: it may be drawn on this and later turns, a fed card is taken once."""

FAR = 3
"""Cards this many hits or more from fitting the table are all as far: none will be hit this round."""


def gap(card: Card, groups: Sequence[LaidGroup]) -> int:
    """How many cards must be hit onto the table before ``card`` can be (C-4): 0 when it fits now, the missing
    numbers between it and the nearest run end, a large figure when no laid group could ever take it."""
    if card.is_joker:
        return 0
    best = 99
    for group in groups:
        if group.kind is GroupKind.SET and card.number == group.number:
            return 0
        if group.kind is GroupKind.COLOUR and card.colour == group.colour:
            return 0
        if group.kind in (GroupKind.RUN, GroupKind.COLOUR_RUN) and card.number is not None \
                and group.start is not None and group.end is not None:
            if group.kind is GroupKind.COLOUR_RUN and card.colour != group.colour:
                continue
            if card.number < group.start:
                best = min(best, group.start - card.number - 1)
            elif card.number > group.end:
                best = min(best, card.number - group.end - 1)
    return best


TAKE_STEPS = 4
"""Once its phase is down, take chances this close (1 / ``TAKE_STEPS``) count as one, and the card's distance from
a hit decides between them."""


TakeChance = Callable[[Card, Requirement | None, dict[Shape, int], int], float]
"""An estimate of the chance that the next player takes a discard: ``(card, their phase, unseen cards, their
hand size) -> chance``."""


def take_chance(card: Card, requirement: Requirement | None, left: dict[Shape, int], hand_size: int) -> float:
    """The chance that a player on ``requirement`` with ``hand_size`` hidden cards takes ``card`` from the discard
    pile (M-4, R-6): at least one partner of it among their cards, ``feed_risk`` being the expected number
    (C-9: from the unseen cards alone); 0 once their phase is down."""
    if requirement is None:
        return 0.0
    return 1.0 - math.exp(-feed_risk(card, requirement, left, hand_size))


SAMPLES = 24
"""Hands sampled for the next player when the seat remembers the round (``remembered_take_chance``). More hands
predict their takes a little better (96 hands ranked a card they took above one they left in 72 % of the pairs,
24 in 69 %), but 48 won no more: heads-up Mattel against ``normal``, 864 games of 1,400 (seeds 1-1,400) with 48
against 858 with 24."""

PASSES = 3
PASS_WEIGHT = 0.15
"""A sampled hand that would have taken one of the next player's last ``PASSES`` passed cards counts this much
(they drew blind instead, so such a hand is unlikely)."""

THROWN_WEIGHT = 0.3
"""A sampled hand that would take a card the next player threw away this round counts this much per such card
(they could spare it, so such a hand is less likely)."""


def would_take(hand: Sequence[Card], requirement: Requirement, card: Card, dist: int | None = None) -> bool:
    """Whether a player on ``requirement`` holding ``hand`` (``dist`` cards from it, when known) takes ``card``
    from the discard pile (M-4, R-6): a joker always, a number card when it brings the phase one card closer."""
    if card.is_joker:
        return True
    return card.is_natural and closer(hand, requirement, card, dist) is not None


def remembered_take_chance(view: v.View, memory: Memory, rng: random.Random) -> TakeChance | None:
    """The chance that the next player takes a discard, read from ``SAMPLES`` hands dealt them at random from
    the cards the seat cannot place (C-9): the cards they took from the discard pile and still hold are in each,
    the cards buried in the pile in none, and hands that would have taken a card they just passed, or would take
    one they threw away, count less.
    ``None`` when the next player's phase is down (or there is none)."""
    nxt = v.next_player(view)
    requirement = v.phase_of(view, nxt) if nxt is not None else None
    if nxt is None or requirement is None:
        return None
    seat, size = int(nxt["seat"]), int(nxt.get("hand_size", 0))
    on_table = {c.get("id") for g in view.get("table") or () for c in g.get("cards") or ()}
    held = [c for c in memory.held_by(seat) if c.id not in on_table][:size]
    left = unseen(view)
    for card in [*memory.buried, *held]:
        if card.number is not None and card.colour is not None and left.get((card.number, card.colour), 0) > 0:
            left[card.number, card.colour] -= 1
    unseen_cards = pool(left)
    passed = memory.passed_by(seat)[-PASSES:]
    thrown = memory.thrown_by(seat)
    samples: list[tuple[list[Card], int, float]] = []
    for _ in range(SAMPLES):
        hand = [*held, *deal(unseen_cards, size - len(held), rng)]
        dist = distance(hand, requirement)
        weight = 1.0
        for card in passed:
            if would_take(hand, requirement, card, dist):
                weight *= PASS_WEIGHT
        for card in thrown:
            if would_take(hand, requirement, card, dist):
                weight *= THROWN_WEIGHT
        samples.append((hand, dist, weight))
    total = sum(weight for _, _, weight in samples) or 1.0
    known: dict[tuple[object, ...], float] = {}

    def chance(card: Card, *_: object) -> float:
        key = (card.kind, card.number, card.colour, card.low, card.high)
        if key not in known:
            known[key] = sum(w for hand, d, w in samples if would_take(hand, requirement, card, d)) / total
        return known[key]

    return chance


def in_danger(view: v.View) -> bool:
    """Whether an opponent has laid their phase and holds at most two cards: they may go out on their next
    turn, and every card still in hand then counts (M-7, R-12)."""
    return v.opponent_near_out(view, 2)


def points_race(tactics: Tactics, view: v.View) -> bool | None:
    """M-8, R-14: with its last phase down while an opponent also has their last phase down, the game ends with
    this round and the lower total wins. ``True`` when this seat's total is the lower one: it then keeps its
    hand cheap (the costliest card first), so that it still wins if that opponent goes out first; ``False``
    when it is not: whatever it holds, only going out first can win. ``None`` outside such a race."""
    if not tactics.totals_decide:
        return None
    phases = view.get("phases") or ()
    last = phases[-1].get("number") if phases else None
    me = v.me(view)
    if last is None or not me.get("laid") or me.get("phase") != last:
        return None
    rivals = [int(p.get("score", 0)) for p in v.opponents(view) if p.get("laid") and p.get("phase") == last]
    if not rivals:
        return None
    return int(me.get("score", 0)) < min(rivals)


def keeps_pairs(tactics: Tactics, requirement: Requirement) -> bool:
    """B-5: on the board, before a phase of sets only is down, ``hard`` discards as ``normal`` does: the spare
    card that matches the fewest others in hand, so that every pair it holds stays. There the next player can
    take the discard pile's top only from a ``+N`` or ``again`` field, so the denial that ``hard`` weighs against
    its outs is worth little, while breaking a pair (its loss leaves the distance to the phase as it was, so it
    is spare too) loses a set that a single card would have completed."""
    return not tactics.draw_is_a_choice and all(kind is GroupKind.SET for kind, _ in requirement)


def _choose_discard(estimate: TakeChance, tactics: Tactics, view: v.View, discards: Sequence[Discard]) -> Discard:
    """M-4, R-6, B-5 step 3: a spare card with the most outs left that feeds the next player least — never one
    they can hit (C-4); once its phase is down one the next player is unlikely to collect, then the card
    furthest from a hit, the costliest (M-7, R-12) among equally far ones — the costliest first when an
    opponent is about to go out, or when both have their last phase down and its total is the lower one
    (``points_race``: never when it is not); and when an opponent is about to go out and its own phase is still
    far, the costliest spare card."""
    hand = v.hand(view)
    by_id = {c.id: c for c in hand}
    req = v.requirement(view)
    if req is not None and keeps_pairs(tactics, req):
        return normal_discard(tactics, view, discards)
    groups = v.table(view)
    nxt = v.next_player(view)
    next_can_hit = bool(nxt and nxt.get("laid"))
    left = unseen(view)
    next_req = v.phase_of(view, nxt) if nxt is not None else None
    next_size = int(nxt.get("hand_size", 0)) if nxt is not None else 0
    takes = {c.card: estimate(by_id[c.card], next_req, left, next_size) for c in discards}
    if req is None:
        race = points_race(tactics, view)
        danger = in_danger(view) if race is None else race

        def laid_key(command: Discard) -> tuple[float, ...]:
            card = by_id[command.card]
            feeds = next_can_hit and tactics.fits_table(card, groups)
            far, cost = -min(gap(card, groups), FAR), -tactics.card_cost(card, view)
            taken = round(TAKE_STEPS * takes.get(card.id, 0.0))
            return (card.is_joker, feeds, taken, *((cost, far) if danger else (far, cost)))

        return min(discards, key=laid_key)
    dist = distance(hand, req)
    spare = {c.id for c in spare_cards(hand, req, dist)}
    total = max(1, sum(left.values()))
    rushed = dist >= 2 and in_danger(view) and len({tactics.card_cost(c, view) for c in hand}) > 1
    counted: dict[tuple[object, ...], int] = {}

    def left_outs(card: Card) -> int:
        key = (card.number, card.colour, card.kind)
        if key not in counted:
            counted[key] = outs([c for c in hand if c.id != card.id], req, dist, left)
        return counted[key]

    def key(command: Discard) -> tuple[float, ...]:
        card = by_id[command.card]
        feeds = next_can_hit and tactics.fits_table(card, groups)
        cost = -tactics.card_cost(card, view)
        spare_card = card.id in spare and not card.is_joker
        if rushed:
            return (card.is_joker, not spare_card, feeds, cost)
        worth = round(OUTS_WEIGHT * left_outs(card) / total - takes.get(card.id, 0.0), 3) if spare_card else 0.0
        risk = round(feed_risk(card, next_req, left, next_size), 1) if next_req is not None else 0.0
        return (card.is_joker, not spare_card, feeds, -worth, risk, synergy(card, hand, req), cost)

    return min(discards, key=key)


def discard_by(estimate: TakeChance) -> Callable[[Tactics, v.View, Sequence[Discard], random.Random | None], Discard]:
    """``hard``'s discard choice around ``estimate`` of the next player's takes: ``take_chance`` as it plays (C-9),
    another estimate where a benchmark measures what a better one would be worth (``bench/denial.py``)."""
    def choose(tactics: Tactics, view: v.View, discards: Sequence[Discard],
               rng: random.Random | None = None) -> Discard:
        return _choose_discard(estimate, tactics, view, discards)

    return choose


choose_discard = discard_by(take_chance)


POLICY = Policy(LEVEL, choose_draw, choose_lay, choose_hit, choose_discard)


def _drawing(memory: Memory) -> Callable[[Tactics, v.View, Sequence[Draw], random.Random | None], Draw]:
    """The draw choice with the discard pile's second card read from ``memory``: with a Take two in front of it
    (R-8: two cards from one pile, the discard pile's top and the card below) it draws from the discard pile
    when the card below the top is one it wants, though the top is not (``normal``'s ``wants``)."""
    def choose(tactics: Tactics, view: v.View, draws: Sequence[Draw], rng: random.Random | None = None) -> Draw:
        chosen = choose_draw(tactics, view, draws, rng)
        if chosen.pile is Pile.DISCARD or not memory.buried or not (view.get("prompt") or {}).get("take_two") \
                or not wants(tactics, view, memory.buried[-1]):
            return chosen
        return next((c for c in draws if c.pile is Pile.DISCARD), chosen)

    return choose


def _remembering(memory: Memory) -> Callable[[Tactics, v.View, Sequence[Discard], random.Random | None], Discard]:
    """The discard choice with the next player's takes read from ``memory`` (``remembered_take_chance``)."""
    def choose(tactics: Tactics, view: v.View, discards: Sequence[Discard],
               rng: random.Random | None = None) -> Discard:
        estimate = remembered_take_chance(view, memory, random.Random(rng.random() if rng else 0))
        return _choose_discard(estimate or take_chance, tactics, view, discards)

    return choose


def choose(ruleset_id: str, view: v.View, legal: Sequence[Command], rng: random.Random,
           memory: Memory | None = None) -> Command:
    """One legal command for the seat whose ``view`` this is; with ``memory`` of the round (the events the seat
    was shown, ``app.bots.memory``) the next player's takes, and the card under the discard pile's top, are read
    from it where a draw is a choice."""
    remembered = for_round(memory, view)
    if remembered is None or not tactics_for(ruleset_id).draw_is_a_choice:
        return play(POLICY, ruleset_id, view, legal, rng)
    policy = Policy(LEVEL, _drawing(remembered), choose_lay, choose_hit, _remembering(remembered))
    return play(policy, ruleset_id, view, legal, rng)
