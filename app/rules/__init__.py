"""The pure Phase 10 rules engine: standard library only, no I/O, no clock, no global random."""
