"""The Glider-Pit Gladiators validators: each wraps one check of :mod:`engine.gliderpit` (setup
checks in ``engine.gliderpit.checks``, launch-zone fairness in ``engine.gliderpit.fairness``)
under its code, with the game tag ``glider-pit-gladiators``.  Messages are the engine's; the
setup checks' quote the book (002_2bb38bd119a25a6d.txt), and fairness findings get the book's
words where the engine's message quotes none."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.gliderpit import checks as setup
from engine.gliderpit import teams
from engine.gliderpit.checks import Issue
from schema.games.gliderpit import SYSTEM, GliderPitArena
from validators.findings import BookSetupCheck, Finding, Result, Severity, findings_of, quote_book
from validators.games.gliderpit.context import GliderPitContext

GAMES = (SYSTEM,)

#: The book's words (002_2bb38bd119a25a6d.txt, by line) each fairness finding quotes.
BOOK: dict[str, str] = {
    "gp-zone-facings": "The glider counter may be launched facing in any direction except toward a hexside that "
                       "contains a pit wall.",  # L55
    "gp-zone-currents": "Roll 2d6. Place any one of the markers on a hex row matching the die roll.",  # L195
}


def quoted(code: str, message: str) -> str:
    """``message`` quoting the book's words for ``code`` (unless it quotes them already)."""
    return quote_book(message, BOOK.get(code))


def findings(issues: list[Issue]) -> list[Finding]:
    return findings_of(issues, quoted)


def _context(arena: GliderPitArena, context: Any) -> GliderPitContext:
    return context if isinstance(context, GliderPitContext) and context.arena is arena else GliderPitContext(arena)


@dataclass(frozen=True)
class SetupCheck(BookSetupCheck):
    """A check on the pit alone: one function of ``engine.gliderpit.checks.CHECKS``."""

    games: tuple[str, ...] = GAMES
    book: ClassVar[Mapping[str, str | tuple[str, ...]]] = BOOK


@dataclass(frozen=True)
class ZoneCheck:
    """One metric of the launch zones side by side (``engine.gliderpit.fairness.compare``,
    the findings under this code).  The zones' numbers go into the report's ``zones``."""

    id: str
    title: str
    severity: Severity
    needs_travel: bool = False
    games: tuple[str, ...] = GAMES

    def evaluate(self, arena: GliderPitArena, context: Any) -> Result:
        ctx = _context(arena, context)
        issues = [i for i in ctx.compare(travel=self.needs_travel) if i.code == self.id]
        return Result(findings(issues), {"zones": ctx.zones_json()})


@dataclass(frozen=True)
class TeamSpacingCheck:
    """Team-aware launch-zone spacing (``engine.gliderpit.teams``); the zones' sides and
    distances go into the report's ``teams``.  Without teams it finds nothing."""

    id: str
    title: str
    severity: Severity
    needs_travel: bool = False
    games: tuple[str, ...] = GAMES

    def evaluate(self, arena: GliderPitArena, context: Any) -> Result:
        if not arena.scenario.teams:
            return Result()
        return Result(findings(teams.check_team_spacing(arena)), {"teams": teams.teams_json(arena)})


PIT = SetupCheck("gp-pit", "The pit is one hex grid, each hex listed once", "error", setup.check_pit)
PIT_HOLES = SetupCheck("gp-pit-holes", "The pit has no holes (hexes closed in by pit hexes)", "warning",
                      setup.check_pit_holes)
ROWS = SetupCheck("gp-rows", "19 numbered rows, every 2d6 total 2-12 on some row", "error", setup.check_rows)
LAUNCH_ZONES = SetupCheck("gp-launch-zones", "Six launch zones of five contiguous wall hexes, one per Airspeed Track",
                          "error", setup.check_launch_zones)
LAUNCH_EDGES = SetupCheck("gp-launch-edges", "Every launch zone along a long edge, beside its Airspeed Track",
                          "warning", setup.check_launch_edges)
LAUNCH_FACING = SetupCheck("gp-launch-facing", "Every launch hex has a facing not toward a wall hexside", "error",
                           setup.check_launch_facing)
FLOOR = SetupCheck("gp-floor", "FLOOR level standard, 5, 10 or 15, below the launch", "error", setup.check_floor)
SYMMETRY = SetupCheck("gp-symmetry", "The declared symmetry maps hexes, zones and row numbers onto themselves",
                      "warning", setup.check_symmetry)
TEAMS = SetupCheck("gp-teams", "Teams: each on launch zones, two sides or more, equally large", "error",
                   teams.check_teams)
TEAM_SPACING = TeamSpacingCheck("gp-team-spacing", "Opponents' launch zones evenly spaced, each team's placed alike",
                                "warning")
ZONE_CENTRE = ZoneCheck("gp-zone-centre", "Launch zones equally far from the pit centre", "warning")
ZONE_SPACING = ZoneCheck("gp-zone-spacing", "Launch zones equally far from the nearest other zone", "warning")
ZONE_CLEARANCE = ZoneCheck("gp-zone-clearance", "Launch zones with equal wall clearance", "warning")
ZONE_FACINGS = ZoneCheck("gp-zone-facings", "Launch zones with equally many legal launch facings", "warning")
ZONE_CURRENTS = ZoneCheck("gp-zone-currents", "Launch zones equally exposed to the air currents", "warning")
ZONE_TRAVEL = ZoneCheck("gp-zone-travel", "Launch zones equally many turns from the pit centre", "warning",
                        needs_travel=True)

ALL = (PIT, PIT_HOLES, ROWS, LAUNCH_ZONES, LAUNCH_EDGES, LAUNCH_FACING, FLOOR, SYMMETRY, ZONE_CENTRE, ZONE_SPACING, ZONE_CLEARANCE,
       ZONE_FACINGS, ZONE_CURRENTS, ZONE_TRAVEL, TEAMS, TEAM_SPACING)
