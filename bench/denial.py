"""What ``hard`` would gain by knowing hidden information: upper bounds, not a bot.

    python bench/denial.py [--ruleset mattel|master] [--games 200] [--seed 1] [--players 2]
                           [--oracle both|build|laid|draw|all|none]

``hard`` weighs each candidate discard by the chance that the next player takes it from the discard pile
(``app.bots.hard.take_chance``, from public information only, C-9). Here that chance is replaced, for the
benchmark's ``hard`` seat only, by the truth (``hard.discard_by`` around it): the game state is advanced by
the candidate discard and the next player's own bot (``normal``) is asked whether it draws from the discard
pile. This uses hidden information (the next player's hand) on purpose, to measure how much a perfect estimate
of the other player's takes is worth; no bot ever does this (``tests/bots/test_hidden_information.py``).
``--oracle build``: only while hard's phase is not down; ``laid``: only once it is; ``none``: hard as it plays,
with its memory of the round as in the simulator (the same games without the oracle, for comparison).
``--oracle draw`` measures the other choice a card game leaves open (M-4, R-6): ``hard`` sees the draw pile's
top card when it picks a pile (``clairvoyant_draw``) and discards as it plays; ``--oracle all`` tells it both
the draw pile's top card and the next player's takes, the bound on the two choices together. Against ``normal``
(heads-up, or ``--players`` seats), seats rotating; prints hard's wins with a 95 % Wilson interval every 100
games. The card games only: in the board game the next player's first choice is a move (B-5), not a draw, so
there is nothing to look up.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import hard  # noqa: E402
from app.bots import view as v  # noqa: E402
from app.bots.driver import bot_command, bot_inputs, play_game  # noqa: E402
from app.bots.evaluate import distance  # noqa: E402
from app.bots.simulate import wilson  # noqa: E402
from app.bots.tactics import Policy, tactics_for  # noqa: E402
from app.bots.tactics import play as bot_play  # noqa: E402
from app.rules import registry  # noqa: E402
from app.rules.core.cards import Card  # noqa: E402
from app.rules.core.commands import Discard, Draw, Pile  # noqa: E402
from app.rules.core.errors import RuleError  # noqa: E402


def _truth(ruleset: Any, state: Any, seat: int, options: list[Discard]) -> dict[int, float]:
    """Card id -> 1.0 when the next player's ``normal`` bot would take that discard, else 0.0."""
    out: dict[int, float] = {}
    for option in options:
        try:
            after, _ = ruleset.apply(state, seat, option)
        except RuleError:
            continue
        awaited = () if ruleset.is_over(after) else ruleset.awaited(after)
        if not awaited or awaited[0] == seat:
            continue
        _, legal = bot_inputs(ruleset, after, awaited[0])
        if not any(isinstance(c, Draw) for c in legal):
            continue
        command = bot_command("normal", ruleset, after, awaited[0], random.Random(0))
        out[option.card] = 1.0 if isinstance(command, Draw) and command.pile is Pile.DISCARD else 0.0
    return out


def _known(by_card: dict[int, float]) -> Any:
    """A stand-in for ``take_chance`` that answers from ``by_card`` (card id -> taken)."""
    return lambda card, *_args, **_kw: by_card.get(card.id, 0.0)


def clairvoyant_draw(ruleset: Any, state: Any, view: dict[str, Any], draws: list[Draw]) -> Draw | None:
    """M-4, R-6 with the draw pile's top card known (hidden information, a bound): the discard pile's top card
    when it leaves the phase fewer cards away than the blind card would (once the phase is down: when it can be
    hit and the blind card cannot), else the draw pile. ``None`` when there is no choice to make."""
    take = next((c for c in draws if c.pile is Pile.DISCARD), None)
    blind = next((c for c in draws if c.pile is Pile.DRAW), None)
    top = v.discard_top(view)
    if take is None or blind is None or top is None or not state.piles.draw:
        return None
    hidden = state.piles.draw[-1]
    hand, req = v.hand(view), v.requirement(view)
    if req is None:
        tactics, groups = tactics_for(ruleset.id), v.table(view)
        return take if tactics.fits_table(top, groups) and not tactics.fits_table(hidden, groups) else blind

    def after(card: Card) -> int:
        return distance([*hand, card] if card.is_natural or card.is_joker else hand, req)

    return take if after(top) < after(hidden) else blind


ORACLES = ("both", "build", "laid", "draw", "all", "none")
"""What the ``hard`` seat is told: the next player's takes (``both``, or only while its phase is not down,
``build``, or only once it is, ``laid``), the draw pile's top card (``draw``), both of those (``all``), nothing
(``none``)."""


def oracle_command(ruleset: Any, state: Any, seat: int, oracle: str, rng: random.Random) -> Any:
    """The command ``hard`` plays at ``seat`` with the hidden information ``oracle`` names, or ``None`` where
    that information leaves the choice to ``hard`` as it plays (no draw or discard to choose, or another
    oracle's choice)."""
    if oracle == "none":
        return None
    view, legal = bot_inputs(ruleset, state, seat)
    draws = [c for c in legal if isinstance(c, Draw)]
    if draws:
        return clairvoyant_draw(ruleset, state, view, draws) if oracle in ("draw", "all") else None
    options = [c for c in legal if isinstance(c, Discard) and c.target is None]
    stage = "laid" if v.has_laid(view) else "build"
    if not options or oracle not in ("both", "all", stage):
        return None
    truth = _truth(ruleset, state, seat, options)
    estimate = hard.discard_by(_known({c.id: truth.get(c.id, 0.0) for c in v.hand(view)}))
    policy = Policy(hard.LEVEL, hard.choose_draw, hard.choose_lay, hard.choose_hit, estimate)
    return bot_play(policy, ruleset.id, view, legal, rng)


def play(ruleset: Any, seed: int, hard_seat: int, oracle: str, players: int = 2) -> bool:
    levels = ["normal"] * players
    levels[hard_seat] = "hard"

    def knowing(state: Any, seat: int, rng: random.Random) -> Any:
        return oracle_command(ruleset, state, seat, oracle, rng) if seat == hard_seat else None

    return hard_seat in play_game(ruleset, levels, seed, override=knowing).winners


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="mattel", choices=("mattel", "master"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--oracle", default="both", choices=ORACLES)
    parser.add_argument("--players", type=int, default=2, help="seats: hard and normal bots (2-6)")
    args = parser.parse_args()
    ruleset = registry.get(args.ruleset)
    wins = 0
    for game in range(args.games):
        wins += play(ruleset, args.seed + game, game % args.players, args.oracle, args.players)
        if (game + 1) % 100 == 0 or game + 1 == args.games:
            low, high = wilson(wins, game + 1)
            print(f"{args.ruleset} {args.players} players, oracle={args.oracle}: hard {wins} / {game + 1} = "
                  f"{wins / (game + 1):.1%} ({low:.1%}–{high:.1%})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
