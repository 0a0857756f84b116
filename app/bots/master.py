"""Bot tactics for the Master card game: ranged jokers (R-4), blue action cards (R-7..R-11), minus points (R-12).

Action cards never fit a group, so ``normal`` ends its turn with one whenever it holds one (an action played
sheds a card just as a discard does): a Skip on the player closest to winning (R-10), Take two and All mine in
front of itself (R-8, R-9), Give me five asking for the offer while its phase is not down (R-11). It keeps the
better Take-two card, takes the offer that helps most, offers what it needs least, and keeps an All-mine hand
that holds jokers. ``hard`` offers, of what it needs least, what the taker needs least, and keeps an All-mine
hand when it is closer to next round's phase than a new one would be.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from app.rules.core.cards import Card, CardKind
from app.rules.master.deck import ALL_MINE, GIVE_ME_FIVE, RANGED_JOKERS, SKIP, TAKE_TWO, card_points
from app.rules.master.state import ChooseTakeTwo, KeepHand, OfferCard, PlayAction, TakeOffer

from . import view as v
from .counting import deal, feed_risk, pool, unseen
from .evaluate import distance, spare_cards, synergy
from .mattel import threat
from .tactics import Command, Tactics

# The order in which normal plays its action cards when it holds several.
_ACTION_ORDER = {SKIP: 0, TAKE_TWO: 1, GIVE_ME_FIVE: 2, ALL_MINE: 3}


class MasterTactics(Tactics):
    policy = RANGED_JOKERS

    def card_cost(self, card: Card, view: v.View) -> float:
        """R-12: one minus point per card, or card points under ``scoring = points``."""
        return float(card_points(card)) if view.get("scoring") == "points" else 1.0

    def prompt(self, level: str, view: v.View, legal: Sequence[Command], rng: random.Random) -> Command | None:
        choose = [c for c in legal if isinstance(c, ChooseTakeTwo)]
        offer = [c for c in legal if isinstance(c, OfferCard)]
        take = [c for c in legal if isinstance(c, TakeOffer)]
        keep = [c for c in legal if isinstance(c, KeepHand)]
        if level == "easy":
            for options in (choose, offer, take, keep):
                if options:
                    return rng.choice(options)
            return None
        if choose:
            cards = v.cards_from_json((view.get("prompt") or {}).get("cards"))
            return _best_pick(self, view, choose, [c.keep for c in choose], cards)
        if take:
            offers = (view.get("prompt") or {}).get("offers") or []
            cards = v.cards_from_json([o["card"] for o in offers if o.get("card")])
            return _best_pick(self, view, take, [c.card for c in take], cards)
        if offer:
            return _least_needed(self, view, offer, deny=level == "hard")
        if keep and level == "hard":
            worth = _worth_keeping(view, rng)
            return next(c for c in keep if c.keep == worth)
        if keep:
            hand = v.hand(view)
            good = sum(1 for c in hand if c.is_joker) + sum(1 for c in hand if c.action == SKIP)
            return next(c for c in keep if c.keep == (good >= 1 and len(hand) <= 10))
        return None

    def end_turn(self, level: str, view: v.View, legal: Sequence[Command], rng: random.Random) -> Command | None:
        actions = [c for c in legal if isinstance(c, PlayAction)]
        if not actions:
            return None
        if level == "easy":
            return rng.choice(actions)
        by_id = {c["id"]: c.get("action") for c in view.get("hand") or ()}
        laid = v.has_laid(view)
        in_front = {c.get("action") for c in v.me(view).get("in_front") or ()}
        rank = {p["seat"]: threat(p) for p in v.opponents(view)}

        def key(c: PlayAction) -> tuple[float, ...]:
            action = by_id.get(c.card)
            order = float(_ACTION_ORDER.get(str(action), 9))
            if action in (TAKE_TWO, ALL_MINE) and action in in_front:
                order += 10  # a second one goes to the blue pile without effect
            wanted_ask = not laid
            ask_penalty = 0.0 if action != GIVE_ME_FIVE or c.ask == wanted_ask else 1.0
            t = rank.get(c.target, (-1, 0, 0)) if c.target is not None else (0, 0, 0)
            return (order, ask_penalty, *(-x for x in t))

        return min(actions, key=key)


def _value(tactics: Tactics, view: v.View, hand: Sequence[Card], card: Card) -> tuple[float, ...]:
    """How much ``card`` would help this hand (higher is better)."""
    req = v.requirement(view)
    if card.kind is CardKind.ACTION:
        return (0.0, 0.0, 0.0)
    if req is None:
        return (1.0 if tactics.fits_table(card, v.table(view)) else 0.0, float(card.is_joker), 0.0)
    gain = distance(hand, req) - distance([*hand, card], req)
    return (float(gain), float(card.is_joker), synergy(card, [*hand, card], req))


def _best_pick(tactics: Tactics, view: v.View, commands: Sequence[Command], ids: Sequence[int],
               cards: Sequence[Card]) -> Command:
    hand = v.hand(view)
    by_id = {c.id: c for c in cards}
    scored = [(_value(tactics, view, hand, by_id[i]) if i in by_id else (-1.0,), n) for n, i in enumerate(ids)]
    return commands[max(scored)[1]]


def _least_needed(tactics: Tactics, view: v.View, offers: Sequence[OfferCard], deny: bool = False) -> OfferCard:
    """R-11: offer an All mine or Give me five first (a Skip or Take two after them), then a spare card, never a
    joker while another card can go; among those the card that fits our hand least — with ``deny`` (``hard``)
    first the one least likely to help the taker, who picks the best offered card (C-9: from their public phase
    and hand size and the cards this seat cannot see, ``feed_risk``; once their phase is down, a card that
    cannot be hit onto the table)."""
    hand = v.hand(view)
    by_id = {c.id: c for c in hand}
    req = v.requirement(view)
    spare = {c.id for c in spare_cards(hand, req)} if req is not None else set(by_id)
    helps = _taker_help(tactics, view) if deny else None

    def key(c: OfferCard) -> tuple[float, ...]:
        card = by_id[c.card]
        if card.kind is CardKind.ACTION:
            return (0.0, float(_ACTION_ORDER.get(str(card.action), 9) < 2), 0.0)
        return (1.0 + card.is_joker * 2 + (card.id not in spare), helps(card) if helps else 0.0,
                synergy(card, hand, req))

    return min(offers, key=key)


def _taker_help(tactics: Tactics, view: v.View) -> Callable[[Card], float]:
    """How much an offered card would help the player who asked for the offer (R-11), rounded so that the
    cards' own worth decides between near-equal ones."""
    taker = next((p for p in v.opponents(view) if p.get("seat") == (view.get("prompt") or {}).get("taker")), None)
    if taker is None:
        return lambda card: 0.0
    their = v.phase_of(view, taker)
    if their is None:
        groups = v.table(view)
        return lambda card: float(tactics.fits_table(card, groups))
    left = unseen(view)
    size = int(taker.get("hand_size", 0))
    return lambda card: round(feed_risk(card, their, left, size), 1)


KEEP_SAMPLES = 8
"""Hands dealt at random on each side of the All-mine choice (``_worth_keeping``)."""


def _worth_keeping(view: v.View, rng: random.Random) -> bool:
    """R-9, R-13: keep the hand when, topped up to 10 cards, it is on average closer to next round's phase than
    10 new cards (C-3: solver distance), both dealt at random from the number cards this seat cannot see (C-9).
    The new cards are number cards only (unseen jokers are not counted), which leans a little towards keeping a
    hand with jokers."""
    me = v.me(view)
    requirement = v.phase_of(view, {**me, "laid": False})
    if requirement is None:
        return False
    held = v.hand(view)
    hand = [c for c in held if c.is_natural or c.is_joker]
    cards, dealer = pool(unseen(view)), random.Random(rng.random())
    kept = sum(distance([*hand, *deal(cards, 10 - len(held), dealer)], requirement) for _ in range(KEEP_SAMPLES))
    fresh = sum(distance(deal(cards, 10, dealer), requirement) for _ in range(KEEP_SAMPLES))
    return kept < fresh


TACTICS = MasterTactics()
