"""The replay page as a player uses it (C-9, C-10): keys pressed while a step loads queue (three quick → land three
steps on); the share link opens at the step on screen and goes through the device's share sheet where it has one;
on a 360×740 phone the step controls sit at the bottom within the thumb's reach and a swipe over the table steps;
the score sheet of a four-player game in Russian fits the desktop's side column.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import shot
from .test_replay_share import SEED, bearer, finished_game, until_step

# Every step's answer comes this much later, as from a slow server: the keys are pressed while it loads.
SLOW_STEPS = """(() => {
  const real = window.fetch.bind(window);
  window.fetch = (url, init) => /\\/replay\\/\\d+/.test(String(url))
    ? new Promise((done) => setTimeout(done, 400)).then(() => real(url, init)) : real(url, init);
})();"""
# A share sheet (navigator.share) that remembers what it was given.
SHARE_SHEET = "navigator.share = (data) => { window.p10Shared = data; return Promise.resolve(); };"


@pytest.mark.e2e
def test_keys_queue_share_keeps_its_step_phone_controls_below(
        start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    table_id, tokens = finished_game(server.url)
    cookie = [{"name": f"p10_seat_{table_id}", "value": tokens[1], "url": server.url}]
    replay = f"{server.url}/tables/{table_id}/games/1/replay"

    # three quick → while each step takes 400 ms to load: the page lands on step 3 (and stays there)
    page = new_page()
    page.context.add_cookies(cookie)
    page.context.add_init_script(SLOW_STEPS)
    page.goto(replay + "#step=0")
    page.wait_for_selector("#rp-players article")
    until_step(page, 0)
    page.locator("#rp-command").click()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    until_step(page, 3)
    page.wait_for_timeout(1200)  # every answer has come: none drew an older step over it
    assert page.evaluate("P10.replay.step") == 3 and page.evaluate("location.hash") == "#step=3"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    until_step(page, 1)

    # the share link opens at the step on screen, and goes through the share sheet
    ben = new_page()
    ben.context.add_cookies(cookie)
    ben.context.add_init_script(SHARE_SHEET)
    ben.goto(replay + "#step=7")
    ben.wait_for_selector("#rp-players article")
    until_step(ben, 7)
    ben.click("#rp-share")
    ben.click("#rp-share-new")
    ben.wait_for_function("() => document.getElementById('rp-share-url').value.includes('/shared/')")
    assert ben.input_value("#rp-share-url").endswith("#step=7")
    assert ben.locator("#rp-share-send").is_visible() and not ben.locator("#rp-share-copy").is_visible()
    ben.click("#rp-share-send")
    shared = ben.evaluate("window.p10Shared")
    assert shared["url"].endswith("#step=7") and "/shared/" in shared["url"]
    ben.click("#rp-forward")
    until_step(ben, 8)
    link = ben.input_value("#rp-share-url")
    assert link.endswith("#step=8")
    friend = new_page()
    friend.goto(link if link.startswith("http") else server.url + link)
    friend.wait_for_selector("#rp-players article")
    until_step(friend, 8)

    # a phone: the controls at the bottom of the screen, wherever the page is scrolled; a swipe steps
    phone = new_page(width=360, height=740, has_touch=True, is_mobile=True)
    phone.context.add_cookies(cookie)
    phone.goto(replay + "#step=4")
    phone.wait_for_selector("#rp-players article")
    until_step(phone, 4)
    for scroll in ("0", "document.body.scrollHeight"):
        phone.evaluate(f"window.scrollTo(0, {scroll})")
        box = phone.locator("#rp-forward").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 740 and box["y"] >= 740 - 130, box
        assert box["height"] >= 44 and box["width"] >= 44, box
    phone.evaluate("window.scrollTo(0, 0)")
    swipe = """(dx) => {
      const area = document.querySelector('.rp-grid');
      const r = area.getBoundingClientRect();
      const at = (x) => new Touch({identifier: 1, target: area, clientX: x, clientY: r.top + 40});
      const x0 = r.left + r.width / 2 - dx / 2;
      area.dispatchEvent(new TouchEvent('touchstart', {touches: [at(x0)], changedTouches: [at(x0)], bubbles: true}));
      area.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [at(x0 + dx)], bubbles: true}));
    }"""
    phone.evaluate(swipe, -150)
    until_step(phone, 5)
    phone.evaluate(swipe, 150)
    until_step(phone, 4)
    phone.evaluate(swipe, 20)  # a tap or a small slip is no swipe
    phone.wait_for_timeout(300)
    assert phone.evaluate("P10.replay.step") == 4
    shot(phone, "replay-phone-controls")
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    shot(phone, "replay-phone-controls-end")
    for p in (page, ben, friend, phone):
        assert not p.p10_errors, p.p10_errors


@pytest.mark.e2e
def test_a_four_player_russian_score_sheet_fits_the_desktop(start_server: Any, new_page: Any) -> None:
    server = start_server(SEED)
    table_id, tokens = finished_game(server.url, ("Анастасия", "Вениамин", "Екатерина", "Константин"),
                                     {"phases_to_win": 3})
    record = httpx.get(f"{server.url}/api/tables/{table_id}/games/1/replay", headers=bearer(tokens[0])).json()
    page = new_page(locale="ru-RU", width=1280, height=900)
    page.context.add_cookies([{"name": "p10_lang", "value": "ru", "url": server.url},
                              {"name": f"p10_seat_{table_id}", "value": tokens[0], "url": server.url}])
    page.goto(f"{server.url}/tables/{table_id}/games/1/replay#step={record['version']}")
    page.wait_for_selector("#rp-scores-body table.scores")
    assert page.evaluate("document.documentElement.lang") == "ru"
    fits = page.evaluate("""() => {
      const panel = document.getElementById('rp-scores'), table = panel.querySelector('table.scores');
      const p = panel.getBoundingClientRect(), t = table.getBoundingClientRect();
      return {panel: [p.left, p.right], table: [t.left, t.right],
              scroll: [panel.scrollWidth, panel.clientWidth, document.getElementById('rp-scores-body').scrollWidth,
                       document.getElementById('rp-scores-body').clientWidth]};
    }""")
    shot(page, "replay-scores-ru-4-desktop")
    assert fits["table"][1] <= fits["panel"][1] + 0.5 and fits["table"][0] >= fits["panel"][0] - 0.5, fits
    assert fits["scroll"][0] <= fits["scroll"][1] and fits["scroll"][2] <= fits["scroll"][3], fits
    assert not page.p10_errors, page.p10_errors
