"""Mothership battlefield (``system: mothership-grid``) validators: the rules engine's setup
checks and approach fairness (:mod:`engine.mothership`) registered in the validator registry,
tagged with the game, and the runner that assembles their report."""
