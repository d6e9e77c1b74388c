"""The Car Wars validators: each wraps one check of :mod:`engine.carwars` (setup checks in
``engine.carwars.checks``, fairness in ``engine.carwars.fairness``) under its code, with the
game tag ``car-wars-6e``.  Messages are the engine's, which quote the book's words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.carwars import checks as setup
from engine.carwars import fairness as fair
from engine.carwars.issues import Issue
from schema.games.carwars import SYSTEM, CarWarsArena
from validators.games.carwars.context import CarWarsContext
from validators.findings import Finding, Result, Severity, findings_of, plain, quote_book

GAMES = (SYSTEM,)

#: The book's words (001_720c8b844658e4d7.txt, by line) each fairness finding quotes, where the
#: engine's message quotes none (the setup checks' messages quote their own rule).
BOOK: dict[str, tuple[str, ...]] = {
    "cw-start-access": ("Players should be positioned evenly around the arena",),  # L196
    "cw-centre-access": ("Players should be positioned evenly around the arena",),  # L196
    "cw-start-spacing": ("Players should be positioned evenly around the arena",),  # L196
    "cw-card-reach": ("The moment a car touches a heavy obstacle or wall, a collision has occurred.",),  # L668
    "cw-exposure": ("a number of D equal to the highest terrain level their car is overlapping",  # L515
                    "any dice required by hazards their car is overlapping"),  # L516
    "cw-sightlines": ("If a sightline cannot be drawn without crossing a full-cover obstacle, the attacker cannot "
                      "attack that target.",),  # L889
}


def quoted(code: str, message: str) -> str:
    """``message`` quoting the book's words for ``code`` (unless it quotes them already)."""
    return quote_book(message, BOOK.get(code))


def findings(issues: list[Issue]) -> list[Finding]:
    return findings_of(issues, quoted)


@dataclass(frozen=True)
class SetupCheck:
    """A check on the layout alone (no travel)."""

    id: str
    title: str
    severity: Severity
    check: Callable[..., list[Issue]]
    metrics: Callable[[CarWarsArena], dict[str, Any]] | None = None
    games: tuple[str, ...] = GAMES
    needs_travel: bool = False
    #: The check takes the one metric it reports as its second argument (measured once, not twice).
    measured: bool = False

    def evaluate(self, arena: CarWarsArena, context: Any) -> Result:
        raw = self.metrics(arena) if self.metrics is not None else {}
        issues = self.check(arena, *raw.values()) if self.measured else self.check(arena)
        return Result(findings(issues), {k: plain(v) for k, v in raw.items()})


@dataclass(frozen=True)
class TravelCheck:
    """A fairness check on the travel table (both driving policies)."""

    id: str
    title: str
    severity: Severity
    check: Callable[[CarWarsArena, fair.TravelTable], list[Issue]]
    games: tuple[str, ...] = GAMES
    needs_travel: bool = True

    def evaluate(self, arena: CarWarsArena, context: Any) -> Result:
        ctx = context if isinstance(context, CarWarsContext) else CarWarsContext(arena)
        if not arena.start_positions:
            return Result()
        return Result(findings(self.check(arena, ctx.table)), dict(ctx.travel_metrics()))


ARENA_SIZE = SetupCheck("cw-arena-size", "Arena roughly 3 feet per side", "warning", setup.check_arena_size)
CORNER_ANGLE = SetupCheck("cw-corner-angle", "Wall corners of 90 degrees or more", "error", setup.check_corner_angle)
WALL_GAP = SetupCheck("cw-wall-gap", "Gaps between walls at least one turning key", "error", setup.check_wall_gap)
START_KEY = SetupCheck("cw-start-key", "Each start: turning key against the edge, car touching it", "error",
                       setup.check_start_key)
START_SPREAD = SetupCheck("cw-start-spread", "Starts positioned evenly around the arena", "warning", setup.check_start_spread)
COMPONENTS = SetupCheck("cw-components", "Components within the box's contents", "warning", setup.check_components)
GAME_SIZE = SetupCheck("cw-game-size", "Game size: every budget set, the damage deck its build points call for",
                      "error", setup.check_game_size)
OWN_CHECKPOINT = SetupCheck("cw-own-checkpoint", "One checkpoint of each player's own colour", "warning",
                            setup.check_own_checkpoints)
START_ACCESS = TravelCheck("cw-start-access", "Starts equally far (turns, dice) from the checkpoint cards", "warning",
                           fair.check_start_access)
CENTRE_ACCESS = TravelCheck("cw-centre-access", "Starts equally far (turns, dice) from the centre", "warning",
                            fair.check_centre_access)
START_SPACING = TravelCheck("cw-start-spacing", "Starts equally far from the nearest other start", "warning",
                            fair.check_start_spacing)
CARD_REACH = TravelCheck("cw-card-reach", "Every card reachable from every start", "error", fair.check_card_reach)


# The metrics functions are module-level functions, not lambdas: a report holds its validators, and
# a batch run's reports cross processes (``arena validate -j N``, Dask), which pickle functions by name.
def exposure_metrics(arena: CarWarsArena) -> dict[str, Any]:
    """``{"exposure": ...}``: each start's hazard dice and terrain nearby (cw-exposure's metric)."""
    return {"exposure": fair.exposure(arena)}


def sightline_metrics(arena: CarWarsArena) -> dict[str, Any]:
    """``{"sightlines": ...}``: what each start sees and the cover between (cw-sightlines' metric)."""
    return {"sightlines": fair.sightlines(arena)}


EXPOSURE = SetupCheck("cw-exposure", "Equal hazard and high-terrain exposure near each start", "warning",
                      fair.check_exposure, exposure_metrics, measured=True)
SIGHTLINES = SetupCheck("cw-sightlines", "Equal line of sight between starts (full cover blocks, partial counts)",
                        "warning", fair.check_sightlines, sightline_metrics, measured=True)

ALL = (ARENA_SIZE, CORNER_ANGLE, WALL_GAP, START_KEY, START_SPREAD, COMPONENTS, OWN_CHECKPOINT, START_ACCESS,
       CENTRE_ACCESS, START_SPACING, CARD_REACH, EXPOSURE, SIGHTLINES, GAME_SIZE)
