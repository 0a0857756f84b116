"""REST: a Master table with the host's own phase list (R-3: phases 9 and 10 are Reconstructed, so a host may
change the list; C-2 kinds and sizes; C-11 options), like the board game's (B-11)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server_helpers import bearer, new_table, play_to_end

TWO = [[{"kind": "set", "size": 3}], [{"kind": "colour_run", "size": 3}, {"kind": "set", "size": 2}]]


def test_rulesets_list_the_phases_option_with_its_group_kinds(client: TestClient) -> None:
    by_id = {x["id"]: x for x in client.get("/api/rulesets").json()}
    master = {o["name"]: o for o in by_id["master"]["options_schema"]}
    assert master["phases"]["default"] is None  # the ten Master phases
    assert master["phases"]["kinds"] == ["set", "run", "colour", "colour_run"]
    assert master["phases"]["max_cards"] == 10
    board = {o["name"]: o for o in by_id["board"]["options_schema"]}
    assert board["phases"]["kinds"] == ["set", "run", "colour"]  # C-2: colour runs in Master only
    assert "phases" not in {o["name"] for o in by_id["mattel"]["options_schema"]}


@pytest.mark.parametrize(("phases", "field"), [
    ([], "phases"),
    ("phase 1", "phases"),
    ([[]], "phases[0]"),
    ([[{"kind": "set", "size": 2}], [{"kind": "set", "size": 6}, {"kind": "set", "size": 5}]], "phases[1]"),
    ([[{"kind": "set", "size": 1}]], "phases[0][0]"),
    ([[{"kind": "colour_run", "size": 2}]], "phases[0][0]"),
    ([[{"kind": "pair", "size": 2}]], "phases[0][0]"),
    ([[{"kind": "set", "size": 2}, {"kind": "run"}]], "phases[0][1]"),
])
def test_R3_C2_a_bad_phase_list_is_refused_naming_the_field(client: TestClient, phases: Any, field: str) -> None:
    r = client.post("/api/tables", json={"ruleset": "master", "seats": 2, "name": "Anna",
                                         "options": {"phases": phases}})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_options" and error["field"] == field, error


def test_R15_phases_to_win_beyond_a_custom_list_is_refused(client: TestClient) -> None:
    r = client.post("/api/tables", json={"ruleset": "master", "seats": 2, "name": "Anna",
                                         "options": {"phases": TWO, "phases_to_win": 3}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "phases_to_win"


def test_R3_a_master_table_plays_the_hosts_phase_list_to_the_end(client: TestClient) -> None:
    t = new_table(client, players=2, ruleset="master", options={"phases": TWO}, start=True)
    info = client.get(f"/api/tables/{t.id}").json()
    assert info["options"]["phases"] == TWO  # recorded as the host wrote it (C-11)
    view = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()["view"]
    assert [p["description"] for p in view["phases"]] == ["1 set of 3", "1 colour run of 3 + 1 set of 2"]
    assert {p["phase_description"] for p in view["players"]} == {"1 set of 3"}
    assert view["my_phase"] == TWO[0]
    assert play_to_end(client, t, seed=4) > 0
    final = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()["view"]
    assert final["over"] and final["winners"]
    assert {n for row in final["history"] for n in row["made"]} <= {0, 1, 2}
