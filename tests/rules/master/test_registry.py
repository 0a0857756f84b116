"""The ``master`` rule set is registered and speaks the Ruleset protocol (C-11) with its own commands."""

from __future__ import annotations

import pytest

from app.rules import registry
from app.rules.core.errors import InvalidCommand
from app.rules.master import RULESET
from app.rules.master.state import ChooseTakeTwo, KeepHand, OfferCard, PlayAction, TakeOffer


def test_master_is_registered() -> None:
    assert "master" in registry.ruleset_ids()
    ruleset = registry.get("master")
    assert ruleset is RULESET and (ruleset.min_players, ruleset.max_players) == (2, 6)


@pytest.mark.parametrize("command", [PlayAction(110, target=2), PlayAction(120, ask=False), ChooseTakeTwo(5),
                                     OfferCard(7), TakeOffer(8), KeepHand(True)])
def test_master_commands_round_trip(command: object) -> None:
    wire = RULESET.command_to_json(command)  # type: ignore[arg-type]
    assert RULESET.parse_command(wire) == command


@pytest.mark.parametrize("raw", [{"type": "play_action"}, {"type": "keep_hand", "keep": "yes"},
                                 {"type": "draw", "pile": "blue"}, {"type": "steal", "card": 1}])
def test_malformed_master_commands(raw: dict[str, object]) -> None:
    with pytest.raises(InvalidCommand):
        RULESET.parse_command(raw)
