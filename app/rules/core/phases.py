"""Phase lists as data (C-2, M-3, R-3, B-3) and their JSON form for custom phase lists (R-3, B-11)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from .errors import InvalidOptions
from .groups import GroupKind

_NOUNS = {
    GroupKind.SET: ("set", "sets"),
    GroupKind.RUN: ("run", "runs"),
    GroupKind.COLOUR_RUN: ("colour run", "colour runs"),
}


@dataclass(frozen=True, slots=True)
class GroupSpec:
    """One required group of a phase: its kind and minimum size (C-2)."""

    kind: GroupKind
    size: int


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase: the list of groups that must be laid at once (C-3)."""

    groups: tuple[GroupSpec, ...]

    @property
    def requirement(self) -> tuple[tuple[GroupKind, int], ...]:
        return tuple((g.kind, g.size) for g in self.groups)

    def describe(self) -> str:
        """English description, e.g. ``1 set of 3 + 1 run of 4`` or ``7 cards of one colour``."""
        return _describe(self.groups)

    def to_json(self) -> list[dict[str, object]]:
        return [{"kind": g.kind.value, "size": g.size} for g in self.groups]


@cache
def _describe(groups: tuple[GroupSpec, ...]) -> str:
    """Phase descriptions are asked for in every view: computed once per phase."""
    parts: list[str] = []
    i = 0
    while i < len(groups):
        spec = groups[i]
        count = 1
        while i + count < len(groups) and groups[i + count] == spec:
            count += 1
        if spec.kind is GroupKind.COLOUR:
            parts.append(" + ".join([f"{spec.size} cards of one colour"] * count))
        else:
            one, many = _NOUNS[spec.kind]
            parts.append(f"{count} {one if count == 1 else many} of {spec.size}")
        i += count
    return " + ".join(parts)


@dataclass(frozen=True, slots=True)
class GroupOption:
    """One group of a host's custom phase (R-3, B-11) as a table option: ``{"kind": "set", "size": 3}``."""

    kind: GroupKind
    size: int


CustomPhases = tuple[tuple[GroupOption, ...], ...]
"""The ``phases`` table option of a rule set whose phase list a host may replace (R-3, B-11)."""


def phase(*groups: tuple[GroupKind, int]) -> Phase:
    """Shorthand: ``phase((SET, 3), (RUN, 4))``."""
    return Phase(tuple(GroupSpec(k, n) for k, n in groups))


def sets(count: int, size: int) -> tuple[tuple[GroupKind, int], ...]:
    """Shorthand for ``count`` sets of ``size`` (C-2): ``phase(*sets(2, 4))`` is "2 sets of 4" (M-3 phase 7)."""
    return tuple((GroupKind.SET, size) for _ in range(count))


MAX_GROUPS = 6
MAX_CARDS = 10  # a phase must fit in a starting hand of 10 cards


def parse_phase_list(raw: object, field: str = "phases",
                     allowed: Sequence[GroupKind] = tuple(GroupKind)) -> tuple[Phase, ...]:
    """Validate a custom phase list (B-11): ``[[{"kind": "set", "size": 3}, ...], ...]``.

    Every phase has 1..6 groups of an allowed kind; sets and colour groups at least 2 cards, runs at least 3,
    runs at most 12; a phase at most 10 cards in all so that it can be laid from a fresh hand.
    """
    if not isinstance(raw, list) or not raw:
        raise InvalidOptions(field, "must be a non-empty list of phases")
    if len(raw) > 20:
        raise InvalidOptions(field, "at most 20 phases")
    out: list[Phase] = []
    for p, item in enumerate(raw):
        where = f"{field}[{p}]"
        if not isinstance(item, list) or not item or len(item) > MAX_GROUPS:
            raise InvalidOptions(where, f"a phase is a list of 1..{MAX_GROUPS} groups")
        specs: list[GroupSpec] = []
        for g, group in enumerate(item):
            gwhere = f"{where}[{g}]"
            if not isinstance(group, dict) or set(group) != {"kind", "size"}:
                raise InvalidOptions(gwhere, 'a group is {"kind": ..., "size": ...}')
            try:
                kind = GroupKind(group["kind"])
            except ValueError:
                raise InvalidOptions(gwhere, f"unknown group kind {group['kind']!r}") from None
            if kind not in allowed:
                raise InvalidOptions(gwhere, f"group kind {kind.value} is not available in this game")
            size = group["size"]
            if not isinstance(size, int) or isinstance(size, bool):
                raise InvalidOptions(gwhere, "size must be an integer")
            least = 3 if kind.is_run else 2
            most = 12 if kind.is_run else MAX_CARDS
            if not least <= size <= most:
                raise InvalidOptions(gwhere, f"a {kind.value} has {least}..{most} cards")
            specs.append(GroupSpec(kind, size))
        if sum(s.size for s in specs) > MAX_CARDS:
            raise InvalidOptions(where, f"a phase may ask for at most {MAX_CARDS} cards")
        out.append(Phase(tuple(specs)))
    return tuple(out)


def phase_list_schema(allowed: Sequence[GroupKind]) -> dict[str, object]:
    """What the lobby's phase-list editor needs beyond the default (C-11): the group kinds of this game (C-2)
    and the limits ``parse_phase_list`` applies."""
    return {"kinds": [k.value for k in allowed], "max_groups": MAX_GROUPS, "max_cards": MAX_CARDS}


def table_phases(custom: CustomPhases | None, default: tuple[Phase, ...],
                 allowed: Sequence[GroupKind] = tuple(GroupKind), field: str = "phases") -> tuple[Phase, ...]:
    """The phase list a table plays (R-3, B-3, B-11): the rule set's own (``custom`` is ``None``) or the host's,
    validated by ``parse_phase_list`` (``InvalidOptions`` naming the field, e.g. ``phases[0][1]``)."""
    if custom is None:
        return default
    return _parsed(custom, tuple(allowed), field)


@lru_cache(maxsize=64)
def _parsed(custom: CustomPhases, allowed: tuple[GroupKind, ...], field: str) -> tuple[Phase, ...]:
    """Every view and turn asks for the table's phases: a custom list is parsed once."""
    raw = [[{"kind": g.kind.value, "size": g.size} for g in p] for p in custom]
    return parse_phase_list(raw, field, allowed=allowed)
