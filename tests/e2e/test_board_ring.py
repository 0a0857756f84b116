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
from .layout import SHOW, VIEWPORTS, until
from .states import moments

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
