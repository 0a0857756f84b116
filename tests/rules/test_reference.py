"""The rules reference lives in the repository (``docs/rules/``): every rule ID the code, the tests, the pages
and the docs cite (``C-4``, ``M-6``, ``R-11``, ``B-5``) has its paragraph there, once, on its rule set's page.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "rules"
RULE_ID = re.compile(r"\b[CMRB]-\d+\b")
HEADING = re.compile(r"^### ([CMRB]-\d+) \S", re.MULTILINE)
PAGES = {"C": "common.md", "M": "mattel.md", "R": "master.md", "B": "board.md"}
CITING = [ROOT / "app", ROOT / "tests", ROOT / "static", ROOT / "templates", ROOT / "bench", ROOT / "docs"]
SUFFIXES = {".py", ".md", ".js", ".html"}


def defined() -> dict[str, list[str]]:
    """Rule ID -> the reference pages whose ``### ID title`` heading defines it."""
    out: dict[str, list[str]] = {}
    for path in sorted(REFERENCE.glob("*.md")):
        for rule_id in HEADING.findall(path.read_text(encoding="utf-8")):
            out.setdefault(rule_id, []).append(path.name)
    return out


def cited() -> dict[str, str]:
    """Rule ID -> one file (relative to the root) that cites it."""
    files = [ROOT / "README.md"] + [p for top in CITING for p in sorted(top.rglob("*"))
                                    if p.suffix in SUFFIXES and p.is_file()]
    out: dict[str, str] = {}
    for path in files:
        for rule_id in RULE_ID.findall(path.read_text(encoding="utf-8")):
            out.setdefault(rule_id, str(path.relative_to(ROOT)))
    return out


def test_every_cited_rule_id_is_defined_in_the_reference() -> None:
    ids = cited()
    assert len(ids) > 40 and {"C-9", "M-6", "R-11", "B-5"} <= set(ids)
    known = defined()
    assert {rule_id: where for rule_id, where in ids.items() if rule_id not in known} == {}


def test_each_rule_id_is_defined_once_on_its_rule_sets_page() -> None:
    known = defined()
    assert {rule_id: pages for rule_id, pages in known.items() if pages != [PAGES[rule_id[0]]]} == {}


def test_each_rule_set_numbers_its_paragraphs_without_gaps() -> None:
    known = defined()
    for prefix in PAGES:
        numbers = sorted(int(rule_id[2:]) for rule_id in known if rule_id[0] == prefix)
        assert numbers == list(range(1, len(numbers) + 1)) and numbers, prefix


def test_the_repository_cites_nothing_outside_itself() -> None:
    """A clone has only this tree: no file points the reader at the workspace's shared rules or design notes."""
    outside = ["../" + "shared", "/work/" + "shared", "ARCHITECTURE" + ".md", "ARCHITECTURE" + ":"]
    files = [ROOT / "README.md"] + [p for top in CITING for p in sorted(top.rglob("*"))
                                    if p.suffix in SUFFIXES and p.is_file()]
    hits = [f"{path.relative_to(ROOT)}: {word}" for path in files
            for word in outside if word in path.read_text(encoding="utf-8")]
    assert hits == []
