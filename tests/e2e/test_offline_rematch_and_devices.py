"""Playing across networks and devices, in headless Chromium: a page that loses its network says so and catches up, the
host sees that seat offline (the application heartbeat, docs/protocol.md), and "Play again" is an offer that
each of three pages accepts or declines (the next game is dealt only when everyone accepted)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from . import helpers as h
from .conftest import shot
from .test_command_transport import block_sockets
from .test_three_players import mattel_policy, start_three

SEED = 306  # tests/e2e/test_mattel.py: a two-player Mattel deal
SHORT_THREE = 1724  # tests/e2e/test_three_players.py: three players, Cara goes out after 12 commands


def presence(page: Any, seat: int) -> str:
    return str(page.locator(f"#players article[data-seat='{seat}'] .dot").get_attribute("data-presence"))


@pytest.mark.e2e
def test_an_offline_page_shows_it_catches_up_and_host_sees_it(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    while h.awaited_page([anna, ben]) is not anna:  # Anna is to move while Ben is away
        h.act(ben, {})
        h.wait_version(anna, h.version(ben))
    anna.wait_for_function("P10.state.table.seats.every((s) => s.connected)")
    assert presence(anna, 1) == "online"

    started = time.monotonic()
    ben.context.set_offline(True)
    ben.wait_for_selector("#conn[data-state='off']", timeout=15_000)
    assert ben.locator("#conn .conn-text").text_content() == "Offline – reconnecting…"
    anna.wait_for_function("document.querySelector(\"#players article[data-seat='1'] .dot\")"
                           ".dataset.presence === 'offline'", timeout=15_000)
    offline_after = time.monotonic() - started
    print(f"offline shown on both pages after {offline_after:.1f} s")
    assert offline_after < 15

    before = h.version(ben)
    h.act(anna, {})  # a move Ben misses while offline
    time.sleep(1.0)
    assert h.version(ben) == before and ben.locator("#conn").get_attribute("data-state") != "on"

    ben.context.set_offline(False)  # back online: reconnects at once and catches up with since=N
    back = time.monotonic()
    ben.wait_for_selector("#conn[data-state='on']", timeout=15_000)
    h.wait_version(ben, before + 1)
    print(f"back online and caught up after {time.monotonic() - back:.1f} s")
    assert h.version(ben) == h.version(anna)
    anna.wait_for_function("document.querySelector(\"#players article[data-seat='1'] .dot\")"
                           ".dataset.presence === 'online'", timeout=15_000)
    assert not anna.p10_errors and not ben.p10_errors


def play_short_three(pages: list[Any]) -> None:
    for _ in range(40):
        latest = max(h.version(p) for p in pages)
        for page in pages:
            h.wait_version(page, latest)
        if h.view(pages[0])["over"]:
            return
        page = h.awaited_page(pages)
        assert page is not None
        h.close_summary(page)
        view = h.view(page)
        hint = h.suggestion(page) if view["prompt"]["action"] == "play" and view["prompt"].get("can_lay") else None
        h.perform(page, mattel_policy(view, hint))
        h.wait_version(page, latest + 1)
    raise AssertionError("the game did not finish")


def answers(page: Any) -> list[str]:
    return [str(x) for x in page.eval_on_selector_all("#rematch li", "els => els.map((e) => e.dataset.answer)")]


@pytest.mark.e2e
def test_a_rematch_is_dealt_only_once_all_three_pages_accept(start_server: Any, new_page: Any) -> None:
    server = start_server(SHORT_THREE)
    pages = start_three(server, new_page, "mattel", {"phases_to_win": 1})
    anna, ben, cara = pages
    play_short_three(pages)
    finished = anna.evaluate("P10.state.gameId")
    for page in pages:
        h.close_summary(page)
    ben.click("#over-rematch")  # Ben offers; every page shows the offer with the answers so far
    for page in pages:
        page.wait_for_selector("#rematch")
        page.wait_for_function("() => document.querySelectorAll('#rematch li').length === 3")
    assert answers(anna) == ["pending", "accepted", "pending"]
    # The host starts editing the next game's options and is about to accept when Cara's decline re-renders the
    # page: the button under her finger and her unsaved edit stay (the controls are patched, not rebuilt).
    anna.click(".rematch-options summary")
    anna.fill("#rematch-opt-phases_to_win", "2")
    # a closed list is a list of its values in the page's words, the offer's value chosen (C-11)
    assert anna.locator("#rematch-opt-phase_selection option").all_inner_texts() == ["all", "even only", "odd only"]
    assert anna.input_value("#rematch-opt-phase_selection") == "all"
    anna.evaluate("document.querySelector('#rematch-accept').mark = 'pressed'")
    cara.click("#rematch-decline")
    anna.wait_for_function("() => [...document.querySelectorAll('#rematch li')].map((e) => e.dataset.answer)"
                           ".join() === 'pending,accepted,declined'")
    assert anna.evaluate("document.querySelector('#rematch-accept').mark") == "pressed"
    assert anna.input_value("#rematch-opt-phases_to_win") == "2"
    assert anna.evaluate("document.querySelector('.rematch-options').open")
    anna.click("#rematch-accept")
    for page in pages:
        page.wait_for_function("() => [...document.querySelectorAll('#rematch li')].map((e) => e.dataset.answer)"
                               ".join() === 'accepted,accepted,declined'")
    time.sleep(1.0)
    for page in pages:  # a decline leaves it undealt: still the finished game everywhere
        assert page.evaluate("P10.state.gameId") == finished and h.view(page)["over"]
    assert anna.locator("#rematch-start").count() == 1 and ben.locator("#rematch-start").count() == 0
    assert ben.locator("#rematch-options-save").count() == 0  # only the host changes the options
    assert anna.input_value("#rematch-opt-phases_to_win") == "2"  # still open, still edited
    anna.click("#rematch-options-save")  # the host changes the options: everyone is asked again
    for page in pages:
        page.wait_for_function("() => [...document.querySelectorAll('#rematch li')].map((e) => e.dataset.answer)"
                               ".join() === 'accepted,pending,pending'")
    ben.click("#rematch-accept")
    cara.click("#rematch-accept")  # Cara changes her mind: all three accepted, game 2 is dealt
    for page in pages:
        page.wait_for_function("g => P10.state.gameId !== g && P10.state.view && !P10.state.view.over",
                               arg=finished)
        assert page.evaluate("P10.state.table.game.number") == 2
        assert page.evaluate("P10.state.table.options.phases_to_win") == 2
    assert not any(page.p10_errors for page in pages), [page.p10_errors for page in pages]


def badges(page: Any) -> list[tuple[str, str]]:
    page.wait_for_selector("#my-tables[data-loaded='true']", state="attached")
    return [(str(x[0]), str(x[1])) for x in page.eval_on_selector_all(
        "#my-tables-list > li", "els => els.map((e) => [e.dataset.table, e.dataset.badge])")]


@pytest.mark.e2e
def test_a_returning_browsers_lobby_lists_its_tables(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    game_table = anna.evaluate("P10.state.tableId")
    turn = h.awaited_page([anna, ben])
    waiting_one = anna.context.new_page()  # a second table, still waiting for players, made later by Anna
    h.create_table(waiting_one, server.url, "master", "Anna")
    newer = waiting_one.evaluate("P10.state.tableId")
    for page, mine in ((anna, turn is anna), (ben, turn is ben)):
        lobby = page.context.new_page()  # the same browser comes back to the lobby
        lobby.goto(server.url + "/")
        expected = [(newer, "waiting"), (game_table, "your_turn" if mine else "waiting")]
        assert badges(lobby) == (expected if page is anna else expected[1:])
        assert lobby.locator("#my-tables").is_visible()
        lobby.click(f"#my-tables-list li[data-table='{game_table}'] a.my-table-link")
        lobby.wait_for_url(f"**/tables/{game_table}")
        lobby.wait_for_selector("#game:not(.hidden)")
        lobby.close()
    stranger = new_page()
    stranger.goto(server.url + "/")
    assert badges(stranger) == [] and stranger.locator("#my-tables").is_hidden()
    assert not anna.p10_errors and not ben.p10_errors


@pytest.mark.e2e
def test_a_moved_seat_plays_on_and_the_first_browser_is_refused(start_server: Any,
                                                                                   new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    ben.click("#transfer-button")
    ben.wait_for_selector("#transfer:not(.hidden) #transfer-qr svg")
    link = ben.input_value("#transfer-link")
    assert "/move?code=" in link
    # the QR code is drawn (an SVG element in the SVG namespace, at its stylesheet size) and a real decoder
    # reads the link from the pixels on the screen
    assert ben.evaluate("document.querySelector('#transfer-qr svg').namespaceURI") == "http://www.w3.org/2000/svg"
    assert decoded_qr(ben.locator("#transfer-qr svg").screenshot()) == link
    assert ben.locator("#transfer-local").is_visible()  # a loopback link: a phone could not open it
    phone = new_page(width=390, height=800)  # another browser context: another device
    phone.goto(link)
    phone.click("#move-button")
    phone.wait_for_url(f"**/tables/{anna.evaluate('P10.state.tableId')}")
    phone.wait_for_selector("#game:not(.hidden)")
    phone.wait_for_function("P10.state.seat === 1 && P10.state.view !== null")
    # the old device is told and refused; it does not reconnect
    ben.wait_for_function("P10.state.seatGone === true")
    # ... and says where the seat went (the phone's browser, from its User-Agent), turns read-only and offers
    # nothing to press: no visible button, link or field that takes input
    banner = ben.locator("[data-banner='seat-gone']")
    text = banner.text_content() or ""
    assert "moved to" in text and "Chrome" in text and "read-only" in text, text
    assert banner.locator("button").count() == 0
    assert ben.evaluate("document.getElementById('game').inert") is True
    pressable = ben.evaluate("""() => [...document.querySelectorAll('button, a[href], input, select, [tabindex]')]
        .filter((n) => n.offsetParent !== null && !n.closest('[inert]') && !n.closest('.topbar')
                       && !n.matches('.skip-link, #main'))
        .map((n) => n.id || n.className || n.tagName)""")
    assert pressable == [], pressable
    shot(ben, "seat-moved-old-page")
    r = ben.evaluate("fetch(`/api/tables/${P10.state.tableId}/view`).then((r) => r.status)")
    assert r == 401
    # the phone plays on: whoever is awaited moves until the phone has made a move
    played = 0
    for _ in range(12):
        page = h.awaited_page([anna, phone])
        assert page is not None
        h.act(page, {})
        h.wait_version(anna, h.version(page))
        played += page is phone
        if played:
            break
    assert played == 1 and h.version(phone) == h.version(anna)
    assert not anna.p10_errors and not phone.p10_errors


def decoded_qr(png: bytes) -> str:
    """The text of the one QR code in a PNG screenshot, read by zxing-cpp."""
    import io

    import zxingcpp
    from PIL import Image

    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))
    assert len(results) == 1, results
    return str(results[0].text)


class Tunnel:
    """Ben's page talks to the server through this (Playwright's websocket routing): ``silence()`` makes every
    open socket stop carrying anything either way and new ones hang, like a phone that lost its network
    without a word (and new ones fail); ``restore()`` lets new sockets through again."""

    def __init__(self) -> None:
        self.silent = False
        self.muted: list[dict[str, bool]] = []

    def route(self, ws: Any) -> None:
        if self.silent:
            ws.close()  # no way through: the connection fails
            return
        server = ws.connect_to_server()
        state = {"on": True}
        self.muted.append(state)
        ws.on_message(lambda message: server.send(message) if state["on"] else None)
        server.on_message(lambda message: ws.send(message) if state["on"] else None)

    def silence(self) -> None:
        self.silent = True
        for state in self.muted:
            state["on"] = False

    def restore(self) -> None:
        self.silent = False


@pytest.mark.e2e
def test_a_silent_drop_shows_offline_in_10_s_host_in_15_s(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    while h.awaited_page([anna, ben]) is not anna:
        h.act(ben, {})
        h.wait_version(anna, h.version(ben))
    tunnel = Tunnel()
    ben.route_web_socket(re.compile(r".*/ws/tables/.*"), tunnel.route)
    ben.evaluate("P10.dropConnection()")  # the next socket goes through the tunnel
    while not tunnel.muted:
        ben.wait_for_timeout(50)
    ben.wait_for_selector("#conn[data-state='on']")
    anna.wait_for_function(ONLINE)

    started = time.monotonic()
    tunnel.silence()
    ben.wait_for_selector("#conn[data-state='off']", timeout=15_000)
    page_after = time.monotonic() - started
    anna.wait_for_function(OFFLINE, timeout=20_000)
    host_after = time.monotonic() - started
    print(f"silent drop: offline on the page after {page_after:.1f} s, on the host's page after {host_after:.1f} s")
    assert page_after <= 10.5 and host_after <= 15.5
    before = h.version(ben)
    h.act(anna, {})  # a move Ben misses

    tunnel.restore()
    ben.wait_for_selector("#conn[data-state='on']", timeout=20_000)
    h.wait_version(ben, before + 1)
    anna.wait_for_function(ONLINE, timeout=15_000)
    assert not anna.p10_errors and not ben.p10_errors


ONLINE = "document.querySelector(\"#players article[data-seat='1'] .dot\").dataset.presence === 'online'"
OFFLINE = "document.querySelector(\"#players article[data-seat='1'] .dot\").dataset.presence === 'offline'"


def _commands_answered_502(page: Any, forward_first: bool) -> list[dict[str, Any]]:
    """Make the first command POST of ``page`` end in a 502 from "the proxy" (as while a process restarts): not
    delivered at all, or (``forward_first``) delivered and applied with its answer lost. Returns the bodies sent."""
    bodies: list[dict[str, Any]] = []

    def handle(route: Any) -> None:
        bodies.append(json.loads(route.request.post_data))
        if len(bodies) > 1:
            route.continue_()
            return
        if forward_first:
            route.fetch()  # the server applies it; its answer never reaches the page
        route.fulfill(status=502, body="Bad Gateway", content_type="text/plain")

    page.route("**/api/tables/*/commands", handle)
    return bodies


@pytest.mark.e2e
@pytest.mark.parametrize("forward_first", [False, True], ids=["lost-on-the-way", "answer-lost"])
def test_a_command_answered_502_is_resent_and_applied_once(
        start_server: Any, new_page: Any, forward_first: bool) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    page = h.awaited_page([anna, ben])
    assert page is not None
    other = ben if page is anna else anna
    bodies = _commands_answered_502(page, forward_first)
    # While its socket is open the page sends its commands over it: closed here (and every new one at once),
    # the command goes over REST.
    block_sockets(page)
    page.evaluate("P10.dropConnection()")
    page.wait_for_selector("#conn:not([data-state='on'])")
    before = h.version(page)
    h.act(page, {})
    deadline = time.monotonic() + 5
    while len(bodies) < 2 and time.monotonic() < deadline:  # the resend may follow the socket's update
        page.wait_for_timeout(100)
    assert len(bodies) == 2 and bodies[0] == bodies[1]  # the same command, command_id included
    page.wait_for_timeout(500)
    assert h.version(page) == h.version(other) == before + 1  # applied once
    assert page.locator("#action-error").text_content() == ""
    assert not page.p10_errors and not other.p10_errors
