"""An exact lay-down solver (C-3, C-6, M-5, R-4, B-6): find a valid lay-down of a phase if one exists.

Cards that are interchangeable for the phase at hand are merged into *types* (a set-and-run phase does not
care about colours, a colour phase does not care about numbers), and the search runs over type counts:

* every required group but the last is enumerated exhaustively (each candidate is a multiset of types);
* the last group only needs a feasibility check, which is greedy and exact: using a natural card wherever
  one fits dominates using a joker there, and jokers are matched to the remaining positions by bipartite
  matching (ranged jokers, R-2);
* groups are ordered so that the cheap kinds (sets, colour groups) are enumerated and a run comes last;
* failed sub-searches are memoised on (group, remaining counts);
* before any of this, a quick count of the hand's numbers, colours and jokers (:func:`_hopeless`) rules out
  most hands that hold no lay-down, and only such hands, so the answers are the same with or without it.

Runs longer than their minimum are considered where a joker policy needs them (two naturals per run,
R-4: ``N J J J N`` may be the only way to lay a run of 4). The answer is checked by the validator before it
is returned, so the solver never proposes an invalid lay-down.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any, NamedTuple

from .cards import ALL_COLOURS, MAX_NUMBER, MIN_NUMBER, Card, CardKind, Colour
from .errors import IllegalMove
from .groups import GroupKind, JokerPolicy, LaidGroup, extend_group, validate_laydown

Counts = tuple[int, ...]
Arrangement = tuple[int, ...]  # type indexes in laid order


class _Type(NamedTuple):
    joker: bool
    number: int | None
    colour: Colour | None
    low: int
    high: int
    colours: frozenset[Colour]

    def fits(self, number: int | None, colour: Colour | None) -> bool:
        if self.joker:
            return (number is None or self.low <= number <= self.high) and (
                colour is None or colour in self.colours)
        return (number is None or self.number == number) and (colour is None or self.colour == colour)


class _Search:
    __slots__ = ("requirement", "by_number", "by_colour", "order", "types", "pools", "naturals", "jokers",
                 "number_of", "colour_of", "_natural_fit", "_fitting", "policy", "failed", "universal")

    def __init__(self, hand: Sequence[Card], requirement: Sequence[tuple[GroupKind, int]],
                 policy: JokerPolicy) -> None:
        self.requirement = requirement = tuple(requirement)
        by_number, by_colour, self.order = _profile(requirement)
        self.by_number, self.by_colour = by_number, by_colour
        both = by_number and by_colour
        index: dict[tuple[object, ...], int] = {}
        types: list[_Type] = []
        pools: list[list[int]] = []
        naturals: list[int] = []
        jokers: list[int] = []
        # number and colour of each natural type (None for jokers), counted by _have
        number_of: list[int | None] = []
        colour_of: list[Colour | None] = []
        # naturals by the (number, colour) questions the search asks: (n, None), (None, c) and, when both
        # matter, (n, c) too
        natural_fit: dict[tuple[int | None, Colour | None], list[int]] = {}
        universal = True
        for card in hand:
            kind = card.kind
            if kind is _NUMBER:
                number = card.number if by_number else None
                colour = card.colour if by_colour else None
                key: tuple[object, ...] = (number, colour)
                t = index.get(key)
                if t is not None:
                    pools[t].append(card.id)
                    continue
                t = index[key] = len(types)
                types.append(_NATURAL)
                number_of.append(number)
                colour_of.append(colour)
                pools.append([card.id])
                naturals.append(t)
                if both:
                    natural_fit[(number, colour)] = [t]
                    for fit in ((number, None), (None, colour)):
                        fitting = natural_fit.get(fit)
                        if fitting is None:
                            natural_fit[fit] = [t]
                        else:
                            fitting.append(t)
                else:
                    natural_fit[(number, colour)] = [t]
            elif kind is _JOKER:
                low, high = (card.low, card.high) if by_number else (MIN_NUMBER, MAX_NUMBER)
                colours = card.colours if by_colour else ALL_COLOURS
                key = (low, high, colours)
                t = index.get(key)
                if t is not None:
                    pools[t].append(card.id)
                    continue
                t = index[key] = len(types)
                types.append(_Type(True, None, None, low, high, colours))
                number_of.append(None)
                colour_of.append(None)
                pools.append([card.id])
                jokers.append(t)
                if low != MIN_NUMBER or high != MAX_NUMBER or colours != ALL_COLOURS:
                    universal = False
        self.types, self.pools, self.naturals, self.jokers = types, pools, naturals, jokers
        self.number_of, self.colour_of = number_of, colour_of
        self._natural_fit = natural_fit
        self._fitting: dict[tuple[bool, int | None, Colour | None], list[int]] = {}
        self.policy = policy
        self.failed: set[tuple[int, Counts, int]] = set()
        self.universal = universal

    def fitting(self, joker: bool, number: int | None, colour: Colour | None) -> list[int]:
        """Type indexes of naturals (or jokers) that may stand for ``number`` and ``colour`` (memoised)."""
        if not joker:
            return self._natural_fit.get((number, colour), [])
        key = (joker, number, colour)
        found = self._fitting.get(key)
        if found is None:
            found = self._fitting[key] = [t for t in self.jokers if self.types[t].fits(number, colour)]
        return found

    def _have(self, counts: Counts, by_number: bool) -> dict[Any, int]:
        """How many natural cards remain of each number (or colour) present: a set or colour group needs one
        (C-2)."""
        of = self.number_of if by_number else self.colour_of
        have: dict[Any, int] = {}
        for t in self.naturals:
            count = counts[t]
            if count:
                key = of[t]
                have[key] = have.get(key, 0) + count
        return have

    # -- enumeration of one group's candidates -------------------------------------------------------

    def _combos(self, types: list[int], counts: Counts, k: int, start: int = 0) -> Iterator[list[int]]:
        """Multisets of size ``k`` drawn from ``types`` within ``counts``."""
        if k == 0:
            yield []
            return
        for pos in range(start, len(types)):
            t = types[pos]
            if counts[t] == 0:
                continue
            for rest in self._combos(types, _minus(counts, t), k - 1, pos):
                yield [t, *rest]

    def _keyed(self, kind: GroupKind, size: int, counts: Counts, floor: int) -> Iterator[tuple[int, Arrangement]]:
        """Candidates for a set (keyed by number) or a colour group (keyed by colour), keys from ``floor`` up."""
        need = self.policy.naturals_needed(kind)
        # a key needs ``need`` naturals and enough naturals to fill the group with the jokers left; the others
        # have no candidate (the range of k below would be empty)
        least = max(need, size - sum(counts[t] for t in self.jokers))
        keys: list[tuple[int, int | None, Colour | None]]
        if kind is GroupKind.SET:
            have = self._have(counts, by_number=True)
            keys = [(n, n, None) for n in sorted(have) if n >= floor and have[n] >= least]
        else:
            have = self._have(counts, by_number=False)
            keys = [(_COLOUR_RANK[c], None, c) for c in _COLOURS if c in have and have[c] >= least]
        natural_fit = self._natural_fit
        for rank, number, colour in keys:
            if rank < floor:
                continue
            nats = [t for t in natural_fit.get((number, colour), ()) if counts[t]]
            have_nat = sum(counts[t] for t in nats)
            joks = [t for t in self.fitting(True, number, colour) if counts[t]]
            have_jok = sum(counts[t] for t in joks)
            for k in range(min(size, have_nat), max(need, size - have_jok) - 1, -1):
                for nat in self._combos(nats, counts, k):
                    rest = counts
                    for t in nat:
                        rest = _minus(rest, t)
                    for jok in self._combos(joks, rest, size - k):
                        yield rank, tuple(nat + jok)

    def _runs(self, kind: GroupKind, size: int, counts: Counts) -> Iterator[Arrangement]:
        need = self.policy.naturals_needed(kind)
        colours: list[Colour | None] = list(Colour) if kind is GroupKind.COLOUR_RUN else [None]
        longest = MAX_NUMBER if need >= 2 else size
        seen: set[tuple[int, ...]] = set()
        for colour in colours:
            for length in range(size, longest + 1):
                for first in range(MIN_NUMBER, MAX_NUMBER - length + 2):
                    for arr in self._fill(first, length, colour, counts, 0, [], 0, need):
                        if length > size and (self.types[arr[0]].joker or self.types[arr[-1]].joker):
                            continue  # a joker at an end could be dropped: the shorter run covers it
                        key = tuple(sorted(arr))
                        if key not in seen:
                            seen.add(key)
                            yield tuple(arr)

    def _fill(self, first: int, length: int, colour: Colour | None, counts: Counts, pos: int,
              acc: list[int], nat: int, need: int) -> Iterator[list[int]]:
        if pos == length:
            if nat >= need:
                yield acc
            return
        if nat + (length - pos) < need:
            return
        number = first + pos
        for t in self.fitting(False, number, colour):
            if counts[t]:
                yield from self._fill(first, length, colour, _minus(counts, t), pos + 1, [*acc, t], nat + 1,
                                      need)
        for t in self.fitting(True, number, colour):
            if counts[t]:
                yield from self._fill(first, length, colour, _minus(counts, t), pos + 1, [*acc, t], nat, need)

    def candidates(self, kind: GroupKind, size: int, counts: Counts, floor: int) -> Iterator[tuple[int, Arrangement]]:
        """Every way to form one group from ``counts``, with its symmetry key (see :meth:`search`)."""
        if kind.is_run:
            return ((0, arr) for arr in self._runs(kind, size, counts))
        return self._keyed(kind, size, counts, floor)

    # -- exact greedy check for the last group -------------------------------------------------------

    def _match_jokers(self, slots: list[tuple[int | None, Colour | None]], counts: Counts) -> list[int] | None:
        """Assign one joker (by type) to every slot, or ``None`` (Kuhn's bipartite matching)."""
        if not slots:
            return []
        jokers = [t for t in self.jokers for _ in range(counts[t])]
        if len(jokers) < len(slots):
            return None
        if self.universal:
            return jokers[:len(slots)]
        owner: list[int | None] = [None] * len(jokers)

        def augment(slot: int, seen: set[int]) -> bool:
            number, colour = slots[slot]
            for j, t in enumerate(jokers):
                if j in seen or not self.types[t].fits(number, colour):
                    continue
                seen.add(j)
                current = owner[j]
                if current is None or augment(current, seen):
                    owner[j] = slot
                    return True
            return False

        for slot in range(len(slots)):
            if not augment(slot, set()):
                return None
        result = [0] * len(slots)
        for j, matched in enumerate(owner):
            if matched is not None:
                result[matched] = jokers[j]
        return result

    def first_fit(self, kind: GroupKind, size: int, counts: Counts) -> Arrangement | None:
        need = self.policy.naturals_needed(kind)
        if not kind.is_run:
            keys: list[tuple[int | None, Colour | None]]
            if kind is GroupKind.SET:
                present = self._have(counts, by_number=True)
                keys = [(n, None) for n in sorted(present)]
            else:
                present = self._have(counts, by_number=False)
                keys = [(None, c) for c in _COLOURS if c in present]
            jokers = sum(counts[t] for t in self.jokers)
            for number, colour in keys:
                have = present[number if colour is None else colour]
                if min(have, size) < need or have + jokers < size:
                    continue  # too few naturals, or too few jokers to fill the group (no matching)
                fit = self._natural_fit.get((number, colour), ())
                nats = [t for t in fit for _ in range(counts[t])][:size]
                jok = self._match_jokers([(number, colour)] * (size - len(nats)), counts)
                if jok is not None:
                    return tuple(nats + jok)
            return None
        colours: list[Colour | None] = list(Colour) if kind is GroupKind.COLOUR_RUN else [None]
        longest = MAX_NUMBER if need >= 2 else size
        jokers = sum(counts[t] for t in self.jokers)
        natural_fit = self._natural_fit
        for colour in colours:
            # the natural type to use at each number, if any (a natural wherever one fits is dominant)
            at: list[int | None] = [None] * (MAX_NUMBER + 1)
            have = 0
            for number in range(MIN_NUMBER, MAX_NUMBER + 1):
                for t in natural_fit.get((number, colour), ()):
                    if counts[t]:
                        at[number] = t
                        have += 1
                        break
            if have < need:
                continue  # every window would hold fewer naturals than needed
            # a window longer than ``have + jokers`` has more gaps than jokers
            for length in range(size, min(longest, have + jokers) + 1):
                for first in range(MIN_NUMBER, MAX_NUMBER - length + 2):
                    if length > size and (at[first] is None or at[first + length - 1] is None):
                        # a joker at an end of a longer run: the shorter run without it, tried before, fits
                        # whenever this one does, so this window is never the first that fits
                        continue
                    arr = at[first:first + length]
                    missing = arr.count(None)
                    if missing > jokers or length - missing < need:
                        continue
                    slots: list[tuple[int | None, Colour | None]] = [
                        (first + i, colour) for i, t in enumerate(arr) if t is None]
                    jok = self._match_jokers(slots, counts)
                    if jok is None:
                        continue
                    it = iter(jok)
                    return tuple(t if t is not None else next(it) for t in arr)
        return None

    # -- the search ---------------------------------------------------------------------------------

    def search(self, step: int, counts: Counts, floor: int = 0) -> list[Arrangement] | None:
        """Groups ``step..`` from ``counts``. Identical required groups (e.g. "4 sets of 2") are interchangeable,
        so their keys (number or colour) are enumerated in non-decreasing order only (``floor``)."""
        spec = self.requirement[self.order[step]]
        kind, size = spec
        if step == len(self.order) - 1:
            found = self.first_fit(kind, size, counts)
            return None if found is None else [found]
        key = (step, counts, floor)
        if key in self.failed:
            return None
        same_next = self.requirement[self.order[step + 1]] == spec
        for rank, arr in self.candidates(kind, size, counts, floor):
            rest = counts
            for t in arr:
                rest = _minus(rest, t)
            tail = self.search(step + 1, rest, rank if same_next else 0)
            if tail is not None:
                return [arr, *tail]
        self.failed.add(key)
        return None

    def solve(self) -> tuple[tuple[int, ...], ...] | None:
        if not self.requirement:
            return ()
        counts = tuple(len(p) for p in self.pools)
        found = self.search(0, counts)
        if found is None:
            return None
        pools = [list(p) for p in self.pools]
        groups: list[tuple[int, ...]] = [()] * len(self.requirement)
        for step, arr in enumerate(found):
            groups[self.order[step]] = tuple(pools[t].pop() for t in arr)
        return tuple(groups)


@cache
def _profile(requirement: tuple[tuple[GroupKind, int], ...]) -> tuple[bool, bool, tuple[int, ...]]:
    """Whether numbers and colours matter to a phase, and the order its groups are searched in."""
    kinds = {k for k, _ in requirement}
    order = sorted(range(len(requirement)), key=lambda i: (_COST[requirement[i][0]], -requirement[i][1]))
    return any(k.has_number for k in kinds), any(k.has_colour for k in kinds), tuple(order)


_COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_RANK = {c: i for i, c in enumerate(Colour)}
_NUMBER, _JOKER = CardKind.NUMBER, CardKind.JOKER
_COST = {GroupKind.SET: 0, GroupKind.COLOUR: 0, GroupKind.COLOUR_RUN: 1, GroupKind.RUN: 2}
_NO_COLOURS: frozenset[Colour] = frozenset()
_NATURAL = _Type(False, None, None, 0, 0, _NO_COLOURS)
"""The type record shared by all natural types: the search asks it only whether it is a joker (their numbers
and colours are ``_Search.number_of`` / ``colour_of``)."""


def _minus(counts: Counts, t: int) -> Counts:
    return counts[:t] + (counts[t] - 1,) + counts[t + 1:]


class _Counting(NamedTuple):
    """What :func:`_hopeless` counts for a phase."""

    total: int
    """The cards the phase asks for in all."""
    sets: tuple[int, ...]
    colours: tuple[int, ...]
    """The sizes of its sets and of its colour groups."""
    runs: tuple[int, ...]
    colour_runs: tuple[int, ...]
    """The sizes of its runs and of its colour runs."""


@cache
def _counting(requirement: tuple[tuple[GroupKind, int], ...]) -> _Counting:
    def sizes(kind: GroupKind) -> tuple[int, ...]:
        return tuple(size for k, size in requirement if k is kind)
    return _Counting(sum(size for _, size in requirement), sizes(GroupKind.SET), sizes(GroupKind.COLOUR),
                     sizes(GroupKind.RUN), sizes(GroupKind.COLOUR_RUN))


def _shortfall(sizes: tuple[int, ...], counts: Iterable[int]) -> int:
    """The fewest jokers groups keyed by a number (or colour) of these ``sizes`` need together: ``k`` groups take
    their natural cards from at most ``k`` numbers (colours), so from at most the ``k`` largest counts."""
    return max(0, sum(sizes) - sum(sorted(counts, reverse=True)[:len(sizes)]))


def _hopeless(hand: Sequence[Card], requirement: Sequence[tuple[GroupKind, int]], policy: JokerPolicy) -> bool:
    """A quick count that rules out most hands before any search (C-3): the phase asks for more cards than the
    hand has, one of its groups lacks the natural cards it needs (R-4: at least the policy's naturals of one
    number for a set, of one colour for a colour group, of distinct numbers for a run, of distinct numbers in
    one colour for a colour run), or the groups together need more jokers than the hand holds (a run or colour
    run at least its size minus the most naturals any window of that size holds).

    The jokers needed are counted low: the natural cards of the hand are counted for every group kind at once,
    and every joker as if it fitted anywhere. Every lay-down the search finds is valid (it is validated), so it
    passes these counts: this is true only where the search finds nothing. A run of jokers alone (a policy
    asking for no natural) is never ruled out for lack of naturals.
    """
    counting = _counting(tuple(requirement))
    naturals = jokers = 0
    numbers: dict[int | None, int] = {}
    colours: dict[Colour | None, int] = {}
    pairs: set[tuple[Colour | None, int | None]] = set()
    by_colour, by_colour_run = bool(counting.colours), bool(counting.colour_runs)
    for card in hand:
        card_kind = card.kind
        if card_kind is _NUMBER:
            naturals += 1
            number = card.number
            numbers[number] = numbers.get(number, 0) + 1
            if by_colour:
                colours[card.colour] = colours.get(card.colour, 0) + 1
            if by_colour_run:
                pairs.add((card.colour, number))
        elif card_kind is _JOKER:
            jokers += 1
    if counting.total > naturals + jokers:
        return True
    # the numbers present (bit n for number n), of each colour for colour runs
    colour_masks: dict[Colour | None, int] = {}
    for colour, number in pairs:
        colour_masks[colour] = colour_masks.get(colour, 0) | 1 << (number or 0)
    per_colour = {colour: mask.bit_count() for colour, mask in colour_masks.items()}
    for kind, size in requirement:
        least = max(policy.naturals_needed(kind), size - jokers)
        found: Iterable[int]
        if kind is GroupKind.SET:
            found = numbers.values()
        elif kind is GroupKind.COLOUR:
            found = colours.values()
        elif least <= 0:
            continue
        elif kind is GroupKind.RUN:
            found = (len(numbers),)
        else:
            found = per_colour.values()
        if not any(count >= least for count in found):
            return True
    short = 0
    if counting.sets:
        short += _shortfall(counting.sets, numbers.values())
    if counting.colours:
        short += _shortfall(counting.colours, colours.values())
    if counting.runs:
        mask = sum(1 << (number or 0) for number in numbers)
        for size in counting.runs:
            short += max(0, size - _widest(mask, size))
    for size in counting.colour_runs:
        short += max(0, size - max((_widest(mask, size) for mask in colour_masks.values()), default=0))
    return short > jokers


def _widest(mask: int, size: int) -> int:
    """The most numbers of ``mask`` (bit n for number n) that ``size`` consecutive numbers of 1..12 hold: a run
    of at least ``size`` needs jokers for the rest of its ``size`` positions at least (a longer run holds at most
    one more natural per extra position)."""
    window = (1 << size) - 1
    return max((((mask >> first) & window).bit_count() for first in range(MIN_NUMBER, MAX_NUMBER - size + 2)),
               default=0)


def find_laydown(hand: Sequence[Card], requirement: Sequence[tuple[GroupKind, int]],
                 policy: JokerPolicy) -> tuple[tuple[int, ...], ...] | None:
    """A valid lay-down of ``requirement`` from ``hand`` as card-id groups in requirement order, or ``None``.

    Exact (C-3): never misses a lay-down that exists and never proposes an invalid one.
    """
    if _hopeless(hand, requirement, policy):
        return None
    groups = _Search(hand, requirement, policy).solve()
    if groups is not None:
        validate_laydown(hand, requirement, groups, policy)  # defensive: raises if the solver were wrong
    return groups


def top_fits(hand: Sequence[Card], top: Card, requirement: Sequence[tuple[GroupKind, int]], policy: JokerPolicy,
             laid: bool, table: Sequence[LaidGroup]) -> bool:
    """Whether the discard pile's top card ``top`` fits its drawer's phase, from the drawer's own ``hand`` and
    public cards only: once the phase is down, ``top`` may be hit onto a laid group (C-4); before, ``hand``
    with ``top`` lays the phase where ``hand`` alone does not (C-3)."""
    if laid:
        for group in table:
            try:
                extend_group(group, top, policy)
            except IllegalMove:
                continue
            return True
        return False
    return find_laydown(hand, requirement, policy) is None and \
        find_laydown([*hand, top], requirement, policy) is not None
