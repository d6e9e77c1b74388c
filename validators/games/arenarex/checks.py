"""The Arena Rex validators: each wraps one check of :mod:`engine.arenarex` (setup checks in
``engine.arenarex.checks``, zone fairness in ``engine.arenarex.fairness``) under its code, with
the game tag ``arena-rex``.  The setup checks' messages quote the book
(004_dc762f78e7f2abcd.txt); fairness findings get the book's words where the engine's message
quotes none."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.arenarex import checks as setup
from engine.arenarex.issues import Issue
from schema.games.arenarex import SYSTEM, ArenaRexArena
from validators.games.arenarex.context import ArenaRexContext
from validators.games.arenarex.scenario import FAVOR, FIRST_PLAYER
from validators.findings import BookSetupCheck, Finding, Result, Severity, findings_of, quote_book

GAMES = (SYSTEM,)

#: The book's words (004_dc762f78e7f2abcd.txt, by line) each fairness finding quotes.
BOOK: dict[str, tuple[str, ...]] = {
    "ar-reach": ("Move up to the model's MOV value in inches.",),  # L18
    "ar-centre-access": ("Move up to the model's MOV value in inches.",),  # L18
    "ar-zone-access": ("Move up to the model's MOV value in inches.",),  # L18
    "ar-hazard-access": ("Models have a simple 1 melee range.",  # L20
                         "Pushing models into Hazards is also an important part of Arena Rex"),  # L24
    "ar-kill-band": ("The defending model is pushed 1 directly away from the attacking model.",  # L24
                     "If any part of a model's base touches a Lethal Hazard (pit, most likely), that model is "
                     "destroyed."),  # L38
    "ar-symmetry": ("Pushing models into Hazards is also an important part of Arena Rex",),  # L24
    "ar-sightlines": ("Line-of-sight rules aren t necessary because there are no ranged attacks",),  # L20
}


def quoted(code: str, message: str) -> str:
    """``message`` quoting the book's words for ``code`` (unless it quotes them already)."""
    return quote_book(message, BOOK.get(code))


def findings(issues: list[Issue]) -> list[Finding]:
    return findings_of(issues, quoted)


def _context(arena: ArenaRexArena, context: Any) -> ArenaRexContext:
    return context if isinstance(context, ArenaRexContext) and context.arena is arena else ArenaRexContext(arena)


@dataclass(frozen=True)
class SetupCheck(BookSetupCheck):
    """A check on the layout alone: one function of ``engine.arenarex.checks.SETUP_CHECKS``."""

    games: tuple[str, ...] = GAMES
    book: ClassVar[Mapping[str, str | tuple[str, ...]]] = BOOK


@dataclass(frozen=True)
class ZoneCheck:
    """One comparison of the deployment zones side by side (the findings of
    ``engine.arenarex.fairness.compare`` under this code); the zones' numbers go into the
    report's ``zones``."""

    id: str
    title: str
    severity: Severity
    needs_travel: bool = True
    games: tuple[str, ...] = GAMES

    def evaluate(self, arena: ArenaRexArena, context: Any) -> Result:
        ctx = _context(arena, context)
        if len(arena.deployment) < 2:
            return Result()
        return Result(findings([i for i in ctx.issues() if i.code == self.id]), {"zones": ctx.zones_json()})


BOARD_SIZE = SetupCheck("ar-board-size", "Board at least 24 x 24 in", "warning", setup.check_board_size)
PITS = SetupCheck("ar-pits", "At least two pits", "warning", setup.check_pits)
HAZARD_MIX = SetupCheck("ar-hazard-mix", "A mix of spikes and terrain hazards", "warning", setup.check_hazard_mix)
DEPLOYMENT = SetupCheck("ar-deployment", "Each player's zone on its own edge, within 6 in of its centre, clear of "
                        "pits and spikes", "error", setup.check_deployment)
ZONE_HAZARD = SetupCheck("ar-zone-hazard", "No column, wall or other hazard that blocks movement where a zone's "
                         "bases deploy", "warning", setup.check_zone_hazards)
ZONE_ROOM = SetupCheck("ar-zone-room", "Each zone holds the cohort's bases side by side against the edge", "error",
                       setup.check_zone_room)
SYMMETRY = SetupCheck("ar-symmetry", "The declared symmetry maps zones, pits and spikes onto each other", "warning",
                      setup.check_symmetry)
REACH = ZoneCheck("ar-reach", "Every zone walks to the centre and to the other zones", "error")
CENTRE_ACCESS = ZoneCheck("ar-centre-access", "Zones equally far (inches, moves) from the centre", "warning")
ZONE_ACCESS = ZoneCheck("ar-zone-access", "Zones equally far from the nearest other zone", "warning")
HAZARD_ACCESS = ZoneCheck("ar-hazard-access", "Zones equally far from the nearest pit, spikes and hazard", "warning")
KILL_BAND = ZoneCheck("ar-kill-band", "Zones reach equal kill bands (ground pushes turn into pit deaths)",
                      "warning")
SIGHTLINES = ZoneCheck("ar-sightlines", "Zones see equal shares of the other zones", "warning", needs_travel=False)

ALL = (BOARD_SIZE, PITS, HAZARD_MIX, DEPLOYMENT, ZONE_HAZARD, ZONE_ROOM, SYMMETRY, REACH, CENTRE_ACCESS, ZONE_ACCESS, HAZARD_ACCESS,
       KILL_BAND, SIGHTLINES, FAVOR, FIRST_PLAYER)
