"""REST: the public replay of a running game (C-9, C-10) for every rule set.

Before a game ends, ``/replay`` and ``/replay/{k}`` answer what a spectator may see and nothing more: no seed,
no command fields, no hand, no draw pile, no random state. A seeded game is played through the API, rebuilt
locally by the engine, and every public answer is scanned for each card id that is hidden from a spectator
at that step (each rule set's ``game.hidden_from``) and for the seed and the generator's state."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.persistence.commands import read_commands
from app.persistence.models import Game
from app.rules import registry
from app.services.games import GameService
from tests.cards import card_ids
from tests.server_helpers import Table, bearer, new_table, play, server_game

SEED = 7_319_244_903_517_726_081  # large, so that its digits cannot turn up by chance
STEPS = 40
PLAYERS = 3
# Keys that only a full state has; a public answer must not hold any of them (``hand`` is null for a spectator).
FULL_ONLY = {"seed", "rng", "hands", "draw_pile", "discard_pile", "blue_pile", "take_two_drawn"}


@pytest.fixture()
def seeded(database_url: str) -> Iterator[TestClient]:
    from app.main import create_app
    from app.settings import Settings

    settings = Settings(database_url=database_url, log_level="WARNING", fixed_seed=SEED)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def keys(data: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(data, dict):
        found |= set(data)
        for value in data.values():
            found |= keys(value)
    elif isinstance(data, list):
        for value in data:
            found |= keys(value)
    return found


def hands_shown(data: Any) -> list[Any]:
    """Every non-null ``hand`` anywhere in the answer."""
    if isinstance(data, dict):
        own = [data["hand"]] if data.get("hand") is not None else []
        return own + [h for v in data.values() for h in hands_shown(v)]
    if isinstance(data, list):
        return [h for v in data for h in hands_shown(v)]
    return []


def assert_nothing_secret(text: str, data: Any, secret: set[int], rng_states: set[str]) -> None:
    assert not card_ids(data) & secret, f"hidden cards {sorted(card_ids(data) & secret)} in a public answer"
    assert str(SEED) not in text, "the seed is in a public answer"
    for rng in rng_states:
        assert rng not in text, "the random state is in a public answer"
    assert not keys(data) & FULL_ONLY, keys(data) & FULL_ONLY
    assert hands_shown(data) == []


def local_steps(rid: str, commands: list[tuple[int, dict[str, Any]]]) -> list[tuple[Any, Any, tuple[Any, ...]]]:
    """(state before, state after, events) per step, rebuilt by the engine from the seed and the commands."""
    ruleset = registry.get(rid)
    state = ruleset.new_game(SEED, PLAYERS, ruleset.parse_options({}))
    steps = []
    for seat, command in commands:
        after, events = ruleset.apply(state, seat, ruleset.parse_command(command))
        steps.append((state, after, events))
        state = after
    return steps


def played_game(client: TestClient, rid: str, spectators: bool = True) -> tuple[Table, str]:
    t = new_table(client, players=PLAYERS, ruleset=rid, spectators=spectators, start=True)
    assert play(client, t, STEPS, seed=11) == STEPS
    ruleset, state, game = server_game(client, t.id)
    assert game.seed == SEED and not ruleset.is_over(state) and game.status == "playing"
    return t, f"/api/tables/{t.id}/games/1/replay"


@pytest.mark.parametrize("rid", registry.ruleset_ids())
def test_C9_a_running_games_public_replay_is_a_spectators(seeded: TestClient, rid: str) -> None:
    """C-9, C-10 (M-1, R-1, B-1): the public record and every public step of a running game hold no card that
    is hidden from a spectator at that step, no seed, no random state, no command fields; each step is the
    engine's spectator view and spectator events."""
    ruleset = registry.get(rid)
    module = importlib.import_module(f"app.rules.{rid}.game")
    t, url = played_game(seeded, rid)
    service: GameService = seeded.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        game_id = s.scalar(select(Game.id).where(Game.table_id == t.id))
        rows = read_commands(s, game_id)
        commands = [(c.seat, c.command) for c in rows]
    steps = local_steps(rid, commands)
    rng_states = {str(ruleset.state_to_json(after)["rng"]["state"]) for _, after, _ in steps}
    rng_states.add(str(ruleset.state_to_json(steps[0][0])["rng"]["state"]))

    def secret_of(k: int) -> set[int]:
        """Cards hidden from a spectator both before and after step k, but the ones the acting seat played
        out of its hand (a discard that ends a round is shown before the next deal shuffles it away)."""
        before, after, _ = steps[k - 1]
        seat = commands[k - 1][0]
        played = module.hidden_from(before, None) - module.hidden_from(before, seat)
        return (module.hidden_from(before, None) & module.hidden_from(after, None)) - played

    for token in (None, t.tokens[0], t.tokens[2]):
        headers = bearer(token) if token else {}
        r = seeded.get(url, headers=headers)
        assert r.status_code == 200, r.text
        record = r.json()
        assert record["public"] is True and record["status"] == "playing" and record["winners"] is None
        assert "seed" not in record and record["version"] == STEPS and record["ruleset"] == rid
        assert [c["seq"] for c in record["commands"]] == list(range(1, STEPS + 1))
        assert [c["seat"] for c in record["commands"]] == [seat for seat, _ in commands]
        for k, c in enumerate(record["commands"], start=1):
            assert c["command"] == {"type": commands[k - 1][1]["type"]}, "a command's fields are hidden"
            assert c["events"] == [ruleset.redact_event(e, None) for e in steps[k - 1][2]]
            assert_nothing_secret(json.dumps(c), c, secret_of(k), rng_states)
        assert_nothing_secret(r.text, {k: v for k, v in record.items() if k != "commands"},
                              module.hidden_from(steps[-1][1], None), rng_states)

    hidden_seen = 0
    for k in range(STEPS + 1):
        r = seeded.get(f"{url}/{k}", headers=bearer(t.tokens[1]) if k % 2 else {})
        assert r.status_code == 200, r.text
        data = r.json()
        state = steps[k - 1][1] if k else ruleset.new_game(SEED, PLAYERS, ruleset.parse_options({}))
        assert data["public"] is True and data["step"] == k and data["version"] == STEPS
        assert "state" not in data and data["view"] == ruleset.player_view(state, None)
        hidden = module.hidden_from(state, None)
        hidden_seen += len(hidden)
        assert not card_ids(data["view"]) & hidden
        if k == 0:
            assert data["command"] is None and data["events"] == []
            assert_nothing_secret(r.text, data, hidden, rng_states)
            continue
        assert data["command"] == {"seq": k, "seat": commands[k - 1][0],
                                   "command": {"type": commands[k - 1][1]["type"]}}
        assert data["events"] == [ruleset.redact_event(e, None) for e in steps[k - 1][2]]
        assert_nothing_secret(r.text, data, secret_of(k), rng_states)
    assert hidden_seen > 0  # the scan had something to find
    r = seeded.get(f"{url}/{STEPS + 1}")
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_step"


def test_C9_hidden_cards_would_be_found_by_the_scan(seeded: TestClient) -> None:
    """C-9: the scan used above can fail -- the finished-game form of the same step holds the hidden cards."""
    ruleset = registry.get("mattel")
    module = importlib.import_module("app.rules.mattel.game")
    _, state, _ = server_game(seeded, played_game(seeded, "mattel")[0].id)
    full = ruleset.full_view(state)
    assert card_ids(full) & module.hidden_from(state, None)
    assert keys(full) & FULL_ONLY
    assert hands_shown(ruleset.player_view(state, 0))


def test_C9_public_replay_follows_the_spectator_rule(seeded: TestClient) -> None:
    """C-9: without spectators only the table's seats get the public replay; a token of another table is
    refused; a game that does not exist is 404."""
    t, url = played_game(seeded, "mattel", spectators=False)
    other, _ = played_game(seeded, "mattel", spectators=False)
    for path in (url, f"{url}/3"):
        r = seeded.get(path)
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
        r = seeded.get(path, headers=bearer(other.tokens[0]))
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
        r = seeded.get(path, headers=bearer(t.tokens[1]))
        assert r.status_code == 200 and r.json()["public"] is True
    r = seeded.get(f"/api/tables/{t.id}/games/2/replay", headers=bearer(t.tokens[0]))
    assert r.status_code == 404 and r.json()["error"]["code"] == "game_not_found"


def test_C10_a_finished_game_still_gets_the_full_record(seeded: TestClient) -> None:
    """C-10: once the game has finished the same routes answer the full record (seed, commands with their
    fields, every hand), marked ``public`` false."""
    t = new_table(seeded, players=2, options={"phases_to_win": 1}, start=True)
    url = f"/api/tables/{t.id}/games/1/replay"
    assert seeded.get(f"{url}/0", headers=bearer(t.tokens[0])).json()["public"] is True
    steps = play(seeded, t, 3000, seed=5)
    ruleset, final, _ = server_game(seeded, t.id)
    assert ruleset.is_over(final)
    record = seeded.get(url, headers=bearer(t.tokens[0])).json()
    assert record["public"] is False and record["seed"] == SEED and len(record["commands"]) == steps
    assert all(set(c) == {"seq", "seat", "command", "created_at", "round", "turn", "turn_seat"}
               for c in record["commands"])
    last = seeded.get(f"{url}/{steps}", headers=bearer(t.tokens[0])).json()
    assert last["public"] is False and last["state"] == ruleset.full_view(final) and "view" not in last
