"""The lobby and the invite that reaches friends: one line per rule set on which to pick, with its rules; four
seats by default; an invite link only this computer (or network) can open says so, with the README's help;
Share where the browser has the Web Share API, Copy elsewhere. Also: bot names in the page's language, the
German toolbar on one line with visible labels, and a browser's own push error in words."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .conftest import shot

# The guest's browser has a share sheet (navigator.share), and push notifications that the browser refuses as
# Chrome does when they are blocked for the site.
SHARE_AND_BLOCKED_PUSH = """
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value: async function (data) {
  window.p10Shared = data; }});
Object.defineProperty(Notification, "permission", {configurable: true, get: () => "granted"});
Notification.requestPermission = async () => "granted";
PushManager.prototype.getSubscription = async () => null;
PushManager.prototype.subscribe = async () => {
  throw new DOMException("Registration failed - permission denied", "NotAllowedError"); };
"""


@pytest.mark.e2e
def test_lobby_lines_and_an_invite_that_says_where_it_reaches(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna = new_page(locale="fr-FR")
    anna.goto(server.url + "/")
    for ruleset in ("mattel", "master", "board"):
        line = anna.locator(f".ruleset-choice:has(input[value={ruleset}]) .ruleset-pick")
        assert line.is_visible() and line.locator(f"a[href='/rules#{ruleset}']").count() == 1
    assert anna.input_value("#seat-count") == "4"
    anna.fill("#host-name", "Anna")
    anna.select_option("#seat-count", "3")
    anna.fill("#opt-phases_to_win", "1")
    anna.click("#create-button")
    anna.wait_for_selector("#created:not(.hidden)")
    invite = anna.input_value("#invite-link")
    assert invite.startswith("http://127.0.0.1:")
    # the link reaches only this computer: the lobby says so, with the way to change that (README, served)
    warning = anna.locator("#invite-local")
    assert warning.is_visible() and warning.locator("a[href='/help/invite']").count() == 1
    assert anna.locator("#copy-invite").is_visible() and anna.locator("#share-invite").is_hidden()
    shot(anna, "lobby-invite-local")
    anna.click("#go-table")
    anna.wait_for_selector("#waiting:not(.hidden)")
    assert anna.locator("#waiting-invite-local").is_visible()
    anna.select_option("#bot-level", "normal")
    anna.click("#add-bot")
    anna.wait_for_selector("#seat-list li:has-text('Robot 1 (normal)')")  # the bot's name in French
    # a guest on a German phone with a share sheet: Share instead of Copy, and the link it shares
    ben = new_page(locale="de-DE", width=360, height=740)
    ben.context.add_init_script(SHARE_AND_BLOCKED_PUSH)
    h.join_table(ben, invite, "Ben")
    assert ben.locator("#waiting-share").is_visible() and ben.locator("#waiting-copy").is_hidden()
    ben.click("#waiting-share")
    ben.wait_for_function("() => window.p10Shared !== undefined")
    assert ben.evaluate("window.p10Shared.url") == invite
    anna.wait_for_selector("#seat-list li:has-text('Ben')")
    anna.click("#start-button")
    ben.wait_for_selector("#game:not(.hidden)")
    h.wait_version(ben, 0)
    assert "Bot 1 (normal)" in (ben.locator("#players").text_content() or "")
    # Give me five's prompt counts the cards it asks for in the language's plural forms (no "card(s)")
    one = ben.evaluate("P10.t('prompt.offer', {name: 'Anna', n: 1})")
    two = ben.evaluate("P10.t('prompt.offer', {name: 'Anna', n: 2})")
    assert "um 1 Karte." in one and "um 2 Karten, eine nach der anderen" in two and "(n)" not in one + two
    # the German toolbar: one line, every button with its label in sight
    tools = ben.locator(".toolbar button.tool:visible")
    boxes = [tools.nth(i).bounding_box() for i in range(tools.count())]
    assert len(boxes) == 6 and len({round(b["y"]) for b in boxes if b}) == 1, boxes
    assert all(b and b["x"] >= 0 and b["x"] + b["width"] <= 360 for b in boxes), boxes
    clipped = ben.evaluate("""() => [...document.querySelectorAll('.toolbar button.tool:not(.hidden) .tool-label')]
        .filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)""")
    assert clipped == [], clipped
    shot(ben, "toolbar-phone-de")
    # the browser refuses the push subscription: a clear sentence in German, not the browser's raw words
    ben.click(".toolbar .push-toggle")
    ben.wait_for_function("document.getElementById('toast').textContent.length > 0")
    toast = ben.locator("#toast").text_content() or ""
    assert "blockiert" in toast and "Registration failed" not in toast, toast
    # the help the warning links to: the README's section, with the three ways
    help_page = new_page()
    help_page.goto(server.url + "/help/invite")
    text = help_page.locator("main").text_content() or ""
    assert "PHASE10_PUBLIC_BASE_URL" in text and "domain" in text and "tunnel" in text
    help_page.goto(server.url + "/rules#board")
    assert help_page.locator("section#board h2").count() == 1
    for page in (anna, ben):
        assert not page.p10_errors, page.p10_errors


@pytest.mark.e2e
def test_a_public_base_url_gives_a_link_without_the_warning(start_server: Any, new_page: Any) -> None:
    server = start_server(306, PHASE10_PUBLIC_BASE_URL="https://phase10.example.org")
    anna = new_page()
    anna.goto(server.url + "/")
    anna.fill("#host-name", "Anna")
    anna.click("#create-button")
    anna.wait_for_selector("#created:not(.hidden)")
    assert anna.input_value("#invite-link").startswith("https://phase10.example.org/join/")
    assert anna.locator("#invite-local").is_hidden()
