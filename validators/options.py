"""What ``arena validate`` passes to :func:`validators.run.validate` for each arena a worker
validates (batch files, robustness placements): game-neutral, so every game's code may use it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.budget import Caps


@dataclass(frozen=True)
class Options:
    """Validator selection and Gravstrike's analysis settings (``tolerance`` None: the analysis
    default, :data:`validators.context.ANALYSIS_TOLERANCE`); ``limits``: the caps of each
    arena's analysis (:class:`engine.budget.Caps`; None: none)."""

    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    tier: int | None = None
    budget: int | None | str = "arena"
    tolerance: float | None = None
    limits: Caps | None = None
