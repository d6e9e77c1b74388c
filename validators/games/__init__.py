"""Each game's validators, one package per game (``validators.games.<game>``): its runner, its
registered checks, its hooks and its analysis (``ANALYSIS``, a
:class:`validators.game.GameAnalysis` registered under ``arena_studio.analyses``).  Nothing
outside a game's package imports it by name; the shared validators and the apps reach a game
through its analysis (:func:`validators.game.analysis`)."""
