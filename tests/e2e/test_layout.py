"""The one-screen table: at every stage of a whole game of each rule set the awaited player's hand and
current prompt with its actions lie inside a 360×740 phone screen (no page scrolling), and at the first
occurrence of each kind of prompt the same holds at every viewport of ``layout.VIEWPORTS`` (phones,
tablet, laptop; portrait and landscape). The round and game summaries' actions are checked too.

Seeds as in the whole-game tests: Mattel 306, Master 627 (two rounds with an All-mine keep choice, R-9;
Give me five and Skip cards in play), board 1120 (dice, moves, search, ask/give, swap; B-5)."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .conftest import shot
from .layout import check_viewports, outside

PHONE = (360, 740)


@pytest.mark.e2e
@pytest.mark.parametrize(("ruleset", "seed", "options"), [
    ("mattel", 306, {"phases_to_win": 1}),
    ("master", 627, {"phases_to_win": 2}),
    ("board", 1120, {"phases_to_win": 1}),
])
def test_hand_and_actions_stay_on_one_phone_screen_at_every_stage(start_server: Any, new_page: Any, ruleset: str,
                                                                  seed: int, options: dict[str, Any]) -> None:
    server = start_server(seed)
    anna, ben, _ = h.start_two(server, new_page, ruleset, options, ben_width=PHONE[0])
    for page in (anna, ben):
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    seen: dict[str, int] = {}
    stats: dict[str, int] = {}

    def check(page: Any, other: Any) -> bool:
        # the summary dialog first (a round just ended), then the table under it
        if page.evaluate("document.getElementById('summary').open"):
            assert outside(page) == [], ("summary", outside(page))
            if "summary" not in seen:
                check_viewports(page, "summary", PHONE)
                shot(page, f"layout-{ruleset}-summary")
            h.close_summary(page)
        v = h.view(page)
        stage = v["prompt"]["action"]
        if stage == "play" and v["prompt"].get("can_lay"):
            h.suggestion(page)  # the builder filled: the tallest dock
            stage = "play+builder"
        elif stage == "play" and v["table"]:
            stage = "play+groups"
        if outside(page):
            shot(page, f"layout-{ruleset}-{stage}-failed")
        assert outside(page) == [], (stage, outside(page))
        assert outside(other) == [] or other.evaluate("document.getElementById('summary').open"), \
            ("waiting", outside(other))
        if stage not in seen:
            shot(page, f"layout-{ruleset}-{stage}")
            check_viewports(page, stage, PHONE)
        seen[stage] = seen.get(stage, 0) + 1
        return False

    h.play_until_over([anna, ben], stats, before_move=check)
    for page in (anna, ben):
        h.wait_version(page, h.version(anna))
        page.wait_for_selector("#summary[open]")
    assert outside(anna) == [], ("game over", outside(anna))
    check_viewports(anna, "game over", PHONE)
    expected = {"mattel": {"draw", "play+builder", "play+groups"},
                "master": {"draw", "play+builder", "keep_hand"},
                "board": {"roll", "move", "play+builder"}}[ruleset]
    assert expected <= set(seen), seen
    assert not anna.p10_errors and not ben.p10_errors, anna.p10_errors + ben.p10_errors
