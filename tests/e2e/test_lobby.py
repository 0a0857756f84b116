"""The lobby form: every option of the chosen rule set, the custom phase-list editor (B-11) validated in the
page before it is sent, and the server's option errors shown next to the form (C-11)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.e2e
def test_lobby_options_and_phase_editor(start_server: Any, new_page: Any) -> None:
    server = start_server(1)
    page = new_page()
    page.goto(server.url + "/")
    # Master offers its scoring option; the board game its phase list, ring and first player.
    page.check("input[name=ruleset][value=master]")
    assert page.locator("#opt-scoring option").count() == 2
    page.check("input[name=ruleset][value=board]")
    for option in ("phases_to_win", "ring", "first_player"):
        assert page.locator(f"#opt-{option}").count() == 1, option
    assert page.locator("#opt-scoring").count() == 0

    # A bad option value comes back from the engine and is shown in words.
    page.fill("#host-name", "Anna")
    page.fill("#opt-phases_to_win", "99")
    page.click("#create-button")
    page.wait_for_function("document.getElementById('create-error').textContent.includes('10')")
    assert "Phases to win" in page.locator("#create-error").text_content()
    page.fill("#opt-phases_to_win", "")

    # The phase editor: two phases; a run of 2 is refused in the page before anything is sent.
    page.check("#opt-phases-on")
    assert page.locator(".phase-row").count() >= 1
    page.click("#add-phase")
    last = page.locator(".phase-row").last
    last.locator(".g-kind").select_option("run")
    last.locator(".g-size").fill("2")
    page.click("#create-button")
    assert "run" in page.locator("#create-error").text_content()
    assert page.locator("#created").is_hidden()
    last.locator(".g-size").fill("4")
    assert "1 run of 4" in last.locator(".phase-desc").text_content()
    page.click("#create-button")
    page.wait_for_selector("#created:not(.hidden)")
    table_id = page.input_value("#invite-link").split("/join/")[1].split("?")[0]
    info = page.evaluate("id => fetch('/api/tables/' + id).then(r => r.json())", table_id)
    assert info["ruleset"] == "board"
    assert [(g["kind"], g["size"]) for g in info["options"]["phases"][-1]] == [("run", 4)]
    assert not page.p10_errors


@pytest.mark.e2e
@pytest.mark.parametrize(("locale", "one", "two", "five"), [
    ("en-GB", "1 card in hand", "2 cards in hand", "5 cards in hand"),
    ("de-DE", "1 Karte auf der Hand", "2 Karten auf der Hand", "5 Karten auf der Hand"),
    ("fr-FR", "1 carte en main", "2 cartes en main", "5 cartes en main"),
])
def test_counts_use_the_languages_plural_forms(start_server: Any, new_page: Any, locale: str, one: str, two: str,
                                               five: str) -> None:
    """The pages pick "key#one" etc. by the language's plural rules (no more "1 cards in hand")."""
    server = start_server(1)
    page = new_page(locale=locale)
    page.goto(server.url + "/")
    said = page.evaluate("[1, 2, 5].map((n) => P10.t('table.cards_in_hand', { n }))")
    assert said == [one, two, five]


@pytest.mark.e2e
def test_R3_master_lobby_shows_the_phase_editor_with_colour_runs(start_server: Any, new_page: Any) -> None:
    """R-3 (phases 9 and 10 Reconstructed: the host may change the list): Master's lobby form offers the phase
    editor, starting from the ten Master phases, with the colour run among the group kinds (C-2); a shortened
    list is what the table records."""
    server = start_server(1)
    page = new_page()
    page.goto(server.url + "/")
    page.check("input[name=ruleset][value=master]")
    page.check("#opt-phases-on")
    rows = page.locator(".phase-row")
    assert rows.count() == 10
    assert "colour run of 4" in rows.nth(7).locator(".phase-desc").text_content()
    kinds = rows.first.locator(".g-kind option").evaluate_all("options => options.map(o => o.value)")
    assert "colour_run" in kinds
    while rows.count() > 2:
        rows.last.get_by_role("button", name="Remove phase").click()
    rows.last.locator(".g-kind").first.select_option("colour_run")
    rows.last.locator(".g-size").first.fill("2")
    page.fill("#host-name", "Anna")
    page.click("#create-button")
    assert "colour run" in page.locator("#create-error").text_content()  # C-2: a colour run has 3+ cards
    rows.last.locator(".g-size").first.fill("5")
    assert "1 colour run of 5" in rows.last.locator(".phase-desc").text_content()
    page.click("#create-button")
    page.wait_for_selector("#created:not(.hidden)")
    table_id = page.input_value("#invite-link").split("/join/")[1].split("?")[0]
    info = page.evaluate("id => fetch('/api/tables/' + id).then(r => r.json())", table_id)
    assert info["ruleset"] == "master" and len(info["options"]["phases"]) == 2
    assert info["options"]["phases"][1][0] == {"kind": "colour_run", "size": 5}
    assert not page.p10_errors


@pytest.mark.e2e
def test_B4_the_first_player_choice_follows_the_number_of_seats(start_server: Any, new_page: Any) -> None:
    """B-4, C-11: the lobby offers only seats the table has as the first player."""
    server = start_server(1)
    page = new_page()
    page.goto(server.url + "/")
    page.check("input[name=ruleset][value=board]")
    page.select_option("#seat-count", "6")
    page.select_option("#opt-first_player", "5")
    page.select_option("#seat-count", "3")
    enabled = page.eval_on_selector_all("#opt-first_player option",
                                        "os => os.filter(o => !o.disabled).map(o => o.value)")
    assert enabled == ["", "0", "1", "2"]
    assert page.input_value("#opt-first_player") == ""  # seat 6 is gone: back to "at random"
