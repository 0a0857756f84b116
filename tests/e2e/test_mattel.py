"""A whole Mattel game through the pages in headless Chromium: lobby, invite link, waiting room, table,
lay-down (M-4, C-3) via the solver's suggestion, hits (C-4), an illegal lay-down shown in words, a
dropped socket that reconnects and catches up (since=N), the end-of-game summary and the replay page.

Seed 306 with ``phases_to_win = 1`` (M-9) is a 15-command game with both players laying phase 1 and five
hits under the shared strategy (found offline with the engine, see ``strategy.py``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.rules.mattel.deck import WILDS

from . import helpers as h
from .conftest import shot

SEED = 306


def illegal_laydown(page: Any) -> None:
    """Build a lay-down that breaks C-2 (a set of mixed numbers, a group too small) and submit it."""
    v = h.view(page)
    naturals = sorted((c for c in v["hand"] if c["kind"] == "number"), key=lambda c: (c["number"], c["id"]))
    first, last = naturals[0], naturals[-1]
    assert first["number"] != last["number"]
    before = h.version(page)
    h.click_card(page, first["id"])
    h.click_card(page, last["id"])
    page.click("[data-put='0']")
    h.click_card(page, naturals[1]["id"])
    page.click("[data-put='1']")
    page.click("#builder-lay")
    error = page.locator("#action-error")
    error.wait_for()
    page.wait_for_function("() => document.getElementById('action-error').textContent.length > 0")
    text = error.text_content() or ""
    assert re.search(r"set|cards", text), text
    assert h.version(page) == before  # nothing happened
    page.click("#builder-clear")


@pytest.mark.e2e
def test_mattel_game_through_the_pages(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    anna = new_page()
    ben = new_page(locale="de-DE", width=360, height=780)  # phone width, German interface

    invite = h.create_table(anna, server.url, "mattel", "Anna", options={"phases_to_win": 1},
                            screenshot=lambda p: shot(p, "lobby", docs=True))
    assert "/join/" in invite
    h.join_table(ben, invite, "Ben")
    assert ben.locator("html").get_attribute("lang") == "de"
    # The host sees Ben arrive (pushed over the socket) and starts.
    anna.wait_for_selector("#seat-list li:has-text('Ben')")
    shot(anna, "waiting-room")
    anna.click("#start-button")
    for page in (anna, ben):
        page.wait_for_selector("#game:not(.hidden)")
        h.wait_version(page, 0)

    # C-9: the page holds this seat's view only.
    for page in (anna, ben):
        v = h.view(page)
        assert "hands" not in v and "draw_pile" not in v and v["hand"] is not None

    # A returning player (same browser) goes straight back to the seat from the invite link.
    ben.goto(invite)
    ben.wait_for_url("**/tables/*")
    ben.wait_for_selector("#game:not(.hidden)")

    stats = {"lays": 0, "hits": 0}
    illegal_done = reconnect_done = False
    pages = [anna, ben]
    for _ in range(60):
        if h.view(anna)["over"]:
            break
        page = h.awaited_page(pages)
        assert page is not None
        other = ben if page is anna else anna
        v = h.view(page)
        if not illegal_done and v["prompt"]["action"] == "play" and v["prompt"]["can_lay"]:
            illegal_laydown(page)
            illegal_done = True
        if not reconnect_done and stats["lays"] >= 1:
            # Drop the other seat's socket; the move below happens while it is away.
            other.evaluate("P10.dropConnection()")
            other.wait_for_function("document.getElementById('conn').dataset.state !== 'on'")
            h.act(page, WILDS, stats)
            other.wait_for_function("document.getElementById('conn').dataset.state === 'on'")
            h.wait_version(other, h.version(page))
            reconnect_done = True
            continue
        if stats["lays"] == 1 and v["prompt"]["action"] == "draw":
            shot(page, "table-mattel", docs=True)
        h.act(page, WILDS, stats)
    assert h.view(anna)["over"], "the game did not finish"
    assert illegal_done and reconnect_done
    assert stats["lays"] >= 2 and stats["hits"] >= 1, stats

    # Both see the end-of-game summary, with the score chart, and the log in words.
    for page in (anna, ben):
        h.wait_version(page, h.version(anna))
        page.wait_for_selector("#summary[open]")
        assert page.locator("#summary .chart").count() == 2
        assert page.locator("#log li").count() > 10
    assert anna.locator("#log").get_by_text(re.compile(r"laid their phase")).count() >= 2
    assert anna.locator("#log").get_by_text(re.compile(r"hit .* onto")).count() >= 1
    shot(anna, "game-over-mattel")
    assert not anna.p10_errors and not ben.p10_errors, anna.p10_errors + ben.p10_errors

    # The finished game in the replay page: every hand visible, step by step.
    anna.click("#summary-replay")
    anna.wait_for_url("**/replay")
    anna.wait_for_selector("#rp-players article")
    assert anna.locator("#rp-step").text_content().startswith("0 /")
    assert anna.locator(".rp-hand").count() == 2
    assert anna.locator(".rp-hand").first.locator(".card").count() == 10  # the deal, every hand shown
    anna.click("#rp-forward")
    anna.wait_for_function("P10.replay.step === 1")
    anna.click("#rp-last")
    anna.wait_for_function("P10.replay.step === P10.replay.record.version")
    assert anna.locator("#rp-log li").count() == h.version(ben) + 1
    assert anna.locator("#rp-players .group").count() >= 4
    shot(anna, "replay-mattel")
    assert not anna.p10_errors, anna.p10_errors
