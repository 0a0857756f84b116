"""The better moves behind the coaching marks, each a sequence of commands the rule set's own ``legal_commands``
lists one after the other from the position the seat chose in (so every suggestion is accepted by ``apply``):

* ``hit_first`` — a card the seat discarded could have been hit (C-4): the hits that place it (a chain where a
  run's end must be reached first), then a discard of another card (M-4, R-6, B-5);
* ``go_out`` — hits and a discard (two in the board game, B-7) that would have emptied the seat's hand and ended
  the round (M-4: in Mattel a hit of the last card goes out at once; R-6, B-5: a card must stay to end with);
* ``lay_then_go_out`` — a seat whose phase is not down: its lay-down (C-3), then hits and a discard that would
  have emptied its hand within the same turn (``go_out`` from the position after the lay-down);
* ``pickup`` — drawing the discard pile's top card (M-4, R-6, B-5; R-8: keeping it of the two drawn) after
  which the seat's whole phase could be laid, with that card (C-3).

Each search is exact over the positions it reaches (hits through :mod:`app.analysis.hits`' rule: sequences
that place the same cards at the same ends reach tables allowing the same further hits).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from app.rules.board.state import EndTurn
from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile
from app.rules.core.errors import RuleError
from app.rules.master.state import PlayAction
from app.rules.registry import AnyRuleset

from .hits import best_hits

Commands = tuple[Any, ...]

ENDERS: tuple[type, ...] = (Discard, PlayAction, EndTurn)
"""The commands that end a turn (M-4, R-6: a discard or an action card; B-7: doing without a second discard)."""


def went_out(ruleset: AnyRuleset, events: Sequence[Any], seat: int) -> bool:
    """Whether ``events`` scored the round with ``seat``'s hand empty: it went out (M-4, R-6, B-8)."""
    for event in events:
        hands = ruleset.round_scored(event)
        if hands is not None:
            return seat < len(hands) and not hands[seat]
    return False


def _hand_ids(ruleset: AnyRuleset, state: Any, seat: int) -> list[int]:
    return [c.id for c in ruleset.players(state)[seat].hand]


def hit_first(ruleset: AnyRuleset, state: Any, seat: int, card: int,
              weight: Callable[[int], int]) -> Commands | None:
    """The hits that place ``card`` (the fewest the exact hit search finds), then the legal discard of the
    most valuable card left (by ``weight``); ``None`` if ``card`` cannot be hit from ``state`` (C-4)."""
    direct = [c for c in ruleset.legal_commands(state, seat) if isinstance(c, Hit) and c.card == card]
    hits: tuple[Hit, ...]
    if direct:
        hits = (direct[0],)
    else:
        hand = _hand_ids(ruleset, state, seat)
        plan = best_hits(ruleset, state, seat, hand, lambda c: 1000 if c == card else 1)
        if card not in plan.cards:
            return None
        hits = plan.hits[: plan.cards.index(card) + 1]
    position = state
    for hit in hits:
        position, _ = ruleset.apply(position, seat, hit)
    discards = [c for c in ruleset.legal_commands(position, seat) if isinstance(c, Discard)]
    if not discards:
        return None
    best = max(discards, key=lambda d: (weight(d.card), -d.card))
    return (*hits, best)


def go_out(ruleset: AnyRuleset, state: Any, seat: int) -> Commands | None:
    """Hits and ending commands (a discard; in the board game a second one, B-7; in Master the last card
    played as an action card, R-6) from ``state`` after which ``seat`` has gone out; ``None`` if there are
    none. Only positions at which the seat may hit or holds at most two cards can have one."""
    hand = _hand_ids(ruleset, state, seat)
    legal = ruleset.legal_commands(state, seat)
    if len(hand) > 2:
        if not any(isinstance(c, Hit) for c in legal):
            return None
        most = best_hits(ruleset, state, seat, hand, lambda c: 1)
        if len(hand) - len(most.hits) > 2:
            return None  # even the most hits leave more cards than any turn may end with
    seen: set[frozenset[tuple[int, int, object]]] = set()

    def ending(position: Any, legal: Sequence[Any], depth: int) -> Commands | None:
        if len(_hand_ids(ruleset, position, seat)) > depth:
            return None
        for command in legal:
            if not isinstance(command, ENDERS):
                continue
            try:
                after, events = ruleset.apply(position, seat, command)
            except RuleError:  # pragma: no cover - legal_commands lists only commands apply accepts
                continue
            if went_out(ruleset, events, seat):
                return (command,)
            if depth > 1 and seat in ruleset.awaited(after):
                rest = ending(after, ruleset.legal_commands(after, seat), depth - 1)
                if rest is not None:
                    return (command, *rest)
        return None

    def search(position: Any, legal: Sequence[Any], path: Commands,
               key: frozenset[tuple[int, int, object]]) -> Commands | None:
        found = ending(position, legal, 2)
        if found is not None:
            return (*path, *found)
        for command in legal:
            if not isinstance(command, Hit):
                continue
            child = key | {(command.card, command.group, command.end)}
            if child in seen:
                continue
            seen.add(child)
            after, events = ruleset.apply(position, seat, command)
            if went_out(ruleset, events, seat):
                return (*path, command)
            if seat not in ruleset.awaited(after):
                continue
            deeper = search(after, ruleset.legal_commands(after, seat), (*path, command), child)
            if deeper is not None:
                return deeper
        return None

    return search(state, legal, (), frozenset())


def lay_then_go_out(ruleset: AnyRuleset, state: Any, seat: int) -> Commands | None:
    """A legal ``LayPhase`` of ``seat`` (C-3; the rule set lists the solver's one) followed by what ``go_out``
    finds from the position after it: hits (C-4) and the ending commands (M-4, R-6, B-5, B-7) that empty the
    seat's hand within the turn; ``None`` if the phase cannot be laid or no such sequence follows it."""
    for command in ruleset.legal_commands(state, seat):
        if not isinstance(command, LayPhase):
            continue
        after, events = ruleset.apply(state, seat, command)
        if went_out(ruleset, events, seat):
            return (command,)
        if seat not in ruleset.awaited(after):
            continue
        rest = go_out(ruleset, after, seat)
        if rest is not None:
            return (command, *rest)
    return None


def named_card(commands: Commands) -> int:
    """The card a go-out mark names: the first card hit, else the first card played or discarded, else the
    first card laid."""
    hit = next((c.card for c in commands if isinstance(c, Hit)), None)
    if hit is not None:
        return hit
    played = next((c.card for c in commands if isinstance(getattr(c, "card", None), int)), None)
    if played is not None:
        return int(played)
    lay = next(c for c in commands if isinstance(c, LayPhase))
    return int(lay.groups[0][0])


def lays_after_draw(ruleset: AnyRuleset, state: Any, seat: int, card: int) -> Commands | None:
    """From a position right after drawing ``card``: the commands after which the seat's ``LayPhase`` with
    ``card`` is legal, that ``LayPhase`` last (R-8: keeping ``card`` of the two drawn; B-5: the draws still owed
    of a ``+N`` field, from the draw pile); ``None`` if there are none (C-3)."""
    position: Any = state
    path: list[Any] = []
    for _ in range(4):
        if seat not in ruleset.awaited(position):
            return None
        legal = ruleset.legal_commands(position, seat)
        for command in legal:
            if isinstance(command, LayPhase) and any(card in g for g in command.groups):
                return (*path, command)
        keep = next((c for c in legal if getattr(c, "keep", None) == card), None)
        step: Any = keep if keep is not None else Draw(Pile.DRAW) if Draw(Pile.DRAW) in legal else None
        if step is None:
            return None
        position, _ = ruleset.apply(position, seat, step)
        path.append(step)
    return None


def can_lay(ruleset: AnyRuleset, state: Any, seat: int) -> bool:
    """Whether ``seat``'s ``LayPhase`` is legal at ``state`` (C-3)."""
    return any(isinstance(c, LayPhase) for c in ruleset.legal_commands(state, seat))


def pickup(ruleset: AnyRuleset, state: Any, seat: int) -> Commands | None:
    """``Draw(discard)`` and the commands to lay the phase with the discard pile's top card, when ``seat``'s
    phase is not down and it may draw that card at ``state`` (C-3, M-4, R-6, B-5); else ``None``. Whether the
    blind draw did as well is for the caller to see on the position the seat then plays on."""
    if ruleset.players(state)[seat].laid or Draw(Pile.DISCARD) not in ruleset.legal_commands(state, seat):
        return None
    if can_lay(ruleset, state, seat):
        return None
    top = state.piles.discard[-1].id
    taken, _ = ruleset.apply(state, seat, Draw(Pile.DISCARD))
    better = lays_after_draw(ruleset, taken, seat, top)
    return None if better is None else (Draw(Pile.DISCARD), *better)
