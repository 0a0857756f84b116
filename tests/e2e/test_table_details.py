"""Small things of the table page on a 360×740 phone, each as a player meets it: the stand-in's badge keeps a
mark's size on a folded chip, one's own chip is not drawn like the on-turn ring, the ★ on the card just drawn
is not under the next card, a timer the host turns off mid-game stops counting, a rematch offered while the
end-of-game dialog is open is not left under it, and the seat-move panel closes with its own button (and
Escape). The page is a real table's; the moments are crafted views (``layout.SHOW``) where a whole game would
only be the way there."""

from __future__ import annotations

import json
from typing import Any

import pytest

from . import helpers as h
from .conftest import shot
from .layout import SHOW, until
from .states import moments

NAMES = ["Anna", "Boris", "Chiara"]


def three_seats(action: str) -> dict[str, Any]:
    view = next(v for v in moments("mattel") if v["seats"] == 3 and (v.get("prompt") or {}).get("action") == action)
    copy: dict[str, Any] = json.loads(json.dumps(view))
    return copy


def settle(page: Any) -> None:
    until(page, "document.getAnimations().every(a => a.playState !== 'running' || "
                "a.effect.getComputedTiming().endTime === Infinity)")


@pytest.mark.e2e
def test_chips_marks_timer_rematch_and_seat_move_on_a_phone(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    anna.set_viewport_size({"width": 360, "height": 740})
    until(anna, "window.innerWidth === 360")
    view = three_seats("play")
    anna.evaluate("() => { P10.state.table = Object.assign({}, P10.state.table, { turn_timer: 'fast' }); }")
    anna.evaluate(SHOW, [view, NAMES, True, False])
    # a stand-in plays for a folded opponent's chip: its badge is a mark of at least 16×16 px
    other = next(p["seat"] for p in view["players"] if p["seat"] != view["seat"])
    anna.evaluate("(seat) => { P10.state.table.stand_ins = [seat]; P10.table.render(); }", other)
    settle(anna)
    badge = anna.locator(f"#players [data-seat='{other}'] .badge.stand-in").bounding_box()
    assert badge and badge["width"] >= 16 and badge["height"] >= 16, badge
    # one's own chip: no double border (the on-turn ring's look)
    own = anna.evaluate("getComputedStyle(document.querySelector('#players .player.me')).borderTopStyle")
    assert own != "double", own
    # the ★ of the card just drawn lies on that card, not under the next one
    star = anna.evaluate("""() => {
      const cards = [...document.querySelectorAll('#hand [data-card-id]')];
      const node = cards[Math.floor(cards.length / 2)];
      node.classList.add('just-drawn');
      const r = node.getBoundingClientRect(), s = getComputedStyle(node, '::after');
      const x = r.left + node.clientLeft + parseFloat(s.left) + parseFloat(s.width) / 2;
      const y = r.top + node.clientTop + parseFloat(s.top) + parseFloat(s.height) / 2;
      const hit = document.elementFromPoint(x, y);
      return { on_card: Boolean(hit) && hit.closest('[data-card-id]') === node, x, y,
               hit: hit ? hit.className : null };
    }""")
    assert star["on_card"], star
    shot(anna, "details-standin-own-star")
    # the host turns the timer off mid-game (a table message, no new view): the clock goes at once
    assert anna.locator("#timer").is_visible()
    anna.evaluate("() => { P10.state.table = Object.assign({}, P10.state.table, { turn_timer: 'off', timer: null });"
                  " P10.table.render(); }")
    anna.wait_for_timeout(1100)  # a tick of the clock
    assert anna.locator("#timer").is_hidden()
    # the game is over and its dialog open; then Boris offers a rematch: the dialog goes, the offer shows
    over = dict(view, over=True, winners=[other], prompt=None, awaited=[])
    anna.evaluate(SHOW, [over, NAMES, False, False])
    anna.evaluate("() => { P10.state.table = Object.assign({}, P10.state.table, { status: 'finished', rematch: null });"
                  " P10.table.render(); }")
    anna.click("#over-summary")
    assert anna.evaluate("document.getElementById('summary').open")
    anna.evaluate("""([by, me]) => {
      const answers = [0, 1, 2].map((seat) => ({ seat, name: ['Anna', 'Boris', 'Chiara'][seat], is_host: seat === me,
        is_bot: false, answer: seat === by ? 'accepted' : 'pending' }));
      P10.state.table = Object.assign({}, P10.state.table,
        { rematch: { after: 1, options: {}, by, answers } });
      P10.table.render();
    }""", [other, view["seat"]])
    until(anna, "!document.getElementById('summary').open")
    assert anna.locator("#rematch-accept").is_visible()
    shot(anna, "details-rematch-offer")
    # the summary opens again on request and stays (the offer was seen)
    anna.click("#over-summary")
    anna.evaluate("P10.table.render()")
    assert anna.evaluate("document.getElementById('summary').open")
    anna.click("#summary-close")
    # the seat-move panel closes with its own button and with Escape
    anna.reload()
    anna.wait_for_selector("#game:not(.hidden)")
    anna.click("#transfer-button")
    anna.wait_for_selector("#transfer:not(.hidden)")
    close = anna.locator("#transfer-close")
    box = close.bounding_box()
    assert box and box["width"] >= 24 and box["height"] >= 24, box
    shot(anna, "details-seat-move-panel")
    close.click()
    anna.wait_for_selector("#transfer.hidden", state="attached")
    assert anna.evaluate("document.activeElement.id") == "transfer-button"
    assert anna.get_attribute("#transfer-button", "aria-expanded") == "false"
    anna.click("#transfer-button")
    anna.wait_for_selector("#transfer:not(.hidden)")
    anna.keyboard.press("Escape")
    anna.wait_for_selector("#transfer.hidden", state="attached")
    assert not anna.p10_errors, anna.p10_errors
