"""Play on from here, in a browser (C-9, C-10): Anna opens the replay of a finished game at a step where Ben was
to move, chooses her seat and hard bots, and lands on a practice table at that position; the bot in Ben's seat
moves by itself, then Anna plays on through the page, and the game goes on.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from . import helpers as h
from .conftest import shot
from .test_replay_share import SEED, bearer, finished_game, until_step


@pytest.mark.e2e
def test_play_on_from_a_replay_step_against_bots(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED, PHASE10_BOT_DELAY_SECONDS="0.3")
    table_id, tokens = finished_game(server.url)
    record = httpx.get(f"{server.url}/api/tables/{table_id}/games/1/replay", headers=bearer(tokens[0])).json()
    # a step after which Ben (seat 1) was to move, a few turns into the game
    step = next(c["seq"] - 1 for c in record["commands"][8:] if c["seat"] == 1)
    at_step = httpx.get(f"{server.url}/api/tables/{table_id}/games/1/replay/{step}",
                        headers=bearer(tokens[0])).json()["state"]

    for width, height, name, locale, scheme in ((1280, 900, "desktop", "en-GB", "light"),
                                                (360, 740, "phone-de-dark", "de-DE", "dark")):
        page = new_page(width=width, height=height, locale=locale, color_scheme=scheme)
        page.context.add_cookies([{"name": f"p10_seat_{table_id}", "value": tokens[0], "url": server.url}])
        page.goto(f"{server.url}/tables/{table_id}/games/1/replay#step={step}")
        page.wait_for_selector("#rp-players article")
        until_step(page, step)
        page.click("#rp-practice")
        page.wait_for_selector("#rp-practice-panel:not(.hidden)")
        start = {"en-GB": f"Start practice at step {step}", "de-DE": f"Übung ab Schritt {step} starten"}[locale]
        assert page.locator("#rp-practice-start").text_content() == start
        page.select_option("#rp-practice-seat", "0")
        page.select_option("#rp-practice-level", "hard")
        shot(page, f"replay-practice-panel-{name}")
        if name != "desktop":
            break  # the panel fits the phone; the table itself is played once, on the desktop
        page.click("#rp-practice-start")
        page.wait_for_url("**/tables/*")
        page.wait_for_selector("#game:not(.hidden)")
        practice_id = page.url.rstrip("/").split("/")[-1]
        assert practice_id != table_id
        assert page.locator("#game-title .practice").text_content() == "Practice"
        # the position is the replay's: Anna's hand and the discard pile's top at that step
        mine = h.view(page)
        assert sorted(c["id"] for c in mine["hand"]) == sorted(c["id"] for c in at_step["hands"][0])
        assert "hands" not in mine  # her own view: the bot's hand is not in it (C-9)
        h.no_hidden_information(page)
        # the bot in Ben's seat moves by itself, then it is Anna's turn and she plays on through the page
        h.wait_version(page, step + 1)
        page.wait_for_function("() => P10.state.view && P10.state.view.prompt && P10.state.view.prompt.action"
                               " && P10.state.view.prompt.action !== 'wait'", timeout=60_000)
        before = h.version(page)
        stats: dict[str, int] = {}
        h.act(page, stats)
        h.wait_version(page, before + 1)
        info = httpx.get(f"{server.url}/api/tables/{practice_id}").json()
        assert info["practice"] is True and info["practice_from"] == {"table_id": table_id, "number": 1,
                                                                      "step": step}
        assert [s["is_bot"] for s in info["seats"]] == [False, True]
        assert info["bots"] == [{"seat": 1, "level": "hard"}]
        shot(page, "practice-table-desktop")
        assert not page.p10_errors, page.p10_errors
