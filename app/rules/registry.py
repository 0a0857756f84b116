"""Rule set id -> rule set object. The server and the bots find every rule set here and nowhere else."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .core.errors import InvalidOptions
from .core.ruleset import Ruleset

# id -> module that defines ``RULESET``. Adding a rule set is one line here.
_MODULES: dict[str, str] = {
    "mattel": "app.rules.mattel",
    "board": "app.rules.board",
    "master": "app.rules.master",
}

AnyRuleset = Ruleset[Any, Any, Any, Any]


def ruleset_ids() -> tuple[str, ...]:
    """The ids of every available rule set."""
    return tuple(_MODULES)


_LOADED: dict[str, AnyRuleset] = {}


def get(ruleset_id: str) -> AnyRuleset:
    """The rule set with this id; an unknown id raises ``InvalidOptions('ruleset', ...)``. Imported on first use,
    then remembered (every command looks its rule set up: ``import_module`` takes the import lock each time)."""
    ruleset = _LOADED.get(ruleset_id)
    if ruleset is not None:
        return ruleset
    module = _MODULES.get(ruleset_id)
    if module is None:
        raise InvalidOptions("ruleset", f"unknown rule set {ruleset_id!r}; one of {list(_MODULES)}")
    loaded: AnyRuleset = import_module(module).RULESET
    _LOADED[ruleset_id] = loaded
    return loaded
