"""Every event of every rule set reads as one clear sentence in every language (the log and the replay's step
line both use ``P10.eventText``): no ``undefined``, ``null`` or ``NaN``, no placeholder left, no catalogue key
shown raw, no generic fallback, no doubled phrase, and a sentence's end.

The events are the engine's own: random games of each rule set (C-10 seeds) give every event type of the rule
set's event union, each in the three forms a page receives -- the full JSON of a finished game's replay
(``event_to_json``, whose laid groups name a run's start but not its end), a seat's redaction and a spectator's
(``redact_event``). The event types too rare for a short game (a draw pile rebuilt or both piles exhausted, C-8;
a tie, M-8) are built directly and encoded by the same codec. The texts are made by the real scripts in headless
Chromium.
"""

from __future__ import annotations

import json
import random
import re
import typing
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from app.rules import registry
from app.rules.board.state import BoardEvent
from app.rules.core.codec import type_tag
from app.rules.core.events import DrawFailed, DrawPileRebuilt
from app.rules.master.state import MasterEvent
from app.rules.mattel.state import MattelEvent, TieBreakStarted
from app.web import i18n
from tests.rules.playout import choose

ROOT = Path(__file__).resolve().parents[2]
UNIONS = {"mattel": MattelEvent, "master": MasterEvent, "board": BoardEvent}
RARE = {DrawFailed: DrawFailed(seat=1), DrawPileRebuilt: DrawPileRebuilt(size=40, rebuilds=1),
        TieBreakStarted: TieBreakStarted(seats=(0, 2))}
SILENT = {"turn_started"}  # a turn's start is not worth a line of its own: the next move says whose turn it is
NAMES = {0: "Anna", 1: "Ben", 2: "Carl", 3: "Dora"}
PER_TYPE = 4


@cache
def samples(rid: str) -> list[dict[str, Any]]:
    """Up to ``PER_TYPE`` JSON forms of every event type of the rule set, from seeded random games."""
    ruleset = registry.get(rid)
    wanted = {type_tag(cls): cls for cls in typing.get_args(UNIONS[rid])}
    found: dict[str, list[dict[str, Any]]] = {}

    def keep(event: Any) -> None:
        forms = [ruleset.event_to_json(event), ruleset.redact_event(event, None),
                 ruleset.redact_event(event, getattr(event, "seat", 0) or 0)]
        bucket = found.setdefault(forms[0]["type"], [])
        for form in forms:
            if len(bucket) < PER_TYPE and form not in bucket:
                bucket.append(form)

    for seed in range(6):
        if all(len(found.get(tag, ())) >= PER_TYPE or cls in RARE for tag, cls in wanted.items()):
            break
        rnd = random.Random(seed)
        state = ruleset.new_game(seed, 3 + seed % 2, ruleset.parse_options({"phases_to_win": 2 + seed % 3}))
        for _ in range(2500):
            if ruleset.is_over(state):
                break
            seat = rnd.choice(ruleset.awaited(state))
            state, events = ruleset.apply(state, seat, choose(ruleset.legal_commands(state, seat), rnd))
            for event in events:
                keep(event)
    for cls, event in RARE.items():
        if type_tag(cls) in wanted:
            keep(event)
    missing = sorted(set(wanted) - set(found))
    assert not missing, f"{rid}: no sample of {missing}"
    return [form for tag in sorted(found) for form in found[tag]]


def doubled(text: str) -> str | None:
    """A word or a phrase said twice in a row ("laid laid", "laid their phase laid their phase")."""
    words = re.findall(r"\w+", text.lower())
    for size in range(1, 6):
        for i in range(len(words) - 2 * size + 1):
            phrase = words[i:i + size]
            if phrase == words[i + size:i + 2 * size] and not all(w.isdigit() for w in phrase):  # dice: 3 + 3
                return " ".join(phrase)
    return None


def problems(text: str, event: dict[str, Any], catalogue: dict[str, str]) -> list[str]:
    found = []
    if not text:
        return [] if event["type"] in SILENT else ["no text"]
    for word in ("undefined", "null", "NaN", "[object", "{", "}"):
        if word in text:
            found.append(f"contains {word!r}")
    raw = [key for key in re.findall(r"\b[a-z_]+(?:\.[a-z0-9_]+)+\b", text) if key.split("#")[0] in catalogue
           or key.split(".")[0] in {"ev", "card", "group", "action", "colour", "pile", "dir", "board", "field"}]
    if raw:
        found.append(f"raw key {raw}")
    generic = event["type"].replace("_", " ")
    if text == generic or text.startswith(generic + " — "):
        found.append("generic fallback")
    if (again := doubled(text)) is not None:
        found.append(f"doubled {again!r}")
    if not text.rstrip().endswith((".", "!", "?", "»", ")")):
        found.append("no sentence end")
    return found


def page_for(browser: Any, lang: str, modules: tuple[str, ...] = ("cards.js", "board.js")) -> Any:
    """A page holding the catalogue of ``lang`` and the real modules of static/js/ (served by the test through
    ``page.route``, no server needed), once they have run."""
    page = browser.new_page()
    catalogue = json.dumps(i18n.catalogue(lang), ensure_ascii=False).replace("</", "<\\/")
    tags = "".join(f'<script type="module" src="/static/js/{name}"></script>' for name in modules)
    html = (f'<!doctype html><html lang="{lang}"><head><script type="application/json" id="p10-i18n">'
            f"{catalogue}</script>{tags}</head><body></body></html>")

    def serve(route: Any) -> None:
        path = urlsplit(route.request.url).path
        if path == "/":
            route.fulfill(body=html, content_type="text/html; charset=utf-8")
        else:
            route.fulfill(path=str(ROOT / path.lstrip("/")), content_type="text/javascript; charset=utf-8")

    page.route("http://modules.test/**", serve)
    page.goto("http://modules.test/")
    page.wait_for_function("() => document.readyState === 'complete' && window.P10 && P10.eventText")
    return page


@pytest.mark.e2e
@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_every_event_of_every_rule_set_reads_as_a_sentence(browser: Any, lang: str) -> None:
    """C-9, C-10 (M-*, R-*, B-* events): each event type of each rule set, in every JSON form a page gets, is
    worded by ``P10.eventText`` without a gap, a raw key or a doubled phrase."""
    events = [event for rid in sorted(UNIONS) for event in samples(rid)]
    page = page_for(browser, lang)
    try:
        texts: list[str] = page.evaluate("([events, names]) => events.map((e) => P10.eventText(e, names))",
                                         [events, {str(k): v for k, v in NAMES.items()}])
    finally:
        page.close()
    catalogue = i18n.catalogue(lang)
    bad = [(event["type"], text, found) for event, text in zip(events, texts, strict=True)
           if (found := problems(text, event, catalogue))]
    assert not bad, bad[:10]


def test_the_checks_catch_the_faults_they_look_for() -> None:
    """The checks above can fail: each known fault is found."""
    catalogue = i18n.catalogue("en")
    event = {"type": "phase_laid"}
    assert problems("Anna laid their phase: run 2–undefined.", event, catalogue) == ["contains 'undefined'"]
    assert doubled("Anna laid their phase laid their phase: set of 3s.") == "laid their phase"
    assert problems("ev.phase_laid", event, catalogue) == ["raw key ['ev.phase_laid']", "no sentence end"]
    assert problems("phase laid — Anna", event, catalogue) == ["generic fallback", "no sentence end"]
    assert problems("Round {n} dealt.", event, catalogue) == ["contains '{'", "contains '}'"]
