"""Car Wars sixth edition (``system: car-wars-6e``) validators: the rules engine's setup checks
and fairness metrics (:mod:`engine.carwars`) registered in the validator registry, tagged with
the game, and the runner that assembles their report."""
