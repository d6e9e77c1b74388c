"""Tortoise Derby's analysis: what the studio's validators, CLI and service ask of the game
beyond its registered checks — here, its travel query (``arena travel``, ``/v1/travel``) and its play engine (``arena simulate``).
Registered under ``arena_studio.analyses`` in the game's pyproject.toml."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from validators.game import Column, GameAnalysis, TextTable, TravelAnswer, TravelQuery, TravelQueryError

if TYPE_CHECKING:  # the play engine loads when simulated play asks for it
    from engine.play import PlayEngine


class TortoiseDerbyAnalysis(GameAnalysis):
    system = "tortoise-derby"

    def travel(self, arena: Any, query: TravelQuery) -> TravelAnswer:
        """The shortest crawl (:func:`tortoise_derby.travel.plan`); the query's other options
        (tiers, budgets, policies) are other games'."""
        from tortoise_derby import travel

        try:
            travel.place(arena, query.source)
        except travel.TravelQueryError as exc:
            raise TravelQueryError(str(exc), param="from") from None
        try:
            result = travel.plan(arena, query.source, query.goal)
        except travel.TravelQueryError as exc:
            raise TravelQueryError(str(exc), param="to") from None
        src, dst = query.source, query.goal
        if not result["reachable"]:
            return TravelAnswer("unreachable", result, f"{dst} is not reachable from {src}: rocks pen it in.")
        summary = f"{src} -> {dst}: {result['length']:.2f} in, {result['turns']} turn(s) at {result['stride']:g} in a turn"
        table = TextTable((Column("x", right=True), Column("y", right=True)),
                          tuple((f"{p['x']:.2f}", f"{p['y']:.2f}") for p in result["path"]))
        return TravelAnswer("reached", result, summary, table)

    def play_hook(self) -> PlayEngine:
        """The seeded race (:mod:`tortoise_derby.play`) ``arena simulate`` plays."""
        from tortoise_derby.play import ENGINE

        return ENGINE


ANALYSIS = TortoiseDerbyAnalysis()
