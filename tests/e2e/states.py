"""Seat views of every kind of moment of every rule set, made with the engine (no server, no browser), for the
layout sweep of ``test_layout.py``: the page is shown each of them in turn, as its socket would deliver them.

A game per rule set and seat count (2–6) is played from a fixed seed by a simple policy that lays and hits
whenever it can (so groups of the player and of the opponents lie on the table) and otherwise picks a legal
command at random. Every view of an awaited seat is kept that differs from the ones already kept in what the
layout depends on: the prompt (and whether the builder is offered), the seat's own laid groups, the opponents'
groups, the cards lying in front of players and Give-me-five offers. The view with the largest
hand of each rule set is kept as well; Mattel's hand never holds more than 11 cards (M-4: 10 dealt, one
drawn), Master's and the board game's grow without a fixed bound (R-9 keeps a hand over 10, R-11 adds a card;
B-5's ``+N``, ``swap`` and ``all`` fields), so :data:`LARGEST_HAND` cards are dealt into a copy of their
fullest view: more than their games reach in practice.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from app.rules import registry

SEATS = (2, 3, 4, 5, 6)
LARGEST_HAND = {"mattel": 11, "master": 18, "board": 18}
OPTIONS: dict[str, dict[str, Any]] = {"mattel": {"phases_to_win": 2}, "master": {"phases_to_win": 2},
                                      "board": {"phases_to_win": 2}}
PREFERRED = ("lay_phase", "hit", "play_action", "move")


def _signature(view: dict[str, Any], seat: int) -> tuple[Any, ...]:
    prompt = view.get("prompt") or {}
    table = view.get("table") or []
    own = sum(1 for g in table if g["owner"] == seat)
    others = sum(1 for g in table if g["owner"] != seat)
    front = sum(len(p.get("in_front") or []) + len(p.get("turned") or []) for p in view["players"])
    return (prompt.get("action"), bool(prompt.get("can_lay")), own > 0, others > 0, front > 0,
            bool(view.get("give_me_five")))


def _play(ruleset_id: str, seats: int, seed: int) -> list[dict[str, Any]]:
    ruleset = registry.get(ruleset_id)
    options = ruleset.parse_options(OPTIONS[ruleset_id])
    state = ruleset.new_game(seed, seats, options)
    rng = random.Random(seed)
    kept: dict[tuple[Any, ...], dict[str, Any]] = {}
    for _step in range(3000):
        if ruleset.is_over(state):
            break
        awaited = ruleset.awaited(state)
        seat = awaited[0]
        view = ruleset.player_view(state, seat)
        kept.setdefault(_signature(view, seat), view)
        legal = ruleset.legal_commands(state, seat)
        best = [c for c in legal if ruleset.command_to_json(c)["type"] in PREFERRED[:2]]
        command = rng.choice(best or list(legal))
        state, _ = ruleset.apply(state, seat, command)
    views = list(kept.values())
    for view in views:
        view.setdefault("timer", None)
    return views


def _deal_more(ruleset_id: str, view: dict[str, Any], size: int) -> dict[str, Any]:
    """A copy of ``view`` whose hand is topped up to ``size`` cards (copies of its cards with fresh ids)."""
    grown = json.loads(json.dumps(view))
    hand = grown["hand"]
    next_id = 10_000
    while len(hand) < size:
        card = dict(hand[len(hand) % max(1, len(view["hand"]))])
        card["id"] = next_id
        next_id += 1
        hand.append(card)
    for player in grown["players"]:
        if player["seat"] == _seat_of(grown):
            player["hand_size"] = len(hand)
    return grown


def _seat_of(view: dict[str, Any]) -> int:
    return int(view["seat"]) if view.get("seat") is not None else int((view.get("awaited") or [0])[0])


@cache
def moments(ruleset_id: str) -> list[dict[str, Any]]:
    """Views of ``ruleset_id`` (each with ``seat`` and ``seats``), for every seat count in :data:`SEATS`."""
    out: list[dict[str, Any]] = []
    for seats in SEATS:
        for view in _play(ruleset_id, seats, seed=700 + seats):
            view["seats"] = seats
            view.setdefault("seat", (view.get("awaited") or [0])[0])
            out.append(view)
    fullest = max(out, key=lambda v: len(v.get("hand") or []))
    if len(fullest["hand"]) < LARGEST_HAND[ruleset_id]:
        out.append(_deal_more(ruleset_id, fullest, LARGEST_HAND[ruleset_id]))
    return out


def _laid(view: dict[str, Any]) -> int:
    return sum(len(g["cards"]) for g in view.get("table") or [])


@cache
def crowded(ruleset_id: str, seats: int, fill: bool = True) -> dict[str, Any]:
    """A play-stage view of ``ruleset_id`` with ``seats`` seats and as much laid as a round shows: the view of
    the game from :func:`moments`' seed with the most laid cards, then every seat without groups given a copy
    of the groups of the seat with the most (fresh card ids): every seat has its phase down (Master's phase 1
    is four groups a seat, 24 at six seats). With ``fill`` false, the game's own view as it was."""
    ruleset = registry.get(ruleset_id)
    seed = 700 + seats
    state = ruleset.new_game(seed, seats, ruleset.parse_options(OPTIONS[ruleset_id]))
    rng = random.Random(seed)
    best: dict[str, Any] | None = None
    for _step in range(3000):
        if ruleset.is_over(state):
            break
        seat = ruleset.awaited(state)[0]
        view = ruleset.player_view(state, seat)
        if (view.get("prompt") or {}).get("action") == "play" and (best is None or _laid(view) > _laid(best)):
            best = view
        legal = ruleset.legal_commands(state, seat)
        preferred = [c for c in legal if ruleset.command_to_json(c)["type"] in PREFERRED[:2]]
        state, _ = ruleset.apply(state, seat, rng.choice(preferred or list(legal)))
    assert best is not None
    view = json.loads(json.dumps(best))
    view["seats"] = seats
    view.setdefault("seat", seat)
    view.setdefault("timer", None)
    if not fill:
        return view
    table = view["table"]
    owners = {g["owner"] for g in table}
    richest = max(owners, key=lambda s: sum(len(g["cards"]) for g in table if g["owner"] == s))
    model = [g for g in table if g["owner"] == richest]
    next_id = 20_000
    for player in view["players"]:
        if player["seat"] in owners:
            continue
        for group in model:
            copy = json.loads(json.dumps(group))
            copy["owner"] = player["seat"]
            for card in copy["cards"]:
                card["id"] = next_id
                next_id += 1
            table.append(copy)
        player["laid"] = True
    view["seats"] = seats
    view.setdefault("seat", seat)
    view.setdefault("timer", None)
    return view


@cache
def hit_possible(ruleset_id: str, seats: int, seed: int) -> dict[str, Any]:
    """The first play-stage view of a game from ``seed`` (the policy of :func:`moments`) in which the seat on
    turn may hit a group of another seat."""
    ruleset = registry.get(ruleset_id)
    state = ruleset.new_game(seed, seats, ruleset.parse_options(OPTIONS[ruleset_id]))
    rng = random.Random(seed)
    for _step in range(3000):
        if ruleset.is_over(state):
            break
        seat = ruleset.awaited(state)[0]
        view = ruleset.player_view(state, seat)
        prompt = view.get("prompt") or {}
        table = view.get("table") or []
        if prompt.get("action") == "play" and any(table[h["group"]]["owner"] != seat for h in prompt.get("hits") or []):
            view.update(seats=seats, seat=seat, timer=None)
            return view
        legal = ruleset.legal_commands(state, seat)
        preferred = [c for c in legal if ruleset.command_to_json(c)["type"] == "lay_phase"]
        state, _ = ruleset.apply(state, seat, rng.choice(preferred or list(legal)))
    raise AssertionError("no hit onto another seat's group in this game")
