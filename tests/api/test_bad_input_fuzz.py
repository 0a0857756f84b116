"""Every bad input is refused cleanly (docs/architecture.md, Errors; C-11 validation): real legal commands of every
rule set are mutated at random -- wrong types, missing and extra fields, other players' and unknown card ids,
the wrong seat, stale versions, arbitrary JSON -- and sent through ``POST /api/tables/{id}/commands`` while a
game is played on. Each one either is legal and applied, or gets a 4xx ``{"error": {"code", "message"}}`` with
a stable code and changes nothing: the same version and the same game state, field for field.

The game seed and the mutation seed are fixed, so a failure replays exactly."""

from __future__ import annotations

import json
import random
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server_helpers import bearer, new_table, server_game

CODE = re.compile(r"^[a-z][a-z0-9_]*$")
JSON_TYPE = {"Content-Type": "application/json"}
PLAYERS = 3
ATTEMPTS = 400


@pytest.fixture()
def seeded_client(settings: Any) -> Iterator[TestClient]:
    from app.main import create_app

    with TestClient(create_app(settings.model_copy(update={"fixed_seed": 20261126}))) as client:
        yield client


def any_json(rnd: random.Random, depth: int = 0) -> Any:
    roll = rnd.randrange(9 if depth < 2 else 6)
    if roll == 0:
        return None
    if roll == 1:
        return rnd.choice([True, False])
    if roll == 2:
        return rnd.randint(-3, 200)
    if roll == 3:
        return rnd.choice(["", "draw", "discard", "x" * 5, "ß", "1", "-1", "NaN"])
    if roll == 4:
        return rnd.choice([0.5, -0.0, 1e308, float("inf")])
    if roll == 5:
        return 10**30
    if roll == 6:
        return [any_json(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    if roll == 7:
        return [[rnd.randint(-2, 140) for _ in range(rnd.randrange(4))] for _ in range(rnd.randrange(3))]
    return {rnd.choice(["a", "type", "card", "cards", "pile", ""]): any_json(rnd, depth + 1)
            for _ in range(rnd.randrange(3))}


def mutate(rnd: random.Random, command: dict[str, Any], types: list[str], hand: list[int]) -> Any:
    command = dict(command)
    fields = [k for k in command if k != "type"]
    how = rnd.choice(["value", "cards", "own_cards", "own_cards", "drop", "extra", "type", "whole", "as_is"])
    if how == "own_cards":  # the sender's own cards in wrong combinations: the engine's rule checks answer
        how, pool = "cards", hand
    else:
        pool = list(range(-2, 141))
    if how == "value" and fields:
        command[rnd.choice(fields)] = any_json(rnd)
    elif how == "cards" and fields:
        field = rnd.choice(fields)
        ids = [rnd.choice(pool or [0]) for _ in range(rnd.randrange(9))]
        old = command[field]
        if isinstance(old, list) and old and isinstance(old[0], list):
            cut = rnd.randrange(len(ids) + 1)
            command[field] = [ids[:cut], ids[cut:]]
        elif isinstance(old, list):
            command[field] = ids
        else:
            command[field] = ids[0] if ids else rnd.randint(-2, 140)
    elif how == "drop" and command:
        del command[rnd.choice(sorted(command))]
    elif how == "extra":
        command[rnd.choice(["zzz", "seat", "card", "type2"])] = any_json(rnd)
    elif how == "type":
        command["type"] = rnd.choice([*types, any_json(rnd)])
    elif how == "whole":
        return any_json(rnd)
    return command


@pytest.mark.parametrize("ruleset_id", ["mattel", "master", "board"])
def test_bad_commands_get_a_stable_code_and_change_nothing(seeded_client: TestClient, ruleset_id: str) -> None:
    client = seeded_client
    t = new_table(client, players=PLAYERS, ruleset=ruleset_id, start=True)
    url = f"/api/tables/{t.id}/commands"
    rnd = random.Random(ruleset_id)
    refused: set[str] = set()
    for attempt in range(ATTEMPTS):
        ruleset, state, game = server_game(client, t.id)
        if ruleset.is_over(state):
            break
        if rnd.randrange(3) == 0:  # play on now and then, to meet every stage of a turn and a round
            seat = rnd.choice(ruleset.awaited(state))
            legal = ruleset.command_to_json(rnd.choice(ruleset.legal_commands(state, seat)))
            r = client.post(url, json={"command_id": str(uuid.uuid4()), "command": legal},
                            headers=bearer(t.tokens[seat]))
            assert r.status_code == 200, r.text
            continue
        pool = [ruleset.command_to_json(c) for s in range(PLAYERS) for c in ruleset.legal_commands(state, s)]
        types = sorted({c["type"] for c in pool})
        # mostly the awaited seat with the right version, so the engine's own rule checks get to answer
        seat = rnd.choice(ruleset.awaited(state)) if rnd.random() < 0.75 else rnd.randrange(PLAYERS)
        hand = [c["id"] for c in ruleset.player_view(state, seat)["hand"]]
        command = mutate(rnd, rnd.choice(pool), types, hand)
        body: dict[str, Any] = {"command_id": str(uuid.uuid4()), "command": command}
        expected = rnd.choice([None, None, None, game.version, game.version, game.version - 1, game.version + 1,
                               -1, "1"])
        if expected is not None:
            body["expected_version"] = expected
        before = ruleset.state_to_json(state)
        # sent as written, so that Infinity and huge numbers reach the server too
        r = client.post(url, content=json.dumps(body), headers=bearer(t.tokens[seat]) | JSON_TYPE)
        context = (attempt, seat, body, r.status_code, r.text)
        assert r.status_code in (200, 401, 403, 404, 409, 422), context
        if r.status_code == 200:
            continue  # the mutation happened to leave a legal move
        error = r.json()["error"]
        assert CODE.match(error["code"]) and error["message"] and not error["message"][0].islower(), context
        refused.add(error["code"])
        ruleset, after, again = server_game(client, t.id)
        assert again.version == game.version, context
        assert ruleset.state_to_json(after) == before, context
    # the fuzzing reached the engine's own checks, not only the request validation
    assert {"invalid_command", "not_your_turn", "stale_version"} <= refused, refused
    assert len(refused) >= 5, refused
