"""The parts of tabletop robustness a game's hook needs (:mod:`validators.robustness` runs it):
the :class:`Hook` protocol, a :class:`Headline` metric and :func:`gaps`.  Game-neutral and light:
the games' validator packages import it without the validation runner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from engine.placement import Tolerance
from validators.report import Report


@dataclass(frozen=True)
class Headline:
    """One headline metric of a report: ``value`` against ``tolerance`` (beyond it when above it,
    or below it for ``limit="below"``); None when the report could not measure it."""

    key: str
    label: str
    unit: str
    value: float | None
    tolerance: float
    limit: Literal["above", "below"] = "above"

    def beyond(self) -> bool:
        if self.value is None:
            return False
        return self.value > self.tolerance + 1e-9 if self.limit == "above" else self.value < self.tolerance - 1e-9


def gaps(values: dict[str, float | None]) -> dict[str, float | None]:
    """Each key's value minus the smallest (None where it has none): how far behind the best
    start or zone it is, the quantity the fairness validators hold to a tolerance.

    >>> gaps({"start:1": 2.0, "start:2": 2.5, "start:3": None})
    {'start:1': 0.0, 'start:2': 0.5, 'start:3': None}
    """
    finite = [v for v in values.values() if v is not None]
    low = min(finite) if finite else None
    return {k: (None if v is None or low is None else round(v - low, 3)) for k, v in values.items()}


class Hook(Protocol):
    """A game's placement-error hook (:meth:`validators.game.GameAnalysis.robustness_hook`)."""

    #: Validator codes not run on the samples.
    skip: tuple[str, ...]
    #: The unit the length tolerance is in ("length", "in").
    unit: str

    def tolerance(self, arena: Any) -> Tolerance: ...

    def perturb(self, arena: Any, rng: np.random.Generator, tol: Tolerance) -> tuple[Any, int]: ...

    def headlines(self, report: Report) -> list[Headline]: ...

    # Optional: ``warm()``, called in a worker before its samples when it has several to validate
    # (:data:`validators.robustness.WARM_SAMPLES`): what a long-lived process should set up once.
