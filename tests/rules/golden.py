"""Golden playthroughs: a seeded game rendered as text, compared line by line with a file.

Set ``UPDATE_GOLDEN=1`` to regenerate the files after an intended change of behaviour.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .playout import playout


def _compact(data: Any) -> Any:
    """Cards shown by their label only, to keep golden files readable."""
    if isinstance(data, dict):
        if "label" in data and "id" in data:
            return f"{data['label']}#{data['id']}"
        return {k: _compact(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_compact(v) for v in data]
    return data


def render(ruleset: Any, seed: int, players: int, options: Any, max_steps: int = 20000) -> list[str]:
    """One line per command (from the acting seat's point of view) and one per event."""
    lines = [f"# {ruleset.id} seed={seed} players={players} options={json.dumps(ruleset.options_to_json(options))}"]
    for i, step in enumerate(playout(ruleset, seed, players, options, max_steps=max_steps)):
        lines.append(f"{i:04d} seat {step.seat}: {json.dumps(ruleset.command_to_json(step.command), sort_keys=True)}")
        for event in step.events:
            lines.append(f"       {json.dumps(_compact(ruleset.redact_event(event, step.seat)), sort_keys=True)}")
    return lines


def check(path: Path, lines: list[str]) -> None:
    """Compare with the golden file line by line (or rewrite it under UPDATE_GOLDEN=1)."""
    if os.environ.get("UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text("\n".join(lines) + "\n")
    expected = path.read_text().splitlines()
    for number, (want, got) in enumerate(zip(expected, lines, strict=False), 1):
        assert got == want, f"{path.name}:{number}\n  expected: {want}\n  got:      {got}"
    assert len(lines) == len(expected), f"{path.name}: {len(lines)} lines, golden file has {len(expected)}"
