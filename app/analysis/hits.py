"""The best hits a seat could still have made before ending its turn (C-4), searched exactly through the rule
set's own ``legal_commands`` and ``apply``.

Hits depend on each other: a 5 hit onto a run ending at 4 opens the 6, and two 5s compete for one end. So "the
cards that could have been hit" is a question about sequences of hits, answered by a depth-first search over the
legal ``Hit`` commands of each position it reaches. It maximises the points those cards count if the round ends
with them in hand (M-7, R-12; one per card where cards count nothing, B-8), then their number, and never uses
the cards that must stay in hand (the card the turn was ended with).

Two sequences that hit the same cards onto the same groups at the same ends reach tables that allow the same
further hits (a run's ends move by one per hit whatever the order; which joker stands for which gap never
matters to the next hit), so each such set is expanded once. A branch that cannot beat the best found, even by
hitting every card it may still use, is cut.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from app.rules.core.commands import Hit
from app.rules.core.errors import RuleError
from app.rules.registry import AnyRuleset


@dataclass(frozen=True, slots=True)
class HitPlan:
    """A sequence of legal hits (each legal after the ones before it) and the worth of the cards it places."""

    hits: tuple[Hit, ...] = ()
    value: int = 0

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(hit.card for hit in self.hits)

    def better_than(self, other: HitPlan) -> bool:
        return (self.value, len(self.hits)) > (other.value, len(other.hits))


def best_hits(ruleset: AnyRuleset, state: Any, seat: int, usable: Iterable[int],
              weight: Callable[[int], int]) -> HitPlan:
    """The most valuable sequence of legal hits of ``seat`` from ``state`` using only the ``usable`` card ids
    (C-4). ``weight`` gives a card's worth (its points at a round's end, at least 1)."""
    allowed = frozenset(usable)
    best = HitPlan()
    seen: set[frozenset[tuple[int, int, object]]] = set()

    def search(position: Any, plan: HitPlan, left: frozenset[int], key: frozenset[tuple[int, int, object]]) -> None:
        nonlocal best
        if plan.better_than(best):
            best = plan
        bound = (plan.value + sum(weight(c) for c in left), len(plan.hits) + len(left))
        if not left or bound <= (best.value, len(best.hits)):
            return  # even hitting every card still usable would not beat the best
        for command in ruleset.legal_commands(position, seat):
            if not isinstance(command, Hit) or command.card not in left:
                continue
            child_key = key | {(command.card, command.group, command.end)}
            if child_key in seen:
                continue
            seen.add(child_key)
            try:
                after, _ = ruleset.apply(position, seat, command)
            except RuleError:  # pragma: no cover - legal_commands lists only commands apply accepts
                continue
            search(after, HitPlan((*plan.hits, command), plan.value + weight(command.card)),
                   left - {command.card}, child_key)

    search(state, HitPlan(), allowed, frozenset())
    return best
