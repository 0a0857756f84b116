"""The JSON of the parts of a seat's view (C-9) that a command seldom changes, made once per engine value.

A new state shares every part a command left alone with the state before it: the hands of the seats that did
not move, the laid groups, the score sheet, the options are the very same immutable objects. So the JSON of
such a part is kept by the identity of the value it was made from, and the next view of the table reuses it
(three of four hands, the table and the history on almost every command). A memo keeps 1,024 parts (about
5 MB for the hands and the laid groups together): enough for the next command at several hundred busy tables.
The views share these values with each other and with later views: a caller adds keys to a view's own dict and
never changes a shared value.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from .cards import Card
from .events import group_to_json
from .groups import LaidGroup
from .phases import Phase
from .table import RoundScore, hand_json, history_json

K = TypeVar("K")
V = TypeVar("V")
S = TypeVar("S")

JSONList = list[dict[str, Any]]


class IdentityMemo(Generic[K, V]):
    """``make(value)`` kept for the last ``size`` values by their identity. An entry holds its value, so the
    value's id cannot be reused by another object while the entry lives; the oldest entry goes first. Views are
    made on the event loop and in worker threads: each step here is one operation of the ordered dict, which
    the GIL keeps whole (two threads may make the same part twice, and evict one entry too many)."""

    def __init__(self, make: Callable[[K], V], size: int = 1024) -> None:
        self._make = make
        self._size = size
        self._items: OrderedDict[int, tuple[K, V]] = OrderedDict()

    def __call__(self, value: K) -> V:
        hit = self._items.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        made = self._make(value)
        self._items[id(value)] = (value, made)
        while len(self._items) > self._size:
            try:
                self._items.popitem(last=False)
            except KeyError:  # another thread emptied it meanwhile
                break
        return made


def phases_json(listed: Sequence[Phase], sequence: Sequence[int]) -> JSONList:
    """The phases a game plays, in order, as the views list them (C-5)."""
    return [{"number": n, "description": listed[n - 1].describe(), "groups": listed[n - 1].to_json()}
            for n in sequence]


Opts = TypeVar("Opts")


def phase_list_view(phases_of: Callable[[Opts], Sequence[Phase]],
                    sequence_of: Callable[[Opts], Sequence[int]]) -> IdentityMemo[Opts, JSONList]:
    """The phase list of a game's options (``phases_json`` of its phases and sequence), one per options value,
    shared by every view of the game."""
    return IdentityMemo(lambda options: phases_json(phases_of(options), sequence_of(options)))


def _groups_json(groups: Sequence[LaidGroup]) -> JSONList:
    return [group_to_json(g) for g in groups]


hand_view: IdentityMemo[Sequence[Card], JSONList] = IdentityMemo(hand_json)
"""A hand (or any cards a view shows in order) as ``hand_json``, shared."""

groups_view: IdentityMemo[Sequence[LaidGroup], JSONList] = IdentityMemo(_groups_json)
"""The laid groups on the table, shared."""

history_view: IdentityMemo[Sequence[RoundScore], JSONList] = IdentityMemo(history_json)
"""The score sheet, shared."""


def player_views(public: Callable[[S], dict[str, Any]],
                 for_seat: Callable[[dict[str, Any], S, int | None], dict[str, Any]],
                 state: S, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """Each of ``seats``' ``player_view`` (C-9), from a rule set's two halves of it: ``public(state)``, the part
    every seat sees alike, made once, and ``for_seat(public, state, seat)``, a copy of it with that seat's own keys
    (its hand, its prompt). The views share the public values: callers add keys, never change shared values."""
    shared = public(state)
    return {seat: for_seat(shared, state, seat) for seat in seats}
