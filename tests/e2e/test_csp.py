"""The Content-Security-Policy holds in a real browser: the lobby, the invite page, the waiting room, the game
and the replay run with no policy violation (no inline script or style attribute) and no script error.

Every browser test listens for the browser's ``securitypolicyviolation`` events (conftest.new_page) and fails on
any, so the whole games of each rule set (test_mattel, test_master_board, test_board_rounds) are checked too;
the test below shows that the watch hears a violation."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h


def _watch(page: Any, problems: list[str]) -> None:
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda err: problems.append(f"pageerror: {err}"))


@pytest.mark.e2e
def test_pages_run_under_the_content_security_policy(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna, ben = new_page(), new_page()
    problems: list[str] = []
    for page in (anna, ben):
        _watch(page, problems)
    response = anna.goto(server.url + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    invite = h.create_table(anna, server.url, "mattel", "Anna")
    h.seat_and_start(anna, invite, [(ben, "Ben")])
    stats: dict[str, int] = {}
    h.act(h.awaited_page([anna, ben]) or anna, stats)  # one move through the page's own scripts
    table_url = anna.url
    anna.goto(table_url.split("?")[0] + "/games/1/replay")
    anna.wait_for_load_state("networkidle")
    violations = [p for p in problems if "Content Security Policy" in p or p.startswith("pageerror")]
    assert violations == [], violations


@pytest.mark.e2e
def test_the_shared_watch_hears_a_violation(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    page = new_page()
    page.goto(server.url + "/")
    assert page.p10_csp == []
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<span style=\"color: red\">x</span>')")
    page.wait_for_function("() => true")  # a round trip: the binding's call has arrived
    assert any("style-src" in v for v in page.p10_csp), page.p10_csp
    page.p10_csp.clear()  # provoked on purpose: not a failure of this test
