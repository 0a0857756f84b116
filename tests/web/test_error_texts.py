"""Every error code the server can send has a text ``error.<code>`` in the catalogues (P10.errorText).

The codes are found by reading ``app/`` with ``ast``, not by a list kept by hand:

* the ``code`` argument of the engine errors (``RuleError`` and every subclass, found in
  ``app/rules/core/errors.py``), and each class's default ``code``;
* the ``code`` argument of ``ServiceError`` (``app/services/errors.py``) and of ``RecordError``
  (``app/services/archive.py``);
* the ``"code"`` of error dictionaries (``{"code": ..., "message": ...}``, websocket and REST bodies);
* through helpers: when such an argument is a parameter of the enclosing function (``_fail(code, message)``,
  ``_error(ref, code, message)``, ``error_body(code, ...)``), the arguments passed to that helper count.

An argument is resolved through string literals, ``a if c else b``, local assignments, calls of functions
of the same module (their return values), ``{...}.get(key, default)`` and ``getattr(err, "code", default)``;
``err.code`` passes on a code found elsewhere. Anything else fails the test, so a new way of building a code
cannot slip past it unnoticed.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.web import i18n

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
LOCALES = Path(i18n.__file__).parent / "locales"
LANGUAGES = sorted(i18n.LANGUAGES)


@dataclass(frozen=True)
class Sink:
    """Where a code goes in a call: positional ``index`` or keyword ``name``."""

    index: int
    name: str


@dataclass
class Scan:
    codes: dict[str, set[str]] = field(default_factory=dict)  # code -> "file:line" where it is produced
    unresolved: list[str] = field(default_factory=list)

    def add(self, code: str, where: str) -> None:
        self.codes.setdefault(code, set()).add(where)


@dataclass
class Module:
    path: Path
    tree: ast.Module
    parents: dict[ast.AST, ast.AST]

    @property
    def rel(self) -> str:
        return str(self.path.relative_to(ROOT))

    def functions(self) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
        return {n.name: n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}

    def enclosing(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                return node
        return None


def load(path: Path) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    return Module(path, tree, parents)


def params(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [a.arg for a in [*func.args.posonlyargs, *func.args.args]]


def call_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def argument(call: ast.Call, sink: Sink) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == sink.name:
            return keyword.value
    if sink.index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:sink.index + 1]):
        return call.args[sink.index]
    return None


def error_classes(scan: Scan) -> dict[str, Sink | None]:
    """``RuleError`` and its subclasses -> where their ``code`` argument goes (``None``: the class fixes it)."""
    module = load(APP / "rules" / "core" / "errors.py")
    sinks: dict[str, Sink | None] = {}
    for node in module.tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
        if node.name != "RuleError" and not bases & set(sinks):
            continue
        inherited = next((sinks[b] for b in bases if b in sinks), None)
        sinks[node.name] = inherited
        for item in node.body:
            if isinstance(item, ast.Assign | ast.AnnAssign):
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                if any(isinstance(t, ast.Name) and t.id == "code" for t in targets) and \
                        isinstance(item.value, ast.Constant) and isinstance(item.value.value, str):
                    scan.add(item.value.value, f"{module.rel}:{item.lineno}")
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                names = params(item)[1:]  # without self
                sinks[node.name] = Sink(names.index("code"), "code") if "code" in names else None
    assert {"RuleError", "InvalidCommand", "IllegalMove", "InvalidOptions"} <= set(sinks), sinks
    return sinks


def service_sink() -> Sink:
    module = load(APP / "services" / "errors.py")
    init = next(n for n in ast.walk(module.tree) if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    return Sink(params(init)[1:].index("code"), "code")


def record_sink() -> Sink:
    """``RecordError(message, code)``: a game record refused (``app/services/archive.py``)."""
    module = load(APP / "services" / "archive.py")
    cls = next(n for n in ast.walk(module.tree) if isinstance(n, ast.ClassDef) and n.name == "RecordError")
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    return Sink(params(init)[1:].index("code"), "code")


def resolve(module: Module, node: ast.expr, scope: ast.AST | None, helpers: dict[str, Sink],
            where: str, depth: int = 0) -> Iterator[str] | None:
    """The string codes ``node`` can evaluate to; ``None`` when it cannot be read statically. A parameter of
    the enclosing function makes that function a helper (recorded in ``helpers``) and yields nothing here."""
    if depth > 8:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return iter([node.value])
    if isinstance(node, ast.IfExp):
        return _union(module, [node.body, node.orelse], scope, helpers, where, depth)
    if isinstance(node, ast.Attribute) and node.attr == "code":
        return iter([])  # err.code: a code produced elsewhere, passed on
    if isinstance(node, ast.Name) and isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        if node.id in params(scope) or node.id in [a.arg for a in scope.args.kwonlyargs]:
            names = params(scope)
            index = names.index(node.id) if node.id in names else 10_000
            if names[:1] in (["self"], ["cls"]):
                index -= 1
            helpers[scope.name] = Sink(index, node.id)
            return iter([])
        values = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets)]
        return _union(module, values, scope, helpers, where, depth) if values else None
    if isinstance(node, ast.Call):
        name = call_name(node)
        if name == "getattr" and len(node.args) == 3:
            return resolve(module, node.args[2], scope, helpers, where, depth + 1)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "get" and isinstance(node.func.value, ast.Dict):
            options: list[ast.expr] = [v for v in node.func.value.values if v is not None]
            return _union(module, options + node.args[1:], scope, helpers, where, depth)
        if isinstance(node.func, ast.Name) and name in module.functions():
            func = module.functions()[name]
            returns = [n.value for n in ast.walk(func) if isinstance(n, ast.Return) and n.value is not None]
            return _union(module, returns, func, helpers, where, depth) if returns else None
    return None


def _union(module: Module, nodes: list[ast.expr], scope: ast.AST | None, helpers: dict[str, Sink], where: str,
           depth: int) -> Iterator[str] | None:
    found: list[str] = []
    for n in nodes:
        got = resolve(module, n, scope, helpers, where, depth + 1)
        if got is None:
            return None
        found += list(got)
    return iter(found)


def error_dict_code(node: ast.Dict) -> ast.expr | None:
    """``{"code": X, "message": ...}``: an error body (REST) or message (websocket)."""
    keys = {k.value: v for k, v in zip(node.keys, node.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return keys["code"] if "code" in keys and "message" in keys else None


def scan_app() -> Scan:
    scan = Scan()
    sinks: dict[str, Sink] = {name: s for name, s in error_classes(scan).items() if s is not None}
    sinks["ServiceError"] = service_sink()
    sinks["RecordError"] = record_sink()
    fixed = set(error_classes(Scan())) - set(sinks)  # e.g. InvalidOptions: its code is the class's own
    modules = [load(p) for p in sorted(APP.rglob("*.py"))]
    helpers: dict[str, Sink] = {}
    while True:  # a helper found in one pass makes its call sites sinks in the next
        before = dict(helpers)
        scan.unresolved.clear()
        for module in modules:
            for node in ast.walk(module.tree):
                expr: ast.expr | None = None
                if isinstance(node, ast.Call):
                    name = call_name(node)
                    if name in fixed or name is None:
                        continue
                    sink = sinks.get(name) or helpers.get(name)
                    inside = module.enclosing(node)
                    if sink is None or inside is not None and inside.name == name:  # a helper's own body
                        continue
                    expr = argument(node, sink)
                    if expr is None:  # the parameter's default applies
                        continue
                elif isinstance(node, ast.Dict):
                    expr = error_dict_code(node)
                if expr is None:
                    continue
                where = f"{module.rel}:{node.lineno}"
                found = resolve(module, expr, module.enclosing(node), helpers, where)
                if found is None:
                    scan.unresolved.append(f"{where}: {ast.unparse(expr)}")
                    continue
                for code in found:
                    scan.add(code, where)
        if helpers == before:
            return scan


SCAN = scan_app()


def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def test_the_scan_reads_every_way_a_code_is_made() -> None:
    """The scan can read each code argument it meets, and finds the codes of each kind of source: engine
    errors directly and through ``_fail`` (C-4 groups), ``ServiceError``, the websocket's ``_error`` helper, the
    REST handlers' ``error_body`` and the hub's error dictionaries."""
    assert SCAN.unresolved == []
    for code in ["discard_pile_empty", "run_not_consecutive", "skip_already_pending", "skip_already_in_front",
                 "choose_take_two_first", "action_unknown", "invalid_options", "table_not_found", "bad_token",
                 "malformed_json", "invalid_request", "method_not_allowed", "server_error", "seat_removed",
                 "chat_rate"]:
        assert code in SCAN.codes, code
    assert len(SCAN.codes) > 60


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_has_a_text(lang: str) -> None:
    """No page falls back to the English message of an engine or server error (P10.errorText)."""
    own = catalogue(lang)
    missing = {code: sorted(SCAN.codes[code]) for code in sorted(SCAN.codes) if f"error.{code}" not in own}
    assert missing == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_error_texts_are_short_sentences_without_placeholders(lang: str) -> None:
    """errorText passes only ``{message}``; the texts of codes use no placeholder at all, like the existing ones."""
    for key, text in catalogue(lang).items():
        if key.startswith("error."):
            assert "{" not in text and text.strip() and len(text) <= 120, (lang, key, text)
