"""Every public engine function has a docstring naming the rules paragraph it implements (docs/architecture.md).

Read with ``ast`` from the source: every public module-level function and class of ``app/rules`` (name not
starting with ``_``) has a docstring, and every public function of a rule set's ``game.py`` (the rule set's
moves, prompts and views of the rules) cites a rule ID (``C-4``, ``M-6``, ``R-11``, ``B-5``) of
the rules reference, ``docs/rules/``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "app" / "rules"
RULE_ID = re.compile(r"\b[CMRB]-\d+\b")


def public_definitions(path: Path) -> list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [node for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and not node.name.startswith("_")]


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(RULES.parent.parent)}:{getattr(node, 'lineno', 0)} {getattr(node, 'name', '')}"


def test_every_public_engine_function_and_class_has_a_docstring() -> None:
    files = sorted(RULES.rglob("*.py"))
    assert len(files) > 10
    missing = [where(path, node) for path in files for node in public_definitions(path)
               if not (ast.get_docstring(node) or "").strip()]
    assert missing == []


def test_every_rule_set_game_function_cites_its_rule() -> None:
    games = sorted(RULES.glob("*/game.py"))
    assert {p.parent.name for p in games} >= {"mattel", "master", "board"}
    uncited = [where(path, node) for path in games for node in public_definitions(path)
               if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
               and not RULE_ID.search(ast.get_docstring(node) or "")]
    assert uncited == []


def test_the_rule_id_pattern_matches_rule_ids_only() -> None:
    """The four rule ID families of ``docs/rules/`` (C common, M mattel, R master, B board)."""
    for text in ["C-4", "(M-6)", "R-11: Give me five", "B-5 choice", "C-8 rebuild; C-12 stall"]:
        assert RULE_ID.search(text), text
    for text in ["", "X-1", "C4", "AC-1", "Round 1-2", "C-"]:
        assert not RULE_ID.search(text), text
