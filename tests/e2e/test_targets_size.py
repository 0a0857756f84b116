"""Every control of the table page a finger can reach (WCAG 2.2, 2.5.8 target size): at least 24×24 CSS px and
lying over no other control, on a 360×740 phone, in the moments where the dock holds the most: the draw prompt,
and the play prompt with the builder open and a 4-card run in it (its controls once lay 18×18 px, one card's ▶
under the next card's ◀). Hand cards overlap by design: each counts as its visible part (up to the next
card). English and German (the longer words).

The primary actions (every button of the prompt: draw, lay down, discard, the board game's roll, moves and
choices, the builder's Lay phase...) are at least 44×44 CSS px on phones, upright and sideways, at every kind
of prompt of the three rule sets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ..web.test_icons import EMOJI
from . import helpers as h
from .conftest import shot
from .layout import SHOW, until
from .states import moments

MIN = 24
PRIMARY = 44

# Every visible control of the table as a box: buttons, selects, inputs and links in #game (the drawer's when it
# is open), hand cards as their visible part.
CONTROLS = """(min) => {
  const seen = (n) => n.getClientRects().length && !n.closest('.sr-only, [hidden], .hidden') &&
    getComputedStyle(n).visibility !== 'hidden';
  const side = document.getElementById('side');
  const sideShown = getComputedStyle(side).position !== 'fixed' || side.classList.contains('open');
  const nodes = [...document.querySelectorAll('#game button, #game select, #game input, #game a[href], '
    + '#game [role=button], #banners button, .topbar button, .topbar select')]
    .filter((n) => seen(n) && (sideShown || !side.contains(n)) && !n.closest('#hand'));
  const boxes = nodes.map((n) => {
    const r = n.getBoundingClientRect();
    return { name: (n.id || n.getAttribute('aria-label') || n.className || n.tagName).slice(0, 40),
             l: r.left, t: r.top, r: r.right, b: r.bottom };
  });
  const cards = [...document.querySelectorAll('#hand [data-card-id]')].filter(seen);
  cards.forEach((n, i) => {
    const r = n.getBoundingClientRect();
    const next = cards[i + 1] && cards[i + 1].getBoundingClientRect();
    const right = next && Math.abs(next.top - r.top) < 2 ? Math.min(r.right, next.left) : r.right;
    boxes.push({ name: 'hand card ' + n.dataset.cardId, l: r.left, t: r.top, r: right, b: r.bottom });
  });
  const small = boxes.filter((b) => b.r - b.l < min - 0.5 || b.b - b.t < min - 0.5)
    .map((b) => b.name + ' ' + Math.round(b.r - b.l) + 'x' + Math.round(b.b - b.t));
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), hgt = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (w > 1 && hgt > 1) overlaps.push(a.name + ' / ' + b.name + ' ' + Math.round(w) + 'x' + Math.round(hgt));
    }
  }
  return { count: boxes.length, small, overlaps };
}"""

# With a phase of a set of 3 and a run of 4 (Mattel phase 2), the builder holds three cards in the set and
# four in the run.
BUILD_RUN = """() => {
  const S = P10.state, v = S.view;
  v.my_phase = [{ kind: 'set', size: 3 }, { kind: 'run', size: 4 }];
  S.builderFor = v.round + ':' + JSON.stringify(v.my_phase);
  const ids = v.hand.map((c) => c.id);
  S.building = true;
  S.builder = [ids.slice(0, 3), ids.slice(3, 7)];
  P10.table.render();
}"""


def _views() -> dict[str, dict[str, Any]]:
    views = moments("mattel")
    play = next(v for v in views if v["seats"] == 3 and (v.get("prompt") or {}).get("can_lay"))
    draw = next(v for v in views if v["seats"] == 3 and (v.get("prompt") or {}).get("action") == "draw")
    return {"play": json.loads(json.dumps(play)), "draw": json.loads(json.dumps(draw))}


def measure(page: Any) -> dict[str, Any]:
    until(page, "document.getAnimations().every(a => a.playState !== 'running' || "
                "a.effect.getComputedTiming().endTime === Infinity)")
    result: dict[str, Any] = page.evaluate(CONTROLS, MIN)
    return result


@pytest.mark.e2e
def test_every_table_control_is_at_least_24_px_and_overlaps_none(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    anna.set_viewport_size({"width": 360, "height": 740})
    until(anna, "window.innerWidth === 360")
    names = ["Anna", "Boris", "Chiara"]
    views = _views()
    failures: dict[str, Any] = {}
    for lang in ("en", "de"):
        anna.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        anna.reload()
        anna.wait_for_selector("#game:not(.hidden)")
        until(anna, f"document.documentElement.lang === '{lang}' && P10.state.view !== null")
        anna.evaluate(SHOW, [views["draw"], names, True, False])
        found = measure(anna)
        assert found["count"] > 10, found
        # the toolbar's and the top bar's icons are drawn (an SVG each), their words kept; no emoji in them
        icons = anna.evaluate("""() => [...document.querySelectorAll('.toolbar .tool, #theme-toggle')]
          .filter((n) => n.getClientRects().length).map((n) => ({ id: n.id || n.className,
            svg: Boolean(n.querySelector('svg.icon use')), text: n.textContent,
            drawn: n.querySelector('svg.icon') ? n.querySelector('svg.icon').getBoundingClientRect().width : 0 }))""")
        assert len(icons) >= 5, icons
        for icon in icons:
            assert icon["svg"] and icon["drawn"] >= 10 and not EMOJI.search(icon["text"]), icon
        if found["small"] or found["overlaps"]:
            failures[f"{lang} draw"] = found
        shot(anna, f"targets-draw-{lang}")
        anna.evaluate(SHOW, [views["play"], names, True, True])
        anna.evaluate(BUILD_RUN)
        found = measure(anna)
        if found["small"] or found["overlaps"]:
            failures[f"{lang} builder"] = found
        shot(anna, f"targets-builder-run-{lang}")
        # a card of the run picked: the group's tools show, and move it
        anna.click("[data-builder-group='1'] .slot-card >> nth=1")
        found = measure(anna)
        if found["small"] or found["overlaps"]:
            failures[f"{lang} builder, a run card picked"] = found
        shot(anna, f"targets-builder-run-picked-{lang}")
        run = anna.evaluate("P10.state.builder[1].slice()")
        anna.click("[data-builder-group='1'] [data-tool='right']")
        assert anna.evaluate("P10.state.builder[1]") == [run[0], run[2], run[1], run[3]]
        anna.click("[data-builder-group='1'] [data-tool='remove']")
        assert anna.evaluate("P10.state.builder[1]") == [run[0], run[2], run[3]]
    assert not failures, failures
    assert not anna.p10_errors, anna.p10_errors


# The prompt's buttons (the card-sized buttons of the board game's search are cards, not counted) and Lay phase.
PRIMARY_BOXES = """(min) => [...document.querySelectorAll('#prompt-controls button:not(.plain), #actions button, '
    + '#builder-lay')].filter((n) => n.getClientRects().length).map((n) => {
  const r = n.getBoundingClientRect();
  return { name: n.id || n.dataset.action || n.className || n.textContent.slice(0, 20), w: r.width, h: r.height };
}).filter((b) => b.w < min - 0.5 || b.h < min - 0.5)
  .map((b) => b.name + ' ' + Math.round(b.w) + 'x' + Math.round(b.h))"""


@pytest.mark.e2e
def test_primary_actions_are_at_least_44_px_on_phones(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    names = ["Anna", "Boris", "Chiara", "Dmitri", "Bettina", "Bob"]
    kinds: dict[tuple[str, str], dict[str, Any]] = {}
    for ruleset in ("mattel", "master", "board"):
        for view in moments(ruleset):
            action = (view.get("prompt") or {}).get("action")
            if action and (ruleset, action) not in kinds:
                kinds[(ruleset, action)] = json.loads(json.dumps(view))
    assert {("board", a) for a in ("roll", "move", "choose", "take", "ask", "swap")} <= set(kinds), sorted(kinds)
    failures: list[Any] = []
    counted = 0
    anna.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    anna.reload()
    anna.wait_for_selector("#game:not(.hidden)")
    until(anna, "document.documentElement.lang === 'de' && P10.state.view !== null")
    for width, height in ((360, 740), (390, 844), (740, 360)):
        anna.set_viewport_size({"width": width, "height": height})
        until(anna, f"window.innerWidth === {width} && window.innerHeight === {height}")
        for (ruleset, action), view in sorted(kinds.items()):
            for building in (False, True) if (view.get("prompt") or {}).get("can_lay") else (False,):
                anna.evaluate(SHOW, [view, names, False, building])
                counted += anna.locator("#prompt-controls button, #actions button, #builder-lay").count()
                small = anna.evaluate(PRIMARY_BOXES, PRIMARY)
                if small:
                    failures.append((width, height, ruleset, action, building, small[:4]))
                    if len(failures) <= 2:
                        shot(anna, f"primary-small-{len(failures)}")
    assert counted > 40, counted
    assert not failures, (len(failures), failures[:10])
    assert not anna.p10_errors, anna.p10_errors
