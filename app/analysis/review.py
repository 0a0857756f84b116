"""The analysis of a finished game: its whole record replayed through the engine (C-10), every decision checked
against the rule set's own ``legal_commands`` (lay-downs: the exact solver, C-3) and ``apply``; nothing is
guessed. It reads a game only through the ``Ruleset`` protocol, so it serves every rule set alike.

What it marks (docs/protocol.md "Analysis"):

* **missed lay-down** — a seat ended a move with a command other than ``LayPhase`` while ``LayPhase`` was
  among its legal commands: it held its whole phase and did not lay it (C-3). In every rule set only the
  command that ends the turn can be chosen over a legal lay-down (hits need the phase down, C-4), so this is
  one mark per turn;
* **missed hit** — a seat with its phase down ended its turn while hits were legal: the most valuable sequence
  of legal hits of cards that stayed in its hand (:mod:`app.analysis.hits`) names the missed cards (C-4). Each
  card is marked once per round, at the first turn end at which it could have been hit. Its ``points`` are what
  it would have saved at the round's end: the points it counted against the seat because it was still in the
  seat's hand when the round was scored (M-7, R-12), 0 if it left the hand before (hit, laid or discarded
  later, or the seat went out), ``None`` in a rule set whose cards count no points (B-8);
* **fed the next player** — a card discarded (``CardDiscarded``) by one seat that the player of the next turn,
  another seat, used in a lay-down or a hit during that turn (it could only have taken it from the discard
  pile);
* **turning point** — a round after whose scoring a seat leads the race that did not lead it before (alone or
  shared). The race is ordered by phases made, then by fewer penalty points: the order the card games are won
  in (M-8, R-14); in the board game the phase markers alone (B-9). ``points`` is the penalty-point swing of
  that round between the new leader and the best placed of the seats that led before (positive: the new
  leader scored fewer), ``None`` where cards count no points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.rules.core.cards import Card
from app.rules.core.commands import Hit, LayPhase
from app.rules.core.events import CardDiscarded, CardHit, HandsDealt, PhaseLaid
from app.rules.registry import AnyRuleset

from .hits import best_hits
from .marks import Analysis, Kind, Mark


def analyse(ruleset: AnyRuleset, seed: int, players: int, options: Any,
            commands: Sequence[tuple[int, Any]]) -> Analysis:
    """Analyse a game from its record: seed, options, seat count and accepted commands ``(seat, command)``
    (engine values, as ``ruleset.parse_command`` makes them). A command the engine refuses raises its
    ``RuleError``: a record that does not replay has no analysis."""
    state = ruleset.new_game(seed, players, options)
    review = _Review(ruleset, players, state)
    for index, (seat, command) in enumerate(commands):
        state = review.step(index, state, seat, command)
    return review.result()


@dataclass(slots=True)
class _Discard:
    card: int
    seat: int
    step: int


class _Review:
    """One pass over a game, command by command."""

    def __init__(self, ruleset: AnyRuleset, players: int, state: Any) -> None:
        self.ruleset = ruleset
        self.players = players
        self.round = 1
        self.marks: list[Mark] = []
        # per seat, the cards marked as missed hits this round -> the index of their mark
        self.missed: list[dict[int, int]] = [{} for _ in range(players)]
        self.command: Any = None  # the command being looked at
        self.turn_seat: int | None = None
        self.discards: list[_Discard] = []  # discarded during the current turn
        self.watched: dict[int, _Discard] = {}  # discarded during the turn before, by another seat
        # the race: standing per seat after the last scored round, and who led it
        self.scores = [p.score for p in ruleset.players(state)]
        self.leaders = frozenset(range(players))
        dealt = next((c for p in ruleset.players(state) for c in p.hand), None)
        self.counts_points = dealt is not None and ruleset.card_points(state, dealt) is not None

    # -- one command ---------------------------------------------------------------------------------------
    def step(self, index: int, state: Any, seat: int, command: Any) -> Any:
        ruleset = self.ruleset
        laydown: LayPhase | None = None
        hits = False
        if not isinstance(command, LayPhase | Hit):  # a lay-down or a hit is never a miss
            for legal in ruleset.legal_commands(state, seat):
                if isinstance(legal, LayPhase):
                    laydown = legal
                elif isinstance(legal, Hit):
                    hits = True
        after, events = ruleset.apply(state, seat, command)
        self.command = command
        if laydown is not None:
            self.marks.append(Mark(index, seat, Kind.MISSED_LAYDOWN, self.round, commands=(laydown,)))
        elif hits:
            self._missed_hits(index, state, seat, after, events)
        for event in events:
            self._event(index, event, state, after)
        return after

    def _missed_hits(self, index: int, state: Any, seat: int, after: Any, events: Sequence[Any]) -> None:
        """The cards that stayed in ``seat``'s hand through its turn-ending command but could have been hit."""
        ruleset = self.ruleset
        scored = next((h for h in map(ruleset.round_scored, events) if h is not None), None)
        left = scored[seat] if scored is not None else ruleset.players(after)[seat].hand
        stayed = {c.id for c in left}
        hand = {c.id: c for c in ruleset.players(state)[seat].hand if c.id in stayed}

        def weight(card_id: int) -> int:
            return self._points(state, hand[card_id]) or 1

        plan = best_hits(ruleset, state, seat, hand, weight)
        for hit in plan.hits:
            if hit.card in self.missed[seat]:
                continue  # marked at an earlier turn of this round
            self.missed[seat][hit.card] = len(self.marks)
            self.marks.append(Mark(index, seat, Kind.MISSED_HIT, self.round, card=hit.card, commands=plan.hits))

    def _points(self, state: Any, card: Card) -> int | None:
        return self.ruleset.card_points(state, card)

    # -- events --------------------------------------------------------------------------------------------
    def _event(self, index: int, event: Any, before: Any, after: Any) -> None:
        ruleset = self.ruleset
        seat = ruleset.turn_started(event)
        if seat is not None:
            self.turn_seat = seat
            self.watched = {d.card: d for d in self.discards if d.seat != seat}
            self.discards = []
            return
        match event:
            case CardDiscarded(seat=by, card=card):
                self.discards.append(_Discard(card.id, by, index))
            case PhaseLaid(seat=by, groups=groups) if by == self.turn_seat and self.watched:
                for group in groups:
                    for card in group.cards:
                        self._fed(card.id)
            case CardHit(seat=by, card=card) if by == self.turn_seat and self.watched:
                self._fed(card.id)
            case HandsDealt(round=number):
                self.round = number
            case _:
                hands = ruleset.round_scored(event)
                if hands is not None:
                    self._round_scored(index, hands, before, after)

    def _fed(self, card: int) -> None:
        discard = self.watched.pop(card, None)
        if discard is not None:
            self.marks.append(Mark(discard.step, discard.seat, Kind.FED_NEXT, self.round, card=card,
                                   commands=(self.command,)))

    def _round_scored(self, index: int, hands: Sequence[Sequence[Card]], before: Any, after: Any) -> None:
        """Settle the round's missed hits against the hands it was scored with, and look at the race."""
        for seat, missed in enumerate(self.missed):
            kept = {c.id: c for c in hands[seat]} if seat < len(hands) else {}
            for card, at in missed.items():
                held = kept.get(card)
                points = 0 if held is None else self._points(before, held)
                self.marks[at] = replace(self.marks[at], points=points if self.counts_points else None)
            missed.clear()
        self.discards, self.watched = [], {}
        self._race(index, after)

    def _race(self, index: int, after: Any) -> None:
        progress = [(p.phase, -p.score) for p in self.ruleset.players(after)]
        scores = [p.score for p in self.ruleset.players(after)]
        best = max(progress)
        leaders = frozenset(s for s, standing in enumerate(progress) if standing == best)
        for seat in sorted(leaders - self.leaders):
            points = None
            if self.counts_points:
                before = max(self.leaders, key=lambda s: (progress[s], -s))
                points = (scores[before] - self.scores[before]) - (scores[seat] - self.scores[seat])
            self.marks.append(Mark(index + 1, seat, Kind.TURNING_POINT, self.round, points=points))
        self.leaders, self.scores = leaders, scores

    def result(self) -> Analysis:
        marks = [m if m.kind is not Kind.MISSED_HIT or m.points is not None or not self.counts_points
                 else replace(m, points=0) for m in self.marks]
        return Analysis(self.ruleset.id, self.players, tuple(sorted(marks, key=Mark.sort_key)))
