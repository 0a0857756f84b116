"""The host picks a bot's level in the waiting room (``hard`` too, in every language) and every seat of a bot
shows its level, in the waiting room and at the table; a bot added without a name is named in the reader's
language ("Bot 1 (schwer)", not the server's English "Bot 1 (hard)")."""

from __future__ import annotations

from typing import Any

from .conftest import shot
from .helpers import create_table


def test_a_hard_bot_seat_shows_its_level_before_and_during(start_server: Any, new_page: Any) -> None:
    server = start_server(5, PHASE10_BOT_DELAY_SECONDS="0.3")
    anna = new_page(locale="de-DE")
    create_table(anna, server.url, "mattel", "Anna", seats=3)
    anna.wait_for_selector("#host-extras:not(.hidden)")
    options = anna.eval_on_selector_all("#bot-level option", "els => els.map(e => [e.value, e.textContent])")
    assert options == [["normal", "normal"], ["easy", "leicht"], ["hard", "schwer"]]
    anna.select_option("#bot-level", "hard")
    anna.click("#add-bot")
    anna.wait_for_selector(".seat-row[data-seat='1'] .badge[data-level='hard']")
    assert "schwer" in anna.inner_text(".seat-row[data-seat='1'] .badge[data-level='hard']")
    assert anna.inner_text(".seat-row[data-seat='1'] .seat-name") == "Bot 1 (schwer)"
    anna.select_option("#bot-level", "easy")
    anna.click("#add-bot")
    anna.wait_for_selector(".seat-row[data-seat='2'] .badge[data-level='easy']")
    shot(anna, "bot-levels-waiting-room")
    anna.click("#start-button")
    anna.wait_for_selector("#game:not(.hidden)")
    anna.wait_for_selector("article[data-seat='1'] .badge.bot-level[data-level='hard']")
    assert "schwer" in anna.inner_text("article[data-seat='1'] .badge.bot-level")
    assert anna.locator("article[data-seat='0'] .badge.bot-level").count() == 0
    assert anna.inner_text("article[data-seat='1'] .player-name") == "Bot 1 (schwer)"
    assert anna.inner_text("article[data-seat='2'] .player-name") == "Bot 2 (leicht)"
    # the lobby's "my tables" names them alike
    table_url = anna.url
    anna.goto(server.url + "/")
    anna.wait_for_selector("#my-tables[data-loaded='true']")
    with_names = anna.inner_text("#my-tables-list .my-table .small-text")
    assert "Bot 1 (schwer)" in with_names and "Bot 2 (leicht)" in with_names and "hard" not in with_names, with_names
    anna.goto(table_url)
    anna.wait_for_selector("#game:not(.hidden)")
    # the same rendering on every page (replays, series, my tables): a human who typed such a name keeps it
    assert anna.evaluate("P10.playerName('Bot 3 (normal)')") == "Bot 3 (normal)"
    assert anna.evaluate("P10.playerName('Bot 3 (hard)', false)") == "Bot 3 (hard)"
    shot(anna, "bot-levels-table")
    assert not anna.p10_errors
