"""A game record travels between servers (C-10): the record of a game dealt from a seed above 2^53 is downloaded
from one server and opened through the lobby's "Open a record…" of a second, fresh server, landing on its
replay; the page uploads the file as it is (a seed read as a JavaScript number would change and the record no
longer replay). A tampered or absurdly dated record is refused with its error and no table is made; the replay
page of a game that does not exist still opens a record."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import shot
from .test_replay_share import bearer, finished_game

BIG_SEED = 1072648031566401326  # above 2^53: JSON.parse would make it 1072648031566401280


def table_count(server: Any) -> int:
    database = Path(server.log.name).parent / "e2e.db"
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT count(*) FROM game_table").fetchone()[0])


@pytest.mark.e2e
def test_C10_a_63_bit_seed_record_opens_on_a_fresh_server(
        start_server: Any, new_page: Any, tmp_path: Path) -> None:
    first = start_server(BIG_SEED)
    table_id, tokens = finished_game(first.url)
    download = httpx.get(f"{first.url}/api/tables/{table_id}/games/1/record", headers=bearer(tokens[0]))
    assert download.status_code == 200
    path = tmp_path / "game.json"
    path.write_bytes(download.content)
    record = json.loads(download.content)
    assert record["seed"] == str(BIG_SEED)

    second = start_server(7)
    assert table_count(second) == 0
    page = new_page(locale="ru-RU", width=360, height=740, color_scheme="dark")
    page.goto(second.url + "/")
    assert page.locator("#open-record label.button").is_visible()
    shot(page, "open-record-lobby-phone-ru-dark")
    page.set_input_files("#lobby-open", str(path))
    page.wait_for_url(lambda url: "/games/1/replay" in url)
    page.wait_for_selector("#rp-players article")
    new_id = page.url.split("/tables/")[1].split("/")[0]
    opened = httpx.get(f"{second.url}/api/tables/{new_id}/games/1/replay").json()
    assert opened["seed"] == BIG_SEED and opened["version"] == record["version"]
    assert opened["winners"] == record["winners"] and table_count(second) == 1
    page.keyboard.press("End")
    page.wait_for_function("k => P10.replay.step === k", arg=record["version"])
    shot(page, "open-record-replay-phone-ru-dark")

    # refused: a tampered record and one dated in the year 1; the lobby says why and no table is made
    desktop = new_page(locale="de-DE")
    desktop.goto(second.url + "/")
    tampered = json.loads(download.content)
    tampered["commands"][3]["seat"] = 1 - tampered["commands"][3]["seat"]
    absurd = json.loads(download.content)
    absurd["created_at"] = "0001-01-01T00:00:00+14:00"
    for name, doctored, code in (("tampered", tampered, "record_does_not_replay"),
                                 ("absurd", absurd, "record_bad_time")):
        bad = tmp_path / f"{name}.json"
        bad.write_text(json.dumps(doctored))
        desktop.evaluate("document.getElementById('open-error').textContent = ''")
        desktop.set_input_files("#lobby-open", str(bad))
        desktop.wait_for_function("() => document.getElementById('open-error').textContent.length > 0")
        text = desktop.locator("#open-error").text_content() or ""
        expected = desktop.evaluate("k => P10.t('error.' + k)", code)
        assert text.startswith(expected.split("{")[0][:20]), (text, expected)
        assert desktop.url.rstrip("/") == second.url and table_count(second) == 1
    shot(desktop, "open-record-refused-de")

    # a replay page that failed to load still opens a record
    broken = new_page()
    broken.goto(second.url + "/tables/no-such-table/games/1/replay")
    broken.wait_for_function("() => document.getElementById('replay-error').textContent.length > 0")
    broken.set_input_files("#rp-open", str(path))
    broken.wait_for_url(lambda url: "no-such-table" not in url and url.endswith("/games/1/replay"))
    broken.wait_for_selector("#rp-players article")
    assert table_count(second) == 2
    assert not page.p10_errors and not desktop.p10_errors and not broken.p10_errors
