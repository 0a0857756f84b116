"""axe-core (the ``axe-playwright-python`` package) on every page: lobby, join (before and after the start),
waiting room, the table of each rule set (player and spectator), the replay; in light and dark themes.
No serious or critical violation is allowed, including the experimental check that a control's accessible
name contains its visible text (label-content-name-mismatch)."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .layout import until

SEEDS = {"mattel": 306, "master": 1053, "board": 1120}
RULES = {"rules": {"label-content-name-mismatch": {"enabled": True}}, "resultTypes": ["violations"]}


def serious(page: Any, where: str) -> list[str]:
    """The serious and critical axe violations of the page as it is now, one line each, judged once the cards
    have landed (a card in flight is half transparent: motion.js's finite animations end first)."""
    from axe_playwright_python.sync_playwright import Axe

    until(page, "document.getAnimations().every(a => a.playState !== 'running' || "
                "a.effect.getComputedTiming().endTime === Infinity)")
    results = Axe().run(page, options=RULES)
    found = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [", ".join(n["target"]) for n in v["nodes"][:3]]
            found.append(f"{where}: {v['id']} ({v['impact']}) x{len(v['nodes'])}: {targets}")
    return found


def heading_order(page: Any, where: str) -> list[str]:
    """axe's heading-order (of moderate impact, so not among the serious ones above) on the page as it is."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": ["heading-order"], "resultTypes": ["violations"]})
    return [f"{where}: {v['id']} {[n['target'] for n in v['nodes'][:3]]}" for v in results.response["violations"]]


def both_themes(page: Any, where: str) -> list[str]:
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        until(page, f"P10.darkTheme() === {str(scheme == 'dark').lower()}")
        found += serious(page, f"{where} [{scheme}]")
    return found


def theme_toggle_is_remembered(page: Any) -> None:
    """The toggle overrides the system's scheme, for this browser, across pages and reloads."""
    page.emulate_media(color_scheme="light")
    page.click("#theme-toggle")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.get_attribute("#theme-toggle", "aria-pressed") == "true"
    page.reload()
    until(page, "document.getElementById('theme-toggle').getAttribute('aria-pressed') === 'true'")
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(21, 25, 29)"  # --bg dark
    page.click("#theme-toggle")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.emulate_media(color_scheme="dark")  # the choice wins over the system
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(243, 241, 234)"
    page.evaluate("localStorage.removeItem('p10.theme'); delete document.documentElement.dataset.theme")
    page.emulate_media(color_scheme="light")


@pytest.mark.e2e
@pytest.mark.parametrize("ruleset", ["mattel", "master", "board"])
def test_no_serious_axe_violations_on_any_page(start_server: Any, new_page: Any, ruleset: str) -> None:
    server = start_server(SEEDS[ruleset])
    anna, ben = new_page(), new_page(width=390, height=844)
    found: list[str] = []
    if ruleset == "mattel":
        anna.goto(server.url + "/")
        found += both_themes(anna, "lobby")
        theme_toggle_is_remembered(anna)
    invite = h.create_table(anna, server.url, ruleset, "Anna", options={"phases_to_win": 1}, spectators=True)
    ben.goto(invite)
    until(ben, "document.getElementById('join-info').textContent.includes('Anna')")
    if ruleset == "mattel":
        found += both_themes(ben, "join")
    h.join_table(ben, invite, "Ben")
    anna.wait_for_selector("#seat-list li:has-text('Ben')")
    if ruleset == "mattel":
        found += both_themes(anna, "waiting room (host)")
    anna.click("#start-button")
    for page in (anna, ben):
        page.wait_for_selector("#game:not(.hidden)")
        h.wait_version(page, 0)
    # a few moves, so that the piles, the log and the prompts are not the empty first ones
    stats: dict[str, int] = {}
    for _ in range(3):
        page = h.awaited_page([anna, ben])
        assert page is not None
        h.act(page, stats)
        for p in (anna, ben):
            h.wait_version(p, h.version(page))
    awaited = h.awaited_page([anna, ben])
    assert awaited is not None
    found += both_themes(awaited, f"{ruleset} table (awaited player)")
    other = ben if awaited is anna else anna
    found += both_themes(other, f"{ruleset} table (waiting player, phone)" if other is ben
                         else f"{ruleset} table (waiting player)")
    ben.click("#side-button")  # the log and chat drawer of the phone
    ben.wait_for_selector("#side.open")
    found += serious(ben, f"{ruleset} log drawer")
    carl = new_page()
    carl.goto(anna.url)
    carl.wait_for_selector("#game:not(.hidden)")
    found += both_themes(carl, f"{ruleset} table (spectator)")
    # a spectator is never awaited: no turn notifications on offer (the players have them)
    assert carl.locator(".push-toggle:visible").count() == 0
    assert anna.locator(".toolbar .push-toggle").is_visible()
    if ruleset == "board":  # the ring, the phase track and the hand: headings in order (a moderate rule)
        found += heading_order(anna, "board table")
    # a late joiner is told the game has started, with no form to take a seat
    carl.goto(invite)
    carl.wait_for_selector("#join-closed:not(.hidden)")
    assert carl.locator("#join-form").is_hidden() and carl.locator("#watch-row").is_visible()
    found += both_themes(carl, f"{ruleset} join after the start")
    carl.goto(anna.url.rstrip("/") + "/games/1/replay")
    carl.wait_for_selector("#rp-players article")
    carl.click("#rp-last")
    until(carl, "P10.replay.step === P10.replay.record.version")
    found += both_themes(carl, f"{ruleset} replay")
    assert found == [], "\n".join(found)
    for page in (anna, ben, carl):
        assert not page.p10_errors, page.p10_errors
