"""The stand-in: when a seated player's socket has been gone longer than the grace period at a table with
``stand_in`` on, a bot plays for them and the table page says so; the badge goes when they come back."""

from __future__ import annotations

from typing import Any

from .helpers import start_two, view


def test_stand_in_is_shown_on_the_table_page(start_server: Any, new_page: Any) -> None:
    server = start_server(3, PHASE10_BOT_STAND_IN_GRACE_SECONDS="0.5", PHASE10_BOT_TICK_SECONDS="0.1",
                          PHASE10_BOT_DELAY_SECONDS="0.1")
    anna, ben, _ = start_two(server, new_page, "mattel", {})
    table_id = anna.url.rstrip("/").split("/")[-1].split("?")[0]
    status = anna.evaluate(
        """id => fetch(`/api/tables/${id}/clock`, {method: "PUT", headers: {"content-type": "application/json"},
                body: JSON.stringify({turn_timer: "off", stand_in: true, stand_in_level: "easy"})})
                .then(r => r.status)""",
        table_id)
    assert status == 200
    ben_seat = view(ben)["seat"]
    badge = f"article[data-seat='{ben_seat}'] .badge.stand-in"
    assert anna.locator(badge).count() == 0
    ben_url, cookies = ben.url, ben.context.cookies()
    ben.context.close()  # Ben's browser goes away
    anna.wait_for_selector(badge)
    assert "bot" in anna.inner_text(badge) and "(easy)" in anna.inner_text(badge)  # the level chosen for the table
    back = new_page()  # Ben comes back in a new window of the same browser (same seat cookie)
    back.context.add_cookies(cookies)
    back.goto(ben_url)
    back.wait_for_selector("#game:not(.hidden)")
    anna.wait_for_selector(badge, state="detached")
