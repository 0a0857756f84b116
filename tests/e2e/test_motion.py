"""Direct moves and visible change on the table page, in real Chromium: drag and drop with pointer events
(a hit onto a legal group, a refused drop onto an illegal one, a discard, a reorder in the hand), only the
legal targets highlighted (from the prompt's hits and discards, C-4), the just-drawn mark, the animations of
one's own and the opponent's moves, prefers-reduced-motion, and the sound with its remembered off switch.

Seed 63 (Mattel, two players, M-4): Anna starts; after drawing from the draw pile she can lay phase 1 (two
sets of three, C-3) and then has exactly one legal hit — card 73 onto her group #1, not onto #2 (C-4).
Found offline with the engine (a search over seeds for that position).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from . import helpers as h

SEED = 63
HIT_CARD, LEGAL_GROUP, ILLEGAL_GROUP = 73, 0, 1

# Counts the animations the page starts and the tones it synthesises (the page's own code is unchanged).
COUNTERS = """
window.__animations = 0; window.__tones = 0; window.__animated = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations++;
  window.__animated.push(this.matches('[data-pawn]') ? 'pawn' : this.matches('.die-face') ? 'dice' : 'other');
  return animate.apply(this, args);
};
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function (...args) { window.__tones++; return oscillator.apply(this, args); };
"""


def counted(new_page: Any, reduced: set[int]) -> Any:
    """``new_page`` whose pages count animations and tones; the ``reduced``-th pages prefer reduced motion."""
    made: list[Any] = []

    def make(**kwargs: Any) -> Any:
        page = new_page(**kwargs)
        page.add_init_script(COUNTERS)
        if len(made) in reduced:
            page.emulate_media(reduced_motion="reduce")
        made.append(page)
        return page

    return make


def centre(page: Any, selector: str, x: float = 0.5) -> tuple[float, float]:
    target = page.locator(selector).first
    target.wait_for(state="visible")  # a render in progress (a builder closing) may hide it for a moment
    box = target.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] * x, box["y"] + box["height"] / 2


def drag(page: Any, card: int, target: str, during: Any = None, x: float = 0.5) -> None:
    """Press on hand card ``card``, move the mouse in steps onto ``target`` (``during(page)`` is called while
    the card hangs over it) and let go."""
    sx, sy = centre(page, f"#hand [data-card-id='{card}']")
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 12, sy - 12, steps=3)
    tx, ty = centre(page, target, x)
    page.mouse.move(tx, ty, steps=8)
    if during is not None:
        during(page)
    page.mouse.up()


def hand_ids(page: Any) -> list[int]:
    return [int(i) for i in page.eval_on_selector_all("#hand [data-card-id]", "ns => ns.map(n => n.dataset.cardId)")]


def highlighted(page: Any) -> list[str]:
    result: list[str] = page.eval_on_selector_all(
        ".legal-target", "ns => ns.map(n => n.id || 'group ' + n.dataset.group)")
    return sorted(result)


def draw_and_lay(anna: Any) -> int:
    """Anna draws blind and lays phase 1 with the solver's suggestion; returns the card she drew."""
    before = {c["id"] for c in h.view(anna)["hand"]}
    version = h.version(anna)
    anna.click("#pile-draw")
    h.wait_version(anna, version + 1)
    drawn = next(c["id"] for c in h.view(anna)["hand"] if c["id"] not in before)
    groups = h.suggestion(anna)
    assert groups, "seed 63: Anna can lay phase 1 after her draw"
    anna.click("#builder-lay")
    h.wait_version(anna, version + 2)
    return drawn


@pytest.mark.e2e
def test_drag_hit_refused_drop_discard_reorder_and_targets(start_server: Any,
                                                                            new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, counted(new_page, reduced=set()), "mattel", {})
    assert h.view(anna)["turn"] == 0
    # Both pages watched the waiting room: the first deal comes card by card from the draw pile (M-2).
    for page in (anna, ben):
        page.wait_for_function("() => window.__animations >= 10")

    # The draw flies into the hand and the card drawn is marked until Anna's next move.
    before = {c["id"] for c in h.view(anna)["hand"]}
    anna.evaluate("window.__animations = 0")
    ben.evaluate("window.__animations = 0")
    anna.click("#pile-draw")
    h.wait_version(anna, 1)
    drawn = next(c["id"] for c in h.view(anna)["hand"] if c["id"] not in before)
    anna.wait_for_selector(f"#hand [data-card-id='{drawn}'].just-drawn")
    assert anna.locator("#hand .just-drawn").count() == 1
    assert anna.get_attribute(f"#hand [data-card-id='{drawn}']", "aria-description") == "just drawn"
    assert anna.evaluate("window.__animations") >= 1  # the drawn card came from the pile
    h.wait_version(ben, 1)
    ben.wait_for_function("() => window.__animations >= 1")  # Ben sees a face-down card go to Anna's seat
    assert ben.locator("#hand .just-drawn").count() == 0

    assert h.suggestion(anna)
    anna.click("#builder-lay")
    h.wait_version(anna, 2)
    assert anna.locator("#hand .just-drawn").count() == 0  # her next move took the mark away
    prompt = h.view(anna)["prompt"]
    assert prompt["hits"] == [{"card": HIT_CARD, "group": LEGAL_GROUP, "end": None}]
    assert len(h.view(anna)["table"]) == 2 and HIT_CARD in prompt["discards"]

    # Tap path: with the card selected only its legal group and the discard pile are lit, and only that
    # group offers a hit button ("Hit here" no longer shows on every group).
    h.click_card(anna, HIT_CARD)
    assert highlighted(anna) == [f"group {LEGAL_GROUP}", "pile-discard"]
    assert anna.locator("#players [data-hit]").count() == 1
    assert anna.locator(f"#players [data-group='{LEGAL_GROUP}'] [data-hit]").count() == 1
    anna.keyboard.press("Escape")
    anna.wait_for_selector(f"#hand [data-card-id='{HIT_CARD}'][aria-pressed=false]")
    assert highlighted(anna) == [] and anna.locator("#players [data-hit]").count() == 0

    # A drop onto the illegal group sends nothing, changes nothing, and the card goes back to the hand.
    sent = commands_sent(anna)
    lit: list[list[str]] = []
    drag(anna, HIT_CARD, f"#players [data-group='{ILLEGAL_GROUP}']", during=lambda p: lit.append(highlighted(p)))
    assert lit == [[f"group {LEGAL_GROUP}", "pile-discard"]]  # while dragging too: the legal targets only
    anna.wait_for_selector(".drag-ghost", state="detached")
    assert anna.inner_text("#action-error") == "That card cannot go there."
    assert sent() == 0 and h.version(anna) == 2
    assert HIT_CARD in hand_ids(anna) and len(h.view(anna)["table"][ILLEGAL_GROUP]["cards"]) == 3

    # The same card dropped onto its legal group is the hit; on Ben's page it flies from Anna's seat.
    ben.evaluate("window.__animations = 0")
    drag(anna, HIT_CARD, f"#players [data-group='{LEGAL_GROUP}']")
    h.wait_version(anna, 3)
    h.wait_version(ben, 3)
    ben.wait_for_function("() => window.__animations >= 1")
    table = h.view(anna)["table"]
    assert HIT_CARD in [c["id"] for c in table[LEGAL_GROUP]["cards"]] and HIT_CARD not in hand_ids(anna)
    anna.wait_for_selector(f"#players [data-group='{LEGAL_GROUP}'] [data-card-id='{HIT_CARD}']")
    assert sent() == 1

    # Reorder: the first card dropped behind the last; the order survives a reload (this browser).
    order = hand_ids(anna)
    assert len(order) >= 3
    drag(anna, order[0], f"#hand [data-card-id='{order[-1]}']", x=0.9)
    expected = order[1:] + order[:1]
    anna.wait_for_function("ids => [...document.querySelectorAll('#hand [data-card-id]')]"
                           ".map(n => +n.dataset.cardId).join() === ids.join()", arg=expected)
    assert h.version(anna) == 3 and sent() == 1  # nothing sent: the order is the page's own
    assert anna.get_attribute("#sort-number", "aria-pressed") == "false"
    anna.reload()
    anna.wait_for_selector("#game:not(.hidden) #hand [data-card-id]")
    assert hand_ids(anna) == expected

    # Drag onto the discard pile: the discard, and Ben's page hears that it is his turn.
    ben.evaluate("window.__tones = 0")
    card = h.view(anna)["prompt"]["discards"][0]
    drag(anna, card, "#pile-discard")
    h.wait_version(anna, 4)
    assert h.view(anna)["discard_top"]["id"] == card and card not in hand_ids(anna)
    h.wait_version(ben, 4)
    assert h.view(ben)["prompt"]["action"] == "draw"
    ben.wait_for_function("() => window.__tones >= 1")
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


@pytest.mark.e2e
def test_reduced_motion_animates_nothing_sound_is_remembered(start_server: Any,
                                                                        new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, counted(new_page, reduced={0, 1}), "mattel", {})
    for page in (anna, ben):
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
        page.evaluate("window.__animations = 0")

    # Ben switches sound off; the switch is remembered by his browser.
    assert ben.get_attribute("#sound-button", "aria-pressed") == "true"
    ben.click("#sound-button")
    assert ben.get_attribute("#sound-button", "aria-pressed") == "false"
    ben.reload()
    ben.wait_for_selector("#game:not(.hidden)")
    assert ben.get_attribute("#sound-button", "aria-pressed") == "false"
    ben.evaluate("window.__animations = 0")

    drawn = draw_and_lay(anna)
    assert drawn in hand_ids(anna)
    # The mark is no motion: it is shown with reduced motion too (until the lay, which took it away here).
    drag(anna, HIT_CARD, f"#players [data-group='{ILLEGAL_GROUP}']")  # refused, the card returns at once
    anna.wait_for_selector(".drag-ghost", state="detached")
    card = h.view(anna)["prompt"]["discards"][0]
    drag(anna, card, "#pile-discard")
    h.wait_version(anna, 3)
    h.wait_version(ben, 3)
    assert h.view(ben)["prompt"]["action"] == "draw"
    assert anna.evaluate("window.__animations") == 0 and ben.evaluate("window.__animations") == 0
    assert ben.evaluate("window.__tones") == 0  # his turn came silently: sound is off

    # Ben's draw is marked with reduced motion as well.
    version = h.version(ben)
    before = set(hand_ids(ben))
    ben.click("#pile-draw")
    h.wait_version(ben, version + 1)
    new = [i for i in hand_ids(ben) if i not in before]
    assert len(new) == 1
    ben.wait_for_selector(f"#hand [data-card-id='{new[0]}'].just-drawn")
    assert ben.evaluate("window.__animations") == 0 and ben.evaluate("window.__tones") == 0

    # The keyboard's reorder: Alt+→ / Alt+← move the selected card (and never navigate the page away).
    order = hand_ids(ben)
    url = ben.url
    h.click_card(ben, order[0])
    ben.keyboard.press("Alt+ArrowRight")
    ben.wait_for_function("id => +document.querySelectorAll('#hand [data-card-id]')[1].dataset.cardId === id",
                          arg=order[0])
    assert hand_ids(ben) == [order[1], order[0], *order[2:]]
    assert ben.evaluate("+document.activeElement.dataset.cardId") == order[0]
    ben.keyboard.press("Alt+ArrowLeft")
    ben.wait_for_function("id => +document.querySelectorAll('#hand [data-card-id]')[0].dataset.cardId === id",
                          arg=order[0])
    assert ben.url == url and hand_ids(ben) == order
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


def touch_drag(page: Any, card: int, target: str) -> None:
    """The same drag with a finger: raw touch input through the DevTools protocol (Chromium turns it into
    pointer events of type touch, as on a phone)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    sx, sy = centre(page, f"#hand [data-card-id='{card}']")
    tx, ty = centre(page, target)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": sx, "y": sy}]})
    for k in range(1, 11):
        x, y = sx + (tx - sx) * k / 10, sy + (ty - sy) * k / 10
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def landed(page: Any, selector: str) -> None:
    """Wait until ``selector`` is shown and motion.js's card flights are over (a finger put down on a card
    still in flight, or on a group the next render replaces, touches something else), then scroll it into
    the middle of its scrolling area in one step in the page."""
    page.wait_for_selector(selector)
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running' || "
                           "a.effect.getComputedTiming().endTime === Infinity)")
    page.eval_on_selector(selector, "n => n.scrollIntoView({block: 'center'})")


@pytest.mark.e2e
def test_touch_drag_on_a_phone_hits_and_discards_c4(start_server: Any, new_page: Any) -> None:
    """At 360×740 with a finger: the hit and the discard by dragging, as with the mouse."""
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {})
    anna.set_viewport_size({"width": 360, "height": 740})
    draw_and_lay(anna)
    group = f"#players [data-group='{LEGAL_GROUP}']"
    landed(anna, f"{group} [data-card-id]")
    landed(anna, group)
    touch_drag(anna, HIT_CARD, group)
    h.wait_version(anna, 3)
    assert HIT_CARD in [c["id"] for c in h.view(anna)["table"][LEGAL_GROUP]["cards"]]
    card = h.view(anna)["prompt"]["discards"][-1]
    landed(anna, f"{group} [data-card-id='{HIT_CARD}']")
    landed(anna, "#pile-discard")
    touch_drag(anna, card, "#pile-discard")
    h.wait_version(anna, 4)
    assert h.view(anna)["discard_top"]["id"] == card
    h.wait_version(ben, 4)
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


@pytest.mark.e2e
def test_board_dice_tumble_and_pawn_walks_on_both_pages_b5(start_server: Any, new_page: Any) -> None:
    """B-5: a roll and a move animate the dice and the pawn, on the mover's page and on the other one."""
    server = start_server(SEED)
    pages = h.start_two(server, counted(new_page, reduced=set()), "board", {})[:2]
    mover = h.awaited_page(list(pages))
    assert mover is not None and h.view(mover)["prompt"]["action"] == "roll"
    other = pages[1] if mover is pages[0] else pages[0]
    seat = h.view(mover)["seat"]
    for page in pages:
        page.evaluate("window.__animated = []")
    mover.click("#act-roll")
    for page in pages:
        h.wait_version(page, 1)
        page.wait_for_function("() => document.querySelectorAll('#board .die-face').length > 0")
        page.wait_for_function("() => window.__animated.includes('dice')")  # the dice tumble
    field = h.view(mover)["pawns"][seat]
    dice = h.view(other)["dice"]
    for page in pages:
        page.evaluate("window.__animated = []")
    h.perform(mover, {"type": "move", "steps": h.view(mover)["prompt"]["moves"][0]["steps"]})
    for page in pages:
        h.wait_version(page, 2)
        assert h.view(page)["pawns"][seat] != field and h.view(page)["dice"] == dice
        page.wait_for_function("() => window.__animated.includes('pawn')")  # the pawn walks
        assert "dice" not in page.evaluate("window.__animated")  # the same dice: they stay still
    assert not pages[0].p10_errors and not pages[1].p10_errors


def number_discards(page: Any) -> list[int]:
    """The prompt's discardable cards that are number cards (a skip would also need its target, M-6)."""
    v = h.view(page)
    numbers = {c["id"] for c in v["hand"] if c["kind"] == "number"}
    return [i for i in v["prompt"]["discards"] if i in numbers]


@pytest.mark.e2e
def test_tapping_the_lit_discard_pile_discards_the_selection(start_server: Any,
                                                                                      new_page: Any) -> None:
    """M-4: in the play stage the discard pile is a button only while the one selected card may be discarded
    (the prompt's ``discards``): then it is lit, and a tap on it (or Enter on it) is the discard."""
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {})
    anna.click("#pile-draw")
    h.wait_version(anna, 1)
    assert anna.is_disabled("#pile-discard")  # nothing selected: not a target
    first, second = number_discards(anna)[:2]
    h.click_card(anna, first)
    assert anna.is_enabled("#pile-discard")
    assert "legal-target" in (anna.get_attribute("#pile-discard", "class") or "")
    h.click_card(anna, second)  # two cards selected: no single card to discard
    assert anna.is_disabled("#pile-discard")
    anna.click(f"#hand [data-card-id='{second}']")
    anna.wait_for_selector(f"#hand [data-card-id='{second}'][aria-pressed=false]")
    anna.click("#pile-discard")
    h.wait_version(anna, 2)
    assert h.view(anna)["discard_top"]["id"] == first and first not in [c["id"] for c in h.view(anna)["hand"]]

    # Ben with the keyboard only: draw, select a card (Space), then Enter on the lit pile.
    h.wait_version(ben, 2)
    ben.focus("#pile-draw")
    ben.keyboard.press("Enter")
    h.wait_version(ben, 3)
    card = number_discards(ben)[0]
    ben.focus(f"#hand [data-card-id='{card}']")
    ben.keyboard.press("Space")
    ben.wait_for_selector(f"#hand [data-card-id='{card}'][aria-pressed=true]")
    ben.wait_for_selector("#pile-discard.legal-target:not([disabled])")
    ben.focus("#pile-discard")
    ben.keyboard.press("Enter")
    h.wait_version(ben, 4)
    assert h.view(ben)["discard_top"]["id"] == card
    assert h.view(anna)["prompt"]["action"] in ("draw", "wait")
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


# Master seed 3, two players (found offline with the engine): Anna (seat 0) starts; after her blind draw she
# holds Skip 121 (which only Ben may receive, R-10) and Give me five 126.
MASTER_SEED, SKIP_CARD, GIVE_CARD = 3, 121, 126


def lit(page: Any) -> list[str]:
    result: list[str] = page.eval_on_selector_all(
        ".legal-target", "ns => ns.map(n => n.id || (n.dataset.seat !== undefined ? 'seat ' + n.dataset.seat"
                         " : 'group ' + n.dataset.group))")
    return sorted(result)


@pytest.mark.e2e
def test_master_skip_dragged_onto_a_player_r10(start_server: Any, new_page: Any) -> None:
    """R-10: a Skip dragged onto the player it may be laid in front of is played there; while it is held only
    that player is lit (the prompt's ``plays``), and a drop onto oneself sends nothing. R-11: a Give me five
    lights the blue pile instead. The buttons stay."""
    server = start_server(MASTER_SEED)
    anna, ben, _ = h.start_two(server, new_page, "master", {})
    assert h.view(anna)["turn"] == 0
    anna.click("#pile-draw")
    h.wait_version(anna, 1)
    plays = h.view(anna)["prompt"]["plays"]
    assert {"card": SKIP_CARD, "target": 1, "to": 1} in plays
    assert {"card": GIVE_CARD, "target": None, "to": None} in plays

    # Tap path: the selected Give me five lights the blue pile, its buttons stay; the Skip lights Ben only.
    h.click_card(anna, GIVE_CARD)
    assert lit(anna) == ["pile-blue"]
    assert anna.locator("#act-play-action").count() == 1 and anna.locator("#act-play-decline").count() == 1
    anna.keyboard.press("Escape")
    h.click_card(anna, SKIP_CARD)
    assert lit(anna) == ["seat 1"] and anna.locator("#act-play-action").count() == 1
    anna.keyboard.press("Escape")
    anna.wait_for_selector(f"#hand [data-card-id='{SKIP_CARD}'][aria-pressed=false]")

    # A drop onto herself sends nothing: the card flies back.
    sent = commands_sent(anna)
    held: list[list[str]] = []
    drag(anna, SKIP_CARD, "#players [data-seat='0'] .facts", during=lambda p: held.append(lit(p)))
    assert held == [["seat 1"]]
    anna.wait_for_selector(".drag-ghost", state="detached")
    assert sent() == 0 and h.version(anna) == 1 and SKIP_CARD in hand_ids(anna)

    # Onto Ben: the Skip lies in front of him.
    drag(anna, SKIP_CARD, "#players [data-seat='1'] .facts")
    h.wait_version(anna, 2)
    assert sent() == 1 and SKIP_CARD not in hand_ids(anna)
    h.wait_version(ben, 2)
    ben_seat = next(p for p in h.view(ben)["players"] if p["seat"] == 1)
    assert SKIP_CARD in [c["id"] for c in ben_seat["in_front"]] or h.view(ben)["turn"] == 0
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


MATTEL_SKIP_SEED, MATTEL_SKIP = 7, 107  # seed 7, two seats: Anna starts and draws the skip 107


def drag_from(page: Any, source: str, target: str) -> None:
    """Press on ``source`` (a pile), move the mouse in steps onto ``target`` and let go."""
    sx, sy = centre(page, source)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 12, sy - 12, steps=3)
    tx, ty = centre(page, target)
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()


@pytest.mark.e2e
def test_drag_a_pile_to_draw_and_a_skip_onto_a_player(
        start_server: Any, new_page: Any) -> None:
    """M-4: the draw pile dragged onto the hand draws its top card (a drag that ends elsewhere draws nothing).
    M-6: a skip held over the table lights the player it may skip (the prompt's ``skip_targets``) and the
    discard pile; dropped on that player it is discarded naming them, and their turn is skipped."""
    server = start_server(MATTEL_SKIP_SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {}, ben_width=360)
    assert h.awaited_page([anna, ben]) is anna
    before = hand_ids(anna)
    drag_from(anna, "#pile-draw", "#players")  # not onto the hand: nothing is drawn
    anna.wait_for_selector(".drag-ghost", state="detached")
    assert h.version(anna) == 0 and hand_ids(anna) == before
    drag_from(anna, "#pile-draw", "#hand")
    h.wait_version(anna, 1)
    assert MATTEL_SKIP in hand_ids(anna) and len(hand_ids(anna)) == len(before) + 1

    h.click_card(anna, MATTEL_SKIP)
    assert lit(anna) == ["pile-discard", "seat 1"]
    anna.keyboard.press("Escape")
    anna.wait_for_selector(f"#hand [data-card-id='{MATTEL_SKIP}'][aria-pressed=false]")
    drag(anna, MATTEL_SKIP, "#players [data-seat='1'] .facts")
    h.wait_version(anna, 2)
    h.wait_version(ben, 2)
    assert MATTEL_SKIP not in hand_ids(anna)
    assert h.view(anna)["turn"] == 0 and h.view(anna)["prompt"]["action"] == "draw"  # Ben was skipped
    assert h.view(anna)["discard_top"]["id"] == MATTEL_SKIP
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


COUNT_COMMAND_FRAMES = """
(() => {
  // Every command frame the page sends on its socket from now on (the socket may already be open).
  window.__commandFrames = [];
  if (WebSocket.prototype.__counting) return;
  WebSocket.prototype.__counting = true;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === "string" && data.includes('"type":"command"')) window.__commandFrames.push(data);
    return send.call(this, data);
  };
})()
"""


def commands_sent(page: Any) -> Any:
    """Count the commands the page sends from now on, over its socket (command frames) or by REST (POSTs to
    /commands, while no socket is open)."""
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/commands") else None)
    page.evaluate(COUNT_COMMAND_FRAMES)
    return lambda: len(posts) + page.evaluate("window.__commandFrames.length")


LATE_DRAW_ANSWERS = """
(() => {
  // The answer to a draw (its socket's ack) is late; the socket's update is not. While window.__sent is a list,
  // every command frame sent is recorded in it.
  const late = new Set();
  const NativeSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === "string" && data.includes('"type":"command"')) {
      const frame = JSON.parse(data);
      if (frame.command.type === "draw") late.add(frame.command_id);
      if (Array.isArray(window.__sent)) window.__sent.push(data);
    }
    return NativeSend.call(this, data);
  };
  const NativeListen = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return NativeListen.call(this, type, listener, options);
    return NativeListen.call(this, type, (event) => {
      const ref = typeof event.data === "string" && event.data.startsWith('{"type":"ack"')
        ? JSON.parse(event.data).ref : null;
      if (ref !== null && late.has(ref)) setTimeout(() => listener(event), 2500);
      else listener(event);
    }, options);
  };
})();
"""


@pytest.mark.e2e
def test_a_move_during_a_late_answer_waits_and_keeps_selection(
        start_server: Any, new_page: Any) -> None:
    """M-4: the socket brings Ben the picture after his draw before the draw's own answer (held back 2.5 s here).
    He picks a card on that picture and discards it with Enter on the lit pile: the discard waits for the draw's
    answer and is then made, and the late answer leaves his selection alone. A second click on the draw pile made
    on the old picture (a double click) is dropped, not sent."""
    def make(**kwargs: Any) -> Any:
        page = new_page(**kwargs)
        if kwargs:  # Ben's page (start_two opens Anna's with no arguments)
            page.add_init_script(LATE_DRAW_ANSWERS)
        return page

    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, make, "mattel", {})
    anna.click("#pile-draw")
    h.wait_version(anna, 1)
    h.click_card(anna, number_discards(anna)[0])
    anna.click("#pile-discard")
    h.wait_version(ben, 2)
    sent = ben.evaluate("""() => { window.__sent = [];
      const fetched = window.fetch;
      window.fetch = (input, init) => {
        if (init && init.method === "POST" && String(input).endsWith("/commands")) window.__sent.push(init.body);
        return fetched(input, init); }; }""")
    assert sent is None
    ben.dblclick("#pile-draw")
    h.wait_version(ben, 3)  # from the socket: the draw's answer is still on its way
    card = number_discards(ben)[0]
    ben.focus(f"#hand [data-card-id='{card}']")
    ben.keyboard.press("Space")
    ben.wait_for_selector(f"#hand [data-card-id='{card}'][aria-pressed=true]")
    ben.focus("#pile-discard")
    ben.keyboard.press("Enter")
    assert ben.evaluate("window.__sent.length") == 1, "the discard waits for the draw's answer"
    h.wait_version(ben, 4)
    assert h.view(ben)["discard_top"]["id"] == card
    sent_types = [json.loads(body)["command"]["type"] for body in ben.evaluate("window.__sent")]
    assert sent_types == ["draw", "discard"], sent_types  # the double click's second draw was not sent
    assert not ben.p10_errors, ben.p10_errors


@pytest.mark.e2e
def test_a_tap_is_not_lost_to_a_render_between_press_and_release(start_server: Any, new_page: Any) -> None:
    """M-4: a socket message re-renders the table while Anna's finger is on the draw pile. The render waits for
    the release (the pile's node is not replaced under the finger, which would cost the click), so the tap
    draws; the render is made at the release, and a press held past the page's limit renders anyway."""
    server = start_server(SEED)
    anna, _, _ = h.start_two(server, new_page, "mattel", {})
    # (in a function: a bare expression's value, here the hook's unsubscribe function, would be called)
    anna.evaluate("() => { window.__renders = 0; P10.table.on('rendered', () => { window.__renders++; }); }")
    x, y = centre(anna, "#pile-draw")
    anna.mouse.move(x, y)
    anna.mouse.down()
    before = anna.evaluate("window.__renders")
    anna.evaluate("P10.table.render()")  # what socket.js does with an update or a table message
    assert anna.evaluate("window.__renders") == before, "no render under a pressed pointer"
    anna.mouse.up()
    h.wait_version(anna, 1)
    assert len(h.view(anna)["hand"]) == 11  # the tap drew (M-4)

    # A press elsewhere (the table's background) defers a render until the release...
    bx, by = centre(anna, "#game-title")
    anna.mouse.move(bx, by)
    anna.mouse.down()
    before = anna.evaluate("window.__renders")
    anna.evaluate("P10.table.render()")
    anna.wait_for_timeout(200)
    assert anna.evaluate("window.__renders") == before
    anna.mouse.up()
    anna.wait_for_function("n => window.__renders > n", arg=before)
    # ...and one held longer than 1.5 s renders without waiting for it.
    anna.mouse.down()
    before = anna.evaluate("window.__renders")
    anna.evaluate("P10.table.render()")
    anna.wait_for_function("n => window.__renders > n", arg=before, timeout=5000)
    anna.mouse.up()
    assert not anna.p10_errors, anna.p10_errors
