"""The pages: served in the negotiated language, no game state embedded (C-9), rules summary per rule set."""

from __future__ import annotations

import posixpath
import re
from typing import Any

import pytest

from app.rules import registry
from app.web.pages import markdown_sections


def test_lobby_lists_every_rule_set_with_its_options(client: Any) -> None:
    page = client.get("/", headers={"accept-language": "it-IT,it;q=0.9"})
    assert page.status_code == 200
    assert '<html lang="it">' in page.text
    assert "Crea un tavolo privato" in page.text
    for rid in registry.ruleset_ids():
        assert f'value="{rid}"' in page.text
        for option in registry.get(rid).options_schema():
            assert f'"name": "{option["name"]}"' in page.text


def test_the_language_cookie_wins(client: Any) -> None:
    client.cookies.set("lang", "ru")
    page = client.get("/", headers={"accept-language": "de"})
    assert '<html lang="ru">' in page.text and "Создать закрытый стол" in page.text
    client.cookies.clear()


def test_table_page_holds_no_game_state(client: Any) -> None:
    """C-9: the table page is a shell; the seat's view comes over the API and the socket only."""
    created = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Anna"}).json()
    table_id = created["table_id"]
    code = created["join_code"]
    client.post(f"/api/tables/{table_id}/join", json={"name": "Ben", "code": code})
    client.post(f"/api/tables/{table_id}/start", headers={"authorization": f"Bearer {created['token']}"})
    page = client.get(f"/tables/{table_id}")
    assert page.status_code == 200
    for secret in ('"hand":', '"hands":', '"draw_pile":', '"rng":', '"kind":', created["token"], code):
        assert secret not in page.text
    assert f'data-table="{table_id}"' in page.text


@pytest.mark.parametrize("path", ["/join/abc?code=x", "/tables/abc", "/tables/abc/games/1/replay", "/rules",
                                  "/help/invite", "/static/js/invite.js",
                                  "/static/css/app.css", "/static/js/table/main.js", "/static/favicon.svg"])
def test_every_page_and_asset_is_served(client: Any, path: str) -> None:
    assert client.get(path).status_code == 200


@pytest.mark.parametrize("page", ["/", "/tables/abc", "/tables/abc/games/1/replay", "/join/abc?code=x", "/rules"])
def test_every_module_of_a_page_is_served_as_javascript(client: Any, page: str) -> None:
    """The pages are plain ES modules (no build step), all but theme.js (before the first paint): every module
    reachable from a page's entries by relative imports is served, as JavaScript (a browser refuses a module of
    another type), and no script of the page is a classic one but theme.js."""
    html = client.get(page).text
    scripts = re.findall(r"<script ([^>]*)>", html)
    classic = [s for s in scripts if "type=" not in s]
    assert classic == ['src="/static/js/theme.js"'], classic
    entries = re.findall(r'<script type="module" src="([^"]+)"', html)
    assert entries[:2] == ["/static/js/pwa.js", "/static/js/common.js"]
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        assert response.status_code == 200, path
        assert "javascript" in response.headers["content-type"], path
        base = path.rsplit("/", 1)[0]
        for name in re.findall(r'^import [^;]*?"(\.\.?/[a-z0-9_/-]+\.js)";', response.text, re.M):
            todo.append(posixpath.normpath(f"{base}/{name}"))
    if page == "/tables/abc":
        shared = {"/static/js/cards.js", "/static/js/board.js", "/static/js/invite.js", "/static/js/series.js"}
        assert {"/static/js/table/state.js", *shared} <= seen


def test_rules_summary_has_a_section_per_rule_set(client: Any) -> None:
    page = client.get("/tables/abc").text
    for rid in registry.ruleset_ids():
        assert f'data-ruleset="{rid}"' in page


def test_markdown_sections_subset() -> None:
    source = ("# Title\nignored\n\n## One {#a}\nText **bold**\ncontinued.\n\n### Sub\n- item `x`\n  more\n"
              "- two\n\n## Two {#b}\n<b>\n")
    sections = markdown_sections(source)
    assert sections["a"] == ("<h3>One</h3>\n<p>Text <strong>bold</strong> continued.</p>\n<h4>Sub</h4>\n<ul>\n"
                             "<li>item <code>x</code> more</li>\n<li>two</li>\n</ul>")
    assert sections["b"] == "<h3>Two</h3>\n<p>&lt;b&gt;</p>"


@pytest.mark.parametrize("lang", ["en", "de", "fr", "it", "ru"])
def test_rules_summary_in_every_language_has_every_rule_set(lang: str) -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    path = docs / ("rules.md" if lang == "en" else f"rules.{lang}.md")
    assert sorted(markdown_sections(path.read_text(encoding="utf-8"))) == sorted(registry.ruleset_ids())


def test_the_help_panel_speaks_the_page_language(client: Any) -> None:
    page = client.get("/tables/abc", headers={"accept-language": "de"}).text
    assert "Das Kartenspiel von Mattel".lower() in page.lower() and "Dein Zug" in page


def test_the_invite_help_is_the_readmes_section(client: Any) -> None:
    """Where a page shows a loopback or private invite link it links here: the README's "Play with friends
    elsewhere" (in German its translation, docs/invite.de.md), with the ways to make the link reachable."""
    page = client.get("/help/invite", headers={"cookie": "lang=en"}).text
    assert "<h1>Invite friends from elsewhere</h1>" in page and "<h2>Play with friends elsewhere</h2>" in page
    german = client.get("/help/invite", headers={"cookie": "lang=de"}).text
    assert "<h1>Freunde von anderswo einladen</h1>" in german and "<h2>Mit Freunden anderswo spielen</h2>" in german
    for way in ("PHASE10_PUBLIC_BASE_URL", "deploy/domain.yml", "tunnel"):
        assert way in page, way
    assert "Scaling out" not in page  # one section only


def test_the_rules_page_has_a_section_per_rule_set(client: Any) -> None:
    page = client.get("/rules").text
    lobby = client.get("/").text
    for ruleset in ("mattel", "master", "board"):
        assert f'<section id="{ruleset}"' in page and f'href="/rules#{ruleset}"' in lobby
    assert "<h3>" not in page.split("<h1>", 1)[1].split("<h2>", 1)[0]  # h1, then h2: headings in order
