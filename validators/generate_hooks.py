"""What a game gives the arena generator (:mod:`validators.generate` runs the search): the
:class:`Hook` protocol, and :class:`GenomeHook`, a base for hooks whose genomes come from a
game's engine module of plain functions.  Light to import (a game's validators package imports
it without the search, as :mod:`validators.balance_hooks`)."""

from __future__ import annotations

import importlib
from typing import Any, Protocol

import numpy as np


class Hook(Protocol):
    """A game's generator hook (:meth:`validators.game.GameAnalysis.generator_hook`)."""

    #: Players when ``arena generate --players`` (or the editor's dialog) gives none.
    default_players: int

    def plan(self, catalogue: str | None, players: int, symmetry: str | None, size: float | None,
             table: str | None) -> Any: ...
    def fresh(self, plan: Any, rng: np.random.Generator) -> Any: ...
    def vary(self, plan: Any, genome: Any, rng: np.random.Generator) -> Any: ...
    def build(self, plan: Any, genome: Any, seed: int) -> Any: ...
    def precheck(self, arena: Any) -> list[str]: ...
    def quality(self, metrics: dict[str, Any]) -> float: ...
    def describe(self, plan: Any) -> str: ...


class GenomeHook:
    """The parts of a hook that a game's generator module gives as plain functions
    (``load_catalogue``, ``make_plan``, ``place``, ``mutate``, ``build``, ``precheck``: Gravstrike's
    :mod:`engine.gravstrike.generate`, Arena Rex's :mod:`engine.arenarex.generate`); a game's hook
    adds ``quality`` and ``describe``."""

    default_players = 4

    def __init__(self, module: str) -> None:
        self.module = module

    @property
    def _m(self) -> Any:
        return importlib.import_module(self.module)

    def plan(self, catalogue: str | None, players: int, symmetry: str | None, size: float | None,
             table: str | None) -> Any:
        """Raises :class:`schema.ArenaError` (a bad catalogue, located) or
        :class:`engine.symmetry.GenerateError` (parameters it cannot honour)."""
        m = self._m
        return m.make_plan(m.load_catalogue(catalogue), players=players, symmetry=symmetry, size=size, table=table)

    def fresh(self, plan: Any, rng: np.random.Generator) -> Any:
        return self._m.place(plan, rng)

    def vary(self, plan: Any, genome: Any, rng: np.random.Generator) -> Any:
        varied, changed = self._m.mutate(plan, genome, rng)
        return self._m.place(plan, rng, varied, changed)

    def build(self, plan: Any, genome: Any, seed: int) -> Any:
        return self._m.build(plan, genome, seed=seed)

    def precheck(self, arena: Any) -> list[str]:
        found: list[str] = self._m.precheck(arena)
        return found
