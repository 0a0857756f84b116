"""The layers of ``app/`` (docs/architecture.md, "Layers") hold: a module imports only from its own layer and the
layers below it. Read with ``ast`` from the source, every import of every module, the ones inside functions and
under ``TYPE_CHECKING`` too."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"

# Lowest first. A unit is a package of ``app`` or a top-level module; each is on exactly one layer.
LAYERS: list[set[str]] = [
    {"rules"},
    {"bots"},
    {"settings", "fastjson", "metrics", "stalls", "gc_policy", "i18n"},
    {"persistence"},
    {"analysis"},
    {"services"},
    {"realtime", "autoplay"},
    {"api"},
    {"web"},
    {"main", "serve", "admin"},
]
LAYER = {unit: level for level, units in enumerate(LAYERS) for unit in units}


def unit_of(parts: list[str]) -> str:
    """``['app', 'services', 'push']`` -> ``services``; ``['app', 'main']`` -> ``main``."""
    return parts[1] if len(parts) > 1 else ""


def imported_units(path: Path, source: str | None = None) -> list[tuple[str, int]]:
    """(unit of ``app`` imported, line) for every import in ``path`` (or in ``source``, read as that module)."""
    package = list(path.relative_to(APP.parent).with_suffix("").parts)[:-1]
    text = path.read_text(encoding="utf-8") if source is None else source
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(text, str(path))):
        names: list[list[str]] = []
        if isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = base + (node.module.split(".") if node.module else [])
            # ``from app import fastjson``: the names are the units
            names = [target + [alias.name] for alias in node.names] if target == ["app"] else [target]
        out += [(unit_of(name), node.lineno) for name in names if name[:1] == ["app"] and len(name) > 1]
    return out


def modules() -> list[Path]:
    return sorted(p for p in APP.rglob("*.py") if p.name != "__init__.py" or p.parent != APP)


def test_every_unit_of_app_is_on_a_layer() -> None:
    units = {unit_of(list(p.relative_to(APP.parent).with_suffix("").parts)) for p in modules()}
    assert len(units) > 15 and units - set(LAYER) == set()


def test_no_module_imports_from_a_higher_layer() -> None:
    upward = []
    for path in modules():
        me = unit_of(list(path.relative_to(APP.parent).with_suffix("").parts))
        for unit, line in imported_units(path):
            if LAYER.get(unit, -1) > LAYER[me]:
                upward.append(f"{path.relative_to(APP.parent)}:{line} {me} -> {unit}")
    assert upward == []


def test_the_check_reads_every_kind_of_import() -> None:
    """Relative and absolute imports, ``from app import x``, submodules, and the package's own ``__init__``."""
    source = ("from app.web.i18n import translate\nfrom .games import GameService\nfrom app import metrics\n"
              "import app.api.deps\nfrom ..realtime import hub\n")
    assert imported_units(APP / "services" / "probe.py", source) == [
        ("web", 1), ("services", 2), ("metrics", 3), ("api", 4), ("realtime", 5)]
    assert imported_units(APP / "services" / "__init__.py", "from .base import X\n") == [("services", 1)]


def test_the_bots_policies_import_no_database_and_no_runtime() -> None:
    """``app/bots/`` is pure (docs/architecture.md, "The bots' runtime"): the engine, the standard library and
    ``openskill`` (the simulator's ratings) only; the live runtime that talks to the database is ``app/autoplay/``."""
    allowed = {"app", "openskill"} | set(sys.stdlib_module_names)
    found = []
    for path in sorted((APP / "bots").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            tops = ([a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                    else [])
            found += [f"{path.name}: {top}" for top in tops if top.split(".")[0] not in allowed]
        found += [f"{path.name}: {unit}" for unit, _ in imported_units(path) if unit not in {"rules", "bots"}]
    assert found == []
