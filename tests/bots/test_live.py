"""Bots in a live server: bot seats, the runner, turn timers, stand-ins, restarts.

Every bot decision goes through the game service (validated, stored, published, replayable); the tests
check it from the outside: REST, the websocket, and the stored command record.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.autoplay.models import TableClock
from app.autoplay.settings import BotSettings
from app.bots import LEVELS
from app.bots.driver import bot_command, first_memory
from app.bots.memory import observe
from app.main import create_app
from app.persistence.commands import StoredCommand, read_commands
from app.persistence.models import Game
from app.services.base import SPECTATOR
from app.services.games import GameService
from tests.server_helpers import bearer, new_table, server_game

FAST = BotSettings(delay_seconds=0.0, relaxed_seconds=60.0, fast_seconds=0.4, stand_in_grace_seconds=0.3,
                   tick_seconds=0.05)


def make_client(settings: Any, bots: BotSettings) -> TestClient:
    return TestClient(create_app(settings, bot_settings=bots))


@pytest.fixture()
def live(settings: Any) -> Iterator[TestClient]:
    with make_client(settings, FAST) as client:
        yield client
        # The database is shared by the whole session: leave no timer or stand-in running for later apps.
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        with service.db.write() as s:
            s.execute(update(TableClock).values(turn_timer="off", stand_in=False))


def wait_for(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def commands(client: TestClient, table_id: str) -> list[StoredCommand]:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        game = s.scalar(select(Game).where(Game.table_id == table_id).order_by(Game.number.desc()))
        assert game is not None
        return read_commands(s, game.id)


def recomputed(client: TestClient, table_id: str) -> list[tuple[StoredCommand, dict[str, list[dict[str, Any]]]]]:
    """Each stored command of the table's game with its events as every seat and a spectator get them, recomputed
    by the engine from the stored commands (C-10), as a resume or ``GET .../events`` does."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        game = s.scalar(select(Game).where(Game.table_id == table_id).order_by(Game.number.desc()))
        assert game is not None
        # A stand-in may play on while this reads: take the rows of exactly the steps recomputed.
        rows = read_commands(s, game.id, 0, game.version)
        steps = service.history.steps(s, service.repo.ruleset(game.ruleset), game, 0, game.version)
        names = [*(str(i) for i in range(game.players)), SPECTATOR]
        return [(row, {name: redacted[name] for name in names}) for row, (_, redacted) in zip(rows, steps, strict=True)]


def add_bot(client: TestClient, table_id: str, token: str, level: str = "normal") -> dict[str, Any]:
    r = client.post(f"/api/tables/{table_id}/bots", json={"level": level}, headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def human_move(client: TestClient, table_id: str, token: str, seat: int, rng: random.Random) -> None:
    """A human's legal move (chosen by the easy logic) through REST."""
    ruleset, state, game = server_game(client, table_id)
    command = ruleset.command_to_json(bot_command("easy", ruleset, state, seat, rng))
    r = client.post(f"/api/tables/{table_id}/commands", headers=bearer(token),
                    json={"command_id": str(uuid.uuid4()), "expected_version": game.version, "command": command})
    assert r.status_code in (200, 409), r.text


def test_host_adds_and_removes_bot_seats_in_the_waiting_room(live: TestClient) -> None:
    t = new_table(live, players=2, seats=4)
    added = add_bot(live, t.id, t.tokens[0], "easy")
    assert added["seat"] == 2
    seats = added["table"]["seats"]
    assert [s["is_bot"] for s in seats] == [False, False, True]
    assert added["table"]["bots"] == [{"seat": 2, "level": "easy"}]
    add_bot(live, t.id, t.tokens[0], "hard")
    info = live.get(f"/api/tables/{t.id}/bots").json()
    assert info["bots"] == [{"seat": 2, "level": "easy"}, {"seat": 3, "level": "hard"}]
    assert info["levels"] == ["easy", "normal", "hard"]
    assert info["stand_in_level"] == "normal"
    # full; not the host; not a bot seat
    r = live.post(f"/api/tables/{t.id}/bots", json={"level": "easy"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"
    r = live.delete(f"/api/tables/{t.id}/bots/2", headers=bearer(t.tokens[1]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = live.delete(f"/api/tables/{t.id}/bots/1", headers=bearer(t.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_a_bot"
    r = live.delete(f"/api/tables/{t.id}/bots/2", headers=bearer(t.tokens[0]))
    assert r.status_code == 200
    info = live.get(f"/api/tables/{t.id}/bots").json()
    assert info["bots"] == [{"seat": 2, "level": "hard"}]
    r = live.post(f"/api/tables/{t.id}/bots", json={"level": "genius"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 422


@pytest.mark.parametrize("ruleset", ["mattel", "master", "board"])
def test_a_bot_seat_plays_its_turns_through_the_websocket_path(settings: Any, ruleset: str) -> None:
    """Host + bot: the human plays over the websocket, the bot answers by itself; the game finishes and
    its record (bot commands included) replays. A fixed deal: with a random one the bot could, rarely, go
    out before the human was ever asked for a decision (a Master Skip makes that possible)."""
    with make_client(settings.model_copy(update={"fixed_seed": 11}), FAST) as live:
        _bot_and_human_play(live, ruleset)


def _bot_and_human_play(live: TestClient, ruleset: str) -> None:
    t = new_table(live, players=1, seats=2, ruleset=ruleset, options={"phases_to_win": 1})
    add_bot(live, t.id, t.tokens[0], "normal")
    assert live.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0])).status_code == 200
    rng = random.Random(4)
    with live.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as ws:
        version = -1
        for _ in range(3000):
            msg = ws.receive_json()
            if msg["type"] not in ("snapshot", "update"):
                continue
            version = msg["version"]
            view = msg["view"]
            if view["over"]:
                break
            if 0 in view["awaited"]:
                ruleset_obj, state, game = server_game(live, t.id)
                if game.version != version:
                    continue  # a newer update is on its way
                command = ruleset_obj.command_to_json(bot_command("easy", ruleset_obj, state, 0, rng))
                ws.send_json({"type": "command", "command_id": str(uuid.uuid4()), "expected_version": version,
                              "command": command})
        else:
            pytest.fail("the game did not finish")
    rows = commands(live, t.id)
    bot_rows = [r for r in rows if r.seat == 1]
    assert bot_rows and all(r.command_id.startswith("bot:") for r in bot_rows)
    assert any(r.seat == 0 for r in rows)
    record = live.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    assert record["status"] == "finished" and len(record["commands"]) == len(rows)
    last = live.get(f"/api/tables/{t.id}/games/1/replay/{len(rows)}", headers=bearer(t.tokens[0]))
    assert last.status_code == 200 and last.json()["state"]["over"]


@pytest.mark.parametrize(("ruleset", "seats"), [("mattel", 3), ("master", 4), ("board", 3)])
def test_only_bots_play_a_whole_game_by_themselves(live: TestClient, ruleset: str, seats: int) -> None:
    """Several bots at once (Master's Give me five awaits every offering seat together, R-11)."""
    t = new_table(live, players=1, seats=seats, ruleset=ruleset, options={"phases_to_win": 2})
    for i in range(seats - 1):
        add_bot(live, t.id, t.tokens[0], ("normal", "easy")[i % 2])
    # The host leaves their seat to a stand-in right away.
    r = live.put(f"/api/tables/{t.id}/clock", json={"stand_in": True}, headers=bearer(t.tokens[0]))
    assert r.status_code == 200 and r.json()["stand_in"] is True
    live.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
    wait_for(lambda: live.get(f"/api/tables/{t.id}").json()["status"] == "finished", timeout=60)
    kinds = {r.command_id.split(":")[0] for r in commands(live, t.id)}
    assert kinds == {"bot", "stand_in"}


def test_turn_timer_makes_the_easy_decision_when_time_runs_out(live: TestClient) -> None:
    t = new_table(live, players=2)
    r = live.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "fast"}, headers=bearer(t.tokens[1]))
    assert r.status_code == 403
    r = live.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "fast"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 200 and r.json()["turn_timer"] == "fast"
    live.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
    view = live.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()
    timer = view["view"]["timer"]
    assert timer["mode"] == "fast" and timer["seconds"] == FAST.fast_seconds
    assert timer["seats"] == view["view"]["awaited"] and 0 <= timer["remaining"] <= FAST.fast_seconds
    assert live.get(f"/api/tables/{t.id}/bots").json()["timer"]["mode"] == "fast"
    with live.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[1]}") as ws:
        snapshot = ws.receive_json()
        assert snapshot["type"] == "snapshot" and snapshot["view"]["timer"]["mode"] == "fast"
        assert snapshot["table"]["turn_timer"] == "fast"
    # Nobody moves: the timer decides, one decision at a time, for whoever is awaited.
    rows = wait_for(lambda: (rows := commands(live, t.id)) and len(rows) >= 2 and rows, timeout=10)
    assert all(r.command_id.startswith("timer:") for r in rows)
    # The log says the timer decided (every redaction, the seat's own, the others' and a spectator's): each event
    # of the seat's own move carries "by", and no other (a turn it made another seat skip, the round's end).
    assert all(r.made_by == "timer" for r in rows)
    for r, redacted in recomputed(live, t.id):
        for events in redacted.values():
            assert [e.get("by") for e in events] == ["timer" if e.get("seat") == r.seat else None for e in events]
    logged = live.get(f"/api/tables/{t.id}/events?since=0", headers=bearer(t.tokens[1])).json()["events"]
    assert logged and logged[0]["type"] == "card_drawn" and logged[0]["by"] == "timer"
    # The timer restarts with every decision: right after one, no second decision is made at once.
    live.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "relaxed"}, headers=bearer(t.tokens[0]))
    before = len(commands(live, t.id))
    time.sleep(FAST.fast_seconds * 2)
    assert len(commands(live, t.id)) <= before + 1


def test_a_stand_in_plays_for_a_disconnected_player_until_back(live: TestClient) -> None:
    t = new_table(live, players=2)
    live.put(f"/api/tables/{t.id}/clock", json={"stand_in": True}, headers=bearer(t.tokens[0]))
    rng = random.Random(1)
    with live.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as host_ws:
        live.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
        # Seat 1 never connected: after the grace period a stand-in plays its turns; the host plays by hand.
        def stood_in() -> bool:
            _, state, _ = server_game(live, t.id)
            ruleset, _, _ = server_game(live, t.id)
            if 0 in ruleset.awaited(state):
                human_move(live, t.id, t.tokens[0], 0, rng)
            return any(r.command_id.startswith("stand_in:") and r.seat == 1 for r in commands(live, t.id))

        wait_for(stood_in, timeout=15)
        assert live.get(f"/api/tables/{t.id}/bots").json()["stand_ins"] == [1]
        # The table's sockets are told (the page shows it): table info names the seats played by stand-ins.
        for _ in range(500):
            msg = host_ws.receive_json()
            table = msg.get("table") or {}
            if table.get("stand_ins") == [1]:
                break
        else:
            pytest.fail("no table info with the stand-in reached the socket")
        assert all(r.seat == 1 for r in commands(live, t.id) if r.command_id.startswith("stand_in:"))
        # The log tells the stand-in's moves from the player's own and the host's: "by" on each of their events.
        for row, redacted in recomputed(live, t.id):
            by = "stand_in" if row.command_id.startswith("stand_in:") else None
            assert row.made_by == by
            for events in redacted.values():
                expected = [by if e.get("seat") == row.seat else None for e in events]
                assert [e.get("by") for e in events] == expected, row.command_id
        # Seat 1 comes back: the stand-in stops.
        with live.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[1]}"):
            wait_for(lambda: live.get(f"/api/tables/{t.id}/bots").json()["stand_ins"] == [])

            def seat_one_to_move() -> bool:
                ruleset, state, _ = server_game(live, t.id)
                if 0 in ruleset.awaited(state):
                    human_move(live, t.id, t.tokens[0], 0, rng)
                    return False
                return 1 in ruleset.awaited(state)

            wait_for(seat_one_to_move)
            version = server_game(live, t.id)[2].version
            time.sleep(FAST.stand_in_grace_seconds + 3 * FAST.tick_seconds + 0.3)
            assert server_game(live, t.id)[2].version == version, "nobody plays for a connected player"


def test_after_a_restart_a_game_whose_turn_is_a_bots_goes_on(settings: Any) -> None:
    slow = BotSettings(delay_seconds=3600.0, tick_seconds=0.05)
    with make_client(settings, slow) as first:
        t = new_table(first, players=1, seats=2)
        add_bot(first, t.id, t.tokens[0], "normal")
        first.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
        rng = random.Random(2)
        for _ in range(20):  # the host plays until the bot is to move; the slow bot never moves here
            ruleset, state, _ = server_game(first, t.id)
            if 1 in ruleset.awaited(state):
                break
            human_move(first, t.id, t.tokens[0], 0, rng)
        ruleset, state, game = server_game(first, t.id)
        assert 1 in ruleset.awaited(state)
        stopped_at = game.version
    # A new server process on the same database: nobody pokes the table, the bot moves by itself.
    with make_client(settings, FAST) as second:
        wait_for(lambda: server_game(second, t.id)[2].version > stopped_at)
        rows = commands(second, t.id)
        assert rows[stopped_at].seat == 1 and rows[stopped_at].command_id.startswith("bot:")


def test_the_runner_decides_from_view_and_legal_commands_only(live: TestClient,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """C-9 in the server too: the runner hands the bot exactly player_view and legal_commands of its seat."""
    import app.autoplay.runner as runner_module

    seen: list[tuple[Any, ...]] = []
    real = runner_module.choose

    def spy(level: str, ruleset_id: str, view: Any, legal: Any, rng: random.Random, memory: Any) -> Any:
        seen.append((view, legal))
        assert memory is None  # a normal bot remembers nothing
        return real(level, ruleset_id, view, legal, rng, memory)

    monkeypatch.setattr(runner_module, "choose", spy)
    t = new_table(live, players=1, seats=2)
    add_bot(live, t.id, t.tokens[0])
    live.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
    rng = random.Random(3)

    def bot_moved() -> bool:
        ruleset, state, _ = server_game(live, t.id)
        if 0 in ruleset.awaited(state):
            human_move(live, t.id, t.tokens[0], 0, rng)
        return len(seen) >= 3

    wait_for(bot_moved)
    for view, legal in seen:
        assert view["seat"] == 1 and "hands" not in view and "draw_pile" not in view
        assert isinstance(legal, tuple) and legal


def test_a_hard_bot_remembers_the_round_as_its_seat_saw_it_c9(live: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner hands ``hard`` its memory of the round: at each decision exactly what folding the game's events,
    as a spectator receives them, up to the decision's version gives (C-9: nothing hidden in it), also after the
    runner forgot it (a process that took the table over rebuilds it from the database)."""
    import app.autoplay.runner as runner_module

    runner = live.app.state.bots  # type: ignore[attr-defined]
    recalled: list[tuple[int, Any]] = []
    handed: list[Any] = []
    real_memory, real_choose = runner.recall.memory, runner_module.choose

    def memory_at(s: Any, ruleset: Any, game: Any, seat: int) -> Any:
        memory = real_memory(s, ruleset, game, seat)
        recalled.append((game.version, memory))
        return memory

    def spy(level: str, ruleset_id: str, view: Any, legal: Any, rng: random.Random, memory: Any) -> Any:
        if level == "hard":  # not the stand-in's decisions for the human seat, made while no page holds it
            handed.append(memory)
        return real_choose(level, ruleset_id, view, legal, rng, memory)

    monkeypatch.setattr(runner.recall, "memory", memory_at)
    monkeypatch.setattr(runner_module, "choose", spy)
    t = new_table(live, players=1, seats=2)
    add_bot(live, t.id, t.tokens[0], "hard")
    live.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
    rng = random.Random(5)

    def played(enough: int) -> Callable[[], bool]:
        def check() -> bool:
            ruleset, state, _ = server_game(live, t.id)
            if 0 in ruleset.awaited(state):
                human_move(live, t.id, t.tokens[0], 0, rng)
            return len(handed) >= enough
        return check

    wait_for(played(12), timeout=60)
    runner.recall._kept.clear()
    wait_for(played(len(handed) + 4), timeout=60)
    ruleset, _, game = server_game(live, t.id)
    first = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
    folded = [first_memory(ruleset, first, None)]
    for _row, redacted in recomputed(live, t.id):
        folded.append(observe(folded[-1], redacted[SPECTATOR]))
    assert len(handed) >= 16 and all(any(m is memory for _, m in recalled) for memory in handed)
    for version, memory in recalled:
        assert memory == folded[version], version
    assert any(memory.buried or memory.held or memory.passed for _, memory in recalled)


def test_a_timer_switched_on_mid_decision_starts_a_full_clock(settings: Any) -> None:
    # a roomier fast clock than FAST, so that a loaded machine cannot eat the margin between the checks
    roomy = BotSettings(delay_seconds=0.0, relaxed_seconds=60.0, fast_seconds=2.0, stand_in_grace_seconds=0.3,
                        tick_seconds=0.05)
    with make_client(settings, roomy) as live:
        t = new_table(live, players=2)
        live.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
        time.sleep(roomy.fast_seconds * 1.5)  # a player has been thinking longer than a fast turn
        live.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "fast"}, headers=bearer(t.tokens[0]))
        timer = live.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()["view"]["timer"]
        assert timer["remaining"] > roomy.fast_seconds / 2
        assert commands(live, t.id) == [], "no decision is taken away at once"
        wait_for(lambda: commands(live, t.id))  # and the clock does run out later
        service: GameService = live.app.state.service  # type: ignore[attr-defined]
        with service.db.write() as s:
            s.execute(update(TableClock).values(turn_timer="off", stand_in=False))


def test_the_stand_in_plays_at_the_level_chosen_for_the_table(live: TestClient, monkeypatch: Any) -> None:
    """The host chooses the stand-in's level where the stand-in is chosen (``PUT .../clock``): it is stored,
    shown in the table info and used by the runner for every stand-in decision; a level the server does not
    offer is refused with a stable code and changes nothing. Until chosen, the server's default holds."""
    from app.autoplay.runner import BotRunner, Decision

    t = new_table(live, players=2)
    levels: list[str] = []
    real = BotRunner.decide

    def spy(self: BotRunner, table_id: str, decision: Decision) -> Any:
        if table_id == t.id and decision.kind == "stand_in":  # games of earlier tests may still be playing
            levels.append(decision.level)
        return real(self, table_id, decision)

    monkeypatch.setattr(BotRunner, "decide", spy)
    assert live.get(f"/api/tables/{t.id}").json()["stand_in_level"] == FAST.stand_in_level  # the default
    r = live.put(f"/api/tables/{t.id}/clock", json={"stand_in": True, "stand_in_level": "hard"},
                 headers=bearer(t.tokens[0]))
    assert r.status_code == 200 and r.json()["stand_in_level"] == "hard", r.text
    for bad in ("expert", "", None, 3, ["hard"]):
        r = live.put(f"/api/tables/{t.id}/clock", json={"stand_in_level": bad}, headers=bearer(t.tokens[0]))
        if bad is None:  # null leaves it as it is, like the other clock fields
            assert r.status_code == 200 and r.json()["stand_in_level"] == "hard"
            continue
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["error"]["code"] == "invalid_request" and r.json()["error"]["field"] == "stand_in_level"
    r = live.put(f"/api/tables/{t.id}/clock", json={"stand_in_level": "easy"}, headers=bearer(t.tokens[1]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    info = live.get(f"/api/tables/{t.id}/bots").json()
    assert (info["stand_in_level"], info["default_stand_in_level"]) == ("hard", FAST.stand_in_level)
    assert info["levels"] == list(LEVELS)  # a stand-in can be any bot level
    rng = random.Random(2)
    with live.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}"):
        live.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))

        def stood_in() -> bool:  # seat 1 never connects: a stand-in plays for it; the host plays by hand
            ruleset, state, _ = server_game(live, t.id)
            if 0 in ruleset.awaited(state):
                human_move(live, t.id, t.tokens[0], 0, rng)
            return any(r.command_id.startswith("stand_in:") for r in commands(live, t.id))

        wait_for(stood_in, timeout=15)
    assert levels and set(levels) == {"hard"}, levels
