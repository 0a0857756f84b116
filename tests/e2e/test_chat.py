"""Table chat in the browser: a message and a reaction typed on one page appear on the other page at once,
each line once (the post's answer and the socket's copy carry the same database id), and the history comes
back from the database after a reload and after the server restarts. (No rules paragraph covers chat: it is
outside the game record.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import helpers as h
from .conftest import Server

LINES = "() => [...document.querySelectorAll('#chat-log li')].map(li => li.textContent)"


def _lines(page: Any, count: int) -> list[str]:
    page.wait_for_function(f"() => document.querySelectorAll('#chat-log li').length >= {count}")
    lines: list[str] = page.evaluate(LINES)
    return lines


@pytest.mark.e2e
def test_chat_and_reactions_reach_others_and_survive_restarts(
        start_server: Any, new_page: Any) -> None:
    server = start_server(41)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {})
    table_url = anna.url
    anna.fill("#chat-input", "good luck")
    anna.press("#chat-input", "Enter")
    ben.wait_for_selector("#chat-log li:has-text('good luck')")  # through Ben's socket
    ben.click(".reaction[data-emoji='🎉']")
    anna.wait_for_selector("#chat-log li.reaction-line:has-text('🎉')")
    expected = ["Anna: good luck", "Ben: 🎉"]
    for page in (anna, ben):
        page.wait_for_timeout(300)  # a second copy of a line would have arrived by now
        assert _lines(page, 2) == expected
    ben.reload()
    assert _lines(ben, 2) == expected  # GET /chat after a reload
    server.stop()
    again = Server(Path(server.log.name).parent, 41)  # the same database file, a fresh process
    try:
        path = table_url.split("/", 3)[3]
        anna.goto(f"{again.url}/{path}")  # cookies ignore the port: still Anna's seat
        anna.wait_for_selector("#game:not(.hidden)")
        assert _lines(anna, 2) == expected
        anna.fill("#chat-input", "still here")
        anna.press("#chat-input", "Enter")
        assert _lines(anna, 3) == [*expected, "Anna: still here"]
        assert anna.p10_errors == [] and ben.p10_errors == []
    finally:
        again.stop()


@pytest.mark.e2e
def test_chat_said_while_away_arrives_after_a_reconnect(start_server: Any, new_page: Any) -> None:
    server = start_server(41)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {})
    ben.evaluate("P10.state.retry = 3; P10.dropConnection()")  # the next connection in 4 s
    ben.wait_for_function("() => document.getElementById('conn').dataset.state !== 'on'")
    anna.fill("#chat-input", "are you there?")
    anna.press("#chat-input", "Enter")
    anna.wait_for_selector("#chat-log li:has-text('are you there?')")
    assert ben.evaluate("document.getElementById('conn').dataset.state") != "on"  # said while Ben was away
    ben.wait_for_function("() => document.getElementById('conn').dataset.state === 'on'", timeout=15000)
    assert _lines(ben, 1) == ["Anna: are you there?"]
    assert anna.p10_errors == [] and ben.p10_errors == []
