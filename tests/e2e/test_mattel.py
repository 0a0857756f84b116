"""A whole Mattel game through the pages in headless Chromium: lobby, invite link, waiting room, table,
lay-down (M-4, C-3) via the solver's suggestion, hits (C-4), an illegal lay-down shown in words, a
dropped socket that reconnects and catches up (since=N), the end-of-game summary and the replay page.

Seed 306 with ``phases_to_win = 1`` (M-9) is a 15-command game with both players laying phase 1 and five
hits under the shared strategy (found offline with the engine, see ``strategy.py``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from . import helpers as h
from .conftest import shot

SEED = 306


@pytest.mark.e2e
def test_mattel_game_through_the_pages(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    # Ben plays at phone width (360 px) with a German browser.
    anna, ben, invite = h.start_two(server, new_page, "mattel", {"phases_to_win": 1},
                                    lobby_shot=lambda p: shot(p, "lobby-mattel"),
                                    ben_locale="de-DE", ben_width=360)
    assert ben.locator("html").get_attribute("lang") == "de"
    assert "/join/" in invite
    for page in (anna, ben):
        h.no_hidden_information(page)

    # A returning player (same browser) goes straight back to the seat from the invite link.
    ben.goto(invite)
    ben.wait_for_url("**/tables/*")
    ben.wait_for_selector("#game:not(.hidden)")

    stats: dict[str, int] = {}
    done, interject = h.milestones("mattel", stats)
    h.play_until_over([anna, ben], stats, before_move=interject)
    assert all(done.values()), done
    assert stats.get("lay_phase", 0) >= 2 and stats.get("hit", 0) >= 1, stats

    # Both see the end-of-game summary, with the score chart, and the log in words.
    for page in (anna, ben):
        h.wait_version(page, h.version(anna))
        page.wait_for_selector("#summary[open]")
        assert page.locator("#summary .chart").count() == 2
        assert page.locator("#log li").count() > 10
    assert anna.locator("#log").get_by_text(re.compile(r"laid their phase")).count() >= 2
    assert anna.locator("#log").get_by_text(re.compile(r"hit .* onto")).count() >= 1
    shot(anna, "game-over-mattel")
    assert not anna.p10_errors and not ben.p10_errors, anna.p10_errors + ben.p10_errors

    # The finished game in the replay page: every hand visible, step by step.
    anna.click("#summary-replay")
    anna.wait_for_url("**/replay")
    anna.wait_for_selector("#rp-players article")
    assert anna.locator("#rp-step").text_content().startswith("0 /")
    assert anna.locator(".rp-hand").count() == 2
    assert anna.locator(".rp-hand").first.locator(".card").count() == 10  # the deal, every hand shown
    anna.click("#rp-forward")
    anna.wait_for_function("() => P10.replay.step === 1")
    anna.click("#rp-last")
    anna.wait_for_function("() => P10.replay.step === P10.replay.record.version")
    assert anna.locator("#rp-log [data-step]").count() == h.version(ben) + 1
    assert anna.locator("#rp-players .group").count() >= 4
    shot(anna, "replay-mattel")
    assert not anna.p10_errors, anna.p10_errors

    # "Play again" is an offer (tests/e2e/test_offline_rematch_and_devices.py): Ben offers, Anna accepts back on the
    # table page, and the same seats start game 2 at this table; Ben's page switches to it by itself.
    finished = ben.evaluate("P10.state.gameId")
    ben.click("#summary-rematch")
    ben.wait_for_selector("#rematch")
    anna.go_back()
    anna.wait_for_selector("#rematch-accept")
    anna.click("#rematch-accept")
    ben.wait_for_function("g => P10.state.gameId !== g && P10.state.view && !P10.state.view.over", arg=finished)
    assert not ben.evaluate("document.getElementById('summary').open")
    ben.wait_for_function(
        "() => P10.state.logGame === P10.state.gameId && document.querySelectorAll('#log li').length >= 1")
    assert "2" in ben.locator("#log li").first.text_content() and ben.locator("#log li").count() == 1
    assert not ben.p10_errors, ben.p10_errors


@pytest.mark.e2e
def test_mattel_round_summary_and_score_sheet_M7_C9(start_server: Any,
                                                                                    new_page: Any) -> None:
    """M-7, M-8: seed 114 with ``phases_to_win = 2`` is a two-round game: after round 1 both pages show the
    round's summary (each player's cards left and their penalty points, phases, chart), the score sheet has its
    row, and round 2 is dealt. C-9: each page shows (and holds) its own leftover cards face up, never the
    other player's."""
    server = start_server(114)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 2})
    seen: dict[str, set[str]] = {"anna": set(), "ben": set()}
    own_left: dict[str, list[int]] = {}

    def check_cards_left(name: str, p: Any) -> None:
        seat = p.evaluate("P10.state.seat")
        ended = p.evaluate("P10.state.roundEnds[1]")
        points = h.view(p)["history"][0]["points"]
        assert p.locator("#summary-left li").count() == 2
        for other in (0, 1):
            row = p.locator(f"#summary-left li[data-seat='{other}']")
            n = ended["cards_left"][other]
            assert f"{n} card" in (row.text_content() or "")
            if ended["went_out"] != other:
                assert f"{points[other]} penalty point" in (row.text_content() or "")
            if other != seat:
                assert row.locator("[data-card-id]").count() == 0
        shown = [int(i) for i in p.eval_on_selector_all("#summary [data-card-id]",
                                                          "ns => ns.map(n => n.dataset.cardId)")]
        assert sorted(shown) == sorted(c["id"] for c in ended["hand"])
        assert len(shown) == ended["cards_left"][seat]
        own_left[name] = shown

    def watch(page: Any, other: Any) -> bool:
        for name, p in (("anna", anna), ("ben", ben)):
            if p.evaluate("document.getElementById('summary').open"):
                seen[name].add(p.locator("#summary-title").text_content() or "")
                if "Round 1" in (p.locator("#summary-title").text_content() or ""):
                    assert p.locator("#summary table.scores tbody tr").count() == 2  # round 1 + total
                    assert p.locator("#summary .chart").count() == 2
                    assert p.locator("#summary-replay").is_hidden()
                    check_cards_left(name, p)
        return False

    stats: dict[str, int] = {}
    h.play_until_over([anna, ben], stats, before_move=watch)
    watch(anna, ben)
    for name in seen:
        assert "Round 1 is over" in seen[name], seen
    assert set(own_left) == {"anna", "ben"} and any(own_left.values())
    assert not set(own_left["anna"]) & set(own_left["ben"])
    assert h.view(anna)["round"] == 2 and len(h.view(anna)["history"]) == 2
    anna.click("#summary-close")
    anna.click("#scores-button")
    assert anna.locator("#scores table.scores tbody tr").count() == 3  # two rounds + total
    assert anna.locator("#log").get_by_text("Round 1 is over").count() == 1
    assert not anna.p10_errors and not ben.p10_errors


@pytest.mark.e2e
def test_a_finished_game_keeps_result_and_rematch_on_reload(start_server: Any,
                                                                            new_page: Any) -> None:
    """M-9 game end: a page opened after the end (a refresh, a late arrival) has no summary popping up, but
    its prompt offers the result, the replay and the rematch; after the rematch the score sheet links the
    replay of game 1."""
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    h.play_until_over([anna, ben], {})
    ben.reload()
    ben.wait_for_function("() => P10.state.view && P10.state.view.over")
    assert not ben.evaluate("document.getElementById('summary').open")  # no old popup after a reload
    assert ben.locator("#over-replay").get_attribute("href").endswith("/games/1/replay")
    ben.click("#over-summary")
    ben.wait_for_function("() => document.getElementById('summary').open")
    assert ben.locator("#summary-title").text_content() == "Game over"
    assert ben.locator("#summary table.scores tbody tr").count() == 2  # the round + total
    ben.click("#summary-close")
    finished = ben.evaluate("P10.state.gameId")
    ben.click("#over-rematch")  # an offer, which Anna accepts
    anna.wait_for_selector("#rematch-accept")
    # her end-of-game dialog goes by itself, not to leave the offer under it
    anna.wait_for_function("() => !document.getElementById('summary').open")
    anna.click("#rematch-accept")
    for page in (anna, ben):
        page.wait_for_function("g => P10.state.gameId !== g && P10.state.view && !P10.state.view.over",
                               arg=finished)
    h.close_summary(anna)
    anna.click("#scores-button")
    link = anna.locator("#past-games a")
    assert link.count() == 2 and link.first.get_attribute("href").endswith("/games/1/replay")
    assert link.last.get_attribute("href").endswith("/games/2/replay") and "so far" in link.last.text_content()
    link.first.click()
    anna.wait_for_function("() => P10.replay && P10.replay.record")
    assert not anna.p10_errors and not ben.p10_errors
