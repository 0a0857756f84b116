"""The replay page of a game that is still running, in headless Chromium (C-9, C-10): it shows the public
steps only -- at each step the spectator's view, no hand -- with a line saying hands stay hidden until the end.

Anna and Ben make a few moves through their table pages; then a spectator (a browser without a seat) and Anna
herself open the replay of game 1 and step through it. Every step is checked against the engine: the server's
stored commands (read from its database file) are replayed locally, the page's data must be exactly the
spectator's view, and no card the page draws may be one that is hidden from a spectator at that step.
"""

from __future__ import annotations

import importlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.rules import registry

from . import helpers as h
from .conftest import shot

SEED = 306
MOVES = 8


def stored_game(db: Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    with sqlite3.connect(db) as conn:
        game_id, seed, players, options = conn.execute(
            "SELECT id, seed, players, options FROM game WHERE number = 1").fetchone()
        rows = conn.execute("SELECT seat, command FROM game_command WHERE game_id = ? ORDER BY seq",
                            (game_id,)).fetchall()
    return ({"seed": seed, "players": players, "options": json.loads(options)},
            [(seat, json.loads(command)) for seat, command in rows])


def page_card_ids(page: Any) -> set[int]:
    ids: list[str] = page.evaluate(
        "[...document.querySelectorAll('#replay [data-card-id]')].map(e => e.dataset.cardId)")
    return {int(i) for i in ids}


def step_through(page: Any, states: list[Any], ruleset: Any, module: Any) -> None:
    """C-9: every step of the public replay holds the spectator's view only and draws no hidden card."""
    page.wait_for_selector("#rp-players article")
    assert page.locator("#replay-public").is_visible()
    assert "hidden until the game ends" in (page.locator("#replay-public").text_content() or "")
    assert page.locator("#rp-log [data-step]").count() == len(states)
    for k, state in enumerate(states):
        if k:
            page.click("#rp-forward")
        page.wait_for_function("k => P10.replay.step === k", arg=k)
        data = page.evaluate("k => P10.replay.cache.get(k)", k)
        assert data["public"] is True and "state" not in data
        assert data["view"] == json.loads(json.dumps(ruleset.player_view(state, None)))
        assert page.locator(".rp-hand").count() == 0, "a hand is shown"
        assert page.locator(".rp-hand-hidden").count() == len(data["view"]["players"])
        hidden = module.hidden_from(state, None)
        assert hidden and not page_card_ids(page) & hidden, f"step {k} shows hidden cards"
    page.click("#rp-first")
    page.wait_for_function("() => P10.replay.step === 0")
    page.click("#rp-last")
    page.wait_for_function("() => P10.replay.step === P10.replay.record.version")
    assert not page.p10_errors, page.p10_errors


@pytest.mark.e2e
@pytest.mark.parametrize("ruleset_id", ["mattel", "board"])
def test_C9_replay_page_of_a_running_game_shows_no_hand(start_server: Any, new_page: Any, tmp_path: Path,
                                                        ruleset_id: str) -> None:
    """C-9, C-10 (M-1, B-1): the replay of a running game, stepped through by a spectator and by a seated
    player, shows the spectator's view at every step and no hand; the page says hands are hidden."""
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, ruleset_id, {}, spectators=True)
    stats: dict[str, int] = {}
    for _ in range(MOVES):
        latest = max(h.version(p) for p in (anna, ben))
        for p in (anna, ben):
            h.wait_version(p, latest)
        page = h.awaited_page([anna, ben])
        assert page is not None, "nobody is awaited"
        h.act(page, stats)
    assert not h.view(anna)["over"]
    table_id = anna.url.rstrip("/").split("/")[-1]

    game, commands = stored_game(tmp_path / "server0" / "e2e.db")
    assert len(commands) == MOVES
    ruleset = registry.get(ruleset_id)
    module = importlib.import_module(f"app.rules.{ruleset_id}.game")
    state = ruleset.new_game(game["seed"], game["players"], ruleset.parse_options(game["options"]))
    states = [state]
    for seat, command in commands:
        state, _ = ruleset.apply(state, seat, ruleset.parse_command(command))
        states.append(state)

    replay_url = f"{server.url}/tables/{table_id}/games/1/replay"
    spectator = new_page()
    spectator.goto(replay_url)
    step_through(spectator, states, ruleset, module)
    shot(spectator, f"replay-running-{ruleset_id}")

    # Anna's own seat gets the public replay too: not even her own hand while the game runs.
    own = {c["id"] for c in h.view(anna)["hand"]}
    mine = new_page()
    mine.context.add_cookies(anna.context.cookies())
    mine.goto(replay_url)
    step_through(mine, states, ruleset, module)
    assert own and not page_card_ids(mine) & own
    assert mine.evaluate("P10.replay.record.public") is True
    assert "seed" not in mine.evaluate("Object.keys(P10.replay.record)")
