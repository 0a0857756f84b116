"""Driving the pages like a player does: clicks on the lobby, join, waiting room and table pages.

Moves are chosen by ``strategy`` from the page's own view (``P10.state.view``, which holds only that
seat's view) and then made through the page's buttons, never through the API directly.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .strategy import decide


def create_table(page: Any, base: str, ruleset: str, name: str, seats: int = 2,
                 options: dict[str, Any] | None = None, screenshot: Any = None, spectators: bool = False) -> str:
    """Create a table through the lobby form; returns the invite link."""
    page.goto(base + "/")
    page.check(f"input[name=ruleset][value={ruleset}]")
    page.fill("#host-name", name)
    page.select_option("#seat-count", str(seats))
    page.set_checked("#spectators", spectators)
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
    """Close the round or game summary if it is open. The page may close it meanwhile (a rematch offer or the
    next game's snapshot does): that is no failure, a dialog still open after the click's wait is."""
    if not page.evaluate("document.getElementById('summary').open"):
        return
    try:
        page.click("#summary-close", timeout=5000)
    except PlaywrightTimeout:
        if page.evaluate("document.getElementById('summary').open"):
            raise


def click_card(page: Any, card_id: int) -> None:
    page.click(f"#hand [data-card-id='{card_id}']")
    page.wait_for_selector(f"#hand [data-card-id='{card_id}'][aria-pressed=true]")


def open_builder(page: Any) -> None:
    """Start a lay-down: the builder opens on demand ("Lay phase…")."""
    if not page.locator("#builder-suggest").is_visible():
        page.click("#act-build")
        page.wait_for_selector("#builder-suggest")


def suggestion(page: Any) -> list[list[int]] | None:
    """Open the builder, click Suggest (the server's solver) and return the groups it put into the builder, or
    ``None``."""
    open_builder(page)
    page.click("#builder-suggest")
    page.wait_for_function(
        "() => (P10.state.builder && P10.state.builder.every(g => g.length)) || "
        "document.getElementById('action-error').textContent")
    groups: list[list[int]] | None = page.evaluate(
        "P10.state.builder && P10.state.builder.every(g => g.length) ? P10.state.builder : null")
    if groups is None:
        page.click("#builder-clear")
    return groups


def perform(page: Any, command: dict[str, Any]) -> None:
    """Make ``command`` through the page's own controls (never the API directly)."""
    kind = command["type"]
    if kind == "draw":
        page.click(f"#pile-{command['pile']}")
    elif kind == "lay_phase":
        page.click("#builder-lay")
    elif kind == "hit":
        click_card(page, command["card"])
        end = command.get("end")
        page.click(f"#players [data-hit='{command['group']}']" + (f"[data-end='{end}']" if end else ""))
    elif kind == "discard":
        click_card(page, command["card"])
        if command.get("target") is not None:
            page.select_option("#skip-target", str(command["target"]))
        page.click("#act-discard")
    elif kind == "play_action":
        click_card(page, command["card"])
        if command.get("target") is not None:
            page.select_option("#skip-target", str(command["target"]))
        page.click("#act-play-action" if command.get("ask", True) else "#act-play-decline")
    elif kind == "choose_take_two":
        page.click(f"#prompt-controls .choice:has([data-card-id='{command['keep']}']) button")
    elif kind == "offer_card":
        count = page.evaluate("P10.state.view.prompt.count")  # the prompt counts in the plural forms
        text = page.locator("#prompt").text_content() or ""
        assert "(s)" not in text and (count == 1 or f"{count} cards" in text or page.evaluate("P10.lang") != "en"), text
        click_card(page, command["card"])
        page.click("#act-offer")
    elif kind == "take_offer":
        page.click(f"#prompt-controls .choice:has([data-card-id='{command['card']}']) button")
    elif kind == "keep_hand":
        page.click("#prompt-controls button" + (":first-child" if command["keep"] else ":last-child"))
    elif kind == "roll_dice":
        page.click("#act-roll")
    elif kind == "move":
        page.click(f"[data-steps='{command['steps']}']")
    elif kind == "choose_action":
        page.click(f"[data-action='{command['action']}']")
    elif kind == "search":
        page.click(f"[data-search='{command['card']}']")
    elif kind in ("swap", "keep"):
        if kind == "swap" and not page.evaluate("P10.state.selected.size"):
            assert page.is_disabled("#act-swap")  # B-5: swap 1-4 cards; nothing selected, nothing to press
        for card in command["cards"]:
            click_card(page, card)
        page.click("#act-swap" if kind == "swap" else "#act-keep")
    elif kind == "ask":
        page.select_option("#ask-number", str(command["number"]))
        page.select_option("#ask-direction", command["direction"])
        page.click("#act-ask")
    elif kind == "give":
        page.click(f"[data-give='{command['card']}']")
    elif kind == "end_turn":
        page.click("#act-end-turn")
    else:
        raise AssertionError(f"no control for {command}")


def act(page: Any, stats: dict[str, int]) -> dict[str, Any]:
    """One move of whatever the seat is awaited for, chosen by ``strategy.decide`` from the page's view."""
    close_summary(page)
    before = version(page)
    v = view(page)
    prompt = v["prompt"]
    hint = suggestion(page) if prompt["action"] == "play" and prompt.get("can_lay") else None
    command = decide(v, hint)
    try:
        perform(page, command)
    except Exception as err:
        raise AssertionError(f"{command} failed; page errors: {page.p10_errors}; prompt: {prompt}") from err
    stats[command["type"]] = stats.get(command["type"], 0) + 1
    try:
        wait_version(page, before + 1)
    except Exception as err:
        shown = page.text_content("#action-error")
        raise AssertionError(f"{command} was made but the page's version stayed {version(page)}; error shown: "
                             f"{shown!r}; page errors: {page.p10_errors}; prompt: {prompt}") from err
    return command


def act_over_rest(page: Any, stats: dict[str, int]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The move ``act`` would make (``strategy.decide``, with the server's Suggest when the seat may lay), sent
    from the page over REST with its own seat cookie rather than through its controls: for the tests of what
    the table tells its players, where a whole game's clicking is not what is tested (and costs seconds).
    Returns the command and the server's answer (``version``, ``events``, the seat's new ``view``)."""
    close_summary(page)
    before = version(page)
    v = view(page)
    prompt = v["prompt"]
    hint = None
    if prompt["action"] == "play" and prompt.get("can_lay"):
        hint = page.evaluate("P10.api('GET', `/api/tables/${P10.state.tableId}/hint`).then((r) => r.data.groups)")
    command = decide(v, hint)
    status, data = page.evaluate(
        "([command, version, id]) => P10.api('POST', `/api/tables/${P10.state.tableId}/commands`, "
        "{command_id: id, expected_version: version, command}).then((r) => [r.status, r.data])",
        [command, before, str(uuid.uuid4())])
    assert status == 200, (command, status, data)
    stats[command["type"]] = stats.get(command["type"], 0) + 1
    wait_version(page, before + 1)
    return command, data


def play_until_over(pages: list[Any], stats: dict[str, int], limit: int = 120,
                    before_move: Any = None) -> None:
    """Let the awaited seats move until the game is over (``before_move(page, other)`` may interject)."""
    for _ in range(limit):
        latest = max(version(p) for p in pages)
        for p in pages:  # every page has caught up over its socket before anyone decides
            wait_version(p, latest)
        if view(pages[0])["over"]:
            return
        page = awaited_page(pages)
        assert page is not None, "nobody is awaited"
        others = [p for p in pages if p is not page]
        if before_move is not None and before_move(page, others[0]):
            continue
        act(page, stats)
    raise AssertionError("the game did not finish")


def seat_and_start(host: Any, invite: str, guests: list[tuple[Any, str]]) -> list[Any]:
    """Each guest page joins with the invite link under its name, the host sees them all and starts the game;
    every page (the host's first) shows the table at version 0."""
    for page, name in guests:
        join_table(page, invite, name)
    for _, name in guests:
        host.wait_for_selector(f"#seat-list li:has-text('{name}')")
    host.click("#start-button")
    pages = [host, *(page for page, _ in guests)]
    for page in pages:
        page.wait_for_selector("#game:not(.hidden)")
        wait_version(page, 0)
    return pages


def start_two(server: Any, new_page: Any, ruleset: str, options: dict[str, Any],
              lobby_shot: Any = None, ben_locale: str = "en-GB", ben_width: int = 1280,
              spectators: bool = False) -> tuple[Any, Any, str]:
    """Anna creates the table in the lobby, Ben joins with the invite link, Anna starts the game."""
    anna = new_page()
    ben = new_page(locale=ben_locale, width=ben_width, height=780 if ben_width < 500 else 900)
    invite = create_table(anna, server.url, ruleset, "Anna", options=options, screenshot=lobby_shot,
                          spectators=spectators)
    seat_and_start(anna, invite, [(ben, "Ben")])
    return anna, ben, invite


def no_hidden_information(page: Any) -> None:
    """C-9: the page holds its own seat's view only (no hands, no draw pile)."""
    v = view(page)
    assert v["hand"] is not None
    for key in ("hands", "draw_pile", "discard_pile", "blue_pile", "take_two_drawn"):
        assert key not in v, key


def illegal_laydown(page: Any) -> None:
    """Build a lay-down that breaks C-2 (mixed numbers or colours, a group too small), submit it, and see
    the engine's error in words next to the action — with nothing changed."""
    v = view(page)
    naturals = sorted((c for c in v["hand"] if c["kind"] == "number"), key=lambda c: (c["number"], c["id"]))
    groups = len(v["my_phase"])
    first, last = naturals[0], naturals[-1]
    assert first["number"] != last["number"]
    before = version(page)
    open_builder(page)
    click_card(page, first["id"])
    click_card(page, last["id"])
    page.click("[data-put='0']")
    for index in range(1, groups):
        click_card(page, naturals[index]["id"])
        page.click(f"[data-put='{index}']")
    page.click("#builder-lay")
    page.wait_for_function("() => document.getElementById('action-error').textContent.length > 0")
    text = page.locator("#action-error").text_content() or ""
    # The engine's message in English, or the translation of its code (C-2 errors name the group kind).
    assert re.search(r"set|run|colour|cards|natural|Satz|Gruppe|Karte|série|groupe|gruppo|carte|набор|групп|карт",
                     text), text
    assert version(page) == before  # nothing happened
    page.click("#builder-clear")


def milestones(ruleset: str, stats: dict[str, int]) -> tuple[dict[str, bool], Any]:
    """The ``before_move`` hook every game test uses: once an illegal lay-down, once a dropped socket that
    catches up on reconnect (the move happens while it is away), once a screenshot after a hit."""
    done = {"illegal": False, "reconnect": False, "shot": False}

    def interject(page: Any, other: Any) -> bool:
        v = view(page)
        if not done["illegal"] and v["prompt"]["action"] == "play" and v["prompt"].get("can_lay"):
            illegal_laydown(page)
            done["illegal"] = True
        if not done["reconnect"] and stats.get("lay_phase"):
            other.evaluate("P10.dropConnection()")
            other.wait_for_function("document.getElementById('conn').dataset.state !== 'on'")
            act(page, stats)
            other.wait_for_function("document.getElementById('conn').dataset.state === 'on'")
            wait_version(other, version(page))
            assert other.evaluate("P10.state.logVersion") == version(page)
            done["reconnect"] = True
            return True
        if not done["shot"] and stats.get("lay_phase") and v["prompt"]["action"] in ("draw", "roll"):
            from .conftest import shot

            # Pictures of the table after a lay-down (test artefacts): the desktop English page and the other one.
            best, second = sorted((page, other), key=lambda p: (
                p.evaluate("document.documentElement.lang") != "en", p.viewport_size["width"] < 1000))
            for target in (best, second):
                close_summary(target)
            shot(best, f"table-{ruleset}")
            shot(second, f"table-{ruleset}-{second.evaluate('document.documentElement.lang')}")
            done["shot"] = True
        return False

    return done, interject
