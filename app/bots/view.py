"""Reading a seat's player view back into engine values (C-9: the view is all a bot ever sees).

A bot receives only ``ruleset.player_view(state, seat)`` — plain JSON — and the seat's legal commands. The
helpers here rebuild engine ``Card`` and ``LaidGroup`` values from that JSON so that the bot can use the
engine's own solver and group checks on its own hand and on the public table, and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.rules.core.cards import ALL_COLOURS, MAX_NUMBER, MIN_NUMBER, Card, CardKind, Colour
from app.rules.core.groups import GroupKind, LaidGroup

View = Mapping[str, Any]


def card_from_json(data: Mapping[str, Any]) -> Card:
    """The engine card of a view card (``card_to_json`` inverted)."""
    colours = frozenset(Colour(c) for c in data["colours"]) if "colours" in data else ALL_COLOURS
    colour = data.get("colour")
    return Card(int(data["id"]), CardKind(data["kind"]), number=data.get("number"),
                colour=Colour(colour) if colour is not None else None,
                low=int(data.get("low", MIN_NUMBER)), high=int(data.get("high", MAX_NUMBER)),
                colours=colours, action=data.get("action"))


def cards_from_json(items: Sequence[Mapping[str, Any]] | None) -> list[Card]:
    return [card_from_json(c) for c in items or ()]


def group_from_json(data: Mapping[str, Any]) -> LaidGroup:
    """The engine group of a laid group in the view (``group_to_json`` inverted)."""
    colour = data.get("colour")
    return LaidGroup(owner=int(data.get("owner", 0)), kind=GroupKind(data["kind"]),
                     cards=tuple(cards_from_json(data["cards"])), number=data.get("number"),
                     colour=Colour(colour) if colour is not None else None, start=data.get("start"),
                     extra=int(data.get("extra", 0)))


def hand(view: View) -> list[Card]:
    """The bot's own hand (the only hand in its view)."""
    return cards_from_json(view.get("hand"))


def table(view: View) -> list[LaidGroup]:
    return [group_from_json(g) for g in view.get("table") or ()]


def requirement(view: View) -> tuple[tuple[GroupKind, int], ...] | None:
    """The seat's current phase as ``(kind, size)`` pairs, or ``None`` once it is laid this round."""
    groups = view.get("my_phase")
    if not groups or has_laid(view):
        return None
    return tuple((GroupKind(g["kind"]), int(g["size"])) for g in groups)


def me(view: View) -> Mapping[str, Any]:
    """The bot's own public player entry."""
    seat = view.get("seat")
    for p in view.get("players") or ():
        if p.get("seat") == seat:
            return p  # type: ignore[no-any-return]
    return {}


def has_laid(view: View) -> bool:
    return bool(me(view).get("laid"))


def discard_top(view: View) -> Card | None:
    top = view.get("discard_top")
    return None if top is None else card_from_json(top)


def opponents(view: View) -> list[Mapping[str, Any]]:
    """Every other player's public entry, clockwise from the bot's left neighbour (C-7)."""
    players = list(view.get("players") or ())
    seat = view.get("seat")
    n = len(players)
    if seat is None or not n:
        return players
    return [players[(seat + i) % n] for i in range(1, n) if players[(seat + i) % n].get("in_round", True)]


def opponent_near_out(view: View, cards: int) -> bool:
    """Whether an opponent has laid their phase and holds at most ``cards`` cards: they may go out within a
    turn or two, and every card still in hand then counts (C-5, M-7, R-12)."""
    return any(p.get("laid") and int(p.get("hand_size", 99)) <= cards for p in opponents(view))


def next_player(view: View) -> Mapping[str, Any] | None:
    """The opponent who plays after the bot (C-7)."""
    others = opponents(view)
    return others[0] if others else None


def phase_of(view: View, player: Mapping[str, Any]) -> tuple[tuple[GroupKind, int], ...] | None:
    """The phase ``player`` works on this round as ``(kind, size)`` pairs — public (C-9): every player's phase
    number and the game's phase list are in the view — or ``None`` once it is laid."""
    if player.get("laid"):
        return None
    number = player.get("phase")
    for phase in view.get("phases") or ():
        if phase.get("number") == number:
            return tuple((GroupKind(g["kind"]), int(g["size"])) for g in phase.get("groups") or ())
    return None
