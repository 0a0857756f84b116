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
    if skips and view["ruleset"] == "mattel":
        targets = prompt.get("skip_targets") or []
        return skips[0]["id"], (targets[0] if targets else None)
    naturals = [c for c in hand if c["kind"] == "number"]
    if not naturals:
        playable = [c for c in hand if c["kind"] != "action"] or hand
        return playable[0]["id"], None
    counts = Counter(c["number"] for c in naturals)
    best = min(naturals, key=lambda c: (counts[c["number"]], -c["number"], c["id"]))
    return best["id"], None


def policy_of(ruleset: str) -> JokerPolicy:
    """The joker policy the rule set's hits follow (M-5, R-4, B-6)."""
    if ruleset == "master":
        from app.rules.master.deck import RANGED_JOKERS

        return RANGED_JOKERS
    if ruleset == "board":
        from app.rules.board.material import TURNED

        return TURNED
    from app.rules.mattel.deck import WILDS

    return WILDS


def _keepers(hand: list[JSON], count: int) -> list[int]:
    naturals = [c for c in hand if c["kind"] == "number"]
    counts = Counter(c["number"] for c in naturals)
    ranked = sorted(hand, key=lambda c: (c["kind"] != "joker", -counts.get(c.get("number"), 0),
                                         c.get("number") or 0, c["id"]))
    return [c["id"] for c in ranked[:count]]


def decide(view: JSON, hint: list[list[int]] | None) -> JSON:
    """The next command of the seat whose view this is, for all three rule sets.

    ``hint`` is the solver's lay-down (what the page's Suggest button fetches) when the seat may lay.
    """
    prompt = view["prompt"]
    action = prompt["action"]
    hand = view["hand"] or []
    ruleset = view["ruleset"]
    if action in ("draw", "take"):
        return {"type": "draw", "pile": "draw"}
    if action == "play":
        if prompt.get("can_lay") and hint:
            return {"type": "lay_phase", "groups": hint}
        hit = first_hit(view, policy_of(ruleset)) if prompt.get("can_hit") else None
        if hit is not None:
            return {"type": "hit", "card": hit[0], "group": hit[1], "end": hit[2]}
        if ruleset == "master":
            actions = [c for c in hand if c["kind"] == "action"]
            if actions and len(hand) > 1:
                card = actions[0]
                targets = prompt.get("skip_targets") or []
                if card["action"] != "skip" or targets:
                    return {"type": "play_action", "card": card["id"],
                            "target": targets[0] if card["action"] == "skip" else None,
                            "ask": True}
        card, target = discard_choice(view)
        if ruleset == "mattel":
            return {"type": "discard", "card": card, "target": target}
        return {"type": "discard", "card": card, "target": None}
    if action == "choose_take_two":
        return {"type": "choose_take_two", "keep": prompt["cards"][0]["id"]}
    if action == "offer":
        return {"type": "offer_card", "card": discard_choice(view)[0]}
    if action == "take_offer":
        offered = [o["card"] for o in prompt["offers"] if o["card"]]
        return {"type": "take_offer", "card": offered[0]["id"]}
    if action == "keep_hand":
        return {"type": "keep_hand", "keep": True}
    if action == "roll":
        return {"type": "roll_dice"}
    if action == "move":
        return {"type": "move", "steps": prompt["moves"][0]["steps"]}
    if action == "choose":
        return {"type": "choose_action", "action": prompt["actions"][0]}
    if action == "search":
        return {"type": "search", "card": prompt["discard_pile"][-1]["id"]}
    if action == "swap":
        return {"type": "swap", "cards": [discard_choice(view)[0]]}
    if action == "ask":
        naturals = [c["number"] for c in hand if c["kind"] == "number"]
        number = Counter(naturals).most_common(1)[0][0] if naturals else 1
        return {"type": "ask", "number": number, "direction": "left"}
    if action == "give":
        return {"type": "give", "card": prompt["cards"][0]}
    if action == "discard2":
        return {"type": "end_turn"}
    if action == "keep":
        return {"type": "keep", "cards": _keepers(hand, min(prompt["max"], len(hand)))}
    raise ValueError(f"no decision for {action!r}")
