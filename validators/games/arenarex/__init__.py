"""Arena Rex (``system: arena-rex``) validators: the rules engine's setup checks and zone fairness
(:mod:`engine.arenarex`) registered in the validator registry, tagged with the game, and the
runner that assembles their report."""
