"""The board game's ring stays legible once groups are laid (B-1): at every viewport of ``layout.VIEWPORTS``, with
2–6 seats and the most groups of ``states.moments("board")`` on the table, every field is a disc of at least
18 CSS px with its symbol at least 10 px tall (more where the felt is wider: 30 px and more on a tablet
upright), every pawn a disc of at least 16 px with its initial, and the ring spans most of the felt's width (a
loop fitted to the felt, not a circle as small as the felt is low). Pictures: test-artifacts/board-ring-*.png."""

from __future__ import annotations

import json
from typing import Any

import pytest

from . import helpers as h
from .conftest import shot
from .layout import SHOW, VIEWPORTS, on_top, until
from .states import crowded, moments
from .test_axe import serious

NAMES = ["Anna", "Boris", "Chiara", "Dmitri", "Bettina", "Bob"]

MEASURE = """() => {
  const svg = document.querySelector('#board svg.ring');
  if (!svg || !svg.getClientRects().length) return null;
  const box = svg.getBoundingClientRect();
  const field = document.getElementById('field').getBoundingClientRect();
  const fields = [...svg.querySelectorAll('g.field')].map((g) => {
    const disc = g.querySelector('circle').getBoundingClientRect();
    const symbol = g.querySelector('.field-symbol').getBoundingClientRect();
    return [Math.min(disc.width, disc.height), symbol.height];
  });
  const pawns = [...svg.querySelectorAll('g.pawn circle')].map((c) => c.getBoundingClientRect().width);
  const groups = document.querySelectorAll('#players .group, .players .group').length;
  return { ring: [Math.round(box.width), Math.round(box.height)], felt: Math.round(field.width),
           field: Math.min(...fields.map((f) => f[0])), symbol: Math.min(...fields.map((f) => f[1])),
           pawn: pawns.length ? Math.min(...pawns) : null, fields: fields.length, groups };
}"""


def laid(view: dict[str, Any]) -> int:
    return len(view.get("table") or [])


@pytest.mark.e2e
def test_the_ring_stays_legible_at_every_viewport_when_laid(
        start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    board = moments("board")
    views = []
    for seats in (2, 3, 4, 5, 6):
        mine = [v for v in board if len(v["players"]) == seats]
        views.append(json.loads(json.dumps(max(mine, key=laid))))
    assert all(laid(v) >= 1 for v in views) and max(laid(v) for v in views) >= 2, [laid(v) for v in views]
    small: list[Any] = []
    for width, height in VIEWPORTS:
        anna.set_viewport_size({"width": width, "height": height})
        until(anna, f"window.innerWidth === {width} && window.innerHeight === {height}")
        for view in views:
            anna.evaluate(SHOW, [view, NAMES, False, False])
            anna.wait_for_timeout(50)  # the ring re-lays itself once the felt has its size (ResizeObserver)
            size = anna.evaluate(MEASURE)
            assert size and size["fields"] == len(view["ring"]), size
            seats = len(view["players"])
            if (width, height, seats) in ((768, 1024, 6), (360, 740, 6), (740, 360, 4)):
                shot(anna, f"board-ring-{width}x{height}-{seats}")
            if size["field"] < 17.5 or size["symbol"] < 9.5 or (size["pawn"] or 99) < 15.5 \
                    or size["ring"][0] < 0.8 * size["felt"]:
                small.append((width, height, seats, size))
    assert small == [], "\n".join(map(str, small))
    # where the felt is wide, the fields grow with it (a tablet upright: 40 px)
    anna.set_viewport_size({"width": 768, "height": 1024})
    until(anna, "window.innerWidth === 768")
    anna.evaluate(SHOW, [views[-1], NAMES, False, False])
    anna.wait_for_timeout(50)
    size = anna.evaluate(MEASURE)
    assert size["field"] >= 30 and size["symbol"] >= 14, size


STRIP = """() => {
  const shown = (n) => Boolean(n && n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden');
  const strip = document.querySelector('#board .pawn-strip');
  const ring = document.querySelector('#board svg.ring');
  const W = window.innerWidth, H = window.innerHeight;
  const inView = (n) => { const r = n.getBoundingClientRect();
    return r.left >= -0.5 && r.top >= -0.5 && r.right <= W + 0.5 && r.bottom <= H + 0.5; };
  const out = { strip: shown(strip), ring: shown(ring), small: [], pawns: [], outside: [], me: 0, symbols: 0 };
  if (!out.strip) return out;
  const box = strip.getBoundingClientRect();
  out.height = Math.round(box.height);
  for (const n of strip.querySelectorAll('*')) {
    const own = [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || !shown(n) || n.closest('.sr-only')) continue;
    const size = parseFloat(getComputedStyle(n).fontSize);
    if (size < 11) out.small.push(n.className + ' ' + n.textContent + ' ' + size);
    if (!inView(n)) out.outside.push(n.className + ' ' + n.textContent);
  }
  out.pawns = [...strip.querySelectorAll('[data-pawn]')].filter(shown).map((n) => n.textContent.trim());
  out.me = strip.querySelectorAll('.strip-field.me').length;
  out.symbols = strip.querySelectorAll('.strip-symbol').length;
  return out;
}"""


def with_groups_and_builder(seats: int) -> dict[str, Any]:
    """A board game's table with every other seat's groups laid (``states.crowded``) while the seat on turn
    may still lay down its own phase (the builder can open)."""
    view = json.loads(json.dumps(crowded("board", seats)))
    me = view["seat"]
    view["table"] = [g for g in view["table"] if g["owner"] != me]
    for player in view["players"]:
        if player["seat"] == me:
            player["laid"] = False
    view["prompt"]["can_lay"] = True
    # a hand as large as a seat's that has not laid yet (the fullest of the game's moments that offer a lay-down)
    hands = [v["hand"] for v in moments("board") if len(v["players"]) == seats
             and (v.get("prompt") or {}).get("can_lay") and v.get("my_phase")]
    view["hand"] = [dict(card, id=30_000 + k) for k, card in enumerate(max(hands, key=len))]
    for player in view["players"]:
        if player["seat"] == me:
            player["hand_size"] = len(view["hand"])
    assert view.get("my_phase") and {g["owner"] for g in view["table"]} == set(range(seats)) - {me}
    return view


@pytest.mark.e2e
def test_the_ring_gives_way_to_a_strip_on_small_phones(start_server: Any, new_page: Any) -> None:
    """B-1: on a small phone (360×740 and 740×360) while the lay-down is being built, the board game's ring
    gives way to a one-line strip of the fields the pawns stand on (each with its number, its symbol and the
    pawns' marks, the player's own marked), all its words at least 11 px, so that every seat, every card laid
    by 2–5 other seats, the builder, the hand, the prompt and the controls are in view and on top
    (``layout.ON_TOP``), with no serious axe violation at three and six seats (white on each seat's colour at
    least 4.5:1); the ring is back once the builder closes, and a larger phone keeps it with the builder open.
    Light and dark. Pictures: test-artifacts/board-strip-*.png."""
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    views = [with_groups_and_builder(seats) for seats in (3, 6)]
    failed: list[Any] = []
    for scheme in ("light", "dark"):
        anna.emulate_media(color_scheme=scheme)
        for width, height in ((360, 740), (740, 360), (390, 844)):
            anna.set_viewport_size({"width": width, "height": height})
            until(anna, f"window.innerWidth === {width} && window.innerHeight === {height}")
            until(anna, "document.getAnimations().every(a => a.playState !== 'running' || "
                        "a.effect.getComputedTiming().endTime === Infinity)")  # the drawer's slide
            small = max(width, height) <= 740
            for view in views:
                seats = len(view["players"])
                for building in (True, False):
                    anna.evaluate(SHOW, [view, NAMES, False, building])
                    anna.wait_for_timeout(50)  # the ring re-lays itself once its box has its size
                    strip = anna.evaluate(STRIP)
                    where = (scheme, width, height, seats, building)
                    if building and small:
                        if seats == 6:
                            shot(anna, f"board-strip-{scheme}-{width}x{height}")
                        failed += serious(anna, f"strip {scheme} {seats} seats {width}x{height}")
                        if not strip["strip"] or strip["ring"] or strip["small"] or strip["outside"] \
                                or len(strip["pawns"]) != seats or strip["me"] != 1 or not strip["symbols"]:
                            failed.append((where, strip))
                    elif not strip["ring"] or strip["strip"]:
                        failed.append((where, strip))
                    found = on_top(anna)
                    if found:
                        failed.append((where, found[:4]))
    assert failed == [], "\n".join(map(str, failed))
    assert not anna.p10_errors, anna.p10_errors
