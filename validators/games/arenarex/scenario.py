"""The Arena Rex scenario settings the validators weigh (issue 39, point 2), each with the book's
words (004_dc762f78e7f2abcd.txt, "Lnn" its line):

* ``ar-favor`` — "Each player begins the game with 3 Favor in their pool." (L28): players whose
  starting Favor differs (a deployment's ``favor`` against ``scenario.starting_favor``) are
  warned about unless the scenario declares the difference a handicap (``scenario.handicap``,
  then the handicap is stated as info).
* ``ar-first-player`` — "At the beginning of a game, both players roll a D6. The one with the
  higher result gets to decide who will go first. The first player deploys first, and activates
  first." (L40): a named first player (``scenario.first_player``) who has no zone is an error;
  one who has is stated (info) and, when that player's zone is also the nearer to the centre
  (beyond ``analysis.path_tolerance`` inches or ``analysis.moves_tolerance`` moves, the
  thresholds of ``ar-centre-access``), warned about: the first activation and the shorter walk
  go to the same player every game, where the book's roll-off shares them out by luck.

:func:`scenario_json` is the report's ``scenario`` part (the settings it was judged under).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from schema.games.arenarex import BOOK_FAVOR, ROLL_OFF, SYSTEM, ArenaRexArena
from validators.findings import Finding, Result, Severity
from validators.games.arenarex.context import ArenaRexContext

BOOK_FAVOR_WORDS = "Each player begins the game with 3 Favor in their pool."
BOOK_FIRST = ("At the beginning of a game, both players roll a D6. The one with the higher result gets to decide "
              "who will go first. The first player deploys first, and activates first.")


def scenario_json(arena: ArenaRexArena) -> dict[str, Any]:
    """The report's ``scenario``: cohort, each player's starting Favor, the handicap flag and who
    goes first."""
    sc = arena.scenario
    return {"cohort": sc.cohort, "starting_favor": {str(p): f for p, f in sorted(arena.starting_favor().items())},
            "handicap": sc.handicap, "first_player": sc.first_player}


def favor_words(arena: ArenaRexArena) -> str:
    """"3 Favor each" or "Favor 3/5 (players 1/2, handicap)" for the headline."""
    favor = arena.starting_favor()
    values = set(favor.values()) or {arena.scenario.starting_favor}
    if len(values) == 1:
        return f"{values.pop()} Favor each"
    players = sorted(favor)
    tail = ", handicap" if arena.scenario.handicap else ""
    return (f"Favor {'/'.join(str(favor[p]) for p in players)} (players {'/'.join(map(str, players))}{tail})")


def first_words(arena: ArenaRexArena) -> str:
    first = arena.scenario.first_player
    return "first player by roll-off" if first == ROLL_OFF else f"player {first} goes first"


def _quoted(message: str, words: str) -> str:
    return f"{message}: \"{words}\""


@dataclass(frozen=True)
class FavorCheck:
    """``ar-favor``: every player begins with the same Favor unless the scenario says handicap."""

    id: str = "ar-favor"
    title: str = "Every player begins with the same Favor (unless the scenario declares a handicap)"
    severity: Severity = "warning"
    needs_travel: bool = False
    games: tuple[str, ...] = (SYSTEM,)

    def evaluate(self, arena: ArenaRexArena, context: Any) -> Result:
        favor = arena.starting_favor()
        if len(set(favor.values())) <= 1:
            return Result()
        players = sorted(favor)
        listed = ", ".join(f"player {p} {favor[p]}" for p in players)
        metrics: dict[str, Any] = {"starting_favor": {str(p): favor[p] for p in players}, "book": BOOK_FAVOR,
                                   "handicap": arena.scenario.handicap}
        elements = tuple(f"deploy:{p}" for p in players)
        if arena.scenario.handicap:
            return Result([Finding(self.id, "info", _quoted(f"a Favor handicap: the players begin with different "
                                                            f"Favor ({listed}), as the scenario declares",
                                                            BOOK_FAVOR_WORDS), elements, metrics)])
        high = max(favor.values())
        ahead = [p for p in players if favor[p] == high]
        return Result([Finding(self.id, "warning", _quoted(
            f"the players begin with different Favor ({listed}): player(s) {', '.join(map(str, ahead))} start "
            f"{high - min(favor.values())} Favor ahead; set scenario.handicap if that is deliberate",
            BOOK_FAVOR_WORDS), elements, metrics)])


@dataclass(frozen=True)
class FirstPlayerCheck:
    """``ar-first-player``: a named first player, weighed against the zones' walks to the centre."""

    id: str = "ar-first-player"
    title: str = "Who goes first: the book's roll-off, or a named player without the nearer zone too"
    severity: Severity = "warning"
    needs_travel: bool = True
    games: tuple[str, ...] = (SYSTEM,)

    def evaluate(self, arena: ArenaRexArena, context: Any) -> Result:
        first = arena.scenario.first_player
        if first == ROLL_OFF:
            return Result()
        players = [d.player for d in arena.deployment]
        if first not in players:
            return Result([Finding(self.id, "error", _quoted(
                f"scenario.first_player names player {first}, who has no deployment zone (players "
                f"{', '.join(map(str, sorted(players))) or 'none'})", BOOK_FIRST), (), {"first_player": first})])
        zone = f"deploy:{first}"
        ctx = context if isinstance(context, ArenaRexContext) and context.arena is arena else ArenaRexContext(arena)
        an = arena.scenario.analysis
        for base, ms in sorted(ctx.metrics.items()):
            mine = next((m for m in ms if m.zone == zone), None)
            others = [m for m in ms if m.zone != zone]
            if mine is None or not others:
                continue
            nearest = min(others, key=lambda m: m.centre)
            closer = nearest.centre - mine.centre
            fewer = (None if mine.centre_moves is None or nearest.centre_moves is None
                     else nearest.centre_moves - mine.centre_moves)
            if closer > an.path_tolerance or (fewer is not None and fewer > an.moves_tolerance):
                return Result([Finding(self.id, "warning", _quoted(
                    f"player {first} always goes first (deploys first and activates first) and its zone is also "
                    f"nearer the centre: {zone} walks {mine.centre:.2f} in ({mine.centre_moves} moves) with a "
                    f"{base:g} mm base, {nearest.zone} {nearest.centre:.2f} in ({nearest.centre_moves} moves); the "
                    "book's roll-off would share the first turn out by luck", BOOK_FIRST), (zone, nearest.zone),
                    {"first_player": first, "base_mm": base, "centre": {zone: round(mine.centre, 4),
                                                                         nearest.zone: round(nearest.centre, 4)},
                     "moves": {zone: mine.centre_moves, nearest.zone: nearest.centre_moves}})])
        return Result([Finding(self.id, "info", _quoted(
            f"player {first} always goes first (deploys first and activates first) instead of the book's roll-off; "
            "its zone is no nearer the centre than the others", BOOK_FIRST), (zone,), {"first_player": first})])


FAVOR = FavorCheck()
FIRST_PLAYER = FirstPlayerCheck()

__all__ = ["BOOK_FAVOR_WORDS", "BOOK_FIRST", "FAVOR", "FIRST_PLAYER", "FavorCheck", "FirstPlayerCheck",
           "favor_words", "first_words", "scenario_json"]
