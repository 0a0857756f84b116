"""Test names stay short enough to read in a report: every test function under ``tests/`` (methods and the
functions behind parametrised tests included) is at most 60 characters long. Read with ``ast`` from the source."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
LIMIT = 60


def all_test_names() -> list[tuple[str, str]]:
    """(file relative to ``tests/``, name) of every function pytest collects as a test."""
    found: list[tuple[str, str]] = []
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                found.append((path.relative_to(TESTS).as_posix(), node.name))
    return found


def test_every_test_name_is_at_most_60_characters() -> None:
    long = [f"{path}::{name} ({len(name)})" for path, name in all_test_names() if len(name) > LIMIT]
    assert not long, "test names over 60 characters:\n" + "\n".join(long)
