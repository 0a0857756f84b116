"""Every seat's laid groups lie on the felt in front of it, always shown, in real Chromium: on a wide screen and
on a phone, with no tap; the chips keep the seating order and one's own chip stays where it was when it lays;
a tap on a group enlarges it (its cards as cards, its words); a selected card's legal groups are lit with their
hit buttons (C-4).

Seed 63 (Mattel, two players, as in test_motion): Anna lays phase 1 (two groups) on her first turn."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h
from .conftest import shot
from .test_motion import SEED, draw_and_lay

CHIP_AT = ("s => { const r = document.querySelector(`#players article[data-seat='${s}'] .seat-top`)"
           ".getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top)]; }")
ORDER = "() => [...document.querySelectorAll('#players article[data-seat]')].map((n) => Number(n.dataset.seat))"


@pytest.mark.e2e
def test_groups_lie_before_their_seat_and_a_tap_enlarges(start_server: Any,
                                                                                   new_page: Any) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {}, ben_width=360)
    anna.set_viewport_size({"width": 360, "height": 740})
    seat = h.view(anna)["seat"]
    before = anna.evaluate(CHIP_AT, seat)
    draw_and_lay(anna)
    h.wait_version(ben, 2)
    table = h.view(anna)["table"]
    assert len(table) == 2
    for page in (anna, ben):
        assert page.evaluate(ORDER) == sorted(page.evaluate(ORDER))  # the seating order
        assert page.locator("#groups-toggle-0").count() == 0  # nothing to unfold
        for index, group in enumerate(table):
            node = page.locator(f"#players article[data-seat='{group['owner']}'] [data-group='{index}']")
            assert node.is_visible()
            for card in group["cards"]:
                assert node.locator(f"[data-card-id='{card['id']}']").is_visible()
    assert anna.evaluate(CHIP_AT, seat) == before  # one's own chip stays where it was
    shot(ben, "opponents-groups-phone")

    # A tap on one of Anna's groups enlarges it on Ben's phone: its words and its cards as cards; Close ends it.
    ben.click("#players [data-group='0'] .group-cards")
    ben.wait_for_selector("#group-zoom[open]")
    assert "Anna" in (ben.text_content("#group-zoom-title") or "")
    assert ben.locator("#group-zoom-body .card:not(.mini)").count() == len(table[0]["cards"])
    shot(ben, "opponents-group-enlarged")
    ben.click("#group-zoom-close")
    ben.wait_for_selector("#group-zoom:not([open])", state="attached")
    assert not ben.evaluate("document.getElementById('group-zoom').open")

    # On a wide screen too, with nothing to open.
    ben.set_viewport_size({"width": 1280, "height": 900})
    assert ben.locator("#players [data-group='1'] [data-card-id]").first.is_visible()
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


@pytest.mark.e2e
def test_a_selected_cards_groups_light_up_with_hit_buttons(start_server: Any, new_page: Any) -> None:
    """C-4: on Ben's phone, while his selected card may be hit onto one of Anna's groups (the prompt's
    ``hits``), that group is lit with its hit button, and the light goes with the selection. Seed 306 with
    ``phases_to_win = 1`` (test_mattel): Ben hits Anna's groups."""
    server = start_server(306)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1}, ben_width=360)
    seen: list[int] = []

    def watch(page: Any, other: Any) -> bool:
        if page is not ben or seen:
            return False
        prompt = h.view(ben)["prompt"]
        owners = {i: g["owner"] for i, g in enumerate(h.view(ben)["table"])}
        onto_anna = [hit for hit in prompt.get("hits") or [] if owners[hit["group"]] == 0]
        if not onto_anna:
            return False
        h.close_summary(ben)
        hit = onto_anna[0]
        h.click_card(ben, hit["card"])
        group = f"#groups-0 [data-group='{hit['group']}']"
        ben.wait_for_selector(f"{group}.legal-target")
        assert ben.locator(group).is_visible() and ben.locator(f"{group} [data-hit]").first.is_visible()
        ben.keyboard.press("Escape")
        ben.wait_for_selector(f"{group}:not(.legal-target)")
        assert ben.locator(f"{group} [data-hit]").count() == 0 and ben.locator(group).is_visible()
        seen.append(hit["card"])
        return False

    h.play_until_over([anna, ben], {}, before_move=watch)
    assert seen, "Ben never could hit one of Anna's groups"
    assert not anna.p10_errors and not ben.p10_errors, (anna.p10_errors, ben.p10_errors)


# Each seat's name on its chip: how many of its characters are shown (inside the name's box and its chip: a
# name of more than two lines is cut at the end of its second), on how many lines, at what font size.
NAME_BOXES = """() => [...document.querySelectorAll('#players .player-name')].map((n) => {
  const box = n.getBoundingClientRect(), chip = n.closest('.seat-top').getBoundingClientRect();
  const node = n.firstChild, tops = new Set();
  let shown = 0;
  for (let i = 0; node && i < node.length; i++) {
    const one = document.createRange();
    one.setStart(node, i);
    one.setEnd(node, i + 1);
    const q = one.getBoundingClientRect();
    const y = (q.top + q.bottom) / 2;  // a glyph's box is taller than a tight line: its middle is judged
    const inside = (b) => q.left >= b.left - 0.5 && q.right <= b.right + 0.5 && y >= b.top && y <= b.bottom;
    if (!q.width && node.data[i] !== ' ') continue;
    if (inside(box) && inside(chip)) { shown = i + 1; if (q.width) tops.add(Math.round(q.top)); } else break;
  }
  // an ellipsis takes the place of the last glyphs that would fit: the line is wider than its box
  const ellipsis = getComputedStyle(n).textOverflow === 'ellipsis' && n.scrollWidth > n.clientWidth + 0.5;
  const cut = shown < n.textContent.length || ellipsis;
  return { name: n.textContent, shown: n.textContent.slice(0, shown), cut, lines: tops.size,
           px: parseFloat(getComputedStyle(n).fontSize) };
})"""


@pytest.mark.e2e
def test_names_on_chips_are_whole_at_3_and_6_seats(start_server: Any, new_page: Any) -> None:
    """A seat's name is never cut to a prefix that does not tell it apart ("Ann…", "Betti…"): at 3 seats "Anna",
    "Boris" and "Chiara" are whole on one line at 360×740; at 6 seats, with names that start alike, every
    name of up to 12 characters is whole (in at most two lines), and a longer one shows a prefix no other name
    starts with; at least 10 px, upright and sideways, in English and Russian, with and without laid groups."""
    from .layout import show, until
    from .states import crowded, moments

    server = start_server(SEED)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    three = ["Anna", "Boris", "Chiara"]
    six = ["Anna", "Boris", "Bettina", "Chiara", "Dmitri Alexandrowitsch", "Bob"]
    views = [next(v for v in moments(r) if len(v["players"]) == n and not v.get("table"))
             for r in ("mattel", "board") for n in (3, 6)]
    views += [crowded(r, n) for r in ("mattel", "master") for n in (3, 6)]
    failures: list[Any] = []
    for lang in ("en", "ru"):
        anna.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        anna.reload()
        anna.wait_for_selector("#game:not(.hidden)")
        until(anna, f"document.documentElement.lang === '{lang}' && P10.state.view !== null")
        for width, height in ((360, 740), (740, 360)):
            anna.set_viewport_size({"width": width, "height": height})
            until(anna, f"window.innerWidth === {width} && window.innerHeight === {height}")
            for index, view in enumerate(views):
                names = list(three if len(view["players"]) == 3 else six)
                if len(names) == 6 and view.get("seat") is not None:  # "Bettina" on one's own (wider-edged) chip
                    seat = view["seat"]
                    names[seat], names[2] = names[2], names[seat]
                show(anna, view, names, index % 2 == 0, False)
                for box in anna.evaluate(NAME_BOXES):
                    others = [n for n in names if n != box["name"]]
                    if len(box["name"]) <= 12:
                        most = 1 if len(names) == 3 and width == 360 else 2
                        bad = box["cut"] or box["lines"] > most
                    else:
                        bad = not box["shown"].strip() or any(n.startswith(box["shown"]) for n in others)
                    if bad or box["px"] < 10 or box["name"] not in names:
                        failures.append((lang, width, height, view["ruleset"], len(names), box))
                if lang == "ru" and index in (1, 5):
                    shot(anna, f"chip-names-{len(names)}-seats-{width}x{height}")
    assert not failures, (len(failures), failures[:8])
    assert not anna.p10_errors, anna.p10_errors


@pytest.mark.e2e
def test_a_bots_mark_carries_the_number_of_its_name(start_server: Any, new_page: Any) -> None:
    """A seat's mark and its name agree: bots named by number ("Bot 1 (normal)", "Бот 5") are marked with
    that number (B1, Б5), as the ticker names them, whatever seat they sit on; the others keep their letters
    (one letter, else two, else the letter and the seat's number), and no two seats share a mark."""
    server = start_server(SEED)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    marks = "(names) => Object.values(P10.seatMarks(names)).map((m) => m.initial)"
    cases = [
        (["Anna", "Bot 1 (normal)", "Bot 2 (normal)"], ["A", "B1", "B2"]),
        (["Борис", "Бот 1", "Бот 2", "Бот 3", "Бот 4", "Бот 5"], ["Бо", "Б1", "Б2", "Б3", "Б4", "Б5"]),
        (["Anna", "Boris", "Bettina", "Chiara", "Dmitri", "Bob"], ["A", "B2", "Be", "C", "D", "B6"]),
        (["Ann", "Anna"], ["A1", "A2"]),
    ]
    for names, expected in cases:
        assert anna.evaluate(marks, dict(enumerate(names))) == expected, names
