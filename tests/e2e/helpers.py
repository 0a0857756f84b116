"""Driving the pages like a player does: clicks on the lobby, join, waiting room and table pages.

Moves are chosen by ``strategy`` from the page's own view (``P10.state.view``, which holds only that
seat's view) and then made through the page's buttons, never through the API directly.
"""

from __future__ import annotations

from typing import Any

from app.rules.core.groups import JokerPolicy

from .strategy import discard_choice, first_hit


def create_table(page: Any, base: str, ruleset: str, name: str, seats: int = 2,
                 options: dict[str, Any] | None = None, screenshot: Any = None) -> str:
    """Create a table through the lobby form; returns the invite link."""
    page.goto(base + "/")
    page.check(f"input[name=ruleset][value={ruleset}]")
    page.fill("#host-name", name)
    page.select_option("#seat-count", str(seats))
    for key, value in (options or {}).items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{key}", value)
        elif key in ("phase_selection", "scoring"):
            page.select_option(f"#opt-{key}", value)
        else:
            page.fill(f"#opt-{key}", str(value))
    if screenshot:
        screenshot(page)
    page.click("#create-button")
    page.wait_for_selector("#created:not(.hidden)")
    link: str = page.input_value("#invite-link")
    page.click("#go-table")
    page.wait_for_selector("#waiting:not(.hidden)")
    return link


def join_table(page: Any, invite: str, name: str) -> None:
    page.goto(invite)
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#waiting:not(.hidden), #game:not(.hidden)")


def view(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("P10.state.view")
    return result


def version(page: Any) -> int:
    return int(page.evaluate("P10.state.version"))


def wait_version(page: Any, at_least: int) -> None:
    page.wait_for_function("v => P10.state.view && P10.state.version >= v", arg=at_least)


def awaited_page(pages: list[Any]) -> Any | None:
    for page in pages:
        v = view(page)
        if v and v.get("prompt") and v["prompt"].get("action") not in (None, "wait"):
            return page
    return None


def close_summary(page: Any) -> None:
    if page.evaluate("document.getElementById('summary').open"):
        page.click("#summary-close")


def click_card(page: Any, card_id: int) -> None:
    page.click(f"#hand [data-card-id='{card_id}']")
    page.wait_for_selector(f"#hand [data-card-id='{card_id}'][aria-pressed=true]")


def act(page: Any, policy: JokerPolicy, stats: dict[str, int]) -> None:
    """Make one move of the card games through the page: draw, lay (via Suggest), hit, or discard."""
    close_summary(page)
    before = version(page)
    v = view(page)
    prompt = v["prompt"]
    if prompt["action"] == "draw":
        page.click("#pile-draw")
    elif prompt["action"] == "play":
        laid = False
        if prompt.get("can_lay"):
            page.click("#builder-suggest")
            page.wait_for_function(
                "() => (P10.state.builder && P10.state.builder.every(g => g.length)) || "
                "document.getElementById('action-error').textContent")
            if page.evaluate("P10.state.builder && P10.state.builder.every(g => g.length)"):
                page.click("#builder-lay")
                stats["lays"] += 1
                laid = True
            else:
                page.click("#builder-clear")
        hit = None if laid or not prompt.get("can_hit") else first_hit(v, policy)
        if laid:
            pass
        elif hit is not None:
            card, group, end = hit
            click_card(page, card)
            selector = f"#players [data-hit='{group}']" + (f"[data-end='{end}']" if end else "")
            page.click(selector)
            stats["hits"] += 1
        else:
            card, target = discard_choice(v)
            click_card(page, card)
            if target is not None:
                page.select_option("#skip-target", str(target))
            page.click("#act-discard")
    else:
        raise AssertionError(f"unexpected prompt {prompt}")
    wait_version(page, before + 1)
