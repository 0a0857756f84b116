"""How the table page sends its commands, in headless Chromium: over its socket (``command`` frames answered by
``ack``) while the socket is open, never a POST then; over REST while no socket is open; and a command whose
socket dropped before its answer is sent again with the same command id and applied once (docs/protocol.md,
"Delivery and back-pressure")."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from . import helpers as h

SEED = 306  # tests/e2e/test_mattel.py: a two-player Mattel deal, 15 commands with phases_to_win = 1

SOCKET_URL = re.compile(r"/ws/tables/")


def block_sockets(page: Any) -> dict[str, bool]:
    """While ``blocked["on"]``, every new socket of ``page`` is closed at once; else it reaches the server."""
    blocked = {"on": True}
    page.route_web_socket(SOCKET_URL, lambda ws: ws.close() if blocked["on"] else ws.connect_to_server())
    return blocked


class Traffic:
    """A page's command POSTs (``page.on("request")``) and the command frames it sent on its sockets
    (``page.on("websocket")``), from a reload of the page on (so its socket is seen from its opening)."""

    def __init__(self, page: Any) -> None:
        self.posts: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self.acks = 0
        page.on("request", self._request)
        page.on("websocket", self._socket)
        page.reload()
        page.wait_for_selector("#conn[data-state='on']")

    def _request(self, request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/commands"):
            self.posts.append(json.loads(request.post_data))

    def _socket(self, ws: Any) -> None:
        ws.on("framesent", self._sent)
        ws.on("framereceived", self._received)

    def _sent(self, payload: str | bytes) -> None:
        if isinstance(payload, str) and '"command"' in payload:
            message = json.loads(payload)
            if message.get("type") == "command":
                self.frames.append(message)

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, str) and payload.startswith('{"type":"ack"'):
            self.acks += 1


@pytest.mark.e2e
def test_a_whole_game_sends_commands_over_the_socket_only(start_server: Any,
                                                                           new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    traffic = {page: Traffic(page) for page in (anna, ben)}
    made = {anna: 0, ben: 0}

    def count(page: Any, _other: Any) -> bool:
        made[page] += 1
        return False

    h.play_until_over([anna, ben], {}, before_move=count)
    assert h.view(anna)["over"]
    for page, seen in traffic.items():
        assert seen.posts == [], "no command POST while the socket is open"
        assert len(seen.frames) == made[page] > 0, (len(seen.frames), made[page])
        assert len({f["command_id"] for f in seen.frames}) == len(seen.frames)
        page.wait_for_timeout(200)
        assert seen.acks == made[page]
    assert sum(made.values()) == h.version(anna)
    assert not anna.p10_errors and not ben.p10_errors, anna.p10_errors + ben.p10_errors


@pytest.mark.e2e
def test_with_its_socket_closed_the_page_sends_over_rest(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    page = h.awaited_page([anna, ben])
    assert page is not None
    other = ben if page is anna else anna
    seen = Traffic(page)
    blocked = block_sockets(page)
    page.evaluate("P10.dropConnection()")
    page.wait_for_selector("#conn:not([data-state='on'])")
    before = h.version(page)
    h.act(page, {})  # the draw
    h.act(page, {})  # the discard that ends the turn
    assert h.version(page) == before + 2
    assert len(seen.posts) == 2 and seen.frames == []
    h.wait_version(other, before + 2)  # the other seat's socket saw both

    blocked["on"] = False  # the socket is back (the page's own back-off): commands go over it again
    page.wait_for_selector("#conn[data-state='on']", timeout=20_000)
    for _ in range(3):  # until this page has made a move over its socket again
        mover = h.awaited_page([anna, ben])
        h.act(mover, {})
        for p in (anna, ben):
            h.wait_version(p, h.version(mover))
        if mover is page:
            break
    assert len(seen.posts) == 2 and len(seen.frames) == 1
    assert not anna.p10_errors and not ben.p10_errors, anna.p10_errors + ben.p10_errors


# The first command frame the page sends drops its socket: before the frame leaves (lost on the way) or just
# after (the server applies it; its ack never arrives).
DROP_AT_FIRST_COMMAND = """
window.__dropAtCommand = null;
const NativeSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  const how = window.__dropAtCommand;
  if (how && typeof data === "string" && data.includes('"type":"command"')) {
    window.__dropAtCommand = null;
    window.__firstCopy = data;
    if (how === "after") NativeSend.call(this, data);
    this.close();
    return;
  }
  return NativeSend.call(this, data);
};
"""


@pytest.mark.e2e
@pytest.mark.parametrize("how", ["before", "after"], ids=["lost-on-the-way", "answer-lost"])
def test_a_command_lost_to_a_socket_drop_is_resent_once(
        start_server: Any, new_page: Any, how: str) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    for page in (anna, ben):
        page.add_init_script(DROP_AT_FIRST_COMMAND)
    page = h.awaited_page([anna, ben])
    assert page is not None
    other = ben if page is anna else anna
    seen = Traffic(page)  # (its reload runs the init script)
    before = h.version(page)
    page.evaluate(f"window.__dropAtCommand = {json.dumps(how)}")
    h.act(page, {})
    page.wait_for_timeout(500)
    first = json.loads(page.evaluate("window.__firstCopy"))
    sent = seen.frames + seen.posts  # the copies that left the page: the resend (REST, or the new socket) ...
    assert len(sent) == (2 if how == "after" else 1), sent  # ... after the first, when it left
    assert sent[-1] | {"type": "command"} == first  # the same command, command_id included
    assert h.version(page) == h.version(other) == before + 1  # applied once
    assert page.locator("#action-error").text_content() == ""
    page.wait_for_selector("#conn[data-state='on']", timeout=20_000)
    h.act(page, {})  # and the game goes on over the new socket
    h.wait_version(other, before + 2)
    assert not anna.p10_errors and not ben.p10_errors, anna.p10_errors + ben.p10_errors
