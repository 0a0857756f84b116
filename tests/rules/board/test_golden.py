"""Golden playthroughs of the board game (B-4..B-10): seeded games written as text, compared line by line.

Regenerate after an intended rules change with ``UPDATE_GOLDEN=1 pytest tests/rules/board/test_golden.py``
and review the diff. Together the games land on every field type of the ring (B-2, B-5).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from app.rules.board import RULESET
from app.rules.board.state import ActionChosen, BoardState, PawnMoved
from app.rules.core.commands import Hit, LayPhase

GOLDEN = Path(__file__).parent / "golden"
GAMES = [  # (name, seed, players, options)
    ("two_players_two_phases", 1, 2, {"phases_to_win": 2}),
    ("four_players_one_phase", 3, 4, {"phases_to_win": 1}),
    ("six_players_one_phase", 5, 6, {"phases_to_win": 1, "first_player": 2}),
]
FIELD_TYPES = {"choice", "+1", "+2", "+3", "search", "ask", "joker", "swap", "all", "again"}


def _policy(legal: tuple[Any, ...], rnd: random.Random) -> Any:
    """A fixed greedy-random policy (kept here so that the goldens do not depend on other test helpers)."""
    lays = [c for c in legal if isinstance(c, LayPhase)]
    if lays:
        return lays[0]
    hits = [c for c in legal if isinstance(c, Hit)]
    if hits and rnd.random() < 0.8:
        return hits[0]
    return rnd.choice(legal)


def _compact(data: Any) -> Any:
    """Cards as short labels (``red 7#12``, ``J(green 9)#57``) so that a line stays readable."""
    if isinstance(data, dict):
        if data.get("type") == "card":
            face = f"{data['colour']} {data['number']}#{data['id']}"
            return face if data["kind"] == "number" else f"J({face})"
        return {k: _compact(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_compact(v) for v in data]
    return data


def _dump(data: Any) -> str:
    return json.dumps(_compact(data), sort_keys=True, separators=(",", ":"))


def _digest(state: BoardState) -> str:
    return (f"  = stage={state.stage.value} turn={state.turn} round={state.round} pawns={list(state.pawns)} "
            f"markers={[p.phase for p in state.players]} hands={[len(p.hand) for p in state.players]} "
            f"draw={len(state.piles.draw)} discard={len(state.piles.discard)} turned={sorted(state.turned)}")


def play(seed: int, players: int, raw: dict[str, Any]) -> tuple[list[str], set[str]]:
    options = RULESET.parse_options(raw)
    rnd = random.Random(seed)
    state = RULESET.new_game(seed, players, options)
    lines = [f"# board golden: seed={seed} players={players} options={_dump(RULESET.options_to_json(options))}",
             _digest(state)]
    fields: set[str] = set()
    step = 0
    while not RULESET.is_over(state):
        seat = rnd.choice(RULESET.awaited(state))
        command = _policy(RULESET.legal_commands(state, seat), rnd)
        state, events = RULESET.apply(state, seat, command)
        step += 1
        lines.append(f"{step:04d} seat {seat}: {_dump(RULESET.command_to_json(command))}")
        for event in events:
            lines.append(f"  > {_dump(RULESET.event_to_json(event))}")
            if isinstance(event, PawnMoved | ActionChosen):
                fields.add(event.kind)
        lines.append(_digest(state))
    lines.append(f"# winners {list(state.winners)} after {step} commands")
    return lines, fields


@pytest.mark.parametrize("name, seed, players, raw", GAMES, ids=[g[0] for g in GAMES])
def test_B5_golden_playthrough(name: str, seed: int, players: int, raw: dict[str, Any]) -> None:
    """B-4..B-10: the whole game, command by command, matches its golden file."""
    lines, _ = play(seed, players, raw)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text("\n".join(lines) + "\n")
    expected = path.read_text().splitlines()
    for number, (got, want) in enumerate(zip(lines, expected, strict=False), 1):
        assert got == want, f"{path.name}:{number} differs\n got: {got}\nwant: {want}"
    assert len(lines) == len(expected), f"{path.name}: {len(lines)} lines, golden has {len(expected)}"


def test_B2_goldens_land_on_every_field_type() -> None:
    """B-2, B-5: the golden games together exercise every field type of the ring."""
    seen: set[str] = set()
    for _, seed, players, raw in GAMES:
        seen |= play(seed, players, raw)[1]
    assert seen == FIELD_TYPES
