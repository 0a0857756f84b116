"""The table on a touch screen (static/js/table/dnd.js): a phone context with touch (``has_touch``,
``is_mobile``) plays taps and drags made of real touch events (CDP ``Input.dispatchTouchEvent``: touchStart,
touchMove, touchEnd), not the mouse: a pile dragged onto the hand draws from it, a hand card dragged onto the
discard pile discards it, a tap selects a card and a tap on a button plays."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .conftest import shot

SEED = 53


def touch_drag(page: Any, cdp: Any, source: str, target: str, steps: int = 12) -> None:
    """Drag with one finger from the middle of ``source`` to the middle of ``target`` (selectors), in small
    moves as a finger does (once the cards' flights are over: the dealt cards fly to the hand)."""
    page.wait_for_function("document.getAnimations().every((a) => a.effect.getTiming().iterations === Infinity)")
    a, b = page.locator(source).first.bounding_box(), page.locator(target).first.bounding_box()
    assert a and b, (source, target)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def wait_turn(page: Any, others: list[Any], action: str) -> None:
    """The others move (over REST) until ``page`` is awaited for ``action``."""
    stats: dict[str, int] = {}
    for _ in range(20):
        v = h.view(page)
        if (v.get("prompt") or {}).get("action") == action:
            return
        mover = h.awaited_page(others)
        if mover is None:
            page.wait_for_timeout(100)
            continue
        h.act_over_rest(mover, stats)
        h.wait_version(page, h.version(mover))
    raise AssertionError(f"the page was never awaited for {action}")


@pytest.mark.e2e
def test_touch_drags_a_pile_to_the_hand_and_a_card_to_discard(start_server: Any,
                                                                              new_page: Any) -> None:
    server = start_server(SEED)
    anna = new_page()
    ben = new_page(width=360, height=740, has_touch=True, is_mobile=True)
    invite = h.create_table(anna, server.url, "mattel", "Anna", options={"phases_to_win": 1})
    h.seat_and_start(anna, invite, [(ben, "Ben")])
    cdp = ben.context.new_cdp_session(ben)
    assert ben.evaluate("navigator.maxTouchPoints") > 0
    wait_turn(ben, [anna], "draw")
    # the draw pile, dragged onto the hand with a finger, draws from it
    before, hand = h.version(ben), len(h.view(ben)["hand"])
    touch_drag(ben, cdp, "#pile-draw", "#hand")
    h.wait_version(ben, before + 1)
    assert len(h.view(ben)["hand"]) == hand + 1
    shot(ben, "touch-drawn-by-drag")
    # a hand card, dragged onto the discard pile with a finger, discards it
    v = h.view(ben)
    assert v["prompt"]["action"] == "play"
    card = next(c for c in v["hand"] if c["kind"] == "number")
    before = h.version(ben)
    touch_drag(ben, cdp, f"#hand [data-card-id='{card['id']}']", "#pile-discard")
    h.wait_version(ben, before + 1)
    assert all(c["id"] != card["id"] for c in h.view(ben)["hand"])
    # taps: the pile (a tap draws), a card (a tap selects it), the discard button
    wait_turn(ben, [anna], "draw")
    before = h.version(ben)
    ben.tap("#pile-draw")
    h.wait_version(ben, before + 1)
    card = next(c for c in h.view(ben)["hand"] if c["kind"] == "number")
    ben.tap(f"#hand [data-card-id='{card['id']}']")
    ben.wait_for_selector(f"#hand [data-card-id='{card['id']}'][aria-pressed=true]")
    before = h.version(ben)
    ben.tap("#act-discard")
    h.wait_version(ben, before + 1)
    assert all(c["id"] != card["id"] for c in h.view(ben)["hand"])
    assert not ben.p10_errors and not anna.p10_errors, (ben.p10_errors, anna.p10_errors)
