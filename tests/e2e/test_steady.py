"""A table page that holds still: the browser's own ``layout-shift`` entries (a ``PerformanceObserver``, buffered,
the shifts right after the player's own input left out as Core Web Vitals does) summed over a whole game of each
rule set, a human seat on a phone with two bots moving every fraction of a second, stay below 0.02 (Core Web
Vitals calls 0.1 good). Notices, banners and the ticker come and go over room of their own, an opened chip stays
in its place and one's own chip keeps its seat in the strip (``static/css/app.css``, ``banners.js``,
``ticker.js``, ``players.js``).

On a failure the message names the elements that moved most (each shift's ``sources`` with the rectangles before
and after), which is where to look."""

from __future__ import annotations

import json
from typing import Any

import pytest

from . import helpers as h
from .conftest import shot
from .layout import SHOW, until
from .states import moments

LIMIT = 0.02

# Installed before the page's own scripts: every layout shift of the document, with what moved.
OBSERVE = """
window.p10Shifts = [];
const describe = (node) => {
  if (!node || !node.nodeType) return '?';
  const el = node.nodeType === 1 ? node : node.parentElement;
  if (!el) return '#text';
  const id = el.id ? '#' + el.id : '';
  const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
  const parent = el.parentElement ? (el.parentElement.id ? '#' + el.parentElement.id : el.parentElement.tagName)
    : '';
  return `${parent} > ${el.tagName.toLowerCase()}${id}${cls}`;
};
const rect = (r) => [r.x, r.y, r.width, r.height].map(Math.round).join(',');
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    const dock = document.getElementById('dock');
    const view = window.P10 && P10.state && P10.state.view;
    const at = view ? `${(view.prompt || {}).action} hand ${(view.hand || []).length}` : '';
    const parts = dock ? [...dock.querySelectorAll('#turn-area > *, #builder, .dock-row')]
      .map((n) => (n.id || n.className) + ':' + Math.round(n.getBoundingClientRect().height)).join(' ') : '';
    window.p10Shifts.push({ value: entry.value, time: Math.round(entry.startTime), at: `${at} | ${parts}`,
      sources: (entry.sources || [])
        .map((s) => `${describe(s.node)} ${rect(s.previousRect)} -> ${rect(s.currentRect)}`) });
  }
}).observe({ type: 'layout-shift', buffered: true });
"""

# The seats of the strip, in the order shown.
STRIP = "[...document.querySelectorAll('#players article[data-seat]')].map((n) => n.dataset.seat)"

# Fixed seeds for the games to be short: one phase to win, two bots (normal) at 0.2 s a move.
GAMES = [("mattel", 306), ("master", 627), ("board", 1120)]
PHONES = [(360, 740), (390, 844)]


def shifted(page: Any) -> tuple[float, list[dict[str, Any]]]:
    entries: list[dict[str, Any]] = page.evaluate("window.p10Shifts")
    return sum(e["value"] for e in entries), entries


def worst(entries: list[dict[str, Any]], count: int = 8) -> str:
    """The largest shifts with their moved elements, for the failure message."""
    top = sorted(entries, key=lambda e: -e["value"])[:count]
    return json.dumps([{"value": round(e["value"], 4), "at": e["at"], "sources": e["sources"][:4]} for e in top],
                      indent=1)


def play_with_bots(start_server: Any, new_page: Any, ruleset: str, seed: int, size: tuple[int, int]) -> Any:
    """Anna on a phone with two bots, a whole game (one phase to win), her moves through the page's controls."""
    server = start_server(seed, PHASE10_BOT_DELAY_SECONDS="0.2")
    anna = new_page(width=size[0], height=size[1])
    anna.add_init_script(OBSERVE)
    h.create_table(anna, server.url, ruleset, "Anna", seats=3, options={"phases_to_win": 1})
    anna.wait_for_selector("#host-extras:not(.hidden)")
    for seat in (1, 2):
        anna.click("#add-bot")
        anna.wait_for_selector(f".seat-row[data-seat='{seat}']")
    anna.click("#start-button")
    anna.wait_for_selector("#game:not(.hidden)")
    h.wait_version(anna, 0)
    anna.wait_for_timeout(300)  # the table's first picture settles: the game's own shifts count from here
    anna.evaluate("window.p10Shifts = []")
    order = anna.evaluate(STRIP)
    stats: dict[str, int] = {}
    seen: set[str] = set()
    for _ in range(600):
        v = h.view(anna)
        if v["over"]:
            break
        prompt = v.get("prompt") or {}
        stage = str(prompt.get("action"))
        if stage not in seen:  # a picture of each kind of moment, as the player sees it (test artefacts)
            seen.add(stage)
            shot(anna, f"steady-{ruleset}-{size[0]}x{size[1]}-{stage}")
        if prompt.get("action") not in (None, "wait"):
            h.act(anna, stats)
        else:
            at = h.version(anna)
            anna.wait_for_function("v => P10.state.version > v || P10.state.view.over", arg=at, timeout=60_000)
    else:
        raise AssertionError("the game did not finish")
    anna.wait_for_selector("#summary[open]")
    anna.wait_for_timeout(500)
    assert anna.evaluate(STRIP) == order, "the strip left the seating order"  # one's own chip stays in its place
    assert not anna.p10_errors, anna.p10_errors
    return anna


@pytest.mark.e2e
@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("ruleset", "seed"), GAMES)
def test_a_whole_game_on_a_phone_holds_still(start_server: Any, new_page: Any, ruleset: str, seed: int,
                                             size: tuple[int, int]) -> None:
    anna = play_with_bots(start_server, new_page, ruleset, seed, size)
    total, entries = shifted(anna)
    print(f"\nlayout-shift {ruleset} {size[0]}x{size[1]}: {total:.4f} over {len(entries)} shifts")
    if total >= LIMIT:
        shot(anna, f"steady-{ruleset}-{size[0]}-failed")
    assert total < LIMIT, f"{ruleset} at {size}: layout shifts sum to {total:.4f}\n{worst(entries)}"
    whole_on_a_tap(anna)


# A skip played on this seat, brought as the socket brings it: a banner that needs more than the band's two lines.
SKIP = """() => {
  const v = P10.state.view, skipper = v.players.find((p) => p.seat !== v.seat).seat;
  P10.table.emit('message', { type: 'update', game_id: P10.table.state.gameId, version: 0,
                              events: [{ type: 'skip_played', seat: skipper, target: v.seat }] });
}"""
FIXED = "getComputedStyle(document.getElementById('notices')).position"


def whole_on_a_tap(page: Any) -> None:
    """The band over the top bar cuts a banner's words to two lines; a tap on them shows them whole in the page's
    flow (the table pushed down on the player's own tap), and another puts the banner back in the band."""
    h.close_summary(page)
    page.evaluate(SKIP)
    text = page.locator("[data-banner='skip'] .banner-text")
    text.wait_for()
    assert page.evaluate(FIXED) == "fixed"
    text.click()
    page.wait_for_selector("#notices.unfolded")
    assert page.evaluate(FIXED) == "static"
    assert text.evaluate("(n) => n.scrollHeight <= n.clientHeight + 1"), "the words are still cut"
    text.click()
    page.wait_for_selector("#notices:not(.unfolded)")


# Where a seat's chip, the other chips and the ring lie, rounded to the pixel.
BOXES = """() => Object.fromEntries([...document.querySelectorAll('#players article[data-seat], #board')].map((n) => {
  const r = n.getBoundingClientRect();
  return [n.id || 'seat ' + n.dataset.seat, [r.x, r.y, r.width, r.height].map(Math.round)];
}))"""


@pytest.mark.e2e
def test_a_seat_keeps_the_room_of_its_phase_b3(start_server: Any, new_page: Any) -> None:
    """B-3, B-5: in the board game on a phone held upright, a seat that has not laid its phase keeps the room of
    it on the felt, the outline of each group its phase asks for with a place per card; laying the phase fills
    the outline: no chip and not the ring moves or changes size."""
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    anna.set_viewport_size({"width": 360, "height": 740})
    until(anna, "window.innerWidth === 360")
    view = next(v for v in moments("board") if len(v["players"]) == 3 and v["table"]
                and sum(not p["laid"] for p in v["players"]) == 2)
    view = json.loads(json.dumps(view))
    seat = next(p for p in view["players"] if not p["laid"])
    groups = next(phase["groups"] for phase in view["phases"] if phase["number"] == seat["phase"])
    assert [g["kind"] for g in groups] == ["colour"], groups  # phase 1: five cards of one colour
    anna.evaluate(SHOW, [view, ["Anna", "Boris", "Chiara"], False, False])
    anna.wait_for_timeout(100)  # the ring re-lays itself once the felt has its size (ResizeObserver)
    chip = f"#players article[data-seat='{seat['seat']}']"
    assert anna.locator(f"{chip} .ghost").count() == len(groups)
    assert anna.locator(f"{chip} .ghost-card").count() == sum(g["size"] for g in groups)
    laid_chip = f"#players article[data-seat='{view['seat']}']"
    assert anna.locator(f"{laid_chip} .ghost").count() == 0  # a seat with its phase down keeps no outline
    before = anna.evaluate(BOXES)
    # the seat lays its phase: five red cards (ids above the engine's)
    cards = [{"id": 960 + i, "kind": "number", "number": n, "colour": "red", "label": f"red {n}"}
             for i, n in enumerate((2, 5, 9, 11, 12))]
    view["table"].append({"owner": seat["seat"], "kind": "colour", "colour": "red", "cards": cards})
    seat["laid"] = True
    anna.evaluate(SHOW, [view, ["Anna", "Boris", "Chiara"], False, False])
    anna.wait_for_timeout(100)
    assert anna.locator(f"{chip} .ghost").count() == 0
    assert anna.locator(f"{chip} [data-card-id]").count() == len(cards)
    shot(anna, "board-phase-room-laid-360x740")
    assert anna.evaluate(BOXES) == before
