"""C-9 views reuse the JSON of the parts a command left alone (``app.rules.core.viewparts``): a reused part is
exactly what a fresh view shows, and reuse goes by the identity of the engine value, never by equality."""

from __future__ import annotations

import copy
import itertools

import pytest

from app.rules import registry
from app.rules.core.viewparts import IdentityMemo
from tests.rules.playout import playout


@pytest.mark.parametrize("ruleset_id", ["mattel", "master", "board"])
def test_c9_views_with_reused_parts_equal_fresh_views(ruleset_id: str) -> None:
    """Over 400 steps of a seeded game, every seat's and a spectator's view of each state equals the view of a
    deep copy of that state (new objects throughout, so nothing is reused), and consecutive views share the
    parts the command did not change (the same list objects)."""
    ruleset = registry.get(ruleset_id)
    shared = 0
    previous = None
    for step in itertools.islice(playout(ruleset, 11, 4, ruleset.parse_options({})), 400):
        seats = [0, 1, 2, 3, None]
        views = ruleset.player_views(step.after, seats)
        fresh = ruleset.player_views(copy.deepcopy(step.after), seats)
        assert views == fresh
        if previous is not None:
            shared += sum(views[0][k] is previous[0][k] for k in ("phases", "history", "table"))
        previous = views
    assert shared > 3 * 400 * 0.8  # phases always, history and table on most steps


def test_identity_memo_goes_by_identity_and_stays_bounded() -> None:
    made: list[tuple[int, ...]] = []

    def make(value: tuple[int, ...]) -> list[int]:
        made.append(value)
        return list(value)

    memo = IdentityMemo(make, size=2)
    a, b, c = (1, 2), (3, 4), (5, 6)
    assert memo(a) is memo(a)
    equal_to_a = tuple([1, 2])
    assert equal_to_a is not a and memo(equal_to_a) == [1, 2]
    assert len(made) == 2  # an equal but distinct value is made again
    memo(b)
    memo(c)  # three entries in a memo of two: the oldest (a) goes
    memo(a)
    assert sum(x is a for x in made) == 2
