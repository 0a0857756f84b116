"""The lights: legal moves marked before the player chooses (lights.js), in real Chromium.

* In a real Mattel game on Ben's phone: when he may hit, the hand cards with a legal hit are lit and only those,
  the groups they fit light up; a tap on a lit card and a tap on its group plays the hit (C-4).
* The switch beside the hand's sort buttons turns the marks off, and the page remembers it over a reload.
* The draw prompt's ``discard_fits`` (Mattel and Master) lights the discard pile; a pile whose top card does not
  fit is not lit.
* The board game (B-5): on a free-choice field each action type the prompt offers is lit, and when another
  seat asks for a number the hand cards that may be given (and their Give buttons) are lit; a hit in the play
  stage is lit as in the card games. The switch turns these off too.

Seed 306 with ``phases_to_win = 1`` (as in test_mattel): Ben hits Anna's groups. The switch and the discard pile
are judged on engine views of ``states.moments`` shown to a real table page."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .conftest import shot
from .layout import show, until
from .states import crowded, hit_possible, moments

LIT = ("() => ({cards: [...document.querySelectorAll('#hand .card.lit')].map((n) => Number(n.dataset.cardId)).sort(),"
       " groups: [...document.querySelectorAll('#players .group.fits')].map((n) => Number(n.dataset.group)).sort()})")
NAMES = ["Anna", "Ben", "Cara", "Dora", "Emil", "Fritz"]


def expected(prompt: dict[str, Any]) -> dict[str, list[int]]:
    hits = prompt.get("hits") or []
    cards = {x["card"] for x in hits} | {x["card"] for x in prompt.get("plays") or []}
    return {"cards": sorted(cards), "groups": sorted({x["group"] for x in hits})}


@pytest.mark.e2e
def test_a_legal_hit_is_lit_and_two_taps_play_it(start_server: Any,
                                                                                new_page: Any) -> None:
    server = start_server(306)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1}, ben_width=360)
    done: list[int] = []

    def watch(page: Any, other: Any) -> bool:
        if page is not ben or done:
            return False
        prompt = h.view(ben)["prompt"]
        hits = prompt.get("hits") or []
        if prompt.get("action") != "play" or not hits:
            return False
        h.close_summary(ben)
        assert ben.evaluate(LIT) == expected(prompt)
        lit_cards = set(expected(prompt)["cards"])
        assert all(c["id"] in lit_cards for c in h.view(ben)["hand"]
                   if ben.locator(f"#hand [data-card-id='{c['id']}'].lit").count())
        shot(ben, "lights-hit-lit")
        hit = hits[0]
        h.click_card(ben, hit["card"])
        group = f"#players [data-group='{hit['group']}']"
        ben.wait_for_selector(f"{group}.legal-target")
        assert ben.evaluate(LIT)["groups"] == []  # the selected card's own targets are lit instead
        ends = [x["end"] for x in hits if x["card"] == hit["card"] and x["group"] == hit["group"]]
        box = ben.locator(f"{group} .group-cards").bounding_box()
        assert box is not None
        x = 3 if hit["end"] == "low" or len(ends) == 1 else box["width"] - 3
        before = h.version(ben)
        ben.click(f"{group} .group-cards", position={"x": x, "y": box["height"] / 2})
        h.wait_version(ben, before + 1)
        ben.wait_for_selector(f"{group} [data-card-id='{hit['card']}']")
        assert hit["card"] not in [c["id"] for c in h.view(ben)["hand"]]
        done.append(hit["card"])
        return True

    h.play_until_over([anna, ben], {}, before_move=watch)
    assert done, "Ben never could hit"
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


def _with(ruleset: str, test: Any) -> dict[str, Any]:
    return next(v for v in moments(ruleset) if test(v.get("prompt") or {}))


@pytest.mark.e2e
def test_the_lights_switch_turns_the_marks_off_and_is_remembered(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    view = _with("master", lambda p: p.get("action") == "play" and p.get("plays"))
    names = NAMES[:len(view["players"])]
    assert anna.get_attribute("#lights-toggle", "aria-pressed") == "true"  # on by default
    show(anna, view, names, False, False)
    assert anna.evaluate(LIT) == expected(view["prompt"]) and anna.evaluate(LIT)["cards"]
    anna.click("#lights-toggle")
    until(anna, "document.getElementById('lights-toggle').getAttribute('aria-pressed') === 'false'")
    assert anna.evaluate(LIT) == {"cards": [], "groups": []}
    anna.reload()
    anna.wait_for_selector("#game:not(.hidden)")
    until(anna, "P10.state.view !== null")
    assert anna.get_attribute("#lights-toggle", "aria-pressed") == "false"
    show(anna, view, names, False, False)
    assert anna.evaluate(LIT) == {"cards": [], "groups": []}
    fits = _with("mattel", lambda p: p.get("action") == "draw" and p.get("discard_fits"))
    show(anna, fits, NAMES[:len(fits["players"])], False, False)
    assert anna.locator("#pile-discard.fits").count() == 0
    anna.click("#lights-toggle")
    until(anna, "document.getElementById('lights-toggle').getAttribute('aria-pressed') === 'true'")
    show(anna, view, names, False, False)
    assert anna.evaluate(LIT) == expected(view["prompt"])
    assert not anna.p10_errors, anna.p10_errors


@pytest.mark.e2e
@pytest.mark.parametrize("ruleset", ["mattel", "master"])
def test_the_discard_pile_is_lit_when_its_top_card_fits(start_server: Any, new_page: Any,
                                                                  ruleset: str) -> None:
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    fits = _with(ruleset, lambda p: p.get("action") == "draw" and p.get("discard_fits")
                 and "discard" in (p.get("piles") or []))
    show(anna, fits, NAMES[:len(fits["players"])], False, False)
    assert anna.locator("#pile-discard.fits").count() == 1
    assert anna.locator("#act-take-discard.fits").count() == 1
    assert "fits" in (anna.text_content("#pile-discard .sr-only") or "")
    shot(anna, f"lights-discard-{ruleset}")
    other = _with(ruleset, lambda p: p.get("action") == "draw" and not p.get("discard_fits")
                  and "discard" in (p.get("piles") or []))
    show(anna, other, NAMES[:len(other["players"])], False, False)
    assert anna.locator("#pile-discard.fits").count() == 0 and anna.locator("#pile-discard:not(:disabled)").count() == 1
    assert not anna.p10_errors, anna.p10_errors


BOARD_LIT = """() => {
  const ids = (sel, key) => [...document.querySelectorAll(sel)].map((n) => Number(n.dataset[key]))
    .sort((a, b) => a - b);
  return { choices: [...document.querySelectorAll('#prompt-controls button[data-action].lit')]
             .map((n) => n.dataset.action).sort(),
           gives: ids('#prompt-controls button[data-give].lit', 'give'), cards: ids('#hand .card.lit', 'cardId'),
           groups: ids('#players .group.fits', 'group') };
}"""


@pytest.mark.e2e
def test_the_board_games_choices_gives_and_hits_are_lit_b5(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    anna.set_viewport_size({"width": 360, "height": 740})
    none = {"choices": [], "gives": [], "cards": [], "groups": []}
    choose = _with("board", lambda p: p.get("action") == "choose" and len(p.get("actions") or []) > 1)
    give = _with("board", lambda p: p.get("action") == "give" and p.get("cards"))
    hit = _with("board", lambda p: p.get("action") == "play" and p.get("hits"))
    roll = _with("board", lambda p: p.get("action") == "roll")
    cases = ((choose, dict(none, choices=sorted(choose["prompt"]["actions"]))),
             (give, dict(none, gives=sorted(give["prompt"]["cards"]), cards=sorted(give["prompt"]["cards"]))),
             (hit, dict(none, **expected(hit["prompt"]))), (roll, none))
    for view, lit in cases:
        show(anna, view, NAMES[:len(view["players"])], False, False)
        assert anna.evaluate(BOARD_LIT) == lit, (view["prompt"]["action"], lit)
        shot(anna, f"lights-board-{view['prompt']['action']}")
    # a lit choice says so to a screen reader, after its visible words
    show(anna, choose, NAMES[:len(choose["players"])], False, False)
    label = anna.locator("#prompt-controls button[data-action].lit").first.text_content() or ""
    assert label.endswith("can be played now"), label
    anna.click("#lights-toggle")
    until(anna, "document.getElementById('lights-toggle').getAttribute('aria-pressed') === 'false'")
    for view, _lit in cases:
        show(anna, view, NAMES[:len(view["players"])], False, False)
        assert anna.evaluate(BOARD_LIT) == none, view["prompt"]["action"]
    anna.click("#lights-toggle")
    assert not anna.p10_errors, anna.p10_errors


@pytest.mark.e2e
def test_the_felt_pictures_of_the_docs(start_server: Any, new_page: Any) -> None:
    """docs/screenshots/ (with UPDATE_SCREENSHOTS=1, else test-artifacts/ only): a 6-seat Russian table at
    360×740 with three phases laid, light and dark, and a German 3-seat table with a hit lit (the hand card
    and the group it fits), each checked with ``layout.ON_TOP`` first."""
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    anna.set_viewport_size({"width": 360, "height": 740})
    for lang, scheme, view, names, name in (
            ("ru", "light", crowded("mattel", 6, False), ["Анна", "Борис", "Кьяра", "Дима", "Бот 5", "Бот 6"],
             "table-felt-6-seats-ru-phone-light"),
            ("ru", "dark", crowded("mattel", 6, False), ["Анна", "Борис", "Кьяра", "Дима", "Бот 5", "Бот 6"],
             "table-felt-6-seats-ru-phone-dark"),
            ("de", "light", hit_possible("mattel", 3, 1724), ["Anna", "Boris", "Chiara"],
             "table-hit-lit-3-seats-de-phone")):
        anna.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        anna.emulate_media(color_scheme=scheme)
        anna.reload()
        anna.wait_for_selector("#game:not(.hidden)")
        until(anna, f"document.documentElement.lang === '{lang}' && P10.state.view !== null")
        found = show(anna, view, names, False, False)
        assert found == [], (name, found)
        if name.startswith("table-hit"):
            assert anna.evaluate(LIT) == expected(view["prompt"]) and anna.evaluate(LIT)["groups"]
        anna.evaluate("document.activeElement && document.activeElement.blur()")
        shot(anna, name, docs=True)
    assert not anna.p10_errors, anna.p10_errors
