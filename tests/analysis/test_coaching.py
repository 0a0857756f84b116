"""The coaching marks of the analysis (discarded hits, missed go-outs, missed pickups) on games the project's bots
play with fixed seeds, for every rule set: every mark's better move is accepted by the engine from the replayed
position and does what the mark says, and the marks are measured against a brute-force search that knows
nothing of the analysis' shortcuts (every order of hits, positions told apart by the whole state; the lay-down
solver asked about the hand with the discard pile's top card added). Precision must be 100 %; the recall of
each kind is printed (``-s``) and bounded below.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest

from app.analysis import Kind, Mark, analyse
from app.analysis.coach import ENDERS, went_out
from app.bots.driver import bot_command
from app.rules import registry
from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile
from app.rules.core.events import PhaseLaid
from app.rules.registry import AnyRuleset

GAMES = 20
LEVELS = {2: ("easy", "normal"), 3: ("easy", "easy", "normal")}
SLIP = 0.3
"""How often a bot about to hit or to lay its phase down ends its turn with a random legal command instead (a
human's slip), so that the games hold the mistakes measured; seeded like the bots."""
COACHING = (Kind.DISCARDED_HIT, Kind.MISSED_GO_OUT, Kind.MISSED_PICKUP)


@dataclass
class Game:
    ruleset: AnyRuleset
    seed: int
    players: int
    options: Any
    commands: list[tuple[int, Any]]
    states: list[Any]
    events: list[tuple[Any, ...]]
    turns: list[int]  # the turn number each command was made in


def bot_game(rid: str, seed: int) -> Game:
    ruleset = registry.get(rid)
    players = 2 + seed % 2
    options = ruleset.parse_options({"phases_to_win": 2})
    state = ruleset.new_game(seed, players, options)
    rngs = [random.Random(seed * 31 + s) for s in range(players)]
    game = Game(ruleset, seed, players, options, [], [state], [], [])
    turn = 0
    while not ruleset.is_over(state):
        seat = ruleset.awaited(state)[0]
        command = bot_command(LEVELS[players][seat], ruleset, state, seat, rngs[seat])
        if isinstance(command, Hit | LayPhase) and rngs[seat].random() < SLIP:
            enders = [c for c in ruleset.legal_commands(state, seat) if isinstance(c, ENDERS)]
            command = rngs[seat].choice(enders) if enders else command
        game.turns.append(turn)
        state, events = ruleset.apply(state, seat, command)
        turn += sum(ruleset.turn_started(e) is not None for e in events)
        game.commands.append((seat, command))
        game.states.append(state)
        game.events.append(events)
        assert len(game.commands) < 20_000
    return game


@cache
def studied(rid: str, seed: int) -> tuple[Game, tuple[Mark, ...]]:
    game = bot_game(rid, seed)
    marks = analyse(game.ruleset, game.seed, game.players, game.options, game.commands).marks
    return game, tuple(m for m in marks if m.kind in COACHING)


# -- the brute force --------------------------------------------------------------------------------------


def _hit_positions(ruleset: AnyRuleset, state: Any, seat: int) -> list[tuple[Any, tuple[Any, ...]]]:
    """Every position reachable from ``state`` by legal hits of ``seat`` in any order (told apart by the whole
    state), with the events of the hit that reached it."""
    seen = {state}
    out: list[tuple[Any, tuple[Any, ...]]] = [(state, ())]
    frontier = [state]
    while frontier:
        position = frontier.pop()
        for command in ruleset.legal_commands(position, seat):
            if isinstance(command, Hit):
                after, events = ruleset.apply(position, seat, command)
                if after not in seen:
                    seen.add(after)
                    out.append((after, events))
                    if seat in ruleset.awaited(after):
                        frontier.append(after)
    return out


def _hittable(ruleset: AnyRuleset, state: Any, seat: int, card: int) -> bool:
    return any(isinstance(c, Hit) and c.card == card
               for position, _ in _hit_positions(ruleset, state, seat) if seat in ruleset.awaited(position)
               for c in ruleset.legal_commands(position, seat))


def _can_go_out(ruleset: AnyRuleset, state: Any, seat: int) -> bool:
    for position, events in _hit_positions(ruleset, state, seat):
        if went_out(ruleset, events, seat):
            return True
        if seat not in ruleset.awaited(position):
            continue
        for first in ruleset.legal_commands(position, seat):
            if not isinstance(first, ENDERS):
                continue
            after, events = ruleset.apply(position, seat, first)
            if went_out(ruleset, events, seat):
                return True
            if seat in ruleset.awaited(after):
                for second in ruleset.legal_commands(after, seat):
                    if isinstance(second, ENDERS) and went_out(ruleset, ruleset.apply(after, seat, second)[1], seat):
                        return True
    return False


def _can_lay_and_go_out(ruleset: AnyRuleset, state: Any, seat: int) -> bool:
    """Whether some legal lay-down (C-3), then any order of hits and ending commands, empties the hand."""
    for lay in ruleset.legal_commands(state, seat):
        if isinstance(lay, LayPhase):
            after, events = ruleset.apply(state, seat, lay)
            if went_out(ruleset, events, seat) or (seat in ruleset.awaited(after)
                                                   and _can_go_out(ruleset, after, seat)):
                return True
    return False


def _complete(ruleset: AnyRuleset, state: Any, seat: int, hand: Sequence[Any]) -> bool:
    """The solver's answer for ``seat`` holding ``hand`` at ``state`` (C-3)."""
    players = list(ruleset.players(state))
    players[seat] = replace(players[seat], hand=tuple(hand))
    stage = type(state.stage)("play")
    return ruleset.hint(replace(state, players=tuple(players), stage=stage, turn=seat), seat) is not None


def brute_force(game: Game) -> set[tuple[int, Kind]]:
    """``(step, kind)`` of every coaching mistake: a discarded card that some order of hits could have placed;
    the first turn end of a turn from which hits and discards (after a lay-down, where the phase was not
    down) could have emptied the hand, in a turn the seat did not go out; the first blind draw of a turn while
    the hand with the discard pile's top card (and not without it) completed the phase, and the hand the seat
    then played on did not."""
    ruleset = game.ruleset
    out: set[tuple[int, Kind]] = set()
    go_out_turns: set[int] = set()
    pickup_turns: set[int] = set()
    for step, (seat, command) in enumerate(game.commands):
        state = game.states[step]
        player = ruleset.players(state)[seat]
        if isinstance(command, Draw) and command.pile is Pile.DRAW and not player.laid \
                and Draw(Pile.DISCARD) in ruleset.legal_commands(state, seat):
            top = state.piles.discard[-1]
            nxt = step + 1  # the position the seat plays on after its draws and choices
            while nxt < len(game.commands) and game.commands[nxt][0] == seat \
                    and (isinstance(game.commands[nxt][1], Draw) or hasattr(game.commands[nxt][1], "keep")):
                nxt += 1
            later = game.states[nxt]
            if _complete(ruleset, state, seat, (*player.hand, top)) \
                    and not _complete(ruleset, state, seat, player.hand) \
                    and not _complete(ruleset, later, seat, ruleset.players(later)[seat].hand) \
                    and game.turns[step] not in pickup_turns:
                pickup_turns.add(game.turns[step])
                out.add((step, Kind.MISSED_PICKUP))
            continue
        if not isinstance(command, ENDERS):
            continue
        turn = game.turns[step]
        this_turn = [i for i in range(step, len(game.commands)) if game.turns[i] == turn]
        if any(went_out(ruleset, game.events[i], seat) for i in this_turn):
            continue
        if not player.laid:
            if turn not in go_out_turns and _can_lay_and_go_out(ruleset, state, seat):
                go_out_turns.add(turn)
                out.add((step, Kind.MISSED_GO_OUT))
            continue
        if turn not in go_out_turns and _can_go_out(ruleset, state, seat):
            go_out_turns.add(turn)
            out.add((step, Kind.MISSED_GO_OUT))
        elif isinstance(command, Discard) and _hittable(ruleset, state, seat, command.card):
            out.add((step, Kind.DISCARDED_HIT))
    return out


# -- the tests --------------------------------------------------------------------------------------------


def _check_move(game: Game, mark: Mark) -> None:
    """The mark's better move, replayed with the engine from the mark's position, is accepted command by
    command and does what the mark says."""
    ruleset = game.ruleset
    seat, played = game.commands[mark.step]
    assert seat == mark.seat
    position = game.states[mark.step]
    events: list[Any] = []
    for command in mark.commands:
        assert command in ruleset.legal_commands(position, seat), (mark, command)
        position, evs = ruleset.apply(position, seat, command)
        events.extend(evs)
    assert mark.detail is not None and mark.detail["card"]["id"] == mark.card
    assert [ruleset.parse_command(c) for c in mark.detail["commands"]] == list(mark.commands)
    if mark.kind is Kind.DISCARDED_HIT:
        assert played == Discard(mark.card)
        assert Hit in {type(c) for c in mark.commands} and mark.card in {c.card for c in mark.commands
                                                                        if isinstance(c, Hit)}
    elif mark.kind is Kind.MISSED_GO_OUT:
        assert went_out(ruleset, events, seat)
        assert not went_out(ruleset, game.events[mark.step], seat)
    else:
        assert played == Draw(Pile.DRAW) and mark.commands[0] == Draw(Pile.DISCARD)
        laid = [e for e in events if isinstance(e, PhaseLaid)]
        assert laid and mark.card in {c.id for g in laid[0].groups for c in g.cards}
    if ruleset.id == "board":
        assert mark.points is None
    else:
        assert isinstance(mark.points, int) and mark.points >= 0


@pytest.mark.parametrize("rid", registry.ruleset_ids())
def test_every_coaching_mark_is_an_accepted_better_move(rid: str) -> None:
    checked = 0
    for seed in range(1, GAMES + 1):
        game, marks = studied(rid, seed)
        for mark in marks:
            _check_move(game, mark)
            checked += 1
    assert checked > 0


def _laid(rid: str, found: tuple[int, int, Kind]) -> bool:
    seed, step, _ = found
    game = studied(rid, seed)[0]
    return bool(game.ruleset.players(game.states[step])[game.commands[step][0]].laid)


RECALL_FLOOR = {Kind.DISCARDED_HIT: 1.0, Kind.MISSED_GO_OUT: 1.0, Kind.MISSED_PICKUP: 1.0}  # measured: all found


@pytest.mark.parametrize("rid", registry.ruleset_ids())
def test_coaching_precision_and_recall_against_brute_force(rid: str) -> None:
    found_all: set[tuple[int, int, Kind]] = set()
    expected_all: set[tuple[int, int, Kind]] = set()
    for seed in range(1, GAMES + 1):
        game, marks = studied(rid, seed)
        found_all |= {(seed, m.step, m.kind) for m in marks}
        expected_all |= {(seed, step, kind) for step, kind in brute_force(game)}
    wrong = found_all - expected_all
    assert not wrong, f"marks the brute force does not confirm: {sorted(wrong)[:5]}"
    lines = []
    for kind in COACHING:
        expected = {e for e in expected_all if e[2] is kind}
        found = {f for f in found_all if f[2] is kind}
        recall = len(found & expected) / len(expected) if expected else 1.0
        lines.append(f"{kind.value}: {len(found & expected)}/{len(expected)} recall {recall:.0%}")
        assert recall >= RECALL_FLOOR[kind], lines[-1]
        if kind is Kind.MISSED_GO_OUT:  # those that needed the phase laid first, in the same turn
            unlaid = {e for e in expected if not _laid(rid, e)}
            lines[-1] += f" (after a lay-down: {len(found & unlaid)}/{len(unlaid)})"
    print(f"\n{rid} over {GAMES} bot games: precision 100 % ({len(found_all)} marks); " + "; ".join(lines))


@pytest.mark.parametrize("rid", ["mattel", "master"])
def test_a_go_out_through_a_missed_lay_down_is_marked(rid: str) -> None:
    """C-3, C-4: a seat that could have laid its phase, hit and ended the round in one turn has a missed
    go-out whose move begins with the lay-down (the bot games above hold some in these rule sets), and the
    turn's missed lay-down mark as well."""
    found = 0
    for seed in range(1, GAMES + 1):
        game, marks = studied(rid, seed)
        for mark in marks:
            if mark.kind is Kind.MISSED_GO_OUT and not _laid(rid, (seed, mark.step, mark.kind)):
                found += 1
                assert isinstance(mark.commands[0], LayPhase), mark
                assert [p["do"] for p in mark.detail["move"]][0] == "lay"  # type: ignore[index]
                every = analyse(game.ruleset, game.seed, game.players, game.options, game.commands).marks
                assert any(m.kind is Kind.MISSED_LAYDOWN and m.step == mark.step for m in every)
                _check_move(game, mark)
    assert found > 0
