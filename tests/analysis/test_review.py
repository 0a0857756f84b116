"""The analysis of finished games (``app.analysis``) for every rule set.

Crafted games (``tests/analysis/scripted.py``): seeded games played by a careful policy that makes exactly the
mistakes a script asks for; the analysis must report exactly those marks, at the steps, seats, rounds and points
the script expects, and the turning points the round-end events give. A Hypothesis property checks for random
games of all three rule sets that every reported miss was legal at its step: the missed lay-down's ``LayPhase``
is among the seat's legal commands there (C-3), the missed hit's whole sequence of hits is legal one after
another (C-4), the fed card was discarded by the seat and used by the next player.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.analysis import Kind, Mark, analyse
from app.analysis.hits import best_hits
from app.rules import registry
from app.rules.core.cards import Card, CardKind, Colour
from app.rules.core.commands import Hit, LayPhase
from app.rules.core.events import CardDiscarded, CardHit, PhaseLaid
from app.rules.core.groups import End, GroupKind, LaidGroup
from app.rules.mattel.state import Stage
from tests.analysis.scripted import Scripted, play, turning_points
from tests.rules.playout import choose


def key(mark: Mark) -> tuple[Any, ...]:
    return mark.step, mark.seat, mark.kind.value, mark.round, mark.points, mark.card


COACHING = (Kind.DISCARDED_HIT, Kind.MISSED_GO_OUT, Kind.MISSED_PICKUP)  # tests/analysis/test_coaching.py


def found(game: Scripted) -> list[Mark]:
    marks = analyse(game.ruleset, game.seed, game.players, game.options, game.commands).marks
    return [m for m in marks if m.kind not in COACHING]


# -- crafted games ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rid", "options", "seed"), [
    ("mattel", {"phases_to_win": 1}, 4),  # a missed hit that cost 25 points, a fed card
    ("mattel", {"phases_to_win": 1}, 5),  # three fed cards
    ("mattel", {"phases_to_win": 1}, 6),
    ("master", {"phases_to_win": 2}, 3),  # two rounds; a missed hit that cost a minus point
    ("board", {"phases_to_win": 2}, 4),
])
def test_crafted_games_are_marked_with_exactly_their_mistakes(rid: str, options: dict[str, Any],
                                                                          seed: int) -> None:
    """M-4, R-6, B-5: seat 0 once declines a legal lay-down; seat 1 keeps one card it could hit onto a set or
    colour group for the whole round (M-7, R-12: it counts at the round's end; B-8: no points); the careful
    policy feeds the next player only where it takes the discard and uses it. The marks are exactly these."""
    game = play(registry.get(rid), seed, 2, options, decline=frozenset({0}), keep=frozenset({1}))
    expected = sorted(game.expected, key=Mark.sort_key)
    assert {m.kind for m in expected} >= {Kind.MISSED_LAYDOWN, Kind.MISSED_HIT}
    marks = found(game)
    assert [key(m) for m in marks if m.kind is not Kind.TURNING_POINT] == [key(m) for m in expected]
    missed_hits = [m for m in marks if m.kind is Kind.MISSED_HIT]
    if rid == "board":
        assert all(m.points is None for m in missed_hits)
    else:
        assert all(isinstance(m.points, int) for m in missed_hits)


def test_a_missed_hit_counts_the_points_its_card_scored() -> None:
    game = play(registry.get("mattel"), 4, 2, {"phases_to_win": 1}, decline=frozenset({0}), keep=frozenset({1}))
    (mark,) = [m for m in found(game) if m.kind is Kind.MISSED_HIT]
    ended = next(e for e in game.events[-1] if type(e).__name__ == "RoundEnded")
    assert mark.card in {c.id for c in ended.hands[1]} and mark.points == 25 and ended.points[1] >= 25


@pytest.mark.parametrize(("rid", "seed"), [("mattel", 4), ("master", 1)])
def test_turning_points_are_the_rounds_the_lead_changed_hands(rid: str, seed: int) -> None:
    """A careful game of three seats makes no miss; its turning points are those of its round-end events."""
    game = play(registry.get(rid), seed, 3, {"phases_to_win": 3})
    marks = found(game)
    expected = turning_points(game)
    assert len(expected) == 2
    assert [key(m) for m in marks if m.kind is Kind.TURNING_POINT] == [key(m) for m in expected]
    assert not [m for m in marks if m.kind in (Kind.MISSED_LAYDOWN, Kind.MISSED_HIT)]


def test_json_has_the_contract_shape_and_the_marks_counted() -> None:
    game = play(registry.get("mattel"), 4, 2, {"phases_to_win": 1}, decline=frozenset({0}), keep=frozenset({1}))
    analysis = analyse(game.ruleset, game.seed, game.players, game.options, game.commands)
    data = analysis.to_json()
    assert set(data) == {"version", "ruleset", "points", "marks", "players"} and data["ruleset"] == "mattel"
    assert all(set(m) == {"step", "seat", "kind", "round", "points"} for m in data["marks"]
               if m["kind"] not in COACHING)
    assert all(set(m) == {"step", "seat", "kind", "round", "points", "card", "move", "commands"}
               for m in data["marks"] if m["kind"] in COACHING)
    assert [m["step"] for m in data["marks"]] == sorted(m["step"] for m in data["marks"])
    none = {"discarded_hits": 0, "missed_go_outs": 0, "missed_pickups": 0, "coaching_points": 0}
    assert data["players"] == [
        {"seat": 0, "missed_laydowns": 1, "missed_hits": 0, "missed_hit_points": 0, "fed_next": 1, **none},
        {"seat": 1, "missed_laydowns": 0, "missed_hits": 1, "missed_hit_points": 25, "fed_next": 0, **none},
    ]


# -- the hit search --------------------------------------------------------------------------------------


def _card(cid: int, number: int | None, colour: Colour = Colour.RED) -> Card:
    if number is None:
        return Card(cid, CardKind.JOKER)
    return Card(cid, CardKind.NUMBER, number=number, colour=colour)


def _position(hand: list[Card], table: list[LaidGroup]) -> Any:
    ruleset = registry.get("mattel")
    state = ruleset.new_game(1, 2, ruleset.parse_options({}))
    players = list(state.players)
    players[state.turn] = replace(players[state.turn], hand=tuple(hand), laid=True)
    return ruleset, replace(state, players=tuple(players), table=tuple(table), stage=Stage.PLAY), state.turn


def test_the_hit_search_follows_chains_and_competition() -> None:
    """A 5 opens the 6 on a run ending at 4 (both count); two 5s compete for that one end (one counts); a wild
    goes anywhere; the card the turn ends with is never used."""
    run = LaidGroup(owner=0, kind=GroupKind.RUN, cards=tuple(_card(200 + n, n) for n in range(1, 5)), start=1)
    five, six, other_five, wild, nine = _card(1, 5), _card(2, 6), _card(3, 5, Colour.BLUE), _card(4, None), \
        _card(5, 9)
    ruleset, state, seat = _position([six, five, nine], [run])
    plan = best_hits(ruleset, state, seat, [1, 2], lambda c: 5)
    assert sorted(plan.cards) == [1, 2] and plan.hits[0] == Hit(1, 0, End.HIGH)
    ruleset, state, seat = _position([five, other_five, nine], [run])
    assert len(best_hits(ruleset, state, seat, [1, 3], lambda c: 5).hits) == 1
    ruleset, state, seat = _position([wild, five, six, nine], [run])
    plan = best_hits(ruleset, state, seat, [1, 2, 4], {1: 5, 2: 5, 4: 25}.__getitem__)
    assert sorted(plan.cards) == [1, 2, 4] and plan.value == 35
    assert best_hits(ruleset, state, seat, [5], lambda c: 5).hits == ()


# -- every reported miss is legal at its step (all rule sets) -------------------------------------------


def _random_game(rid: str, seed: int, players: int, greed: float) -> tuple[Any, Any, list[tuple[int, Any]],
                                                                            list[Any], list[tuple[Any, ...]]]:
    ruleset = registry.get(rid)
    options = ruleset.parse_options({"phases_to_win": 2})
    rnd = random.Random(seed)
    state = ruleset.new_game(seed, players, options)
    states, commands, events = [state], [], []
    while not ruleset.is_over(state):
        seat = rnd.choice(ruleset.awaited(state))
        command = choose(ruleset.legal_commands(state, seat), rnd, greed)
        state, evs = ruleset.apply(state, seat, command)
        commands.append((seat, command))
        states.append(state)
        events.append(evs)
    return ruleset, options, commands, states, events


@pytest.mark.parametrize("rid", registry.ruleset_ids())
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), greed=st.floats(0.3, 0.9))
def test_C3_C4_every_reported_miss_is_legal_at_its_step(rid: str, seed: int, players: int, greed: float) -> None:
    ruleset, options, commands, states, events = _random_game(rid, seed, players, greed)
    analysis = analyse(ruleset, seed, players, options, commands)
    assert [m.sort_key() for m in analysis.marks] == sorted(m.sort_key() for m in analysis.marks)
    for mark in analysis.marks:
        if mark.kind in COACHING:
            continue  # tests/analysis/test_coaching.py
        state = states[mark.step]
        if mark.kind is Kind.TURNING_POINT:
            assert any(ruleset.round_scored(e) is not None for e in events[mark.step - 1])
            continue
        seat, command = commands[mark.step]
        assert seat == mark.seat
        if mark.kind is Kind.MISSED_LAYDOWN:
            (laydown,) = mark.commands
            assert isinstance(laydown, LayPhase) and laydown in ruleset.legal_commands(state, seat)
            assert not isinstance(command, LayPhase | Hit)
        elif mark.kind is Kind.MISSED_HIT:
            assert mark.card in {hit.card for hit in mark.commands}
            position = state
            for hit in mark.commands:  # the whole sequence is legal, one hit after the other
                assert hit in ruleset.legal_commands(position, seat)
                position, _ = ruleset.apply(position, seat, hit)
            assert not isinstance(command, LayPhase | Hit)
            assert mark.card in {c.id for c in ruleset.players(state)[seat].hand}
        else:
            assert Kind.FED_NEXT is mark.kind
            assert CardDiscarded(seat, next(c for c in ruleset.players(state)[seat].hand if c.id == mark.card)) \
                in events[mark.step]
            (used,) = mark.commands
            assert isinstance(used, LayPhase | Hit)
            later = [i for i in range(mark.step + 1, len(commands)) if commands[i][1] == used]
            assert later and commands[later[0]][0] != seat
            assert any(isinstance(e, PhaseLaid | CardHit) for e in events[later[0]])
    cards = analysis.cards()
    assert sum(c.missed_laydowns for c in cards) == len(analysis.of_kind(Kind.MISSED_LAYDOWN))
    assert sum(c.fed_next for c in cards) == len(analysis.of_kind(Kind.FED_NEXT))
