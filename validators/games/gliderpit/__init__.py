"""Glider-Pit Gladiators (``system: glider-pit-gladiators``) validators: the rules engine's setup
checks and launch-zone fairness (:mod:`engine.gliderpit`) registered in the validator registry,
tagged with the game, and the runner that assembles their report."""
