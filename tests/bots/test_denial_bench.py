"""bench/denial.py measures what knowing the next player's takes, or the draw pile's top card, would be worth; the
bot itself stays public (C-9)."""

from __future__ import annotations

import random
from types import SimpleNamespace

from app.bots import hard
from app.bots.driver import bot_inputs
from app.bots.tactics import tactics_for
from app.rules import registry
from app.rules.core.cards import Card, CardKind, Colour, card_to_json
from app.rules.core.commands import Discard, Draw, Pile
from bench import denial


def test_the_denial_bench_plays_with_and_without_the_oracle() -> None:
    ruleset = registry.get("mattel")
    for oracle in ("both", "draw", "all", "none"):
        assert denial.play(ruleset, 3, 0, oracle) in (True, False)
    assert denial.play(ruleset, 3, 2, "both", players=4) in (True, False)  # four seats, hard in the third


def test_hard_discards_by_the_estimate_it_is_given() -> None:
    """The same position: an estimate that says one card will be taken keeps it from the pile."""
    ruleset = registry.get("mattel")
    state = ruleset.new_game(5, 2, ruleset.parse_options({}))
    while True:
        seat = ruleset.awaited(state)[0]
        view, legal = bot_inputs(ruleset, state, seat)
        discards = [c for c in legal if isinstance(c, Discard) and c.target is None]
        if discards and len(discards) == len(legal):
            break
        state, _ = ruleset.apply(state, seat, legal[0])
    tactics = tactics_for("mattel")
    chosen = hard.choose_discard(tactics, view, discards, random.Random(0))
    avoid = hard.discard_by(lambda card, *_: 1.0 if card.id == chosen.card else 0.0)
    assert avoid(tactics, view, discards, random.Random(0)).card != chosen.card


def test_the_draw_oracle_takes_the_discard_only_if_it_is_better() -> None:
    """M-4 with the draw pile's top card known: hand 5 5 9 9 on two sets of 3. A 5 on the discard pile and a 2
    on top of the draw pile: the 5 (one card from the phase against two). A 9 on the draw pile instead: as close
    either way, so the draw pile; a 2 on the discard pile and a 3 on the draw pile: neither helps, the draw pile."""
    def card(i: int, number: int) -> Card:
        return Card(i, CardKind.NUMBER, number=number, colour=Colour.RED)

    hand = [card(1, 5), card(2, 5), card(3, 9), card(4, 9)]
    draws = [Draw(Pile.DRAW), Draw(Pile.DISCARD)]
    ruleset = registry.get("mattel")

    def choice(top: Card, hidden: Card) -> Draw | None:
        view = {"seat": 0, "hand": [card_to_json(c) for c in hand], "table": [], "players": [],
                "discard_top": card_to_json(top), "my_phase": [{"kind": "set", "size": 3}] * 2}
        state = SimpleNamespace(piles=SimpleNamespace(draw=(hidden,)))
        return denial.clairvoyant_draw(ruleset, state, view, draws)

    assert choice(card(5, 5), card(6, 2)) == Draw(Pile.DISCARD)
    assert choice(card(5, 5), card(6, 9)) == Draw(Pile.DRAW)
    assert choice(card(5, 2), card(6, 3)) == Draw(Pile.DRAW)


def test_each_oracle_answers_only_the_choice_it_knows_about() -> None:
    """A draw and then a discard of the same seat: ``draw`` answers the draw only, ``both`` the discard only,
    ``all`` both and ``none`` neither (``hard`` then plays as it does)."""
    ruleset = registry.get("mattel")
    state = ruleset.new_game(5, 4, ruleset.parse_options({}))
    seat = ruleset.awaited(state)[0]
    _, legal = bot_inputs(ruleset, state, seat)
    assert any(isinstance(c, Draw) for c in legal)
    before = state
    state, _ = ruleset.apply(state, seat, Draw(Pile.DRAW))
    _, legal = bot_inputs(ruleset, state, seat)
    assert legal and all(isinstance(c, Discard) for c in legal)

    def answers(oracle: str) -> tuple[bool, bool]:
        drew = denial.oracle_command(ruleset, before, seat, oracle, random.Random(0))
        threw = denial.oracle_command(ruleset, state, seat, oracle, random.Random(0))
        assert drew is None or isinstance(drew, Draw)
        assert threw is None or isinstance(threw, Discard)
        return drew is not None, threw is not None

    assert answers("draw") == (True, False)
    assert answers("both") == (False, True)
    assert answers("all") == (True, True)
    assert answers("none") == (False, False)
