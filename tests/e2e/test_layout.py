"""The one-screen table.

* At every step of a whole game of each rule set, on both players' 360×740 phones, the piles (Master's blue
  pile, the board's ring and its lit fields), every hand card, the prompt and its controls lie inside the
  screen and on top (``layout.ON_TOP``: ``document.elementFromPoint`` at their centre is theirs), and the
  page does not scroll; when the turn comes to a page its focus is on the prompt, a live region says so and
  the first legal move is one Tab away. The builder filled by Suggest is checked at every viewport of
  ``layout.VIEWPORTS``, the round and game summaries' actions too. The run also takes the README's pictures
  (each table after this seat's lay-down, and the lobby with its default options).
* Every kind of moment of games of all three rule sets with 2–6 seats (``states.moments``), in every
  language, with and without a turn timer and with the builder open and closed, at 360×740, 390×844,
  740×360 and 768×1024: the same ``ON_TOP`` check, the views shown to a real table page as its socket
  would deliver them. On the same page: a skip notice and the tie-break's explanation never cover the
  opponents' strip, the turn or the table (M-6, M-8), and every card's words fit their card on one line at
  every viewport (M-5, M-6, R-1, R-2, B-6).

Seeds as in the whole-game tests: Mattel 306, Master 627 (two rounds with an All-mine keep choice, R-9;
Give me five and Skip cards in play), board 1120 (dice, moves, search, ask/give, swap; B-5)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from . import helpers as h
from .conftest import ARTIFACTS, shot
from .layout import VIEWPORTS, check_viewports, first_move_one_tab_away, on_top, outside, show, sweep, until
from .states import crowded, moments

PHONE = (360, 740)
DESKTOP = (1366, 800)


def v_action(page: Any) -> str:
    return str(h.view(page)["prompt"]["action"])


def readme_shots(page: Any, ruleset: str) -> None:
    """The README's pictures of a table in the play stage after this seat's lay-down: phone and desktop, light
    and dark
    (written to docs/screenshots/ with UPDATE_SCREENSHOTS=1, else to test-artifacts/ only)."""
    try:
        for size, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size({"width": width, "height": height})
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                until(page, f"P10.darkTheme() === {str(scheme == 'dark').lower()}")
                shot(page, f"table-{ruleset}-{size}-{scheme}", docs=True)
    finally:
        page.emulate_media(color_scheme="light")
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})


@pytest.mark.e2e
@pytest.mark.parametrize(("ruleset", "seed", "options"), [
    ("mattel", 306, {"phases_to_win": 1}),
    ("master", 627, {"phases_to_win": 2}),
    ("board", 1120, {"phases_to_win": 1}),
])
def test_hand_and_actions_fit_one_phone_screen_at_every_stage(start_server: Any, new_page: Any, ruleset: str,
                                                                  seed: int, options: dict[str, Any]) -> None:
    server = start_server(seed)
    if ruleset == "mattel":  # the README's lobby picture: the form as a host finds it, with a name typed in
        lobby = new_page()
        lobby.goto(server.url + "/")
        lobby.fill("#host-name", "Anna")
        lobby.evaluate("document.activeElement.blur()")  # no focus ring on the field
        shot(lobby, "lobby", docs=True)
    anna, ben, _ = h.start_two(server, new_page, ruleset, options, ben_width=PHONE[0])
    for page in (anna, ben):
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    seen: dict[str, int] = {}
    stats: dict[str, int] = {}
    last = {"page": None}

    def check(page: Any, other: Any) -> bool:
        # the summary dialog first (a round just ended), then the table under it
        summary = page.evaluate("document.getElementById('summary').open")
        if summary:
            assert outside(page) == [], ("summary", outside(page))
            if "summary" not in seen:
                check_viewports(page, "summary", PHONE)
                shot(page, f"layout-{ruleset}-summary")
            h.close_summary(page)
        elif last["page"] is not page and v_action(page) not in ("offer", "keep_hand"):
            first_move_one_tab_away(page)  # the turn has just come to this page
        last["page"] = page
        v = h.view(page)
        stage = v["prompt"]["action"]
        if stage == "play" and v["prompt"].get("can_lay"):
            h.suggestion(page)  # the builder open and filled: the tallest dock
            stage = "play+builder"
        elif stage == "play" and any(g["owner"] == v["seat"] for g in v["table"]):
            stage = "play+groups"  # after this seat's lay-down
        found = outside(page) + on_top(page)
        if found:
            shot(page, f"layout-{ruleset}-{stage}-failed")
        assert found == [], (stage, found)
        if not other.evaluate("document.getElementById('summary').open"):
            assert outside(other) + on_top(other) == [], ("waiting", outside(other) + on_top(other))
        if stage not in seen:
            shot(page, f"layout-{ruleset}-{stage}")
            if stage == "play+builder":
                check_viewports(page, stage, PHONE)
            if stage == "play+groups":
                readme_shots(page, ruleset)
        seen[stage] = seen.get(stage, 0) + 1
        return False

    h.play_until_over([anna, ben], stats, before_move=check)
    for page in (anna, ben):
        h.wait_version(page, h.version(anna))
        page.wait_for_selector("#summary[open]")
    assert outside(anna) == [], ("game over", outside(anna))
    check_viewports(anna, "game over", PHONE)
    expected = {"mattel": {"draw", "play+builder", "play+groups"},
                "master": {"draw", "play+builder", "play+groups", "keep_hand"},
                "board": {"roll", "move", "play+builder", "play+groups"}}[ruleset]
    assert expected <= set(seen), seen
    assert not anna.p10_errors and not ben.p10_errors, anna.p10_errors + ben.p10_errors
    if ruleset == "mattel":
        replay_follows_the_current_step(anna)


CURRENT_STEP = """() => {
  const list = document.getElementById('rp-log'), li = list.querySelector('li.current');
  const a = list.getBoundingClientRect(), b = li.getBoundingClientRect();
  return {scrolled: list.scrollTop, inside: b.top >= a.top - 1 && b.bottom <= a.bottom + 1};
}"""


def replay_follows_the_current_step(page: Any) -> None:
    """The replay's step list (longer than its box after a whole game) keeps the current step in sight."""
    page.goto(page.url.rstrip("/") + "/games/1/replay")
    page.wait_for_selector("#rp-players article")
    # a short game's compact move list may fit its box: the box is made smaller, so that it must scroll
    page.evaluate("(l => { if (l.scrollHeight <= l.clientHeight) l.style.maxHeight = '8rem'; })"
                  "(document.getElementById('rp-log'))")
    assert page.evaluate("(l => l.scrollHeight > l.clientHeight)(document.getElementById('rp-log'))")
    page.click("#rp-last")
    until(page, "P10.replay.step === P10.replay.record.version")
    where = page.evaluate(CURRENT_STEP)
    assert where["inside"] and where["scrolled"] > 0, where
    page.click("#rp-first")
    until(page, "P10.replay.step === 0")
    assert page.evaluate(CURRENT_STEP) == {"scrolled": 0, "inside": True}


LANGUAGES = ["en", "de", "fr", "it", "ru"]
SWEEP_VIEWPORTS = [(360, 740), (390, 844), (740, 360), (768, 1024)]
# Six seats whose names start alike (their pawns must still differ: "B", "Bo", "Be" ...) and one long name.
NAMES = ["Anna", "Boris", "Bettina", "Chiara", "Dmitri Alexandrowitsch", "Bob"]


# A skip played on this seat and the tie-break's explanation (banners.js), brought as the socket brings them,
# over a 3-seat Mattel table in its tie-break round (M-6, M-8).
BANNERS = """(view) => {
  const T = P10.table, S = T.state;
  const skipper = view.players.find((p) => p.seat !== view.seat).seat;
  T.emit('message', { type: 'update', game_id: S.gameId, version: 0,
                      events: [{ type: 'skip_played', seat: skipper, target: view.seat }] });
  T.emit('view', view);
}"""


def tie_break_view() -> dict[str, Any]:
    """A 3-seat Mattel view of this seat's turn, made the tie-break round (M-8) that one seat sits out."""
    view = next(v for v in moments("mattel") if len(v["players"]) == 3 and (v["prompt"] or {}).get("action") == "draw")
    view = json.loads(json.dumps(view))
    view["tiebreak"] = True
    for player in view["players"]:
        player["in_round"] = player["seat"] != (view["seat"] + 2) % 3
    return view


# Every special card of the three rule sets (M-5 wild, M-6 skip, R-1 blue action cards, R-2 ranged joker, B-6
# turned card) and a two-digit number card, dealt into a hand (ids above the engine's).
SPECIAL_CARDS: list[dict[str, Any]] = [
    {"id": 901, "kind": "action", "action": "skip"},
    {"id": 902, "kind": "joker", "low": 1, "high": 12, "colours": ["red", "yellow", "green", "blue"]},
    {"id": 903, "kind": "joker", "low": 7, "high": 12, "colours": ["red", "blue"]},
    {"id": 904, "kind": "action", "action": "take_two"},
    {"id": 905, "kind": "action", "action": "all_mine"},
    {"id": 906, "kind": "action", "action": "give_me_five"},
    {"id": 907, "kind": "joker", "number": 11, "colour": "green"},
    {"id": 908, "kind": "number", "number": 12, "colour": "yellow"},
]

# Each card's words (caption, big face, corner index) on one line and inside its card: no wrap, nothing
# clipped (scrollWidth against clientWidth) and no text outside the card's box.
CARD_TEXTS = """() => {
  const out = [];
  document.querySelectorAll('.card').forEach((card) => {
    if (!card.getClientRects().length) return;
    const c = card.getBoundingClientRect();
    card.querySelectorAll('.cap, .num, .corner .idx').forEach((label) => {
      if (!label.getClientRects().length || !label.textContent) return;  // not shown (small cards, sideways)
      const text = document.createRange();
      text.selectNodeContents(label);
      const rects = [...text.getClientRects()];
      const what = 'card ' + card.dataset.cardId + ' ' + label.className + ' "' + label.textContent + '"';
      const lines = new Set(rects.map((q) => Math.round(q.top))).size;
      if (lines > 1) out.push(what + ' takes ' + lines + ' lines');
      if (label.scrollWidth > label.clientWidth + 0.5) {
        out.push(what + ' clipped ' + label.scrollWidth + '>' + label.clientWidth);
      }
      const r = text.getBoundingClientRect();
      if (r.left < c.left - 0.5 || r.right > c.right + 0.5) {
        out.push(what + ' sticks out of its card ' + [r.left, r.right, c.left, c.right].map(Math.round).join(','));
      }
    });
  });
  return out;
}"""

# Takes the notices of BANNERS away again (and lets the tie-break be told anew): the next moments are judged
# without them.
NO_BANNERS = """(view) => {
  P10.table.emit('view', Object.assign({}, view, { tiebreak: false }));
  document.querySelectorAll('#banners .banner').forEach((n) => n.remove());
  document.getElementById('ticker').classList.add('hidden');
}"""


def raise_banners(page: Any, view: dict[str, Any]) -> None:
    """Both notices of :data:`BANNERS`, brought afresh: each goes by itself after some seconds, and measuring a
    page on a loaded machine can take that long, so each look at them starts from new ones."""
    page.evaluate(NO_BANNERS, view)
    page.evaluate(BANNERS, view)
    until(page, "['skip', 'tiebreak'].every((k) => document.querySelector(`[data-banner='${k}']`))")


def banners_cover(page: Any, view: dict[str, Any], scheme: str) -> list[str]:
    """M-6, M-8: what of ``layout.ON_TOP`` (the opponents' strip, the title and the toolbar included) is not on
    top while a skip notice and the tie-break's explanation are shown over ``view`` in ``scheme``, the newest
    alone and then both, unfolded by the count on it."""
    page.emulate_media(color_scheme=scheme)
    until(page, f"P10.darkTheme() === {str(scheme == 'dark').lower()}")
    show(page, view, NAMES[:3], False, False)
    shown = "[...document.querySelectorAll('#banners .banner')].filter((n) => n.getClientRects().length).length"
    more = "document.querySelector('#banners .banner-more').click()"
    raise_banners(page, view)
    found = [] if page.evaluate(shown) == 1 else ["not one banner shown"]
    found += outside(page) + on_top(page)
    # the count on the newest unfolds the other one (still pushing the table, not covering it), and folds it
    raise_banners(page, view)
    page.evaluate(more)
    if page.evaluate(shown) != 2:
        found.append("the count does not unfold both banners")
    page.evaluate(more)
    if page.evaluate(shown) != 1:
        found.append("the count does not fold them again")
    page.evaluate(more)
    found += ["unfolded: " + x for x in outside(page) + on_top(page)]
    return found


def card_words(page: Any, view: dict[str, Any]) -> list[str]:
    """M-5, M-6, R-1, R-2, B-6: the words of the cards of :data:`SPECIAL_CARDS`, dealt into ``view``'s hand, that
    wrap, are clipped or stick out of their card (:data:`CARD_TEXTS`)."""
    show(page, dict(view, hand=SPECIAL_CARDS), NAMES[:2], False, False)
    assert page.locator("#hand .card").count() == len(SPECIAL_CARDS)
    found: list[str] = page.evaluate(CARD_TEXTS)
    return found


@pytest.mark.e2e
def test_every_moment_fits_one_screen_in_every_language(start_server: Any,
                                                                                 new_page: Any) -> None:
    """What a player must see and reach: for every kind of moment of games of all three rule sets with 2–6
    seats (``states.moments``: own and opponents' groups laid or not, cards in front of players, Give-me-five
    offers, the largest hand), with and without a running turn timer, with the builder open and closed, the
    piles (Master's blue pile, the board's ring and its lit fields), every hand card's free part and corner
    index, the prompt and its controls lie inside the viewport and on top (``layout.ON_TOP``), the title's name
    and round and the timer's words are not cut off (nor lie over each other), every seat's mark differs and
    one seat is on turn: in every language at 360×740, 390×844, 740×360 and 768×1024, German
    and Italian in the dark theme, the others in the light one. The page is a real table's, shown the engine's
    views as its socket would deliver them.

    On the same page (one server, one load per language):

    * M-6, M-8: while a skip notice and the tie-break's explanation are shown over a 3-seat Mattel tie-break,
      the opponents' strip (every name, who is on turn), the title and the toolbar stay on top too, as do the
      piles, the hand and the prompt: the notices push the table down instead of lying over it. At the same four
      viewports in every language, German and Russian in both themes.
    * M-5, M-6, R-1, R-2, B-6: every special card's caption (Skip, wild, joker, the blue action cards), face
      and corner index stays on one line inside its card, at every viewport of ``layout.VIEWPORTS`` in every
      language (the German "Aussetzen" once broke into "AUSSETZ/EN")."""
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    views = [view for ruleset in ("mattel", "master", "board") for view in moments(ruleset)]
    tie = tie_break_view()
    table_view = json.loads(json.dumps(h.view(anna)))
    failed: list[Any] = []
    covered: list[Any] = []
    words: list[Any] = []
    for shift, lang in enumerate(LANGUAGES):
        anna.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        scheme = "dark" if shift % 2 else "light"
        anna.emulate_media(color_scheme=scheme)
        anna.reload()
        anna.wait_for_selector("#game:not(.hidden)")
        until(anna, f"document.documentElement.lang === '{lang}' && P10.state.view !== null")
        for width, height in VIEWPORTS:
            anna.set_viewport_size({"width": width, "height": height})
            until(anna, f"window.innerWidth === {width} && window.innerHeight === {height}")
            if (width, height) in SWEEP_VIEWPORTS:
                for failure in sweep(anna, views, NAMES, shift):
                    failed.append((lang, width, height, failure))
                    if len(failed) <= 3:
                        show(anna, views[failure["index"]], NAMES, failure["timer"], failure["building"])
                        shot(anna, f"layout-sweep-failed-{len(failed)}")
                for other in [scheme] + (["light" if scheme == "dark" else "dark"] if lang in ("de", "ru") else []):
                    found = banners_cover(anna, tie, other)
                    if found:
                        covered.append((lang, other, width, height, found[:4]))
                    if (width, height) == (360, 740) and lang in ("en", "de", "ru") or (width, lang) == (740, "de"):
                        shot(anna, f"banners-tiebreak-{lang}-{other}-{width}x{height}")
                    anna.evaluate(NO_BANNERS, tie)
                anna.emulate_media(color_scheme=scheme)
                until(anna, f"P10.darkTheme() === {str(scheme == 'dark').lower()}")
            found = card_words(anna, table_view)
            if found:
                words.append((lang, width, height, found[:6]))
            if lang in ("de", "ru") and (width, height) == (360, 740):
                shot(anna, f"card-words-{lang}-{width}x{height}")
    # what failed, in words (the moment and what of it was not on top), readable in pytest's one-line message
    if failed:
        (ARTIFACTS / "layout-sweep-failures.json").write_text(json.dumps(failed, indent=1))
    assert not failed, (len(failed), [(lang, w, h, f["what"], f["found"]) for lang, w, h, f in failed[:12]])
    assert not covered, ("covered while notices show", len(covered), covered[:8])
    assert not words, ("card words", len(words), words[:12])
    assert not anna.p10_errors, anna.p10_errors




# Mattel, three seats, seed 1724 (as in test_three_players.py): Cara starts and lays phase 1 at her first turn.
LAID_SEED = 1724


@pytest.mark.e2e
def test_phone_table_with_timer_and_groups_in_de_and_ru(
        start_server: Any, new_page: Any) -> None:
    """A 3-seat Mattel table with the relaxed turn timer, once a phase lies on the table and Anna is on turn:
    Anna's page in German (her own clock, "Deine Zeit") and Ben's in Russian (Anna's clock, under her long
    name) at 360×740, light and dark, the laid groups in front of the laying seat with no tap, then at 740×360
    and 1024×768. The piles, the hand, the prompt, the timer, the title, every seat's name and every laid card
    are whole and on top (``layout.ON_TOP``); the pictures go to test-artifacts/
    (``table-3-seats-timer-<lang>-<scheme>``, ``table-3-seats-timer-<lang>-<width>x<height>``)."""
    server = start_server(LAID_SEED)
    anna = new_page(locale="de-DE", width=PHONE[0], height=PHONE[1])
    ben = new_page(locale="ru-RU", width=PHONE[0], height=PHONE[1])
    cara = new_page()
    invite = h.create_table(anna, server.url, "mattel", "Anna-Lena Schmidt", seats=3, options={"phases_to_win": 1})
    anna.select_option("#turn-timer", "relaxed")
    pages = h.seat_and_start(anna, invite, [(ben, "Ben"), (cara, "Cara")])
    anna_seat = h.view(anna)["seat"]
    stats: dict[str, int] = {}
    for _ in range(40):  # moves over REST until a phase lies on the table and Anna is to draw
        v = h.view(anna)
        if v["table"] and v["awaited"] == [anna_seat] and v["prompt"]["action"] == "draw":
            break
        assert not v["over"], "the seed no longer reaches a laid phase before the game's end"
        mover = h.awaited_page(pages)
        assert mover is not None
        _, answer = h.act_over_rest(mover, stats)
        for page in pages:
            h.wait_version(page, answer["version"])
    else:
        raise AssertionError("no laid phase with Anna on turn")
    layer = next(g["owner"] for g in h.view(anna)["table"])
    for page, lang in ((anna, "de"), (ben, "ru")):
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#timer").is_visible()
        page.wait_for_selector(f"#players [data-seat='{layer}'] .group")  # in front of its seat, with no tap
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            until(page, f"P10.darkTheme() === {str(scheme == 'dark').lower()}")
            found = outside(page) + on_top(page)
            shot(page, f"table-3-seats-timer-{lang}-{scheme}")
            assert found == [], (lang, scheme, found)
        page.emulate_media(color_scheme="light")
        for width, height in ((740, 360), (1024, 768)):  # the same table sideways and on a tablet
            page.set_viewport_size({"width": width, "height": height})
            until(page, f"window.innerWidth === {width} && window.innerHeight === {height}")
            found = outside(page) + on_top(page)
            shot(page, f"table-3-seats-timer-{lang}-{width}x{height}")
            assert found == [], (lang, width, height, found)
    for page in pages:
        assert not page.p10_errors, page.p10_errors


def laid_views() -> list[dict[str, Any]]:
    """The moments with 2 and 6 seats of all three rule sets where groups lie on the table, and the most crowded
    table of each (every seat's phase down: 24 groups of Master's phase 1 at six seats), also as a spectator
    sees it (no hand, no prompt)."""
    views: list[dict[str, Any]] = []
    for ruleset in ("mattel", "master", "board"):
        views += [v for v in moments(ruleset) if len(v["players"]) in (2, 6) and v.get("table")]
        for seats in (2, 6):
            full = crowded(ruleset, seats)
            views.append(full)
            watcher = json.loads(json.dumps(full))
            watcher.update(seat=None, hand=[], prompt=None, my_phase=None)
            views.append(watcher)
    return views


@pytest.mark.e2e
def test_every_laid_card_is_in_view_and_on_top_with_no_tap(start_server: Any, new_page: Any) -> None:
    """Every card of every seat's laid groups (and every card lying in front of a seat) is shown with no tap,
    at least 13×17 px, inside the viewport and on top at its centre (``layout.ON_TOP``), together with the
    piles, the hand, the prompt and its buttons: at 360×740, 390×844, 740×360 and 768×1024, with 2 and 6
    seats, in all three rule sets, with and without a turn timer, for a player and for a spectator; the most
    crowded tables have every seat's phase down (``states.crowded``: Master's phase 1 is 24 groups at six
    seats). In Russian, light, and German, dark. Every moment that offers a lay-down also with the builder open
    and filled, and the prompts whose dock takes most of a phone's height are in too (the Give-me-five offers,
    R-11; the board game's free choice, discard-pile search and the number to ask for, B-5). The board game on
    a small phone (360×740, 740×360) with the builder open too: there the ring gives way to its one-line strip
    (B-1, ``test_board_ring``)."""
    server = start_server(306)
    anna, _ben, _ = h.start_two(server, new_page, "mattel", {})
    tall = {"take_offer", "choose", "search", "ask"}
    views = laid_views() + [v for ruleset in ("mattel", "master", "board") for v in moments(ruleset)
                            if v.get("table") and (v.get("prompt") or {}).get("action") in tall]
    assert {(v.get("prompt") or {}).get("action") for v in views} >= tall
    failed: list[Any] = []
    for shift, (lang, scheme) in enumerate((("ru", "light"), ("de", "dark"))):
        anna.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        anna.emulate_media(color_scheme=scheme)
        anna.reload()
        anna.wait_for_selector("#game:not(.hidden)")
        until(anna, f"document.documentElement.lang === '{lang}' && P10.state.view !== null")
        for width, height in SWEEP_VIEWPORTS:
            anna.set_viewport_size({"width": width, "height": height})
            until(anna, f"window.innerWidth === {width} && window.innerHeight === {height}")
            until(anna, "document.getAnimations().every(a => a.playState !== 'running' || "
                        "a.effect.getComputedTiming().endTime === Infinity)")
            for index, view in enumerate(views):
                timer = (index + shift) % 2 == 0
                for building in (False, True) if (view.get("prompt") or {}).get("can_lay") else (False,):
                    found = show(anna, view, NAMES, timer, building)
                    if found:
                        failed.append((lang, width, height, index, view["ruleset"], len(view["players"]),
                                       (view.get("prompt") or {}).get("action"), building, found[:3]))
                        if len(failed) <= 4:
                            shot(anna, f"laid-failed-{len(failed)}")
            for ruleset in ("mattel", "master", "board"):  # the crowded 6-seat tables, as the players see them
                show(anna, crowded(ruleset, 6), NAMES, False, False)
                shot(anna, f"laid-{lang}-{scheme}-{ruleset}-{width}x{height}")
    if failed:
        (ARTIFACTS / "laid-failures.json").write_text(json.dumps(failed, indent=1))
    assert not failed, (len(failed), failed[:12])
    assert not anna.p10_errors, anna.p10_errors
