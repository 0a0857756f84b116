"""View patches (``patch=1``, docs/protocol.md): after its first view a socket gets only the top-level parts of
its view that changed; applied in order they give exactly the full views (C-9: never more than the seat's own
view), and a socket that did not ask for them keeps receiving whole views."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.realtime.hub import view_patch
from tests.realtime.test_socket import recv, socket
from tests.server_helpers import bearer, new_table, play


def apply_patch(view: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """What the page does (static/js/table/socket.js ``patchedView``)."""
    patched = {**view, **message["view_patch"]}
    for name in message.get("view_unset", []):
        del patched[name]
    return patched


def test_view_patch_lists_changed_removed_keys_skips_reused() -> None:
    shared = [1, 2, 3]
    old = {"hand": shared, "turn": 0, "my_phase": {"n": 1}, "players": [{"score": 0}]}
    new = {"hand": shared, "turn": 1, "players": [{"score": 0}], "timer": None}
    assert view_patch(old, new) == {"view_patch": {"turn": 1, "timer": None}, "view_unset": ["my_phase"]}
    assert view_patch(new, dict(new)) == {"view_patch": {}}


def test_patched_updates_rebuild_every_full_view_of_each_seat(client: TestClient) -> None:
    t = new_table(client, players=3, spectators=True, start=True)
    with socket(client, t.id, t.tokens[0], patch=1) as p0, socket(client, t.id, t.tokens[0]) as f0, \
            socket(client, t.id, t.tokens[2], patch=1) as p2, socket(client, t.id, patch=1) as watcher:
        patched = {name: recv(ws)["view"] for name, ws in (("p0", p0), ("p2", p2), ("watcher", watcher))}
        full = recv(f0)["view"]
        assert patched["p0"] == full
        sizes = {"patched": 0, "full": 0}
        for version in range(1, 41):
            assert play(client, t, 1, seed=version) == 1
            whole = recv(f0)
            assert whole["version"] == version and "view_patch" not in whole
            full = whole["view"]
            for name, ws in (("p0", p0), ("p2", p2), ("watcher", watcher)):
                update = recv(ws)
                assert update["type"] == "update" and update["since"] == version - 1 and "view" not in update
                patched[name] = apply_patch(patched[name], update)
                if name == "p0":
                    assert update["events"] == whole["events"]
                    sizes["patched"] += len(str(update))
                    sizes["full"] += len(str(whole))
            assert patched["p0"] == full
            for name, seat_token in (("p2", t.tokens[2]), ("watcher", None)):
                headers = bearer(seat_token) if seat_token else {}
                view = client.get(f"/api/tables/{t.id}/view", headers=headers).json()["view"]
                assert patched[name] == view
        assert sizes["patched"] < sizes["full"] / 2  # the phase list, the score sheet... are not sent again
