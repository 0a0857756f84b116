"""docs/protocol.md stays honest about the engine: "Commands, prompts and events per rule set" documents every
command type each rule set's codec accepts (and no other), every JSON command example decodes through that
rule set's own codec, every event type a rule set can emit is documented, and examples have exactly the fields
of real events, prompts and views of seeded games (C-9 redaction, C-10 replay, C-11 codecs).

Each check is a function returning the list of problems it finds, so ``test_checks_can_fail`` can show that
every one of them reports a doctored copy of the document.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, get_args

import pytest

from app.rules import registry
from app.rules.core import codec
from app.rules.core.errors import InvalidCommand
from tests.rules.playout import playout

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
RULES = ROOT / "app" / "rules"
SECTION = "## Commands, prompts and events per rule set"
COMMON = "### Common to every rule set"
RULESETS = registry.ruleset_ids()
# Real games whose commands, events, prompts and views the examples are compared with (C-10: seeded).
SEEDS = (1, 2)
PLAYERS = 3
ROUND_ENDS = {"round_ended", "marker_moved", "board_round_ended"}
ERROR_CALLS = {"IllegalMove", "WrongStage", "InvalidCommand", "NotYourTurn", "GameOver", "StaleVersion", "_fail"}

_BLOCK = re.compile(r"^(?P<indent>[ \t]*)```json[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
_HEADING = re.compile(r"^(#{1,6}) (.+?)[ \t]*$", re.M)
_NAMED = re.compile(r"^`([^`]+)`")


# -- reading the document ---------------------------------------------------------------------------------


def json_blocks(text: str) -> list[tuple[int, str]]:
    """Every fenced ```json block (also indented ones in lists) with its 1-based line number."""
    out = []
    for m in _BLOCK.finditer(text):
        indent = m.group("indent")
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line
                         for line in m.group("body").splitlines())
        out.append((text.count("\n", 0, m.start()) + 1, body))
    return out


def doc_json(text: str) -> Any:
    """Parse a JSON example that may be shortened with ``…`` (the document's convention): outside strings an
    ``…`` and whatever follows it up to the next ``,``, ``]`` or ``}`` (``{…table info…}``) stands for left-out
    items: a ``null`` item in a list, a ``"…": null`` member in an object."""
    out: list[str] = []
    stack: list[str] = []
    in_string = escaped = False
    i = 0
    while i < len(text):
        ch = text[i]
        if in_string:
            out.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif ch == "…":
            while i + 1 < len(text) and text[i + 1] not in ",]}":
                i += 1
            out.append('"…": null' if stack and stack[-1] == "{" else "null")
        else:
            if ch in "[{":
                stack.append(ch)
            elif ch in "]}" and stack:
                stack.pop()
            out.append(ch)
        i += 1
    return json.loads("".join(out))


def part(text: str, heading: str) -> str:
    """The body under the first heading that starts with ``heading``, up to the next heading of its level or
    above; ``""`` if there is none."""
    level = len(heading) - len(heading.lstrip("#"))
    for m in _HEADING.finditer(text):
        if len(m.group(1)) == level and f"{m.group(1)} {m.group(2)}".startswith(heading):
            rest = text[m.end():]
            stop = re.search(rf"^#{{1,{level}}} ", rest, re.M)
            return rest[:stop.start()] if stop else rest
    return ""


def named_parts(text: str, level: int) -> dict[str, str]:
    """``{name: body}`` of the headings ``#### `name```… of exactly this level inside ``text``."""
    out: dict[str, str] = {}
    marks = [m for m in _HEADING.finditer(text) if len(m.group(1)) == level]
    for k, m in enumerate(marks):
        named = _NAMED.match(m.group(2))
        if named:
            end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
            out[named.group(1)] = text[m.end():end]
    return out


@dataclass
class RulesetDoc:
    text: str
    commands: dict[str, str]
    prompts: dict[str, str]
    events: dict[str, str]


def ruleset_doc(doc: str, rid: str) -> RulesetDoc:
    text = part(part(doc, SECTION), f"### `{rid}`")
    return RulesetDoc(text, named_parts(part(text, "#### Commands"), 5), named_parts(part(text, "#### Prompts"), 5),
                      named_parts(part(text, "#### Events"), 5))


def examples(body: str) -> list[Any]:
    return [doc_json(block) for _, block in json_blocks(body)]


# -- what the engine has ----------------------------------------------------------------------------------


def command_types(rid: str) -> set[str]:
    """The command types the rule set's codec decodes (``CodecMixin.command_types``)."""
    ruleset: Any = registry.get(rid)
    return {codec.type_tag(c) for c in ruleset.command_types}


def event_types(rid: str) -> set[str]:
    """Every event type a rule set can emit: the members of its event union, the ``E`` of its
    ``CodecMixin[S, C, E, O]`` (what ``apply`` is typed to return; mypy --strict holds the code to it)."""
    base = type(registry.get(rid)).__orig_bases__[0]  # type: ignore[attr-defined]
    return {codec.type_tag(c) for c in get_args(get_args(base)[2])}


@dataclass
class Seen:
    """Top-level keys of what real games sent: events by type, prompts by action, views; and per command type
    the event types it emitted up to a round's end (what follows a round's end is documented there)."""

    events: dict[str, set[frozenset[str]]] = field(default_factory=dict)
    emitted_by: dict[str, set[str]] = field(default_factory=dict)
    prompts: dict[str, set[frozenset[str]]] = field(default_factory=dict)
    view_keys: set[str] = field(default_factory=set)


@cache
def seen(rid: str) -> Seen:
    """Seeded greedy playouts (``tests/rules/playout``): every event as one seat receives it, the prompt of
    every awaited seat and of one other seat, every view's keys."""
    ruleset = registry.get(rid)
    out = Seen()
    options = ruleset.parse_options({})
    for seed in SEEDS:
        for step in playout(ruleset, seed, PLAYERS, options):
            emitted = out.emitted_by.setdefault(codec.type_tag(type(step.command)), set())
            for event in step.events:
                data = ruleset.redact_event(event, (step.seat + 1) % PLAYERS)
                out.events.setdefault(data["type"], set()).add(frozenset(data))
            for event in step.events:
                emitted.add(codec.type_tag(type(event)))
                if codec.type_tag(type(event)) in ROUND_ENDS:
                    break
            awaited = ruleset.awaited(step.after)
            others = [s for s in range(PLAYERS) if s not in awaited][:1]
            for seat in (*awaited, *others):
                view = ruleset.player_view(step.after, seat)
                out.view_keys |= set(view)
                if view["prompt"] is not None:
                    out.prompts.setdefault(view["prompt"]["action"], set()).add(frozenset(view["prompt"]))
    return out


def error_codes(paths: list[Path]) -> set[str]:
    """The literal codes the engine raises in these files: ``IllegalMove("code", …)`` and the like, the codes
    chosen into a variable ``code = "a" if … else "b"``, and the stage codes of a ``..._stage_code`` table."""
    codes: set[str] = set()
    for path in paths:
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                first = node.args[0]
                if name in ERROR_CALLS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
            if not isinstance(node, ast.FunctionDef):
                continue
            chosen = [n for n in ast.walk(node) if isinstance(n, ast.Assign)
                      and any(isinstance(t, ast.Name) and t.id == "code" for t in n.targets)]
            for tree_part in ([node] if node.name.endswith("stage_code") else chosen):
                codes |= {n.value for n in ast.walk(tree_part) if isinstance(n, ast.Constant)
                          and isinstance(n.value, str) and re.fullmatch(r"[a-z_]+", n.value)}
    return codes


# -- the checks: each returns its problems ------------------------------------------------------------------


def check_json_blocks(doc: str) -> list[str]:
    """(d) Every JSON block of the whole file parses (with the ``…`` convention)."""
    problems = []
    for line, block in json_blocks(doc):
        try:
            doc_json(block)
        except json.JSONDecodeError as err:
            problems.append(f"line {line}: {err}")
    return problems


def check_structure(doc: str) -> list[str]:
    problems = [f"missing heading {h!r}" for h in (SECTION, COMMON) if not part(doc if h == SECTION else
                                                                               part(doc, SECTION), h)]
    for rid in RULESETS:
        rd = ruleset_doc(doc, rid)
        if not rd.text:
            problems.append(f"{rid}: no section '### `{rid}`'")
        for kind, parts in (("command", rd.commands), ("prompt", rd.prompts), ("event", rd.events)):
            if not parts:
                problems.append(f"{rid}: no {kind}s")
            problems += [f"{rid}: {kind} {name!r} has no JSON example" for name, body in parts.items()
                         if not json_blocks(body)]
    return problems


def check_commands(doc: str, rid: str) -> list[str]:
    """(a) exactly the codec's command types are documented, each naming the events it emits in real games;
    (b) every example decodes through that rule set's own ``parse_command`` and is of its heading's type."""
    ruleset = registry.get(rid)
    documented = ruleset_doc(doc, rid).commands
    problems = [f"{rid}: command {t!r} is not documented" for t in sorted(command_types(rid) - set(documented))]
    for name, body in documented.items():
        problems += [f"{rid}: command {name!r} emits {e!r} in real games, its part does not name it"
                     for e in sorted(seen(rid).emitted_by.get(name, set())) if f"`{e}`" not in body]
    problems += [f"{rid}: documented command {t!r} is not accepted by the codec"
                 for t in sorted(set(documented) - command_types(rid))]
    for name, body in documented.items():
        for example in examples(body):
            try:
                command = ruleset.parse_command(example)
            except InvalidCommand as err:
                problems.append(f"{rid}: example {example} does not decode: {err.message}")
                continue
            if codec.type_tag(type(command)) != name or example.get("type") != name:
                problems.append(f"{rid}: example {example} is under the heading {name!r}")
    return problems


def check_events(doc: str, rid: str) -> list[str]:
    """(c) exactly the rule set's event types are documented, every example is of its heading's type and has
    the fields that real games send for that type."""
    documented = ruleset_doc(doc, rid).events
    types = event_types(rid)
    problems = [f"{rid}: event {t!r} is not documented" for t in sorted(types - set(documented))]
    problems += [f"{rid}: documented event {t!r} is not an event of {rid}" for t in sorted(set(documented) - types)]
    real = seen(rid).events
    for name, body in documented.items():
        for example in examples(body):
            if not isinstance(example, dict) or example.get("type") != name:
                problems.append(f"{rid}: event example {example} is under the heading {name!r}")
            elif name in real and frozenset(example) not in real[name]:
                problems.append(f"{rid}: event {name!r} example has the fields {sorted(example)}, real games send "
                                f"{[sorted(k) for k in real[name]]}")
    return problems


def check_prompts(doc: str, rid: str) -> list[str]:
    """Every prompt action of real games is documented, with the fields real prompts have."""
    documented = ruleset_doc(doc, rid).prompts
    real = seen(rid).prompts
    problems = [f"{rid}: prompt {a!r} is not documented" for a in sorted(set(real) - set(documented))]
    for action, body in documented.items():
        for example in examples(body):
            if not isinstance(example, dict) or example.get("action") != action:
                problems.append(f"{rid}: prompt example {example} is under the heading {action!r}")
            elif action in real and frozenset(example) not in real[action]:
                problems.append(f"{rid}: prompt {action!r} example has the fields {sorted(example)}, real prompts "
                                f"have {[sorted(k) for k in real[action]]}")
    return problems


def check_view_keys(doc: str, rid: str) -> list[str]:
    """The rule set's list of view keys is the keys of real views (plus the server's ``timer``)."""
    text = ruleset_doc(doc, rid).text
    start = text.find("View keys")
    listed = set(re.findall(r"`([a-z_]+)`", text[start:text.find("\n\n", start)])) if start >= 0 else set()
    real = seen(rid).view_keys | {"timer"}
    if listed != real:
        return [f"{rid}: view keys documented {sorted(listed)}, real views have {sorted(real)}"]
    return []


def check_error_codes(doc: str) -> list[str]:
    """Every code the engine raises is named: a rule set's own codes in its section or the common part, the
    core's anywhere in the section; and every code a command's ``Errors:`` names is one the engine raises."""
    section = part(doc, SECTION)
    common = part(section, COMMON)
    problems = [f"core: error code {c!r} is not documented"
                for c in sorted(error_codes(sorted((RULES / "core").glob("*.py")))) if f"`{c}`" not in section]
    raised = error_codes(sorted(RULES.rglob("*.py")))
    for rid in RULESETS:
        rd = ruleset_doc(doc, rid)
        text = rd.text + common
        problems += [f"{rid}: error code {c!r} is not documented"
                     for c in sorted(error_codes(sorted((RULES / rid).glob("*.py")))) if f"`{c}`" not in text]
        for name, body in rd.commands.items():
            listed = re.search(r"^Errors:(.*?)(?:\n\n|\Z)", body, re.M | re.S)
            if listed is None:
                problems.append(f"{rid}: command {name!r} has no 'Errors:' line")
                continue
            problems += [f"{rid}: command {name!r} lists {c!r}, which the engine never raises"
                         for c in re.findall(r"\b\d{3} `([a-z_]+)`", listed.group(1)) if c not in raised]
    return problems


# -- the tests --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def test_every_json_block_parses(doc: str) -> None:
    assert len(json_blocks(doc)) > 100
    assert check_json_blocks(doc) == []


def test_section_has_a_part_per_rule_set(doc: str) -> None:
    assert check_structure(doc) == []


@pytest.mark.parametrize("rid", RULESETS)
def test_every_command_type_is_documented_and_examples_decode(doc: str, rid: str) -> None:
    """C-11: the commands of M-4/M-6, R-6..R-11 and B-5..B-8 as the codecs accept them."""
    assert check_commands(doc, rid) == []


@pytest.mark.parametrize("rid", RULESETS)
def test_every_event_type_is_documented_with_real_fields(doc: str, rid: str) -> None:
    """C-9: the events as ``redact_event`` sends them; the types are those the rule set can emit."""
    emitted = set(seen(rid).events)
    assert emitted <= event_types(rid), "an emitted event type is missing from the rule set's event union"
    assert len(emitted) >= len(event_types(rid)) - 3, "the playouts should meet most event types"
    assert check_events(doc, rid) == []


@pytest.mark.parametrize("rid", RULESETS)
def test_prompts_and_view_keys_match_real_views(doc: str, rid: str) -> None:
    assert check_prompts(doc, rid) == []
    assert check_view_keys(doc, rid) == []


def test_every_engine_error_code_is_documented(doc: str) -> None:
    assert {"run_not_consecutive", "skip_needs_target", "not_offered", "must_give_asked_number"} <= error_codes(
        sorted(RULES.rglob("*.py")))
    assert check_error_codes(doc) == []


def _without(doc: str, rid: str, part_heading: str, name: str) -> str:
    """``doc`` without the part ``##### `name``` of the rule set's ``part_heading`` (``#### Commands`` …)."""
    start = doc.index(f"##### `{name}`", doc.index(part_heading, doc.index(f"### `{rid}`", doc.index(SECTION))))
    end = doc.index("\n#", start + 1)
    return doc[:start] + doc[end + 1:]


def _first(body: str) -> str:
    """The text of the first JSON example in ``body``."""
    return json_blocks(body)[0][1]


def _replace_in(doc: str, rid: str, old: str, new: str) -> str:
    """``doc`` with the first ``old`` inside the rule set's part replaced by ``new``."""
    at = doc.index(old, doc.index(f"### `{rid}`", doc.index(SECTION)))
    return doc[:at] + new + doc[at + len(old):]


def _doctored(doc: str) -> Iterator[tuple[str, str, list[str]]]:
    """Doctored copies of the document, built from whatever it documents first, with the problem each check
    must report."""
    rid = RULESETS[0]
    rd = ruleset_doc(doc, rid)
    command = next(iter(rd.commands))
    yield ("command removed", f"{command!r} is not documented",
           check_commands(_without(doc, rid, "#### Commands", command), rid))
    example = _first(rd.commands[command])
    bad = _replace_in(doc, rid, example, example.replace('{"type": ', '{"bogus": 1, "type": ', 1))
    yield "example does not decode", "does not decode", check_commands(bad, rid)
    event = next(iter(rd.events))
    yield ("event removed", f"{event!r} is not documented",
           check_events(_without(doc, rid, "#### Events", event), rid))
    event = next(e for e in rd.events if e in seen(rid).events)
    example = _first(rd.events[event])
    bad = _replace_in(doc, rid, example, example.replace('{"type": ', '{"invented": 1, "type": ', 1))
    yield "invented field", "example has the fields", check_events(bad, rid)
    master = ruleset_doc(doc, "master")
    action = next(a for a in master.prompts if a in seen("master").prompts)
    yield ("prompt removed", f"{action!r} is not documented",
           check_prompts(_without(doc, "master", "#### Prompts", action), "master"))
    yield "json broken", "line", check_json_blocks(doc + '\n```json\n{"a": 1,, …}\n```\n')
    code = sorted(error_codes(sorted((RULES / rid).glob("*.py"))))[-1]
    yield "error code dropped", repr(code), check_error_codes(doc.replace(f"`{code}`", "x"))
    key = sorted(seen(rid).view_keys)[0]
    yield "view key dropped", "view keys", check_view_keys(doc.replace(f"`{key}`, ", ""), rid)
    bad = _replace_in(doc, rid, "Errors: ", "Errors: 409 `run_too_long`; ")
    yield "code invented", "'run_too_long'", check_error_codes(bad)
    bad = _replace_in(doc, rid, "#### Events", "#### Happenings")
    yield "events part gone", f"{rid}: no events", check_structure(bad)


def test_checks_can_fail(doc: str) -> None:
    """Every check reports a doctored copy of the document (and the ``…`` reader keeps strings intact)."""
    assert doc_json('{"a": "x…y", …, "b": [1, …], "c": {…table info…}}') == {
        "a": "x…y", "…": None, "b": [1, None], "c": {"…": None}}
    for what, expected, problems in _doctored(doc):
        assert any(expected in p for p in problems), f"{what}: {problems}"
