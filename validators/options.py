"""What ``arena validate`` passes to :func:`validators.run.validate` for each arena a worker
validates (batch files, robustness placements): game-neutral, so every game's code may use it.

Also the defaults of the long tasks' settings.  This module imports nothing heavy, so that the
command line shows the defaults in its options without loading the analyses."""

from __future__ import annotations

from dataclasses import dataclass

from engine.budget import Caps

#: Position tolerance (lengths) of travel analysis: planner states closer than this merge.  The
#: engine's exact tolerance is 0.01; 0.25 gives the same checkpoint times on the shipped arenas (see
#: bench/travel.py) at a fraction of the cost, and is slower than the finest search on 7 of the 181
#: goals of the golden travel table (tests/golden/travel_times.json), by at most a turn - a table
#: no change may make slower (docs/motion-model.md, "How far from exact").  ``--tolerance`` changes it.
ANALYSIS_TOLERANCE = 0.25
#: Travel analysis looks this many turns ahead: goals farther away are reported as farther than
#: that ("beyond"), never as unreachable.
ANALYSIS_MAX_TURNS = 12


@dataclass(frozen=True)
class Options:
    """Validator selection and Gravstrike's analysis settings (``tolerance`` None: the analysis
    default, :data:`ANALYSIS_TOLERANCE`); ``limits``: the caps of each
    arena's analysis (:class:`engine.budget.Caps`; None: none); ``players``: ``--players``."""

    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    tier: int | None = None
    budget: int | None | str = "arena"
    tolerance: float | None = None
    limits: Caps | None = None
    #: Judge the start set declared for this many players (:mod:`validators.players`); None:
    #: the arena as it stands and every declared count.
    players: int | None = None


#: Seconds a proposed fix (:func:`validators.balance.propose`) may take unless told otherwise.
BALANCE_BUDGET = 30.0
#: Seconds :func:`validators.generate.generate` searches, and its local worker processes.
GENERATE_BUDGET = 120.0
GENERATE_WORKERS = 2
