"""An opponent's laid groups fold behind a disclosure button, in real Chromium: open by default on a wide
screen, folded on a phone, the player's choice remembered in this browser, and folded groups that hold a legal
target of the selected card opening for the moment (C-4).

Seed 63 (Mattel, two players, as in test_motion): Anna lays phase 1 (two groups) on her first turn."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .test_motion import SEED, draw_and_lay

TOGGLE = "#groups-toggle-0"
GROUPS = "#groups-0"


def shown(page: Any) -> bool:
    return bool(page.locator(f"{GROUPS} [data-group]").first.is_visible())


@pytest.mark.e2e
def test_opponents_laid_groups_fold_open_wide_folded_on_a_phone_and_remembered(start_server: Any,
                                                                               new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {})
    draw_and_lay(anna)
    h.wait_version(ben, 2)

    # Anna's own groups never fold; on Ben's wide screen hers are open, with the button saying so.
    assert anna.locator(TOGGLE).count() == 0 and anna.locator("#players [data-group]").count() == 2
    ben.wait_for_selector(f"{TOGGLE}[aria-expanded=true]")
    assert (ben.text_content(TOGGLE) or "").strip().endswith("2 laid groups")
    assert ben.get_attribute(TOGGLE, "aria-controls") == "groups-0" and shown(ben)

    # On a phone they start folded; a tap opens them, and the choice survives a reload.
    ben.set_viewport_size({"width": 360, "height": 740})
    ben.reload()
    ben.wait_for_selector(f"{TOGGLE}[aria-expanded=false]")
    assert not shown(ben)
    ben.click(TOGGLE)
    ben.wait_for_selector(f"{TOGGLE}[aria-expanded=true]")
    assert shown(ben)
    ben.reload()
    ben.wait_for_selector(f"{TOGGLE}[aria-expanded=true]")
    assert shown(ben)
    ben.focus(TOGGLE)
    ben.keyboard.press("Enter")  # the keyboard folds them again
    ben.wait_for_selector(f"{TOGGLE}[aria-expanded=false]")
    assert not shown(ben)
    assert ben.evaluate("document.activeElement.id") == "groups-toggle-0"
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


@pytest.mark.e2e
def test_folded_groups_open_while_the_selected_card_may_hit_them_c4(start_server: Any, new_page: Any) -> None:
    """C-4: on Ben's phone Anna's groups are folded; while his selected card may be hit onto one of them (the
    prompt's ``hits``), that group is shown, lit, with its hit button, and folds again when the selection goes.
    Seed 306 with ``phases_to_win = 1`` (test_mattel): Ben hits Anna's groups."""
    server = start_server(306)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1}, ben_width=360)
    seen: list[int] = []

    def watch(page: Any, other: Any) -> bool:
        if page is not ben:
            return False
        prompt = h.view(ben)["prompt"]
        owners = {i: g["owner"] for i, g in enumerate(h.view(ben)["table"])}
        onto_anna = [hit for hit in prompt.get("hits") or [] if owners[hit["group"]] == 0]
        if not onto_anna or ben.locator(TOGGLE).count() == 0 or seen:
            return False
        h.close_summary(ben)
        ben.wait_for_selector(f"{TOGGLE}[aria-expanded=false]")
        hit = onto_anna[0]
        h.click_card(ben, hit["card"])
        group = f"{GROUPS} [data-group='{hit['group']}']"
        ben.wait_for_selector(f"{group}.legal-target")
        assert ben.locator(group).is_visible() and ben.locator(f"{group} [data-hit]").first.is_visible()
        assert ben.get_attribute(TOGGLE, "aria-expanded") == "true"
        ben.keyboard.press("Escape")
        ben.wait_for_selector(f"{TOGGLE}[aria-expanded=false]")
        assert not shown(ben)
        seen.append(hit["card"])
        return False

    h.play_until_over([anna, ben], {}, before_move=watch)
    assert seen, "Ben never could hit one of Anna's groups"
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)
