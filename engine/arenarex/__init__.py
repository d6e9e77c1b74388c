"""Arena Rex (``system: arena-rex``): free movement of round bases among pits, spikes and terrain
hazards (:mod:`engine.arenarex.space`), the setup checks (:mod:`engine.arenarex.checks`) and the
deployment zones' fairness side by side (:mod:`engine.arenarex.fairness`)."""
