"""What the Content-Security-Policy used to break, drawn now: the board's phase-track markers and the charts'
legend swatches take their colours from classes (no style attributes), the charts follow dark mode, the
summary's Close button stays readable under the pointer, and a tapped button on a touch screen does not keep
its hover colour. Every page here runs under the shared violation watch of conftest.new_page."""

from __future__ import annotations

from typing import Any

import pytest

from . import helpers as h

CONTRAST = """([fg, bg]) => {
  const lum = (c) => { const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(Number).map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def colour(page: Any, selector: str, prop: str = "backgroundColor") -> str:
    return str(page.eval_on_selector(selector, f"(n) => getComputedStyle(n).{prop}"))


@pytest.mark.e2e
def test_markers_charts_and_buttons_are_drawn(start_server: Any, new_page: Any) -> None:
    server = start_server(1120)
    anna, ben, _ = h.start_two(server, new_page, "board", {"phases_to_win": 1})
    # B-2: both markers on the phase track's first step, each in its player's colour
    markers = anna.locator("#board-track .phase-track .marker")
    assert markers.count() == 2
    fills = [colour(anna, f"#board-track .phase-track .marker >> nth={i}") for i in range(2)]
    assert all(f not in ("rgba(0, 0, 0, 0)", "transparent") for f in fills) and fills[0] != fills[1], fills
    # the charts: a legend swatch per player in the colour of its line, on a dark chart in dark mode
    anna.emulate_media(color_scheme="dark")
    anna.evaluate("""() => {
      const v = {history: [{round: 1, points: [5, 30], made: [1, 0]}], players: [{seat: 0}, {seat: 1}]};
      const chart = P10.chart(v, (s) => "P" + s);
      chart.id = "test-chart";
      document.getElementById("scores").before(chart);
    }""")
    swatches = [colour(anna, f"#test-chart .swatch >> nth={i}") for i in range(2)]
    lines = [colour(anna, f"#test-chart polyline >> nth={i}", "stroke") for i in range(2)]
    assert swatches == lines and swatches[0] != swatches[1] and "rgba(0, 0, 0, 0)" not in swatches, (swatches, lines)
    background = colour(anna, "#test-chart .chart")
    assert anna.evaluate(CONTRAST, [colour(anna, "#test-chart .chart text", "fill"), background]) >= 4.5
    assert anna.evaluate(CONTRAST, ["rgb(255, 255, 255)", background]) > 4.5  # a dark chart, not a white box
    # the summary's Close button under the pointer: white on its own dark blue, readable
    anna.emulate_media(color_scheme="light")
    anna.evaluate("document.getElementById('summary').showModal()")
    anna.hover("#summary-close")
    hovered = [colour(anna, "#summary-close", "color"), colour(anna, "#summary-close")]
    assert anna.evaluate(CONTRAST, hovered) >= 4.5, hovered
    anna.click("#summary-close")
    # a touch screen has no hover: a tapped toolbar button looks like its untouched neighbour afterwards
    phone = new_page(width=360, height=740, has_touch=True, is_mobile=True)
    phone.context.add_cookies(ben.context.cookies())
    phone.goto(ben.url)
    phone.wait_for_selector("#game:not(.hidden)")
    assert phone.evaluate("matchMedia('(hover: none)').matches")
    untouched = colour(phone, "#scores-button")
    phone.tap("#help-button")
    phone.tap("#help-button")  # opened and closed again: not pressed any more
    assert colour(phone, "#help-button") == untouched
    for page in (anna, phone):
        assert not page.p10_errors, page.p10_errors
