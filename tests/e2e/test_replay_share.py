"""A finished game's replay opened through a share link, in a fresh browser (no seat cookie), on a 360×740 phone
and on the desktop (C-9, C-10): the timeline's rounds, jumping to a round (and to an analysis mark when the server
offers the analysis), stepping with the keyboard, the step's own address, viewing as a seat, downloading the game
record and opening it again in the replay page.

The game is played fast over REST by ``strategy.decide`` (each seat's own view and the solver's hint only), a
short Mattel game with a fixed seed, so the browser work is all this test spends its time on.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from . import helpers as h
from .conftest import shot
from .strategy import decide
from .test_axe import both_themes

SEED = 306
OPTIONS = {"phases_to_win": 2}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def finished_game(url: str, names: tuple[str, ...] = ("Anna", "Ben"),
                  options: dict[str, Any] = OPTIONS) -> tuple[str, list[str]]:
    """The seats ``names`` play a whole Mattel game over REST (``strategy.decide`` per seat); the table id and the
    seat tokens."""
    with httpx.Client(base_url=url, timeout=30) as c:
        r = c.post("/api/tables", json={"ruleset": "mattel", "seats": len(names), "options": options,
                                        "name": names[0]})
        assert r.status_code == 201, r.text
        table_id, code, tokens = r.json()["table_id"], r.json()["join_code"], [r.json()["token"]]
        for name in names[1:]:
            c.cookies.clear()
            r = c.post(f"/api/tables/{table_id}/join", json={"name": name, "code": code})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        c.cookies.clear()
        assert c.post(f"/api/tables/{table_id}/start", headers=bearer(tokens[0])).status_code == 200
        for n in range(4000):
            views = [c.get(f"/api/tables/{table_id}/view", headers=bearer(t)).json()["view"] for t in tokens]
            if views[0]["over"]:
                return table_id, tokens
            seat = next(i for i, v in enumerate(views) if v["prompt"] and v["prompt"]["action"])
            view = views[seat]
            hint = None
            if view["prompt"]["action"] == "play" and view["prompt"].get("can_lay"):
                hint = c.get(f"/api/tables/{table_id}/hint", headers=bearer(tokens[seat])).json()["groups"]
            command = decide(view, hint)
            r = c.post(f"/api/tables/{table_id}/commands", headers=bearer(tokens[seat]),
                       json={"command_id": f"c{n}", "command": command})
            assert r.status_code == 200, (command, r.text)
    raise AssertionError("the game did not finish")


def step(page: Any) -> int:
    value: int = page.evaluate("P10.replay.step")
    return value


def until_step(page: Any, expected: int) -> None:
    page.wait_for_function("k => P10.replay.step === k", arg=expected)


@pytest.mark.e2e
def test_a_share_link_opens_in_a_fresh_phone_and_desktop(
        start_server: Any, new_page: Any, tmp_path: Path) -> None:
    """C-9, C-10: a seat makes a share link; a browser without any seat opens it at 360×740 and at 1280×900,
    jumps to round 2, steps with ← → PgDn PgUp Home End (the address follows: #step=N), views the game as Ben,
    downloads the record and opens it again, which replays to the same game."""
    server = start_server(SEED)
    table_id, tokens = finished_game(server.url)
    # Ben (his seat cookie) makes the share link in his replay page
    ben = new_page()
    ben.context.add_cookies([{"name": f"p10_seat_{table_id}", "value": tokens[1], "url": server.url}])
    ben.goto(f"{server.url}/tables/{table_id}/games/1/replay")
    ben.click("#rp-share")
    ben.click("#rp-share-new")
    ben.wait_for_function("() => document.getElementById('rp-share-url').value.includes('/shared/')")
    link = ben.input_value("#rp-share-url")
    assert link.endswith("#step=0")  # the link opens at the step on screen
    link = link.split("#")[0]
    ben.wait_for_selector("#rp-share-list li button")  # his own link: he may revoke it
    shot(ben, "replay-share-panel")
    made = {"token": link.split("/shared/")[1]}
    assert table_id not in link  # the link names no table
    record = httpx.get(f"{server.url}/api/tables/{table_id}/games/1/replay", headers=bearer(tokens[0])).json()
    rounds, version = record["rounds"], record["version"]
    assert len(rounds) >= 2

    for width, height, name in ((360, 740, "phone"), (1280, 900, "desktop")):
        page = new_page(width=width, height=height)
        page.goto(link + "#step=5")
        page.wait_for_selector("#rp-players article")
        until_step(page, 5)  # the address opens the replay at its step
        assert page.locator("#replay-shared").is_visible()
        assert page.locator(".rp-tick").count() == len(rounds)
        assert page.locator("#rp-log [data-step]").count() == version + 1
        assert page.locator("#rp-round").text_content() == f"Round 1 of {len(rounds)}"
        # jump to round 2
        page.select_option("#rp-round-select", str(rounds[1]["step"]))
        until_step(page, rounds[1]["step"])
        assert page.locator("#rp-round").text_content() == f"Round 2 of {len(rounds)}"
        assert "Anna: Phase" in (page.locator("#rp-phases").text_content() or "")
        assert page.locator("#rp-scores-body table.scores tbody tr").count() == 2  # round 1 and the total
        # the keyboard, with the focus on the page
        page.locator("#rp-command").click()
        here = step(page)
        page.keyboard.press("ArrowRight")
        until_step(page, here + 1)
        page.keyboard.press("ArrowLeft")
        until_step(page, here)
        page.keyboard.press("PageUp")
        until_step(page, 0)
        page.keyboard.press("PageDown")
        until_step(page, rounds[1]["step"])
        page.keyboard.press("End")
        until_step(page, version)
        page.wait_for_function("() => location.hash === '#step=' + P10.replay.record.version")
        text = page.locator("#rp-command").text_content() or ""
        assert "Game over" in text and "undefined" not in text
        page.keyboard.press("Home")
        until_step(page, 0)
        # the server's own analysis, read with the share link: the page shows its marks, a mark opens its step
        analysis = None
        for _ in range(100):
            analysis = httpx.get(f"{server.url}/api/shared/{made['token']}/analysis")
            if analysis.status_code != 202:
                break
            time.sleep(0.1)
        assert analysis is not None and analysis.status_code == 200, analysis
        marks = analysis.json()["marks"]
        page.reload()
        page.wait_for_selector("#rp-players article")
        page.wait_for_function("n => document.querySelectorAll('.rp-mark').length === n", arg=len(marks))
        if marks:
            page.locator(f".rp-mark[data-step='{marks[-1]['step']}']").first.click()
            until_step(page, marks[-1]["step"])
            page.locator("#rp-command").click()
            page.keyboard.press("Home")
            until_step(page, 0)
        # view as Ben: his hand only
        page.select_option("#rp-view-as", "1")
        page.wait_for_function("() => location.hash === '#step=0&seat=1'")
        assert page.locator(".rp-hand").count() == 1 and page.locator(".rp-hand-hidden").count() == 1
        page.select_option("#rp-view-as", "")
        page.wait_for_function("() => document.querySelectorAll('.rp-hand').length === 2")
        page.keyboard.press("End")
        until_step(page, version)
        shot(page, f"replay-shared-{name}")
        assert both_themes(page, f"shared replay, {name}") == []  # no serious axe violation, light and dark
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "wider than the screen"
        assert not page.p10_errors, page.p10_errors

    # the analysis as the page reads it (the answer of GET .../analysis, served here by the browser itself so that
    # the page's side is checked whether or not this server computes analyses): marks on the timeline, one card
    # per player at the end
    marks = [{"step": 3, "seat": 0, "kind": "missed_hit", "round": 1, "points": 15},
             {"step": rounds[1]["step"], "seat": 1, "kind": "turning_point", "round": 2, "points": None}]
    answer = {"version": 1, "ruleset": "mattel", "marks": marks, "players": [
        {"seat": 0, "missed_laydowns": 1, "missed_hits": 1, "missed_hit_points": 15, "fed_next": 0},
        {"seat": 1, "missed_laydowns": 0, "missed_hits": 0, "missed_hit_points": 0, "fed_next": 2}]}
    page.route("**/api/**/analysis*", lambda route: route.fulfill(status=200, json=answer))
    page.goto(link)
    page.wait_for_selector(".rp-mark")
    assert page.locator(".rp-mark").count() == 2
    page.click(".rp-mark-missed_hit")
    until_step(page, 3)
    assert "could have hit a card" in (page.locator(".rp-mark-missed_hit").get_attribute("aria-label") or "")
    page.click(".rp-mark-turning_point")
    until_step(page, rounds[1]["step"])
    page.keyboard.press("End")
    until_step(page, version)
    cards = page.locator("#rp-analysis-cards li")
    assert cards.nth(0).text_content() == ("Anna: 1 missed lay-down, 1 missed hit worth 15 points, "
                                           "0 discards that fed the next player")
    assert cards.nth(1).text_content() == "Ben: 0 missed lay-downs, 0 missed hits, 2 discards that fed the next player"
    shot(page, "replay-analysis-desktop")
    page.unroute("**/api/**/analysis*")

    # coaching marks: the card and the better move in words ("1 point", not "1 points"), close marks clustered
    # into one 24 px button whose tap lists them, a legend, and the summary at any step
    eight, seven = ({"id": 9, "kind": "number", "number": 8, "colour": "blue"},
                    {"id": 4, "kind": "number", "number": 7, "colour": "red"})
    group = {"owner": 0, "kind": "set", "number": 8}
    coaching = [{"step": 5, "seat": 1, "kind": "missed_go_out", "round": 1, "points": 15, "card": eight,
                 "move": [{"do": "hit", "card": eight, "group": group}, {"do": "discard", "card": seven}]},
                {"step": 6, "seat": 1, "kind": "discarded_hit", "round": 1, "points": 1, "card": eight,
                 "move": [{"do": "hit", "card": eight, "group": group}, {"do": "discard", "card": seven}]}]
    page.route("**/api/**/analysis*", lambda route: route.fulfill(status=200, json={**answer, "marks": coaching}))
    page.goto(link.split("#")[0] + "#step=1")
    page.reload()  # a change of the address' hash alone loads nothing
    page.wait_for_selector(".rp-mark")
    assert page.locator(".rp-mark").count() == 1  # one cluster
    box = page.locator(".rp-mark").bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24
    assert page.locator("#rp-analysis").is_visible()  # the summary at step 1
    assert page.locator("#rp-legend li").count() == 2
    page.click(".rp-mark-cluster")
    listed = page.locator(".rp-cluster-step")
    assert listed.count() == 2
    assert "Hit the blue 8 on Anna's set of 8s, then go out: saves 15 points" in (listed.nth(0).text_content() or "")
    assert "then discard the red 7 instead: saves 1 point" in (listed.nth(1).text_content() or "")
    listed.nth(1).click()
    until_step(page, 6)
    page.unroute("**/api/**/analysis*")

    # download the record (the link of the page) and open it again in the replay page
    with page.expect_download() as info:
        page.click("#rp-download")
    path = tmp_path / "game.json"
    info.value.save_as(path)
    downloaded = json.loads(path.read_text())
    assert downloaded["format"] == "phase10-game-record" and len(downloaded["commands"]) == version
    page.set_input_files("#rp-open", str(path))
    page.wait_for_url(lambda url: table_id not in url and url.endswith("/games/1/replay"))
    page.wait_for_selector("#rp-players article")
    page.keyboard.press("End")
    until_step(page, version)
    assert page.evaluate("P10.replay.record.winners") == record["winners"]
    # a doctored record is refused with a clear error, and the page stays where it is
    downloaded["commands"][3]["seat"] = 1 - downloaded["commands"][3]["seat"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(downloaded))
    before = page.url
    page.set_input_files("#rp-open", str(bad))
    page.wait_for_function("() => document.getElementById('replay-error').textContent.length > 0")
    assert "refuses" in (page.locator("#replay-error").text_content() or "") and page.url == before

    # the story of the table: Anna's browser (her seat cookie) sees the series in "My tables" and at the table
    anna = new_page(width=360, height=740)
    anna.context.add_cookies([{"name": f"p10_seat_{table_id}", "value": tokens[0], "url": server.url}])
    anna.goto(server.url + "/")
    anna.click("#my-tables .my-series summary")
    games = anna.locator("#my-tables .series-games tr")
    # the winner is marked by a drawn trophy and said in words
    assert games.count() == 1 and "Ben" in (games.first.text_content() or "")
    assert games.first.locator("svg.icon[data-icon='trophy']").count() == 1
    assert games.first.locator("a").get_attribute("href") == f"/tables/{table_id}/games/1/replay"
    assert anna.locator("#my-tables .series-standings tbody tr").count() == 2
    shot(anna, "my-tables-series-phone")
    anna.goto(f"{server.url}/tables/{table_id}")
    anna.wait_for_selector("#game:not(.hidden)")
    h.close_summary(anna)
    anna.click("#scores-button")
    anna.wait_for_selector("#series .series-standings")
    assert anna.locator("#series .series-games a").get_attribute("href") == f"/tables/{table_id}/games/1/replay"
    shot(anna, "table-series-phone")
    assert not anna.p10_errors, anna.p10_errors
