"""Crafted games for the analysis tests: a seeded game played by a careful policy that makes no mistake the
analysis looks for, but the ones a script asks for, which it records as the marks it expects.

The careful policy lays its phase whenever the solver finds a lay-down (C-3), then hits while any hit is legal
(C-4), then ends the turn with a random legal command; it draws from the discard pile only when the top card
completes its phase (every lay-down then uses it) or can be hit, and then uses it at once. Every other decision
is random (seeded). The script's mistakes:

* ``decline``: the seats that end their turn without laying the first time a lay-down is legal (the missed
  lay-down expected at that position);
* ``keep``: the seats that, once their phase is down, pick the first card they could hit onto a set or colour
  group and never hit or discard it this round (the missed hit expected at the first turn end at which it was
  hittable; it counts its points at the round's end, as it never leaves the hand).

Expected fed cards are the policy's own discard-pile draws of a card the other seat discarded just before,
which it then used. Expected turning points come from the round-end events' totals and phases made.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.analysis.marks import Kind, Mark
from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile
from app.rules.core.events import CardDiscarded, CardHit, PhaseLaid
from app.rules.core.groups import GroupKind
from app.rules.registry import AnyRuleset

SEARCH = "search"


@dataclass
class Scripted:
    ruleset: AnyRuleset
    seed: int
    players: int
    options: Any
    commands: list[tuple[int, Any]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)  # the state at each step (after that many commands)
    events: list[tuple[Any, ...]] = field(default_factory=list)  # the events of each command
    expected: list[Mark] = field(default_factory=list)


def _hits_of(legal: tuple[Any, ...], card: int | None = None) -> list[Hit]:
    return [c for c in legal if isinstance(c, Hit) and (card is None or c.card == card)]


def _enders(legal: tuple[Any, ...], keep: int | None) -> list[Any]:
    """The commands that end a turn (neither a lay-down nor a hit), never discarding the kept card."""
    return [c for c in legal if not isinstance(c, LayPhase | Hit)
            and not (isinstance(c, Discard) and c.card == keep)
            and getattr(c, "card", None) != keep]


def play(ruleset: AnyRuleset, seed: int, players: int, raw_options: dict[str, Any],
         decline: frozenset[int] = frozenset(), keep: frozenset[int] = frozenset(), max_steps: int = 6000) -> Scripted:
    options = ruleset.parse_options(raw_options)
    game = Scripted(ruleset, seed, players, options)
    rnd = random.Random(seed)
    state = ruleset.new_game(seed, players, options)
    game.states.append(state)
    dealt = next(c for p in ruleset.players(state) for c in p.hand)
    counts = ruleset.card_points(state, dealt) is not None  # B-8: the board game counts no card points
    declined: set[int] = set()
    kept: dict[int, int] = {}  # seat -> the card it never hits this round
    kept_marked: set[int] = set()
    took: dict[int, tuple[int, int, int]] = {}  # seat -> (card taken from the discard pile, discarder, step)
    last_discard: tuple[int, int, int, int] | None = None  # (card, seat, step, turn) of the last discard
    round_no = turn = 1
    for _ in range(max_steps):
        if ruleset.is_over(state):
            break
        index = len(game.commands)
        seat = ruleset.awaited(state)[0]
        legal = ruleset.legal_commands(state, seat)
        lay = next((c for c in legal if isinstance(c, LayPhase)), None)
        hits = _hits_of(legal)
        keep_card = kept.get(seat)
        command: Any
        if lay is not None and seat in decline and seat not in declined:
            declined.add(seat)
            command = rnd.choice(_enders(legal, keep_card))
            game.expected.append(Mark(index, seat, Kind.MISSED_LAYDOWN, round_no))
        elif lay is not None:
            command = lay
        elif hits and seat in keep and keep_card is None and _keyed_table(state):
            kept[seat] = keep_card = hits[0].card
            others = [h for h in hits if h.card != keep_card]
            command = others[0] if others else rnd.choice(_enders(legal, keep_card))
        elif [h for h in hits if h.card != keep_card]:
            command = next(h for h in hits if h.card != keep_card)
        else:
            command = _other(ruleset, state, seat, legal, rnd, keep_card)
        if keep_card is not None and keep_card not in kept_marked and not isinstance(command, Hit | LayPhase) \
                and _hits_of(legal, keep_card):
            kept_marked.add(keep_card)
            game.expected.append(Mark(index, seat, Kind.MISSED_HIT, round_no, card=keep_card))
        if isinstance(command, Draw) and command.pile is Pile.DISCARD and last_discard is not None \
                and last_discard[0] == state.piles.discard[-1].id and last_discard[3] == turn - 1:
            took[seat] = last_discard[:3]
        state, events = ruleset.apply(state, seat, command)
        game.commands.append((seat, command))
        game.states.append(state)
        game.events.append(events)
        for event in events:
            if type(event).__name__ == "TurnStarted":
                turn += 1
            match event:
                case CardDiscarded(seat=by, card=card):
                    last_discard = (card.id, by, index, turn)
                case PhaseLaid(seat=by, groups=groups) if by in took:
                    card, discarder, step = took[by]
                    if card in {c.id for g in groups for c in g.cards} and discarder != by:
                        game.expected.append(Mark(step, discarder, Kind.FED_NEXT, round_no, card=card))
                        del took[by]
                case CardHit(seat=by, card=hit) if by in took:
                    card, discarder, step = took[by]
                    if hit.id == card and discarder != by:
                        game.expected.append(Mark(step, discarder, Kind.FED_NEXT, round_no, card=card))
                        del took[by]
            hands = ruleset.round_scored(event)
            if hands is not None:
                for i, mark in enumerate(game.expected):
                    if mark.kind is Kind.MISSED_HIT and mark.round == round_no:
                        held = {c.id: c for c in hands[mark.seat]}
                        points = ruleset.card_points(state, held[mark.card]) if mark.card in held else 0
                        if not counts:
                            points = None
                        game.expected[i] = Mark(mark.step, mark.seat, mark.kind, mark.round, points, mark.card)
                kept.clear()
                round_no += 1
        if not isinstance(command, Draw | Hit | LayPhase):
            took.pop(seat, None)  # the turn is over
    assert ruleset.is_over(state), "the scripted game did not finish"
    return game


def _keyed_table(state: Any) -> bool:
    """Whether every laid group is a set or colour group: a card hit onto one opens no other hit (C-4)."""
    return all(g.kind in (GroupKind.SET, GroupKind.COLOUR) for g in state.table)


def _other(ruleset: AnyRuleset, state: Any, seat: int, legal: tuple[Any, ...], rnd: random.Random,
           keep: int | None) -> Any:
    """A decision that is neither a lay-down nor a hit: draws (the discard pile only when its top card completes
    the phase or can be hit), a board action other than searching the discard pile, or the turn's end."""
    draws = [c for c in legal if isinstance(c, Draw)]
    if draws:
        if any(c.pile is Pile.DISCARD for c in draws) and _top_is_useful(ruleset, state, seat):
            return Draw(Pile.DISCARD)
        return Draw(Pile.DRAW)
    choices = [c for c in legal if getattr(c, "action", None) != SEARCH]
    return rnd.choice(_enders(tuple(choices or legal), keep) or list(legal))


def _top_is_useful(ruleset: AnyRuleset, state: Any, seat: int) -> bool:
    """Drawing the discard pile's top card makes a lay-down legal that was not, or gives a legal hit of it."""
    top = state.piles.discard[-1]
    if ruleset.hint(state, seat) is not None:
        return False  # the phase is complete already: the top card adds nothing to it
    after, _ = ruleset.apply(state, seat, Draw(Pile.DISCARD))
    legal = ruleset.legal_commands(after, seat)
    if any(isinstance(c, LayPhase) for c in legal):
        return True
    return bool(_hits_of(legal, top.id))


def turning_points(game: Scripted) -> list[Mark]:
    """The turning points of a card game, read from its ``RoundEnded`` events (M-7, R-12): after each round the
    race is ordered by phases made, then fewer points; a seat that leads and did not lead before is marked on
    the step that scored the round, with the points it gained on the best placed former leader that round."""
    phases = [0] * game.players
    totals = [0] * game.players
    leaders = set(range(game.players))
    out: list[Mark] = []
    round_no = 1
    for index, events in enumerate(game.events):
        for event in events:
            if type(event).__name__ != "RoundEnded":
                continue
            for seat in event.advanced:
                phases[seat] += 1
            before = list(totals)
            totals = list(event.totals)
            standing = [(phases[s], -totals[s]) for s in range(game.players)]
            best = max(standing)
            now = {s for s in range(game.players) if standing[s] == best}
            for seat in sorted(now - leaders):
                former = max(leaders, key=lambda s: (standing[s], -s))
                swing = (totals[former] - before[former]) - (totals[seat] - before[seat])
                out.append(Mark(index + 1, seat, Kind.TURNING_POINT, round_no, swing))
            leaders = now
            round_no += 1
    return out
