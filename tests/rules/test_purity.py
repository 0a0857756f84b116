"""docs/architecture.md (The engine): ``app/rules`` imports nothing outside the standard library and itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "app" / "rules"
FORBIDDEN_STDLIB = {"random", "time", "datetime", "os", "socket", "asyncio", "threading", "subprocess", "secrets"}


def imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", node.level))
    return out


def test_rules_import_only_stdlib_and_themselves() -> None:
    files = sorted(RULES.rglob("*.py"))
    assert len(files) > 10
    bad = []
    for path in files:
        for name, level in imports(path):
            top = name.split(".")[0]
            if level > 0 or name.startswith("app.rules"):
                continue
            if top not in sys.stdlib_module_names or top in FORBIDDEN_STDLIB:
                bad.append(f"{path.relative_to(RULES)}: {name}")
    assert not bad, "app/rules must be pure (stdlib only, no I/O, clock or global random): " + ", ".join(bad)


def test_purity_check_can_fail(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import fastapi\nfrom random import choice\nfrom .core import cards\n")
    names = [n for n, level in imports(sample) if level == 0]
    assert names == ["fastapi", "random"]
