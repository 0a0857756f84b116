"""The round and game summaries fit a 360×740 phone at six seats: who leads comes first, best first (the most
phases done, then the fewest points: M-7, R-12; the winners first once the game is over), the leader marked,
with a bar per player in the same order; nothing in the dialog is wider than the dialog (no sideways scroll),
in English and Russian (long names), light and dark. The view is the engine's (``states.moments``: a six-seat
Master game after its first round, with ties), shown to a real table page as its socket would deliver it.
Pictures: test-artifacts/summary-6-seats-*.png."""

from __future__ import annotations

import json
from typing import Any

import pytest

from . import helpers as h
from .conftest import shot
from .layout import SHOW, until
from .states import moments

NAMES = {"en": ["Anna", "Boris", "Chiara", "Dmitri Alexandrovich", "Bettina", "Bob"],
         "ru": ["Анна", "Борис", "Кьяра", "Дмитрий Александрович", "Бот 5 (обычный)", "Бот 6 (сложный)"]}

# What overflows the open dialog sideways, and the ranking's rows (seat, place, leader) in order.
MEASURE = """() => {
  const dialog = document.getElementById('summary');
  const box = dialog.getBoundingClientRect();
  const out = [];
  if (dialog.scrollWidth > dialog.clientWidth + 1) {
    out.push('dialog scrolls: ' + dialog.scrollWidth + ' > ' + dialog.clientWidth);
  }
  if (box.right > window.innerWidth + 1 || box.left < -1) out.push('dialog outside the screen');
  for (const n of dialog.querySelectorAll('*')) {
    if (!n.getClientRects().length) continue;
    if (n.closest('details:not([open])') && !n.closest('details > summary')) continue;  // folded: not shown
    const r = n.getBoundingClientRect();
    const what = n.tagName + '.' + n.className;
    if (r.width && (r.right > box.right + 1 || r.left < box.left - 1)) {
      out.push(what + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
    if (n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).overflowX !== 'visible') out.push('scrolls: ' + what);
  }
  const rows = [...dialog.querySelectorAll('#summary-ranking tbody tr')].map((tr) =>
    [Number(tr.dataset.seat), Number(tr.dataset.place), tr.classList.contains('leader')]);
  const bars = [...dialog.querySelectorAll('.ranking-chart text.bar-name')].map((t) => t.textContent);
  const first = dialog.querySelector('#summary-body > *');
  return { out: out.slice(0, 6), rows, bars, first: first ? first.className : null };
}"""


def expected(view: dict[str, Any]) -> list[tuple[int, int, bool]]:
    """Best first: the winners, then the most phases done and the fewest points; equal standings share a place."""
    winners = set(view["winners"] or []) if view["over"] else set()

    def key(p: dict[str, Any]) -> tuple[int, int, int]:
        return (0 if p["seat"] in winners else 1, -p["phases_done"], p["score"])

    players = sorted(view["players"], key=lambda p: (key(p), p["seat"]))
    rows: list[tuple[int, int, bool]] = []
    for i, p in enumerate(players):
        place = rows[-1][1] if i and key(p) == key(players[i - 1]) else i + 1
        rows.append((p["seat"], place, place == 1))
    return rows


@pytest.mark.e2e
def test_the_six_seat_summaries_rank_first_and_fit_a_phone(start_server: Any, new_page: Any) -> None:
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    anna.set_viewport_size({"width": 360, "height": 740})
    six = [v for v in moments("master") if len(v["players"]) == 6 and v.get("history")]
    round_view = json.loads(json.dumps(six[-1]))
    assert len({(p["phases_done"], p["score"]) for p in round_view["players"]}) >= 3  # an order to check
    over_view = json.loads(json.dumps(round_view))
    last = expected(round_view)[-1][0]  # the game's winner made the last place of the round: winners come first
    over_view.update(over=True, winners=[last], prompt=None, awaited=[])
    failures = []
    for lang in ("en", "ru"):
        anna.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        anna.reload()
        anna.wait_for_selector("#game:not(.hidden)")
        until(anna, f"document.documentElement.lang === '{lang}' && P10.state.view !== null")
        for name, view in (("round", round_view), ("game", over_view)):
            for scheme in ("light", "dark"):
                anna.emulate_media(color_scheme=scheme)
                until(anna, f"P10.darkTheme() === {str(scheme == 'dark').lower()}")
                anna.evaluate("() => { const d = document.getElementById('summary'); if (d.open) d.close(); }")
                anna.evaluate("() => { P10.state.pendingSummary = true; }")
                anna.evaluate(SHOW, [view, NAMES[lang], False, False])
                until(anna, "document.getElementById('summary').open")
                found = anna.evaluate(MEASURE)
                shot(anna, f"summary-6-seats-{name}-{lang}-{scheme}")
                assert found["first"] == "ranking-box", found  # who leads, before anything else
                assert found["rows"] == [list(r) for r in expected(view)], (lang, name, found["rows"])
                bars = [("★ " if leader else "") + NAMES[lang][seat] for seat, _place, leader in expected(view)]
                assert found["bars"] == bars, found["bars"]
                if found["out"]:
                    failures.append((lang, name, scheme, found["out"]))
    assert failures == []
