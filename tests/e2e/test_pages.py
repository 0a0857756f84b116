"""The pages around the table (the lobby with its rule-set cards and My tables, the invite panel, the join page,
the waiting room, the replay) at a small phone, a large phone, a phone on its side and a tablet, light and dark:

- every radio and checkbox is about the size of its text (not a field-sized circle: the generic ``input`` rule's
  height and padding reach it),
- no wrapped text runs in a column narrower than about 20 characters (10 em),
- nothing sticks out of the viewport sideways, the page does not scroll sideways, and no box cuts its text off.

The lobby's rule-set cards are shown at 360×740 in both themes (test-artifacts/pages-lobby-360x740-*.png).
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import shot
from .layout import until
from .test_replay_share import SEED, finished_game

VIEWPORTS = [(360, 740), (390, 844), (740, 360), (768, 1024)]

# What is out of proportion on the page, in words (empty when nothing is).
MEASURE = """() => {
  const W = window.innerWidth;
  const out = [];
  const shown = (n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden'
    && !n.closest('.sr-only, .skip-link, [hidden], dialog:not([open])');
  const name = (n) => n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') +
    (typeof n.className === 'string' && n.className ? '.' + n.className.trim().split(/\\s+/).join('.') : '');
  // radios and checkboxes: about the size of the text beside them
  for (const box of document.querySelectorAll('input[type=radio], input[type=checkbox]')) {
    if (!shown(box)) continue;
    const r = box.getBoundingClientRect();
    const em = parseFloat(getComputedStyle(box.parentElement).fontSize);
    if (r.width > 1.8 * em || r.height > 1.8 * em || r.width < 0.7 * em || r.height < 0.7 * em) {
      out.push('control ' + name(box) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height)
        + ' for text of ' + em + 'px');
    }
  }
  // text columns: a text that wraps runs in a box at least 10 em (about 20 characters) wide
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const parent = node.parentElement;
    if (text.length < 20 || !parent || !shown(parent)) continue;
    let block = parent;
    while (block.parentElement && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
    if (seen.has(block)) continue;
    seen.add(block);
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
    if (lines.size < 2) continue;
    const style = getComputedStyle(block);
    const width = block.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const em = parseFloat(getComputedStyle(parent).fontSize);
    if (width < 10 * em) {
      out.push('narrow column ' + name(block) + ' ' + Math.round(width) + 'px ('
        + (width / em).toFixed(1) + ' em): ' + text.slice(0, 30));
    }
  }
  // nothing sideways out of the viewport, no sideways scroll, no box cutting its content off sideways
  const page = document.scrollingElement;
  if (page.scrollWidth > W + 1) out.push('page scrolls sideways: ' + page.scrollWidth + ' > ' + W);
  for (const n of document.body.querySelectorAll('*')) {
    if (!shown(n)) continue;
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    let inside = false;  // in a box that scrolls or clips on purpose, it is judged against that box below
    for (let p = n.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') { inside = true; break; }
    }
    if (!inside && (r.right > W + 1 || r.left < -1)) {
      out.push('sticks out ' + name(n) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
    const style = getComputedStyle(n);
    if (style.overflowX !== 'visible' && n.scrollWidth > n.clientWidth + 1
        && !['SELECT', 'INPUT', 'TEXTAREA'].includes(n.tagName)) {
      out.push('cut off or sideways scroll ' + name(n) + ' ' + n.scrollWidth + ' > ' + n.clientWidth);
    }
  }
  return out;
}"""


def sweep(page: Any, where: str, looked: dict[str, list[str]]) -> None:
    """The checks at every viewport in both themes; what fails is collected under ``where``."""
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        until(page, f"window.innerWidth === {width} && window.innerHeight === {height}")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            until(page, f"P10.darkTheme() === {str(scheme == 'dark').lower()}")
            found = page.evaluate(MEASURE)
            if found:
                shot(page, f"pages-failed-{where}-{width}x{height}-{scheme}")
                looked.setdefault(f"{where} {width}x{height} {scheme}", found[:6])


@pytest.mark.e2e
def test_every_page_keeps_its_controls_and_text_in_proportion(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    table_id, tokens = finished_game(server.url)
    failures: dict[str, list[str]] = {}

    # Ben, seated at a finished table: the lobby shows his table under My tables, with its series
    ben = new_page(width=360, height=740)
    ben.context.add_cookies([{"name": f"p10_seat_{table_id}", "value": tokens[1], "url": server.url}])
    ben.goto(server.url + "/")
    ben.wait_for_selector("#my-tables[data-loaded=true]:not(.hidden)")
    ben.click(".my-series summary")
    for scheme in ("light", "dark"):
        ben.emulate_media(color_scheme=scheme)
        until(ben, f"P10.darkTheme() === {str(scheme == 'dark').lower()}")
        shot(ben, f"pages-lobby-360x740-{scheme}")
    sweep(ben, "lobby", failures)

    # the master and board cards chosen, with their options; then the created table's invite panel
    ben.set_viewport_size({"width": 360, "height": 740})
    ben.check("input[name=ruleset][value=board]")
    sweep(ben, "lobby-board", failures)
    ben.check("input[name=ruleset][value=master]")
    ben.fill("#host-name", "Ben")
    ben.click("#create-button")
    ben.wait_for_selector("#created:not(.hidden)")
    invite = ben.input_value("#invite-link")
    sweep(ben, "invite", failures)

    # the waiting room (the host's own), the join page (a guest's)
    ben.click("#go-table")
    ben.wait_for_selector("#waiting:not(.hidden)")
    sweep(ben, "waiting", failures)
    guest = new_page(width=360, height=740, locale="de-DE")
    guest.goto(invite)
    guest.wait_for_selector("#join-form")
    until(guest, "!document.getElementById('join-info').textContent.includes('…')", timeout=10)
    sweep(guest, "join", failures)

    # the replay of the finished game
    ben.goto(f"{server.url}/tables/{table_id}/games/1/replay")
    ben.wait_for_selector("#rp-players article")
    sweep(ben, "replay", failures)

    assert failures == {}, "\n".join(f"{where}: {found}" for where, found in failures.items())
