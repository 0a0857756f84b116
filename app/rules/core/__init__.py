"""The engine core shared by every rule set: cards, groups, phases, jokers, solver, rng, errors, protocol."""
