"""Bot tactics for the board game: dice and fields (B-5), turned jokers (B-6), keep choices (B-8).

``normal`` moves to the field worth most now — before its phase is down the fields that bring cards it can
choose (joker, search, +3 ...), after it the fields that shed cards (joker, search, again ...) — searches the
discard pile for the card that helps most, swaps and gives away its spare cards, asks for the number it
needs, and keeps the five cards that bring its phase closest. ``easy`` picks at random among the legal
commands for these prompts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.rules.board.material import TURNED
from app.rules.board.state import Ask, ChooseAction, Give, Keep, Move, Search, Swap
from app.rules.core.cards import Card, CardKind, Colour

from . import view as v
from .counting import outs, probes, unseen
from .evaluate import Requirement, distance, feasible, spare_cards, synergy
from .tactics import Command, Tactics

# Field worth before / after the phase is down (B-5). ``+N`` as a choice is worth a ``+2``.
_BEFORE = {"joker": 10, "choice": 9.5, "search": 9, "+3": 8, "again": 7, "+2": 6, "+N": 6, "ask": 5, "swap": 4,
           "+1": 3, "all": 2}
_AFTER = {"joker": 10, "choice": 9.5, "search": 9, "again": 8, "ask": 6, "all": 5, "+1": 4, "swap": 3, "+2": 2,
          "+N": 2, "+3": 1}
# ``hard``, when its phase is down or can be laid this turn: ``again`` is a whole further turn (one more card
# shed), ``choice`` can pick it, a joker or an asked number can be hit at once (B-5, B-6).
_SHED = {"again": 10, "choice": 9.8, "joker": 9.5, "ask": 9, "search": 8.5, "all": 5, "+1": 4, "swap": 3, "+2": 2,
         "+N": 2, "+3": 1}
# ``hard``, two or more cards from its phase, between fields as likely to bring it a card it needs: ``again`` is
# a card and a whole further turn (another field that brings cards), worth more than the one card of a search
# or a choice of action short of a joker (B-5).
_GROW = {**_BEFORE, "again": 9.8}
_SWAP_MAX, _KEEP_MAX = 4, 5


class BoardTactics(Tactics):
    policy = TURNED
    draw_is_a_choice = False  # B-5: the field a pawn lands on says where the cards come from
    totals_decide = False  # B-9: the first marker past the last phase wins; no points are counted (B-8)

    def card_cost(self, card: Card, view: v.View) -> float:
        """B-8: no penalty points; a joker is worth keeping, so it costs most to lose."""
        return 0.0

    def prompt(self, level: str, view: v.View, legal: Sequence[Command], rng: random.Random) -> Command | None:
        kinds = {type(c) for c in legal}
        if not kinds & {Move, ChooseAction, Search, Swap, Ask, Give, Keep}:
            return None
        if level == "easy":
            return rng.choice(list(legal))
        worth = _AFTER if v.has_laid(view) else _BEFORE
        prompt: Mapping[str, Any] = view.get("prompt") or {}
        if Move in kinds:
            ring = view.get("ring") or []
            fields = {m["steps"]: m["field"] for m in prompt.get("moves") or ()}
            moves = [c for c in legal if isinstance(c, Move)]

            def field_worth(c: Move) -> float:
                f = fields.get(c.steps)
                return float(worth.get(ring[f]["field"], 0)) if f is not None and f < len(ring) else 0.0

            if level == "hard":
                return _hard_move(self, view, moves, fields, ring)
            return max(moves, key=field_worth)
        if ChooseAction in kinds:
            if level == "hard" and _sheds(view):
                worth = _SHED
            return max((c for c in legal if isinstance(c, ChooseAction)), key=lambda c: worth.get(c.action, 0))
        if Search in kinds:
            pile = v.cards_from_json(prompt.get("discard_pile"))
            return _best_search(self, view, [c for c in legal if isinstance(c, Search)], pile)
        if Swap in kinds:
            return _swap(self, view)
        if Ask in kinds:
            return _ask(self, view, [c for c in legal if isinstance(c, Ask)])
        if Give in kinds:
            return _give(view, [c for c in legal if isinstance(c, Give)])
        return _keep(view)


def progress_chance(field: str, hand: Sequence[Card], req: Requirement, view: v.View, dist: int = 1) -> float:
    """B-5: the chance that the action of ``field`` brings a hand ``dist`` cards short of its phase one card
    closer (at ``dist`` 1: completes it), from the unseen cards (``app.bots.counting``): a joker always does;
    +N, again, swap and all draw cards, each an out with the share of outs among the unseen cards (or at once
    when the discard pile's top card is one); a search looks through the whole discard pile; ask names the
    likeliest number."""
    left = unseen(view)
    total = max(1, sum(left.values()))
    p = outs(hand, req, dist, left) / total
    top = v.discard_top(view)
    top_helps = top is not None and feasible([*hand, top], req, dist - 1)
    if field in ("joker", "choice"):
        return 1.0
    if field == "search":
        return 1.0 if top_helps else min(0.9, 1 - (1 - p) ** int(view.get("discard_size") or 1))
    if field.startswith("+"):
        n = int(field[1:]) if field[1:].isdigit() else 2
        return 1.0 if top_helps else 1 - (1 - p) ** n
    if field == "again":
        first = 1.0 if top_helps else p
        return first + (1 - first) * 0.5
    if field == "swap":
        return 1 - (1 - p) ** (_SWAP_MAX + 1)
    if field == "all":
        return p
    if field == "ask":
        held = sum(int(o.get("hand_size", 0)) for o in v.opponents(view))
        f = min(1.0, held / total)
        best = max((count for card, count in probes(req, left) if feasible([*hand, card], req, dist - 1)),
                   default=0)
        return 1 - (1 - f) ** best
    return 0.0


def _sheds(view: v.View) -> bool:
    """Whether the seat's phase is down or can be laid this turn: it now plays to go out (B-8)."""
    req = v.requirement(view)
    return req is None or distance(v.hand(view), req) == 0


def _hard_move(tactics: Tactics, view: v.View, moves: Sequence[Move], fields: Mapping[int, int],
               ring: Sequence[Mapping[str, Any]]) -> Move:
    """B-5 move for ``hard``: a hand that can lay its phase this turn (or has laid it) goes where it sheds cards
    fastest — a further turn first (the player who goes out moves two phases, B-8); a hand short of its phase
    goes to the field likeliest to bring it one card closer (``progress_chance``; one card short: to complete
    it), and among fields about as likely, a hand one card short to the field that brings most cards it can
    choose, a hand further off to a further turn (``again``) before a search.

    Measured heads-up against ``normal`` (the same deals, seeds 1-4,000): ranking the fields of a hand two or
    more cards short by that chance, rounded to tenths, rather than by the fixed order alone won 2,468 games
    against 2,332."""
    hand = v.hand(view)
    req = v.requirement(view)
    dist = distance(hand, req) if req is not None else 0

    def field_of(c: Move) -> str:
        f = fields.get(c.steps)
        return str(ring[f]["field"]) if f is not None and f < len(ring) else ""

    if req is None or dist == 0:
        return max(moves, key=lambda c: _SHED.get(field_of(c), 0))
    order, digits = (_BEFORE, 2) if dist == 1 else (_GROW, 1)
    return max(moves, key=lambda c: (round(progress_chance(field_of(c), hand, req, view, dist), digits),
                                      order.get(field_of(c), 0)))


def _gain(tactics: Tactics, view: v.View, hand: Sequence[Card], card: Card) -> tuple[float, ...]:
    req = v.requirement(view)
    if req is None:
        return (1.0 if tactics.fits_table(card, v.table(view)) else 0.0, float(card.is_joker))
    return (float(distance(hand, req) - distance([*hand, card], req)), float(card.is_joker),
            synergy(card, [*hand, card], req))


def _best_search(tactics: Tactics, view: v.View, options: Sequence[Search], pile: Sequence[Card]) -> Search:
    """B-5 search: the discard-pile card that helps most (the whole pile is in the searching seat's prompt)."""
    hand = v.hand(view)
    by_id = {c.id: c for c in pile}
    return max(options, key=lambda s: _gain(tactics, view, hand, by_id[s.card]) if s.card in by_id else (-1.0,))


def _swap(tactics: Tactics, view: v.View) -> Swap:
    """B-5 swap: up to four spare cards (the engine accepts any 1-4 hand cards); never a joker if avoidable."""
    hand = v.hand(view)
    req = v.requirement(view)
    rest = list(hand)
    out: list[int] = []
    groups = v.table(view)
    while len(out) < _SWAP_MAX and len(rest) > 1:
        if req is not None:
            dist = distance(rest, req)
            pool = [c for c in spare_cards(rest, req, dist) if not c.is_joker]
        else:
            pool = [c for c in rest if not c.is_joker and not tactics.fits_table(c, groups)]
        if not pool:
            break
        worst = min(pool, key=lambda c: synergy(c, rest, req))
        out.append(worst.id)
        rest = [c for c in rest if c.id != worst.id]
    if not out:
        worst = min(hand, key=lambda c: (c.is_joker, synergy(c, hand, req)))
        out.append(worst.id)
    return Swap(tuple(out))


def _ask(tactics: Tactics, view: v.View, options: Sequence[Ask]) -> Ask:
    """B-5 ask: the number that helps most, towards the side whose first player holds more cards."""
    hand = v.hand(view)
    colours = [c.colour for c in hand if c.colour is not None]
    colour = max(colours, key=colours.count) if colours else Colour.RED

    def worth(number: int) -> tuple[float, ...]:
        card = Card(-100, CardKind.NUMBER, number=number, colour=colour)
        return _gain(tactics, view, hand, card)

    number = max(range(1, 13), key=worth)
    prompt: Mapping[str, Any] = view.get("prompt") or {}
    sizes = {p["seat"]: p.get("hand_size", 0) for p in view.get("players") or ()}

    def first_size(direction: str) -> int:
        order = prompt.get(f"{direction}_order") or []
        return int(sizes.get(order[0], 0)) if order else 0

    direction = max(("left", "right"), key=first_size)
    return next((c for c in options if c.number == number and c.direction == direction), options[0])


def _give(view: v.View, options: Sequence[Give]) -> Give:
    """B-5 ask: give the card we need least (never a turned joker if a natural card will do)."""
    hand = v.hand(view)
    by_id = {c.id: c for c in hand}
    req = v.requirement(view)
    spare = {c.id for c in spare_cards(hand, req)} if req is not None else set(by_id)

    def key(g: Give) -> tuple[bool, bool, float]:
        card = by_id.get(g.card)
        if card is None:
            return (True, True, 0.0)
        return (card.is_joker, card.id not in spare, synergy(card, hand, req))

    return min(options, key=key)


def _keep(view: v.View) -> Keep:
    """B-8: keep the (at most) five cards that bring the phase closest; jokers first."""
    hand = v.hand(view)
    req = v.requirement(view)
    rest = list(hand)
    while len(rest) > _KEEP_MAX:
        if req is not None:
            dist = distance(rest, req)
            pool = spare_cards(rest, req, dist) or rest
        else:
            pool = rest
        worst = min(pool, key=lambda c: (c.is_joker, synergy(c, rest, req)))
        rest = [c for c in rest if c.id != worst.id]
    return Keep(tuple(c.id for c in rest))


TACTICS = BoardTactics()
