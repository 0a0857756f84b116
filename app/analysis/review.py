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

The coaching marks name the card and the better move (``Mark.detail``; the commands in :mod:`app.analysis.coach`,
each legal after the ones before it, from the position the seat chose in):

* **discarded hit** — a seat with its phase down discarded a card it could have hit (C-4); the better move hits
  it and discards the most valuable card left instead, and ``points`` is what that card counted at the round's
  end (0 if it left the hand before);
* **missed go-out** — a seat ended its turn without going out although hits and a discard (two in the board
  game, B-7) would have emptied its hand (M-4, R-6, B-5), its phase down or — laying it first in that turn,
  where its lay-down was legal (C-3) — not yet: the better move is then the lay-down, the hits and the
  discard (that turn also has its missed lay-down mark); ``points`` is what it scored that round (M-7, R-12),
  the whole of which going out saves. A turn has at most one such mark, and a board game turn that goes out
  with its second discard has none; a missed go-out and a discarded hit of the same turn are marked as the
  go-out;
* **missed pickup** — a seat whose phase was not down drew from the draw pile while the discard pile's top card
  would have let it lay its whole phase with that card (C-3; R-8: keeping it of two), and after the blind draw
  it could not lay; ``points`` is what the lay-down's other cards counted at the round's end (0 if they left the
  hand before).

``points`` is ``None`` for all three where cards count no points (B-8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.rules.core.cards import Card, card_to_json
from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile
from app.rules.core.events import CardDiscarded, CardHit, HandsDealt, PhaseLaid, group_to_json
from app.rules.registry import AnyRuleset

from .coach import ENDERS, can_lay, go_out, hit_first, lay_then_go_out, named_card, pickup, went_out
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


def _drawing(command: Any) -> bool:
    """A draw, or the choice of the card to keep of two drawn (R-8): the seat has not played on yet."""
    return isinstance(command, Draw) or isinstance(getattr(command, "keep", None), int)


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
        # coaching marks whose points are settled at the round's end: mark index -> (seat, the card ids that
        # count, or None for the whole hand)
        self.pending: dict[int, tuple[int, frozenset[int] | None]] = {}
        self.go_out_turn: dict[int, int] = {}  # seat -> the index of its missed go-out mark this turn
        self.dropped: set[int] = set()  # marks withdrawn (a board turn that went out with its second discard)
        # a blind draw while the discard pile's top card would have let the seat lay: (step, state, seat, the
        # better commands), settled on the position the seat plays on after its draws (and R-8 choice)
        self.blind: tuple[int, Any, int, tuple[Any, ...]] | None = None

    # -- one command ---------------------------------------------------------------------------------------
    def step(self, index: int, state: Any, seat: int, command: Any) -> Any:
        ruleset = self.ruleset
        if self.blind is not None and (seat != self.blind[2] or not _drawing(command)):
            self._settle_blind(state if seat == self.blind[2] else None)
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
        self._coach(index, state, seat, command, hits, laydown is not None, events)
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

    # -- coaching ------------------------------------------------------------------------------------------
    def _coach(self, index: int, state: Any, seat: int, command: Any, hits: bool, lays: bool,
               events: Sequence[Any]) -> None:
        ruleset = self.ruleset
        player = ruleset.players(state)[seat]
        if went_out(ruleset, events, seat) and seat in self.go_out_turn:
            self.dropped.add(self.go_out_turn.pop(seat))  # B-7: it went out with its second discard
        if isinstance(command, Draw) and command.pile is Pile.DRAW:
            better = None if self.blind is not None else pickup(ruleset, state, seat)
            if better is not None:  # the first blind draw of a turn's draws (B-5: +N) is marked
                self.blind = (index, state, seat, better)
            return
        if not isinstance(command, ENDERS) or went_out(ruleset, events, seat):
            return
        if not player.laid:  # a go-out through the lay-down the seat missed (C-3, then C-4)
            out = lay_then_go_out(ruleset, state, seat) if lays and seat not in self.go_out_turn else None
            if out is not None:
                self.go_out_turn[seat] = len(self.marks)
                self._coaching(index, state, seat, Kind.MISSED_GO_OUT, named_card(out), out, None)
            return
        hand = {c.id: c for c in player.hand}
        if (hits or len(hand) <= 2) and seat not in self.go_out_turn:
            out = go_out(ruleset, state, seat)
            if out is not None:
                self.go_out_turn[seat] = len(self.marks)
                self._coaching(index, state, seat, Kind.MISSED_GO_OUT, named_card(out), out, None)
                return
        if hits and isinstance(command, Discard):
            better = hit_first(ruleset, state, seat, command.card,
                               lambda c: self._points(state, hand[c]) or 1)
            if better is not None:
                self._coaching(index, state, seat, Kind.DISCARDED_HIT, command.card, better,
                               frozenset({better[-1].card}))

    def _settle_blind(self, playing: Any) -> None:
        """Mark the blind draw unless the seat could lay its phase on the position it plays on (``playing``;
        ``None`` when the seat's turn went on no further)."""
        assert self.blind is not None
        index, state, seat, better = self.blind
        self.blind = None
        if playing is not None and can_lay(self.ruleset, playing, seat):
            return
        top = state.piles.discard[-1].id
        lay = better[-1]
        counted = frozenset(c for g in lay.groups for c in g if c != top)
        self._coaching(index, state, seat, Kind.MISSED_PICKUP, top, better, counted)

    def _coaching(self, index: int, state: Any, seat: int, kind: Kind, card: int, commands: tuple[Any, ...],
                  counted: frozenset[int] | None) -> None:
        self.pending[len(self.marks)] = (seat, counted)
        self.marks.append(Mark(index, seat, kind, self.round, card=card, commands=commands,
                               detail=self._detail(state, seat, card, commands)))

    def _detail(self, state: Any, seat: int, card: int, commands: tuple[Any, ...]) -> dict[str, Any]:
        """The mark's card and its better move in parts the page words (``Mark.detail``)."""
        ruleset = self.ruleset
        position = state
        known = {c.id: c for c in ruleset.players(state)[seat].hand}
        top = state.piles.discard[-1] if state.piles.discard else None
        if top is not None:
            known.setdefault(top.id, top)
        move: list[dict[str, Any]] = []
        for command in commands:
            part: dict[str, Any] | None = None
            if isinstance(command, Draw) and command.pile is Pile.DISCARD:
                part = {"do": "take", "card": None if top is None else card_to_json(top)}
            elif isinstance(command, Draw):
                part = {"do": "draw"}  # B-5: a draw still owed on a +N field
            elif isinstance(command, Hit):
                group = {k: v for k, v in group_to_json(position.table[command.group]).items() if k != "cards"}
                part = {"do": "hit", "card": card_to_json(known[command.card]), "group": group}
            elif isinstance(command, LayPhase):
                part = {"do": "lay"}
            elif isinstance(command, Discard):
                part = {"do": "discard", "card": card_to_json(known[command.card])}
            elif getattr(command, "card", None) in known:
                part = {"do": "play", "card": card_to_json(known[command.card])}
            if part is not None:
                move.append(part)
            position, _ = ruleset.apply(position, seat, command)
        return {"card": card_to_json(known[card]), "move": move,
                "commands": [ruleset.command_to_json(c) for c in commands]}

    def _points(self, state: Any, card: Card) -> int | None:
        return self.ruleset.card_points(state, card)

    # -- events --------------------------------------------------------------------------------------------
    def _event(self, index: int, event: Any, before: Any, after: Any) -> None:
        ruleset = self.ruleset
        seat = ruleset.turn_started(event)
        if seat is not None:
            self.turn_seat = seat
            self.go_out_turn.clear()
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
        for at, (seat, counted) in self.pending.items():
            left = hands[seat] if seat < len(hands) else ()
            points = sum(self._points(before, c) or 0 for c in left if counted is None or c.id in counted)
            self.marks[at] = replace(self.marks[at], points=points if self.counts_points else None)
        self.pending.clear()
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
        if self.blind is not None:
            self._settle_blind(None)
        coaching = (Kind.MISSED_HIT, Kind.DISCARDED_HIT, Kind.MISSED_GO_OUT, Kind.MISSED_PICKUP)
        marks = [m if m.kind not in coaching or m.points is not None or not self.counts_points
                 else replace(m, points=0) for i, m in enumerate(self.marks) if i not in self.dropped]
        return Analysis(self.ruleset.id, self.players, tuple(sorted(marks, key=Mark.sort_key)),
                        points=self.counts_points)
