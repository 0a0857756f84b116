"""A deterministic playing strategy over a seat's own view (C-9: nothing else), shared by the browser
tests and by the offline search that picked their fixed seeds.

It never looks at anything the page does not hold: the hand, the laid groups and the prompt of the seat's
view. Legal hits are found with the engine's own ``extend_group`` on cards rebuilt from the view's JSON.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.rules.core.cards import ALL_COLOURS, Card, CardKind, Colour
from app.rules.core.groups import GroupKind, JokerPolicy, LaidGroup
from app.rules.core.table import legal_hits

JSON = dict[str, Any]


def card_from_json(data: JSON) -> Card:
    """Rebuild an engine card from its public JSON (``card_to_json``)."""
    kind = CardKind(data["kind"])
    colour = Colour(data["colour"]) if "colour" in data else None
    colours = frozenset(Colour(c) for c in data["colours"]) if "colours" in data else ALL_COLOURS
    return Card(data["id"], kind, number=data.get("number"), colour=colour, low=data.get("low", 1),
                high=data.get("high", 12), colours=colours, action=data.get("action"))


def group_from_json(data: JSON) -> LaidGroup:
    return LaidGroup(owner=data["owner"], kind=GroupKind(data["kind"]),
                     cards=tuple(card_from_json(c) for c in data["cards"]), number=data.get("number"),
                     colour=Colour(data["colour"]) if "colour" in data else None, start=data.get("start"),
                     extra=data.get("extra", 0))


def first_hit(view: JSON, policy: JokerPolicy) -> tuple[int, int, str | None] | None:
    """The first legal hit ``(card, group, end)`` of this seat's view, or ``None`` (C-4)."""
    hand = [card_from_json(c) for c in view["hand"]]
    table = [group_from_json(g) for g in view["table"]]
    hits = legal_hits(hand, table, policy)
    if not hits:
        return None
    card, group, end = hits[0]
    return card, group, None if end is None else end.value


def discard_choice(view: JSON) -> tuple[int, int | None]:
    """Which card to discard (and the skip's target): skips first, then the loneliest highest number."""
    hand = view["hand"]
    prompt = view["prompt"] or {}
    skips = [c for c in hand if c["kind"] == "action"]
    if skips:
        targets = prompt.get("skip_targets") or []
        return skips[0]["id"], (targets[0] if targets else None)
    naturals = [c for c in hand if c["kind"] == "number"]
    if not naturals:
        return hand[0]["id"], None
    counts = Counter(c["number"] for c in naturals)
    best = min(naturals, key=lambda c: (counts[c["number"]], -c["number"], c["id"]))
    return best["id"], None
