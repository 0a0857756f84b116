"""What "one screen" means, measured in the page: the hand and the current prompt with its actions lie
inside the viewport, not clipped by a scrolling box, and the page itself does not scroll."""

from __future__ import annotations

import json
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
            found = outside(page) + ([] if page.evaluate("Boolean(document.querySelector('dialog[open]'))")
                                     else on_top(page))
            if found:
                from .conftest import shot

                shot(page, f"layout-failed-{where}-{width}x{height}")
            assert found == [], (where, width, height, found)
    finally:
        page.set_viewport_size({"width": home[0], "height": home[1]})


# What a player must see and reach at every moment of their turn, checked in the page: the draw and discard
# piles (Master's blue pile; the board game's ring and the fields the pawn may move to), every card of every
# seat's laid groups and of the cards lying in front of the seats (with no tap), every card of the hand
# (the part of it the next card leaves free, and its corner index), the prompt and every control of the turn
# area and the builder. Each must lie inside the viewport and inside every scrolling box around it, AND be the
# element at its centre (document.elementFromPoint): not covered by an overlay, a drawer, a toast or a
# neighbour. The corner index of a card never overlaps its big number; a ranged joker's range is one line.
ON_TOP = """() => {
  const SEE_ALL = '*, *::before, *::after { pointer-events: auto !important; }';
  const W = window.innerWidth, H = window.innerHeight;
  const view = P10.state.view;
  const out = [];
  // what lets taps through (pointer-events: none) still hides what lies under it: everything is hit-tested
  // (a constructed sheet: the pages' CSP refuses inline style elements; a sweep adopts it once for all views)
  const seeAll = window.p10SeeAll ? null : new CSSStyleSheet();
  if (seeAll) {
    seeAll.replaceSync(SEE_ALL);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, seeAll];
  }
  const clips = new Map();  // element -> the box its scrolling ancestors leave visible
  const clip = (node) => {
    const parent = node.parentElement;
    if (!parent) return { top: 0, left: 0, bottom: H, right: W };
    if (clips.has(parent)) return clips.get(parent);
    let box = clip(parent);
    const style = getComputedStyle(parent);
    if (style.overflowY !== 'visible' || style.overflowX !== 'visible') {
      const q = parent.getBoundingClientRect();
      box = { top: Math.max(box.top, q.top), left: Math.max(box.left, q.left),
              bottom: Math.min(box.bottom, q.bottom), right: Math.min(box.right, q.right) };
    }
    clips.set(parent, box);
    return box;
  };
  const name = (node) => node.id || node.getAttribute('data-card-id') && 'card ' + node.getAttribute('data-card-id')
    || node.getAttribute('data-field') && 'field ' + node.getAttribute('data-field') || node.className.baseVal
    || node.className || node.tagName;
  const check = (node, what, r) => {
    r = r || node.getBoundingClientRect();
    const box = clip(node);
    const where = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
    if (r.top < box.top - 1 || r.left < box.left - 1 || r.bottom > box.bottom + 1 || r.right > box.right + 1) {
      out.push(what + ' ' + name(node) + ' outside ' + where);
      return;
    }
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === node || node.contains(hit))) {
      const by = hit ? (hit.id || hit.className.baseVal || hit.className || hit.tagName) : 'nothing';
      out.push(what + ' ' + name(node) + ' covered by ' + by + ' at ' + Math.round(x) + ',' + Math.round(y));
    }
  };
  const shown = (node) => node && node.getClientRects().length && node.getBoundingClientRect().width > 0;
  const must = (id) => { const n = document.getElementById(id); if (!shown(n)) out.push('missing ' + id); return n; };
  for (const id of ['pile-draw', 'pile-discard']) { const n = must(id); if (shown(n)) check(n, 'pile'); }
  if (view.ruleset === 'master') { const n = must('pile-blue'); if (shown(n)) check(n, 'pile'); }
  // a pile's count lies on the pile, never on what its top card shows (index, face, symbol, caption, colours)
  document.querySelectorAll('#piles .pile').forEach((pile) => {
    const badge = pile.querySelector('.pile-count'), card = pile.querySelector('.card');
    if (!shown(badge) || !card) return;
    const b = badge.getBoundingClientRect();
    for (const part of card.children) {
      if (part.classList.contains('sr-only') || !shown(part)) continue;
      const q = part.getBoundingClientRect();
      if (b.left < q.right - 0.5 && q.left < b.right - 0.5 && b.top < q.bottom - 0.5 && q.top < b.bottom - 0.5) {
        out.push('the count of ' + pile.id + " covers its card's " + (part.className || part.tagName));
      }
    }
  });
  if (view.ruleset === 'board') {
    // the ring, or where it gives way (a small phone while the lay-down is being built) its one-line strip
    const ring = document.querySelector('#board svg'), strip = document.querySelector('#board .pawn-strip');
    if (shown(strip)) check(strip, 'pawn strip');
    else if (!shown(ring)) out.push('missing ring'); else check(ring, 'ring');
    document.querySelectorAll('#board .field.target').forEach((n) => check(n, 'lit field'));
    const moves = ((view.prompt || {}).action === 'move') ? (view.prompt.moves || []).length : 0;
    if (document.querySelectorAll('#board .field.target').length !== moves) out.push('lit fields != moves');
  }
  const cards = [...document.querySelectorAll('#hand .card')];
  const inHand = (view.hand || []).length - (P10.state.builder || []).reduce((a, g) => a + g.length, 0);
  if (cards.length !== inHand) out.push('hand shows ' + cards.length + ' of ' + inHand);
  cards.forEach((card, i) => {
    const r = card.getBoundingClientRect();
    const next = cards[i + 1] && cards[i + 1].getBoundingClientRect();
    const right = next && next.left < r.right && next.left > r.left && next.top < r.bottom && next.bottom > r.top
      ? next.left : r.right;
    check(card, 'hand', { left: r.left, top: r.top, right, bottom: r.bottom });
    const corner = card.querySelector('.corner');
    if (!corner) { out.push('card ' + card.dataset.cardId + ' has no corner index'); return; }
    check(card, 'index', corner.getBoundingClientRect());
    const big = card.querySelector('.num');
    if (big.classList.contains('range')) {  // Master's ranged joker: "7–12" on one line
      const text = document.createRange();
      text.selectNodeContents(big);
      const lines = new Set([...text.getClientRects()].map((q) => Math.round(q.top)));
      if (lines.size !== 1) out.push('card ' + card.dataset.cardId + ': its range takes ' + lines.size + ' lines');
    }
    const c = corner.getBoundingClientRect(), n = big.getBoundingClientRect();
    if (c.right > n.left + 0.5 && n.right > c.left + 0.5 && c.bottom > n.top + 0.5 && n.bottom > c.top + 0.5) {
      out.push('card ' + card.dataset.cardId + ': the corner index overlaps the big number');
    }
  });
  // Every card of every seat's laid groups and every card lying in front of a seat, with no tap: shown, big
  // enough to read its corner index (at least 13x17 px), inside the viewport and on top at its centre.
  const laid = [...document.querySelectorAll('#players [data-group] [data-card-id]')];
  const onTable = (view.table || []).reduce((a, g) => a + g.cards.length, 0);
  const inView = laid.filter(shown).length;
  if (inView !== onTable) out.push('laid cards shown: ' + inView + ' of ' + onTable);
  const front = (view.players || []).reduce((a, p) => a + (p.in_front || []).length, 0);
  const fronts = [...document.querySelectorAll('#players .in-front [data-card-id]')];
  if (fronts.filter((n) => n.closest('.in-front:not(.turned-cards)')).filter(shown).length !== front) {
    out.push('cards in front shown: ' + fronts.length + ' of ' + front);
  }
  // In view: all of them, at every moment (the builder open, the dock's longest lists of choices too).
  [...laid, ...fronts].forEach((n) => {
    if (!shown(n)) return;
    const r = n.getBoundingClientRect();
    if (r.width < 13 || r.height < 17) {
      out.push('laid card ' + n.dataset.cardId + ' too small ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
    check(n, 'laid');
  });
  const prompt = document.getElementById('prompt');
  if (prompt.textContent.trim()) check(prompt, 'prompt');
  document.querySelectorAll('#prompt-controls button, #prompt-controls select, #actions button, #actions select, '
    + '#builder button').forEach((n) => { if (shown(n)) check(n, 'control'); });
  const timer = document.getElementById('timer');
  if (view.timer && (view.timer.seats || []).length) {
    if (!shown(timer)) out.push('timer hidden'); else check(timer, 'timer');
  }
  // The title row: the game's name and its round are not cut off (an ellipsis) and lie inside the title, the
  // timer's words are whole when they name one seat (its own clock or one other's), and the two do not overlap.
  const title = document.getElementById('game-title');
  const cut = (node) => node.scrollWidth > node.clientWidth + 0.5;
  for (const part of [title, ...title.querySelectorAll('.title-name, .title-round')]) {
    if (shown(part) && cut(part)) out.push('title cut: ' + part.textContent);
  }
  const tr = title.getBoundingClientRect();
  title.querySelectorAll('.title-round').forEach((round) => {
    const r = round.getBoundingClientRect();
    if (r.left < tr.left - 0.5 || r.right > tr.right + 0.5) out.push('title round outside the title');
  });
  if (shown(timer)) {
    const words = timer.querySelector('.timer-text'), c = timer.getBoundingClientRect();
    const whole = view.timer.seats.length === 1 || timer.classList.contains('mine');
    if (whole && cut(words)) out.push('timer cut: ' + words.textContent);
    if (c.left < tr.right - 0.5 && tr.left < c.right - 0.5 && c.top < tr.bottom - 0.5 && tr.top < c.bottom - 0.5) {
      out.push('timer over the title');
    }
  }
  // every seat has its own mark (no two pawns "B"), on the strip and on the board's ring
  for (const sel of ['#players .pawn-mark', '#board .pawn-initial']) {
    const marks = [...document.querySelectorAll(sel)].map((n) => n.textContent);
    if (new Set(marks).size !== marks.length) out.push('marks alike: ' + marks.join(' '));
  }
  // The opponents' strip (every seat's name and the turn badge), the title and the toolbar are never covered
  // (by a banner, the ticker, a bubble): each that its scrolling boxes leave in sight is the element at its centre.
  document.querySelectorAll('#players .player-name, #players .badge.turn, #game-title, .toolbar .tool')
    .forEach((n) => {
      if (!shown(n)) return;
      const r = n.getBoundingClientRect(), box = clip(n);
      if (r.width <= 2 || r.height <= 2) return;  // kept for screen readers only (the ring says whose turn it is)
      const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
      if (x < box.left || x > box.right || y < box.top || y > box.bottom) return;  // scrolled out of sight
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === n || n.contains(hit))) return;
      // under what scrolls with it in the same box (the board's ring kept in sight over the scrolled strip)
      let scroller = n.parentElement;
      while (scroller && !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowY)) {
        scroller = scroller.parentElement;
      }
      if (hit && scroller && scroller.contains(hit)) return;
      {
        const by = hit ? (hit.id || hit.className.baseVal || hit.className || hit.tagName) : 'nothing';
        out.push('strip ' + name(n) + ' ' + n.textContent.slice(0, 20) + ' covered by ' + by);
      }
    });
  // Each seat's name shows at least its first letters (the badges beside it give way to a line of their own,
  // not the name), and the name and the badges shown beside it lie inside their chip.
  document.querySelectorAll('#players .player-name, #players .player-head .badge').forEach((n) => {
    const r = n.getBoundingClientRect();
    if (!shown(n) || r.width <= 2 || r.height <= 2) return;  // a badge kept for screen readers only
    const chip = n.closest('.player').getBoundingClientRect();
    if (r.left < chip.left - 0.5 || r.right > chip.right + 0.5) out.push('cut off its chip: ' + n.textContent);
  });
  document.querySelectorAll('#players .player-name').forEach((n) => {
    if (n.getClientRects().length && n.clientWidth < Math.min(n.scrollWidth, 28)) {
      out.push('name squeezed: ' + n.textContent + ' ' + n.clientWidth + 'px');
    }
  });
  // While log and chat are a drawer (over the page), the table reaches the right edge: no empty column.
  const side = document.getElementById('side'), dock = document.getElementById('dock');
  if (getComputedStyle(side).position === 'fixed' && dock.getBoundingClientRect().right < W - 24) {
    out.push('an empty column right of the table: the dock ends at ' + Math.round(dock.getBoundingClientRect().right));
  }
  const onTurn = document.querySelectorAll('#players .player.on-turn');
  if (onTurn.length !== (view.over || view.turn === null || view.turn === undefined ? 0 : 1)) {
    out.push(onTurn.length + ' seats on turn');
  }
  const page = document.scrollingElement;
  if (page.scrollHeight > H + 1 || page.scrollWidth > W + 1) {
    out.push('page scrolls ' + page.scrollWidth + 'x' + page.scrollHeight);
  }
  if (seeAll) document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== seeAll);
  return out;
}"""

# Shows the page a crafted moment (a view from states.py) as its socket would: the seats named, the timer
# running or not, the builder open and filled (a lay-down being built) or closed.
SHOW = """([view, names, timer, building]) => {
  const S = P10.state;
  S.table = Object.assign({}, S.table, { seats: names.slice(0, view.players.length).map((name, seat) =>
    ({ seat, name, connected: seat % 4 !== 3, is_bot: false })) });
  S.seat = view.seat;
  S.selected.clear();
  const p = view.prompt;
  const build = Boolean(building && p && p.can_lay && view.my_phase);
  const ids = (view.hand || []).map((c) => c.id);
  // the builder as render.js keeps it for this phase: open, its groups holding a few hand cards
  S.builderFor = view.round + ':' + JSON.stringify(view.my_phase || null);
  S.building = build;
  S.builder = build ? view.my_phase.map((g, i) => ids.slice(i * 3, i * 3 + Math.min(3, g.size || 3))) : null;
  S.wasActing = true;
  view.timer = timer && (view.awaited || []).length
    ? { mode: 'fast', seconds: 60, version: 1, seats: view.awaited, deadline: String(Math.random()), remaining: 42 }
    : null;
  S.view = view;
  P10.table.render();
}"""


def show(page: Any, view: dict[str, Any], names: list[str], timer: bool, building: bool) -> list[str]:
    """Show ``view`` and return what is not inside the viewport and on top (see :data:`ON_TOP`)."""
    page.evaluate(SHOW, [view, names, timer, building])
    result: list[str] = page.evaluate(ON_TOP)
    return result


# Every view of states.py in one page call (one call per language and viewport keeps the sweep fast): the
# timer runs in every other view and a lay-down is being built in every other view that offers one, shifted
# by the language's index, so that each moment is seen with and without both over the languages.
SWEEP = f"""([json, names, shift]) => {{
  const views = JSON.parse(json);
  const show = {SHOW};
  const onTop = {ON_TOP};
  const failures = [];
  window.p10SeeAll = new CSSStyleSheet();  // ON_TOP's hit-testing sheet, adopted once for the whole sweep
  window.p10SeeAll.replaceSync('*, *::before, *::after {{ pointer-events: auto !important; }}');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, window.p10SeeAll];
  views.forEach((view, i) => {{
    const timer = (i + shift) % 2 === 0, building = (Math.floor(i / 2) + shift) % 2 === 0;
    show([view, names, timer, building]);
    const found = onTop();
    if (found.length) failures.push({{ index: i, timer, building, what: view.ruleset + ' ' + view.players.length
      + ' seats, ' + ((view.prompt || {{}}).action || 'wait'), found: found.slice(0, 4) }});
  }});
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== window.p10SeeAll);
  window.p10SeeAll = null;
  return failures;
}}"""


def sweep(page: Any, views: list[dict[str, Any]], names: list[str], shift: int) -> list[dict[str, Any]]:
    """The moments of :data:`SWEEP` that fail :data:`ON_TOP` at the page's current viewport and language."""
    # the drawer and the other transitions a resize starts are over before anything is judged
    until(page, "document.getAnimations().every(a => a.playState !== 'running' || "
                "a.effect.getComputedTiming().endTime === Infinity)")
    # one JSON string: Playwright serialises a large structured argument slowly
    result: list[dict[str, Any]] = page.evaluate(SWEEP, [json.dumps(views), names, shift])
    return result


def on_top(page: Any) -> list[str]:
    """What of :data:`ON_TOP` is not inside the viewport and on top on ``page`` as it is."""
    result: list[str] = page.evaluate(ON_TOP)
    return result


# After a Tab from the prompt (where the turn's start put the focus): the first legal move, i.e. the first
# enabled control of the turn area, or the hand's first card when the turn area offers none yet (a discard
# starts with choosing the card).
FIRST_MOVE = """() => {
  const active = document.activeElement;
  const controls = [...document.querySelectorAll('#prompt-controls button, #prompt-controls select, '
    + '#actions button, #actions select')].filter((n) => !n.disabled && n.getClientRects().length);
  const first = controls.length ? controls[0] : document.querySelector('#hand .card');
  return { ok: active === first, active: active.id || active.className || active.tagName,
           expected: first ? first.id || first.className : null };
}"""


def first_move_one_tab_away(page: Any) -> None:
    """When the turn has just come: the focus is on the prompt, the live region says it is this seat's
    turn, and the first legal move is one Tab away."""
    until(page, "document.activeElement && document.activeElement.id === 'prompt'", timeout=5)
    assert page.evaluate("document.getElementById('turn-live').textContent.length > 0")
    page.keyboard.press("Tab")
    where = page.evaluate(FIRST_MOVE)
    assert where["ok"], where
