"""Three players at one table, each on their own page (own browser context = own seat cookie), in headless
Chromium: seated through the lobby and the invite link, every move made with the page's own controls.

Every step is checked against the engine itself: the test replays the same commands on a local copy of the
game (same fixed seed, ``replay``-style) and then requires that each page holds exactly the engine's view of
its own seat — so a page never holds another hand or the draw pile (C-9) — and that no websocket frame a
page received ever carried a card hidden from that seat (another hand, the draw pile).

Seeds were found offline with the engine and the policies below (``phases_to_win = 1``, three players):

* Master seed 91: dealer Ben (seat 1), so Cara (seat 2) starts (C-7, R-5) and plays Give me five at once;
  the offers go Anna Ben Anna Ben Anna (R-11: the left neighbour first — round the table from seat 2 that
  is seat 0 — then alternately); Ben offers first, then Anna and Ben click Offer at the same moment, then
  Anna twice; Cara takes Ben's second card; then turns go Anna, Ben, Cara, Anna and Anna goes out (19
  commands).
* Master seed 601 (``phases_to_win = 2``): Anna and Ben lay All mine in front of themselves, Cara goes
  out at her first turn, both are asked at once whether to keep their hand (R-9); round 2 (9 commands).
* Mattel seed 1724: dealer Ben, so Cara starts, lays phase 1 and discards a skip naming Ben (the second
  name in the list: M-6, with more than two players the target is chosen); Anna plays, Ben is passed over,
  Cara goes out (12 commands).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from app.rules import registry
from tests.cards import card_ids

from . import helpers as h
from .strategy import decide, discard_choice

JSON = dict[str, Any]
NAMES = ("Anna", "Ben", "Cara")
Policy = Callable[[JSON, list[list[int]] | None], JSON]


# ---------------------------------------------------------------------------------------------- policies
def master_policy(view: JSON, hint: list[list[int]] | None) -> JSON:
    """The shared strategy, except that Give me five is always asked for (R-11), other action cards are
    kept (so the turn order is plain clockwise, C-7), and the taker takes the last card offered by the
    second offerer — a real choice, not the first card shown."""
    prompt = view["prompt"]
    hand = view["hand"] or []
    if prompt["action"] == "play":
        if (prompt.get("can_lay") and hint) or prompt.get("can_hit"):
            command = decide(view, hint)
            if command["type"] in ("lay_phase", "hit"):
                return command
        five = [c for c in hand if c.get("action") == "give_me_five"]
        if five and len(hand) > 1:
            return {"type": "play_action", "card": five[0]["id"], "target": None, "ask": True}
        numbers = [c for c in hand if c["kind"] != "action"]
        if numbers:
            card, _ = discard_choice({**view, "hand": numbers})
            return {"type": "discard", "card": card, "target": None}
        return decide(view, hint)
    if prompt["action"] == "take_offer":
        second = (view["seat"] + 2) % len(view["players"])
        offered = [o["card"] for o in prompt["offers"] if o["card"] and o["seat"] == second]
        return {"type": "take_offer", "card": offered[-1]["id"]}
    return decide(view, hint)


def all_mine_policy(view: JSON, hint: list[list[int]] | None) -> JSON:
    """``master_policy``, but All mine is laid in front of oneself (R-9) when held and none lies there yet."""
    command = master_policy(view, hint)
    hand = view["hand"] or []
    if view["prompt"]["action"] != "play" or command["type"] in ("lay_phase", "hit") or len(hand) < 2:
        return command
    front = view["players"][view["seat"]]["in_front"]
    mine = [c for c in hand if c.get("action") == "all_mine"]
    if mine and not any(c.get("action") == "all_mine" for c in front):
        return {"type": "play_action", "card": mine[0]["id"], "target": None, "ask": True}
    return command


def mattel_policy(view: JSON, hint: list[list[int]] | None) -> JSON:
    """The shared strategy, except that a skip names the *last* player offered (M-6), so the choice in the
    page's list is not its default first entry."""
    command = decide(view, hint)
    if command["type"] == "discard" and command.get("target") is not None:
        command["target"] = view["prompt"]["skip_targets"][-1]
    return command


# ------------------------------------------------------------------------------------------ the engine copy
class Mirror:
    """The engine's own game, fed the same commands as the pages: the reference for every page's view."""

    def __init__(self, ruleset: str, seed: int, options: JSON) -> None:
        self.rs = registry.get(ruleset)
        self.state = self.rs.new_game(seed, len(NAMES), self.rs.parse_options(options))
        self.public: set[int] = set()  # every card id that has lain face up somewhere (may be named later)
        self.held: list[set[int]] = [set() for _ in NAMES]  # every card id each seat has held itself
        self.note_known()

    def apply(self, seat: int, command: JSON) -> None:
        self.state, _ = self.rs.apply(self.state, seat, self.rs.parse_command(command))
        self.note_known()

    def view(self, seat: int) -> JSON:
        result: JSON = json.loads(json.dumps(self.rs.player_view(self.state, seat)))
        return result

    def hint(self, seat: int) -> list[list[int]] | None:
        groups = self.rs.hint(self.state, seat)
        return None if groups is None else [list(g) for g in groups]

    def note_known(self) -> None:
        """What a seat may have learnt by now: cards shown face up, and the cards of its own hand."""
        self.public |= card_ids({k: v for k, v in self.view(0).items() if k not in ("hand", "prompt")})
        for seat, held in enumerate(self.held):
            held |= card_ids(self.view(seat)["hand"])

    def hidden_from(self, seat: int) -> set[int]:
        """C-9: the cards in another hand or the draw pile now that ``seat`` has never seen."""
        full = self.rs.full_view(self.state)
        hidden = card_ids(full["draw_pile"])
        for other, cards in enumerate(full["hands"]):
            if other != seat:
                hidden |= card_ids(cards)
        return hidden - self.public - self.held[seat]


# ------------------------------------------------------------------------------------------------ pages
def start_three(server: Any, new_page: Any, ruleset: str, options: JSON) -> list[Any]:
    """Anna creates a three-seat table in the lobby; Ben and Cara join with the invite link; Anna starts."""
    pages = [new_page() for _ in NAMES]
    for page in pages:
        page.p10_frames, page.p10_checked, page.p10_cards = [], 0, set()
        page.on("websocket", lambda ws, page=page: ws.on(
            "framereceived", lambda payload, page=page: page.p10_frames.append(payload)))
    invite = h.create_table(pages[0], server.url, ruleset, NAMES[0], seats=3, options=options)
    h.seat_and_start(pages[0], invite, list(zip(pages[1:], NAMES[1:], strict=True)))
    for seat, page in enumerate(pages):
        assert page.evaluate("P10.state.seat") == seat
    return pages


def sync(pages: list[Any]) -> int:
    """Wait until every page shows the latest version (over its own socket) before anyone decides."""
    latest = max(h.version(p) for p in pages)
    for page in pages:
        h.wait_version(page, latest)
    return latest


PAGE_STATE = """() => ({
  view: P10.state.view,
  hand: document.querySelectorAll("#hand .card").length + (P10.state.builder || []).flat().length,
  onTurn: [...document.querySelectorAll("#players article.on-turn")].map((a) => Number(a.dataset.seat)),
})"""


def check_pages(pages: list[Any], mirror: Mirror) -> list[JSON]:
    """Each page holds exactly the engine's view of its own seat (C-9: its own hand, no other hand, no draw
    pile, and no socket frame so far carried a card hidden from it), shows its own hand, marks the right
    player on turn, and has no script error. Returns the pages' views."""
    views = []
    for seat, page in enumerate(pages):
        shown = page.evaluate(PAGE_STATE)
        view = shown["view"]
        view.pop("timer", None)
        assert view == mirror.view(seat), f"{NAMES[seat]}'s page differs from the engine's view of seat {seat}"
        for key in ("hands", "draw_pile", "discard_pile", "blue_pile", "take_two_drawn"):
            assert key not in view, key
        assert shown["hand"] == len(view["hand"]) == view["players"][seat]["hand_size"]
        assert shown["onTurn"] == ([] if view["over"] else [view["turn"]])
        # Every card this page's socket ever received, against what is hidden from this seat now.
        frames = page.p10_frames
        while page.p10_checked < len(frames):
            frame = frames[page.p10_checked]
            page.p10_checked += 1
            if isinstance(frame, str) and frame.startswith("{"):
                page.p10_cards |= card_ids(json.loads(frame))
        assert page.p10_cards, "no socket frame seen"  # the check below is not vacuous
        leaked = page.p10_cards & mirror.hidden_from(seat)
        assert not leaked, f"{NAMES[seat]}'s socket received hidden cards {leaked}"
        assert not page.p10_errors, page.p10_errors
        views.append(view)
    return views


def move(pages: list[Any], seat: int, policy: Policy, mirror: Mirror, stats: dict[str, int],
         expect: str | None = None) -> JSON:
    """The awaited ``seat`` decides from its own page's view and makes the move with the page's controls."""
    page = pages[seat]
    h.close_summary(page)
    before = h.version(page)
    view = h.view(page)
    prompt = view["prompt"]
    hint = None
    if prompt["action"] == "play" and prompt.get("can_lay"):
        hint = h.suggestion(page)
        assert hint == mirror.hint(seat)  # the Suggest button shows the engine's solver (C-3)
    command = policy(view, hint)
    if expect is not None:
        assert command["type"] == expect, (command, prompt)
    try:
        h.perform(page, command)
    except Exception as err:
        raise AssertionError(f"{command} failed; page errors: {page.p10_errors}; prompt: {prompt}") from err
    h.wait_version(page, before + 1)
    mirror.apply(seat, command)
    stats[command["type"]] = stats.get(command["type"], 0) + 1
    return command


def offer_at_once(pages: list[Any], seats: tuple[int, ...], mirror: Mirror,
                  stats: dict[str, int]) -> list[tuple[int, JSON]]:
    """R-11: the asked seats answer at the same time — each picks its own card on its own page, then every
    page's Offer button is clicked before any answer is back."""
    sync(pages)
    made = []
    for seat in seats:
        command = master_policy(h.view(pages[seat]), None)
        assert command["type"] == "offer_card", command
        h.click_card(pages[seat], command["card"])
        made.append((seat, command))
    at_once(pages, [(seat, "#act-offer", command) for seat, command in made], mirror, stats)
    return made


def at_once(pages: list[Any], clicks: list[tuple[int, str, JSON]], mirror: Mirror,
            stats: dict[str, int]) -> None:
    """Several seats asked at once click their buttons (``selector`` on their own page) at the same moment:
    every answer must be taken, with no error on any page (one seat answering first does not make the
    other's answer stale)."""
    before = sync(pages)
    for seat, selector, _ in clicks:  # a real click on the real button, without waiting for the answer
        pages[seat].locator(selector).evaluate("button => button.click()")
    for seat, _, _ in clicks:
        pages[seat].wait_for_function("() => !P10.state.busy")
        assert pages[seat].locator("#action-error").inner_text() == "", NAMES[seat]
    assert sync(pages) == before + len(clicks)
    for seat, _, command in clicks:
        mirror.apply(seat, command)
        stats[command["type"]] = stats.get(command["type"], 0) + 1


def log_line(page: Any, text: str) -> None:
    """Exactly one line of the page's event log contains ``text`` (waiting while the log loads)."""
    from playwright.sync_api import expect

    expect(page.locator("#log li", has_text=text)).to_have_count(1)


def tamper(page: Any, command: JSON) -> tuple[int, str | None]:
    """Send ``command`` from this page's seat straight to the API (a tampered client): status and code."""
    result: dict[str, Any] = page.evaluate(
        """async (command) => {
             const r = await P10.api("POST", `/api/tables/${P10.state.tableId}/commands`,
               { command_id: P10.uuid(), expected_version: P10.state.version, command });
             return { status: r.status, code: r.data && r.data.error ? r.data.error.code : null };
           }""", command)
    return int(result["status"]), result["code"]


def refused(pages: list[Any], page: Any, command: JSON, status: int, code: str) -> None:
    """The command is refused with a stable code, and nothing changed on any page."""
    before = sync(pages)
    assert tamper(page, command) == (status, code), command
    assert all(h.version(p) == before for p in pages)


def play_on(pages: list[Any], policy: Policy, mirror: Mirror, stats: dict[str, int],
            turns: list[int], limit: int = 60) -> list[JSON]:
    """Let the awaited seats move until the game is over, checking every page after every move and noting
    whose turn each new turn is. Returns the pages' final views."""
    for _ in range(limit):
        sync(pages)
        views = check_pages(pages, mirror)
        if views[0]["over"]:
            return views
        if views[0]["stage"] == "draw":  # a turn starts with a draw: note whose it is
            turns.append(views[0]["turn"])
        awaited = views[0]["awaited"]
        assert len(awaited) == 1, awaited
        move(pages, awaited[0], policy, mirror, stats)
    raise AssertionError("the game did not finish")


def finish(pages: list[Any], views: list[JSON]) -> None:
    """The end (M-8, R-14): every page shows the same winners and scores, in its view and in the summary's
    score sheet, and no error anywhere."""
    scores = [[p["score"] for p in v["players"]] for v in views]
    assert scores[0] == scores[1] == scores[2], scores
    assert views[0]["winners"] == views[1]["winners"] == views[2]["winners"]
    totals = []
    for page in pages:
        page.wait_for_selector("#summary[open]")
        # the score sheet is folded below the ranking: its cells' text, shown or not
        cells = page.locator("#summary table.scores tr.total > *").all_text_contents()
        totals.append(" ".join(c.strip() for c in cells))
        assert page.locator("#summary table.scores thead th").count() == 1 + len(NAMES)
        winners = page.locator("#summary .winners").inner_text()
        assert all(NAMES[w] in winners for w in views[0]["winners"]), winners
        assert page.locator("#action-error").inner_text() == ""
        assert not page.locator("#page-error").inner_text()
        assert not page.p10_errors, page.p10_errors
    assert totals[0] == totals[1] == totals[2], totals
    assert [int(x) for x in totals[0].split()[-3:]] == scores[0], totals[0]


# ------------------------------------------------------------------------------------------------ tests
@pytest.mark.e2e
def test_master_three_players_give_me_five_r11_and_turn_order_c7(start_server: Any, new_page: Any) -> None:
    """R-11 with three players: Cara asks, the offers go left neighbour first and then alternately (Anna
    Ben Anna Ben Anna), each offering player picks their own card on their own page (two of them at the
    same moment, both accepted without a stale-version error), nobody answers for another (stable error
    codes, nothing changes), the taker alone chooses, the owner gets a replacement, the rest go back, and
    Cara ends with one card more. All checked on all three pages; then the turn passes clockwise round the
    three seats (C-7, R-5) to the end of the game (R-14)."""
    seed, options = 91, {"phases_to_win": 1}
    server = start_server(seed)
    pages = start_three(server, new_page, "master", options)
    anna, ben, cara = pages
    mirror = Mirror("master", seed, options)
    stats: dict[str, int] = {}
    views = check_pages(pages, mirror)
    assert views[0]["dealer"] == 1 and views[0]["turn"] == 2  # C-7: left of the dealer starts
    for page in pages:
        assert page.locator("#players article").count() == 3
    turns = [2]

    move(pages, 2, master_policy, mirror, stats, expect="draw")
    sync(pages)
    hand_before = {seat: len(v["hand"]) for seat, v in enumerate(check_pages(pages, mirror))}
    five = move(pages, 2, master_policy, mirror, stats, expect="play_action")
    sync(pages)
    views = check_pages(pages, mirror)
    slots = [0, 1, 0, 1, 0]  # R-11, 3 players: B C B C B, B = Cara's left neighbour = seat 0 (round the table)
    for seat, (page, view) in enumerate(zip(pages, views, strict=True)):
        assert view["give_me_five"]["taker"] == 2
        assert [o["seat"] for o in view["give_me_five"]["offers"]] == slots
        assert view["awaited"] == [0, 1] and view["blue_top"]["id"] == five["card"]
        names = page.locator("#offers .offers .offer small").all_inner_texts()
        assert names == [NAMES[s] for s in slots], names
        assert (page.locator("#act-offer").count() == 1) == (seat != 2)
    assert views[0]["prompt"] == {"action": "offer", "taker": 2, "count": 3,
                                  "waiting_for": {"stage": "offer", "seats": [0, 1]}}
    assert views[1]["prompt"]["count"] == 2 and views[2]["prompt"]["action"] == "wait"
    assert "Cara" in (anna.locator("#prompt").inner_text() or "")
    # The taker cannot offer (nor take before all five lie there).
    refused(pages, cara, {"type": "offer_card", "card": views[2]["hand"][0]["id"]}, 403, "not_your_turn")

    offered: dict[int, list[int]] = {0: [], 1: []}
    # Ben offers first: his card goes to his own slot (the 2nd), the 1st stays Anna's (R-11 order). Then
    # Anna and Ben offer at the same moment (both are asked at once), then Anna her last two.
    for step, seats in enumerate(((1,), (0, 1), (0,), (0,))):
        if len(seats) == 1:
            made = [(seats[0], move(pages, seats[0], master_policy, mirror, stats, expect="offer_card"))]
        else:
            made = offer_at_once(pages, seats, mirror, stats)
        for seat, command in made:
            offered[seat].append(command["card"])
        sync(pages)
        views = check_pages(pages, mirror)
        for view in views:
            filled = [o["card"]["id"] if o["card"] else None for o in view["give_me_five"]["offers"]]
            expected = [offered[s][slots[:i].count(s)] if slots[:i].count(s) < len(offered[s]) else None
                        for i, s in enumerate(slots)]
            assert filled == expected, (filled, expected)
        for page in pages:  # face up on every page
            for _, command in made:
                assert page.locator(f"#offers .offers [data-card-id='{command['card']}']").count() == 1
        if step == 0:
            # Anna, awaited, cannot offer a card that is not hers (Ben's offered card).
            refused(pages, anna, {"type": "offer_card", "card": offered[1][0]}, 409, "card_not_in_hand")
        if step == 1:
            # Ben has offered both his cards: he is no longer asked and cannot offer for Anna.
            assert views[1]["prompt"]["action"] == "wait" and ben.locator("#act-offer").count() == 0
            assert views[0]["prompt"]["count"] == 2 and anna.locator("#act-offer").count() == 1
            refused(pages, ben, {"type": "offer_card", "card": views[1]["hand"][0]["id"]}, 403, "not_your_turn")

    # All five lie there: only Cara is awaited and only her page offers the choice.
    views = check_pages(pages, mirror)
    assert [v["awaited"] for v in views] == [[2], [2], [2]]
    assert cara.locator("#prompt-controls .choice button").count() == 5
    assert cara.locator("#prompt-controls .choice small").all_inner_texts() == [NAMES[s] for s in slots]
    for page in (anna, ben):
        assert page.locator("#prompt-controls .choice").count() == 0
    refused(pages, anna, {"type": "take_offer", "card": offered[0][0]}, 403, "not_your_turn")
    refused(pages, cara, {"type": "take_offer", "card": views[2]["hand"][0]["id"]}, 409, "not_offered")
    taken = move(pages, 2, master_policy, mirror, stats, expect="take_offer")
    assert taken["card"] == offered[1][-1]  # Cara's own choice: Ben's second card, not the first one shown
    sync(pages)
    views = check_pages(pages, mirror)
    hands = {seat: {c["id"] for c in v["hand"]} for seat, v in enumerate(views)}
    assert taken["card"] in hands[2]
    assert set(offered[0]) <= hands[0] and offered[1][0] in hands[1] and taken["card"] not in hands[1]
    sizes = [p["hand_size"] for p in views[0]["players"]]
    # Cara: played one card and took one (one more than before her turn); Anna got all three back; Ben got
    # one back and a replacement from the draw pile.
    assert sizes == [hand_before[0], hand_before[1], hand_before[2]], (sizes, hand_before)
    assert sizes[2] == 11
    for view in views:
        assert view["give_me_five"] is None and view["turn"] == 0 and view["stage"] == "draw"
    for page in pages:  # the log says it in words (it may still be loading: wait for it)
        log_line(page, "Cara took ")

    views = play_on(pages, master_policy, mirror, stats, turns)
    # C-7: every new turn went to the next seat clockwise, round all three seats and back again.
    assert turns == [2, 0, 1, 2, 0], turns
    assert all(b == (a + 1) % 3 for a, b in zip(turns, turns[1:], strict=False))
    assert stats.get("lay_phase") and stats.get("hit"), stats
    assert views[0]["winners"] == [0]
    finish(pages, views)


@pytest.mark.e2e
def test_master_three_players_all_mine_keep_choices_at_once_r9(start_server: Any, new_page: Any) -> None:
    """R-9 with three players: Anna and Ben each lay All mine in front of themselves (R-7: shown on every
    page); Cara goes out, so both are asked at once whether to keep their hand. They answer at the same
    moment on their own pages — Anna keeps hers, Ben gives his back — both accepted without a stale-version
    error; Cara is not asked and cannot answer for them. The hands still score (R-12), and the next dealer
    (C-7) deals round 2 around Anna's kept hand (R-13); nothing hidden reaches any page (C-9)."""
    seed, options = 601, {"phases_to_win": 2}
    server = start_server(seed)
    pages = start_three(server, new_page, "master", options)
    cara = pages[2]
    mirror = Mirror("master", seed, options)
    stats: dict[str, int] = {}
    views = check_pages(pages, mirror)
    assert views[0]["dealer"] == 2 and views[0]["turn"] == 0
    for seat in (0, 1):
        move(pages, seat, all_mine_policy, mirror, stats, expect="draw")
        sync(pages)
        mine = move(pages, seat, all_mine_policy, mirror, stats, expect="play_action")
        sync(pages)
        views = check_pages(pages, mirror)
        for page, view in zip(pages, views, strict=True):
            assert [c["id"] for c in view["players"][seat]["in_front"]] == [mine["card"]]
            assert page.locator(f"#players article[data-seat='{seat}'] .in-front "
                                f"[data-card-id='{mine['card']}']").count() == 1
    for expect in ("draw", "lay_phase", "hit", "hit", "discard"):  # Cara goes out
        move(pages, 2, all_mine_policy, mirror, stats, expect=expect)
        sync(pages)
    views = check_pages(pages, mirror)
    kept = sorted(c["id"] for c in views[0]["hand"])
    for page, view in zip(pages, views, strict=True):
        assert view["round"] == 1 and view["stage"] == "keep" and view["awaited"] == [0, 1]
        assert [p["keep_pending"] for p in view["players"]] == [True, True, False]
        assert [p["score"] for p in view["players"]] == [10, 10, 0]  # 1 minus point per card
        page.wait_for_selector("#summary[open]")
        assert page.locator("#summary-title").inner_text() == "Round 1 is over"
        h.close_summary(page)
        log_line(page, "All mine: Anna, Ben choose whether to keep their hands.")
    assert [v["prompt"]["action"] for v in views] == ["keep_hand", "keep_hand", "wait"]
    assert [p.locator("#prompt-controls button").count() for p in pages] == [2, 2, 0]
    refused(pages, cara, {"type": "keep_hand", "keep": True}, 403, "not_your_turn")

    at_once(pages, [(0, "#prompt-controls button:first-child", {"type": "keep_hand", "keep": True}),
                    (1, "#prompt-controls button:last-child", {"type": "keep_hand", "keep": False})],
            mirror, stats)
    views = check_pages(pages, mirror)
    for page, view in zip(pages, views, strict=True):
        assert view["round"] == 2 and view["dealer"] == 0 and view["turn"] == 1 and view["stage"] == "draw"
        assert [p["hand_size"] for p in view["players"]] == [10, 10, 10]
        assert [p["in_front"] for p in view["players"]] == [[], [], []]
        assert [p["score"] for p in view["players"]] == [10, 10, 0]
        log_line(page, "Anna keeps their hand (10 cards).")
        log_line(page, "Ben gives their hand back.")
        assert not page.p10_errors, page.p10_errors
    assert sorted(c["id"] for c in views[0]["hand"]) == kept  # the whole hand, and no card more


@pytest.mark.e2e
def test_mattel_three_players_whole_game_with_chosen_skip_m6(start_server: Any, new_page: Any) -> None:
    """M-6 with three players: the skip's target is chosen in the page's list of the *other* players (not
    oneself, a skip needs a name); the named player is marked on all three pages and passed over on their
    next turn. The whole game (M-9 ``phases_to_win = 1``) is played to the end on three pages; every page
    only ever holds its own hand (C-9) and all show the same scores and winner (M-7, M-8)."""
    seed, options = 1724, {"phases_to_win": 1}
    server = start_server(seed)
    pages = start_three(server, new_page, "mattel", options)
    anna, ben, cara = pages
    mirror = Mirror("mattel", seed, options)
    stats: dict[str, int] = {}
    views = check_pages(pages, mirror)
    assert views[0]["dealer"] == 1 and views[0]["turn"] == 2  # M-2: the player left of the dealer starts

    move(pages, 2, mattel_policy, mirror, stats, expect="draw")
    sync(pages)
    move(pages, 2, mattel_policy, mirror, stats, expect="lay_phase")
    sync(pages)
    move(pages, 2, mattel_policy, mirror, stats, expect="hit")
    sync(pages)
    views = check_pages(pages, mirror)
    skip = next(c for c in views[2]["hand"] if c["kind"] == "action")
    assert views[2]["prompt"]["skip_targets"] == [0, 1]
    # The page asks whom to skip once the skip is selected: the two others, never Cara herself.
    h.click_card(cara, skip["id"])
    assert cara.locator("#skip-target option").all_inner_texts() == ["Anna", "Ben"]
    assert cara.locator("#skip-target").input_value() == "0"
    cara.click(f"#hand [data-card-id='{skip['id']}']")  # unselect again; the move below selects it anew
    cara.wait_for_selector(f"#hand [data-card-id='{skip['id']}'][aria-pressed=false]")
    refused(pages, cara, {"type": "discard", "card": skip["id"], "target": 2}, 409, "invalid_skip_target")
    refused(pages, cara, {"type": "discard", "card": skip["id"], "target": None}, 409, "skip_needs_target")
    refused(pages, anna, {"type": "draw", "pile": "draw"}, 403, "not_your_turn")

    command = move(pages, 2, mattel_policy, mirror, stats, expect="discard")
    assert command == {"type": "discard", "card": skip["id"], "target": 1}  # Ben, chosen in the list
    sync(pages)
    views = check_pages(pages, mirror)
    for page, view in zip(pages, views, strict=True):
        assert [p["skip_pending"] for p in view["players"]] == [False, True, False]
        assert view["turn"] == 0 and view["discard_top"]["id"] == skip["id"]
        assert page.locator("#players article[data-seat='1'] .fact.warn").count() == 1
        assert page.locator("#players .fact.warn").count() == 1
        log_line(page, "Cara played a skip on Ben.")

    turns = [2]
    views = play_on(pages, mattel_policy, mirror, stats, turns)
    assert turns == [2, 0, 2], turns  # Ben's turn was passed over (M-6)
    for page in pages:
        log_line(page, "Ben was skipped.")
    assert stats.get("lay_phase") == 2 and stats.get("hit", 0) >= 3, stats
    assert views[0]["winners"] == [2] and [p["score"] for p in views[0]["players"]][2] == 0
    finish(pages, views)
