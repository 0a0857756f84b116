"""The lobby's phase-list editor data (R-3, B-11, C-2): every rule set with a ``phases`` option gets it, with its
own group kinds and its own phase list to start from; the editor is driven by the schema, not by rule set ids."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from app.rules.master.deck import PHASES as MASTER_PHASES

LOBBY_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "lobby.js"


def _rulesets(client: Any) -> dict[str, Any]:
    page = client.get("/")
    assert page.status_code == 200
    found = re.search(r'<script type="application/json" id="p10-rulesets">(.*?)</script>', page.text)
    assert found, "the lobby embeds the rule sets"
    return {r["id"]: r for r in json.loads(found.group(1))}


def test_master_lobby_offers_the_phase_editor_with_colour_runs(client: Any) -> None:
    rulesets = _rulesets(client)
    master = rulesets["master"]
    option = next(o for o in master["options_schema"] if o["name"] == "phases")
    assert "colour_run" in option["kinds"]
    assert master["default_phases"] == [p.to_json() for p in MASTER_PHASES]  # starts from the ten phases
    board = next(o for o in rulesets["board"]["options_schema"] if o["name"] == "phases")
    assert "colour_run" not in board["kinds"] and len(rulesets["board"]["default_phases"]) == 10
    assert "default_phases" not in rulesets["mattel"]


def test_C2_the_editor_takes_its_group_kinds_from_the_schema() -> None:
    """No rule set id decides the kinds in the browser: ``option.kinds`` from the schema does."""
    source = LOBBY_JS.read_text()
    assert "option.kinds" in source
    assert 'ruleset.id === "master"' not in source
