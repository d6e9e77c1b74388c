"""Each game's validators, one package per game (``validators.games.<game>``): its runner, its
registered checks and its hooks.  Nothing outside a game's package imports it by name; the
shared validators reach a game through its ruleset."""
