"""What "one screen" means, measured in the page: the hand and the current prompt with its actions lie
inside the viewport, not clipped by a scrolling box, and the page itself does not scroll."""

from __future__ import annotations

import time
from typing import Any

# Portrait and landscape of a small phone, a large phone, a tablet and a laptop.
VIEWPORTS = [(360, 740), (740, 360), (390, 844), (844, 390), (768, 1024), (1024, 768), (1366, 800), (800, 1366)]

OUTSIDE = """() => {
  const W = window.innerWidth, H = window.innerHeight;
  const dialog = document.querySelector('dialog[open]');
  const targets = dialog
    ? [...dialog.querySelectorAll('.dialog-actions button, .dialog-actions a')]
    : [document.getElementById('prompt'),
       ...document.querySelectorAll('#prompt-controls button, #prompt-controls select, #actions button, '
         + '#actions select, #builder-lay, #builder-suggest, #hand .card')];
  const out = [];
  for (const node of targets) {
    if (!node || !node.getClientRects().length) continue;  // not shown (display: none)
    const r = node.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    let box = { top: 0, left: 0, bottom: H, right: W };
    for (let p = node.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowY !== 'visible' || style.overflowX !== 'visible') {
        const q = p.getBoundingClientRect();
        box = { top: Math.max(box.top, q.top), left: Math.max(box.left, q.left),
                bottom: Math.min(box.bottom, q.bottom), right: Math.min(box.right, q.right) };
      }
    }
    if (r.top < box.top - 1 || r.left < box.left - 1 || r.bottom > box.bottom + 1 || r.right > box.right + 1) {
      const where = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
      out.push((node.id || node.className || node.tagName) + ' ' + where);
    }
  }
  const page = document.scrollingElement;
  if (page.scrollHeight > H + 1) {
    // what sticks out of the screen without a scrolling box of its own to hold it
    const below = [...document.body.querySelectorAll('*')]
      .filter(n => n.getBoundingClientRect().bottom > H + 1 && !n.closest('#field, #dock, #side'))
      .map(n => n.tagName + '#' + n.id + '.' + n.className).slice(0, 4);
    out.push('page scrolls: ' + page.scrollHeight + ' > ' + H + ' ' + below.join(' '));
  }
  return out;
}"""


def until(page: Any, expression: str, timeout: float = 20.0) -> None:
    """Poll ``expression`` with evaluate. After ``emulate_media`` Playwright's ``wait_for_function`` evaluated
    its predicate with eval in the page, which the pages' CSP (script-src 'self') refuses; evaluate does not."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        time.sleep(0.05)


def outside(page: Any) -> list[str]:
    """The hand cards and prompt controls (or the open dialog's actions) not fully visible, if any, measured
    once the cards have landed (motion.js's finite animations are over; the piles' pulse never ends)."""
    until(page, "document.getAnimations().every(a => a.playState !== 'running' || "
                "a.effect.getComputedTiming().endTime === Infinity)")
    result: list[str] = page.evaluate(OUTSIDE)
    return result


def check_viewports(page: Any, where: str, home: tuple[int, int]) -> None:
    """The layout check at every viewport, then back to ``home``."""
    try:
        for width, height in VIEWPORTS:
            page.set_viewport_size({"width": width, "height": height})
            until(page, f"window.innerWidth === {width} && window.innerHeight === {height}")
            # The table's own motion (cards flying, motion.js) ends before positions are judged.
            until(page, "document.getAnimations().every(a => a instanceof CSSAnimation || a instanceof CSSTransition"
                        " || a.playState !== 'running')")
            if outside(page):
                from .conftest import shot

                shot(page, f"layout-failed-{where}-{width}x{height}")
            assert outside(page) == [], (where, width, height, outside(page))
    finally:
        page.set_viewport_size({"width": home[0], "height": home[1]})
