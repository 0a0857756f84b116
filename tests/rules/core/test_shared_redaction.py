"""C-9 redaction made once for the events every viewer sees alike: a rule set lists the event types whose JSON
depends on the viewer (``viewer_dependent_events``); ``redact_all`` redacts any other event once and shares it."""

from __future__ import annotations

import itertools

import pytest

from app.rules import registry
from app.services.base import SPECTATOR, key, redact_all
from tests.rules.playout import playout

PLAYERS = 4


def _events(ruleset_id: str, steps: int = 1500) -> list[object]:
    ruleset = registry.get(ruleset_id)
    return [e for step in itertools.islice(playout(ruleset, 7, PLAYERS, ruleset.parse_options({})), steps)
            for e in step.events]


@pytest.mark.parametrize("ruleset_id", ["mattel", "master", "board"])
def test_c9_events_not_listed_viewer_dependent_look_alike_to_all(ruleset_id: str) -> None:
    """Over a seeded game (round ends included), every event outside ``viewer_dependent_events`` redacts to the
    same JSON for each seat and a spectator, and the listed ones differ for some viewer at least once."""
    ruleset = registry.get(ruleset_id)
    events = _events(ruleset_id)
    differing: set[type] = set()
    for event in events:
        seen = [ruleset.redact_event(event, seat) for seat in [*range(PLAYERS), None]]
        alike = all(view == seen[-1] for view in seen)
        if not isinstance(event, ruleset.viewer_dependent_events):
            assert alike, f"{type(event).__name__} depends on the viewer but is not listed"
        elif not alike:
            differing.add(type(event))
    assert differing, "the game showed no viewer-dependent event"


@pytest.mark.parametrize("ruleset_id", ["mattel", "master", "board"])
def test_c9_redact_all_equals_each_viewers_own_redaction(ruleset_id: str) -> None:
    """``redact_all`` gives each seat and the spectator exactly ``redact_event`` of their own, and the events that
    look alike to everyone are one shared JSON object."""
    ruleset = registry.get(ruleset_id)
    events = _events(ruleset_id, 400)
    redacted = redact_all(ruleset, PLAYERS, events)
    for seat in [*range(PLAYERS), None]:
        assert redacted[SPECTATOR if seat is None else key(seat)] == [ruleset.redact_event(e, seat) for e in events]
    shared = [i for i, e in enumerate(events) if not isinstance(e, ruleset.viewer_dependent_events)]
    assert shared
    assert all(redacted[key(0)][i] is redacted[key(3)][i] is redacted[SPECTATOR][i] for i in shared)
