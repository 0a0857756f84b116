"""Phone width and keyboard: the pages fit 360 px without sideways scrolling, every control has a name, and
a player can create, join and make moves with the keyboard alone (quality bar)."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .conftest import shot

NO_OVERFLOW = "document.documentElement.scrollWidth <= window.innerWidth + 1"
WIDE = """() => [...document.querySelectorAll('body *')].filter(n => n.getBoundingClientRect().right >
  window.innerWidth + 1).map(n => n.tagName + '#' + n.id + '.' + n.className + ' ' +
  Math.round(n.getBoundingClientRect().right)).slice(0, 8)"""
UNNAMED = """() => [...document.querySelectorAll('button, input, select, a[href]')]
  .filter(n => n.offsetParent !== null)
  .filter(n => !(n.getAttribute('aria-label') || n.textContent.trim() || (n.labels && n.labels.length)
                 || n.getAttribute('title') || n.getAttribute('placeholder')))
  .map(n => n.outerHTML.slice(0, 80))"""


def keyboard_click(page: Any, selector: str) -> None:
    page.focus(selector)
    page.keyboard.press("Enter")


@pytest.mark.e2e
def test_phone_width_and_keyboard_only(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna = new_page(width=360, height=780)
    anna.goto(server.url + "/")
    assert anna.evaluate(NO_OVERFLOW)
    assert anna.evaluate(UNNAMED) == []
    shot(anna, "lobby-phone")
    # Keyboard only: type the name, pick two seats, submit with Enter.
    anna.focus("#host-name")
    anna.keyboard.type("Anna")
    anna.focus("#seat-count")
    anna.keyboard.press("Home")
    anna.focus("#host-name")
    anna.keyboard.press("Enter")
    anna.wait_for_selector("#created:not(.hidden)")
    assert anna.evaluate("document.activeElement.id") == "copy-invite"
    invite = anna.input_value("#invite-link")
    keyboard_click(anna, "#go-table")
    anna.wait_for_selector("#waiting:not(.hidden)")

    ben = new_page(width=360, height=780, locale="ru-RU")
    ben.goto(invite)
    assert ben.locator("#join-title").text_content() == "Сесть за стол"
    ben.focus("#join-name")
    ben.keyboard.type("Бен")
    ben.keyboard.press("Enter")
    ben.wait_for_url("**/tables/*")
    anna.wait_for_selector("#seat-list li:has-text('Бен')")
    # The host reorders the seats; both pages follow, and each still knows which seat is its own.
    keyboard_click(anna, "[aria-label='Move Бен up']")
    for page in (anna, ben):
        page.wait_for_function("() => { const first = document.querySelector('#seat-list li');"
                               " return first && first.textContent.includes('Бен'); }")
    ben.wait_for_selector("#seat-list li:first-child .badge.you")
    anna.wait_for_selector("#seat-list li:nth-child(2) .badge.you")
    assert anna.locator("#start-button").is_visible() and ben.locator("#start-button").is_hidden()
    keyboard_click(anna, "#start-button")
    for page in (anna, ben):
        page.wait_for_selector("#game:not(.hidden)")
        h.wait_version(page, 0)
        assert page.evaluate(NO_OVERFLOW), page.evaluate(WIDE)
        assert page.evaluate(UNNAMED) == []

    page = h.awaited_page([anna, ben])
    assert page is not None
    before = h.version(page)
    keyboard_click(page, "#act-draw")
    h.wait_version(page, before + 1)
    # Focus stays usable after the move; a card is selected with Space and discarded with Enter.
    card = page.locator("#hand button.card").first
    card.focus()
    page.keyboard.press("Space")
    card_id = card.get_attribute("data-card-id")
    page.wait_for_selector(f"#hand [data-card-id='{card_id}'][aria-pressed=true]")
    keyboard_click(page, "#act-discard")
    h.wait_version(page, before + 2)
    assert page.locator(f"#hand [data-card-id='{card_id}']").count() == 0
    shot(page, "table-phone")
    # The help panel opens from the keyboard and shows this rule set's rules only.
    keyboard_click(page, "#help-button")
    assert page.get_attribute("#help-button", "aria-expanded") == "true"
    assert page.locator(".rules-section:not(.hidden)").count() == 1
    assert page.locator(".rules-section[data-ruleset='mattel']:not(.hidden)").count() == 1
    assert not anna.p10_errors and not ben.p10_errors
