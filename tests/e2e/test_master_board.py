"""Whole Master (R-1..R-14) and board (B-1..B-9) games through the pages in headless Chromium.

Seeds found offline with the engine and ``strategy.decide`` (``phases_to_win = 1``): Master seed 1053 is a
13-command game with Give me five asked, offered and taken (R-11), seed 748 one with Take two (R-8), both
with both lay-downs and hits, and seed 627 (``phases_to_win = 2``) a two-round game with an All-mine keep
choice at the end of round 1 (R-9); board seed 1120 is a 31-command game with dice, moves, a search, an ask
answered by the other seat's give, a swap, both lay-downs and hits (B-5); board seed 153 a 79-command game
that also lands on the free-choice field (B-5 choice).
"""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .conftest import shot


def finish_and_replay(anna: Any, ben: Any, ruleset: str) -> None:
    for page in (anna, ben):
        h.wait_version(page, h.version(anna))
        page.wait_for_selector("#summary[open]")
    # the end-of-game summary has the score sheet and the chart of each player's phase and score by round
    assert anna.locator("#summary table.scores").count() == 1 and anna.locator("#summary svg.chart").count() == 2
    shot(anna, f"game-over-{ruleset}")
    anna.click("#summary-replay")
    anna.wait_for_url("**/replay")
    anna.wait_for_selector("#rp-players article")
    anna.click("#rp-last")
    anna.wait_for_function("() => P10.replay.step === P10.replay.record.version")
    assert anna.locator(".rp-hand").count() == 2
    shot(anna, f"replay-{ruleset}")
    assert not anna.p10_errors and not ben.p10_errors, anna.p10_errors + ben.p10_errors


@pytest.mark.e2e
@pytest.mark.parametrize(("seed", "phases", "flow"), [(1053, 1, ("play_action", "offer_card", "take_offer")),
                                                      (748, 1, ("play_action", "choose_take_two")),
                                                      (627, 2, ("play_action", "keep_hand"))])
def test_master_game_through_the_pages(start_server: Any, new_page: Any, seed: int, phases: int,
                                       flow: tuple[str, ...]) -> None:
    server = start_server(seed)
    anna, ben, _ = h.start_two(server, new_page, "master", {"phases_to_win": phases}, ben_locale="fr-FR")
    for page in (anna, ben):
        h.no_hidden_information(page)
    assert anna.locator("#pile-blue, .pile-blue").count() == 1  # the blue pile is shown
    stats: dict[str, int] = {}
    done, interject = h.milestones("master", stats)
    h.play_until_over([anna, ben], stats, before_move=interject)
    assert all(done.values()), done
    assert stats.get("lay_phase", 0) >= 2 and stats.get("hit"), stats
    for kind in flow:
        assert stats.get(kind), (kind, stats)
    assert anna.locator("#log").get_by_text("Anna").count() + anna.locator("#log").get_by_text("Ben").count() > 5
    finish_and_replay(anna, ben, "master")


@pytest.mark.e2e
@pytest.mark.parametrize(("seed", "flow"), [(1120, ("search", "ask", "give", "swap")),
                                            (153, ("search", "ask", "choose_action"))])
def test_board_game_through_the_pages(start_server: Any, new_page: Any, seed: int, flow: tuple[str, ...]) -> None:
    server = start_server(seed)
    anna, ben, _ = h.start_two(server, new_page, "board", {"phases_to_win": 1}, ben_locale="it-IT",
                               ben_width=360, spectators=True)
    # A spectator (no seat, no cookie) sees the public view: the board and both players, no hand (C-9).
    carl = new_page()
    carl.goto(anna.url)
    carl.wait_for_selector("#game:not(.hidden)")
    carl.wait_for_function("() => P10.state.view !== null")
    assert carl.evaluate("P10.state.seat") is None and carl.evaluate("P10.state.view.hand") is None
    assert carl.locator("#hand-area").is_hidden() and carl.locator("#board svg .pawn").count() == 2
    assert "watching" in (carl.locator("#prompt").text_content() or "")
    for page in (anna, ben):
        h.no_hidden_information(page)
        assert page.locator("#board svg .field").count() == 32  # B-2: the ring
        assert page.locator("#board svg .pawn").count() == 2
    stats: dict[str, int] = {}
    done, interject = h.milestones("board", stats)
    h.play_until_over([anna, ben], stats, before_move=interject)
    assert all(done.values()), done
    for kind in ("roll_dice", "move", "lay_phase", "hit", *flow):
        assert stats.get(kind), (kind, stats)
    h.wait_version(carl, h.version(anna))
    assert carl.locator("#log li").count() > 10 and not carl.p10_errors
    finish_and_replay(anna, ben, "board")
