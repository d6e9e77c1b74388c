"""The Mothership battlefield validators: each wraps one check of :mod:`engine.mothership`
(setup checks in ``engine.mothership.checks``, the approach in ``engine.mothership.fairness``)
under its code, with the game tag ``mothership-grid``.  Messages are the engine's; the setup
checks' quote the book (003_07d353598ccfefe1.txt), and findings whose message quotes none get
the book's words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.mothership import checks as setup
from engine.mothership import fairness as fair
from engine.mothership.checks import Issue
from schema.games.mothership import SYSTEM, MothershipArena
from validators.findings import BookSetupCheck, Finding, Result, Severity, findings_of, quote_book
from validators.report import Undecided, limit_findings

GAMES = (SYSTEM,)

#: The book's words (003_07d353598ccfefe1.txt, by line) a finding quotes when its message has none.
BOOK: dict[str, str] = {
    "mg-size": "The Battlefield (or BF) is 3 x 5 squares.",  # L1
    "mg-motherships": "On the shorter side there is your Mothership (your Base)",  # L6
    "mg-approach": "For every square in which the Units move, they spend 1 AP.",  # L56
}


def quoted(code: str, message: str) -> str:
    """``message`` quoting the book's words for ``code`` (unless it quotes them already)."""
    return quote_book(message, BOOK.get(code))


def findings(issues: list[Issue]) -> list[Finding]:
    return findings_of(issues, quoted)


def approach_json(approaches: list[fair.Approach]) -> dict[str, Any]:
    """The report's ``approach``: player -> its Mothership, build squares [x, y] and the
    fewest AP (and rounds of one Unit) from each to the enemy Mothership's adjacent row
    (null: no way through)."""
    return {str(a.player): {"mothership": a.mothership, "squares": [list(s) for s in a.squares],
                            "ap": list(a.ap), "rounds": list(a.rounds)} for a in approaches}


@dataclass(frozen=True)
class SetupCheck(BookSetupCheck):
    """A check on the battlefield alone: one function of ``engine.mothership.checks.CHECKS``."""

    games: tuple[str, ...] = GAMES
    book: ClassVar[Mapping[str, str | tuple[str, ...]]] = BOOK


@dataclass(frozen=True)
class ApproachCheck:
    """``mg-approach``: AP from each build square to the enemy Mothership's row, equal for
    both players (the numbers go into the report's ``approach``)."""

    id: str = "mg-approach"
    title: str = "Both players equally many AP from their build squares to the enemy Mothership"
    severity: Severity = "warning"
    games: tuple[str, ...] = GAMES
    needs_travel: bool = True

    def evaluate(self, arena: MothershipArena, context: Any) -> Result:
        approaches = fair.approach(arena)
        enemy = {a.player: next((e.player for e in arena.motherships if e.player != a.player), a.player)
                 for a in approaches}
        open_ = [Undecided(f"build:{a.player} {list(sq)}", f"approach:{enemy[a.player]}", why)
                 for a in approaches for sq, why in zip(a.squares, a.undecided) if why is not None]
        return Result(findings(fair.compare(arena, approaches)) + limit_findings(open_),
                      {"approach": approach_json(approaches)})


SIZE = SetupCheck("mg-size", "A full battlefield of the scenario's size (3 x 5)", "error", setup.check_size)
MOTHERSHIPS = SetupCheck("mg-motherships", "One Mothership per player on opposite short sides, 5 HP", "error",
                         setup.check_motherships)
BUILD_SQUARES = SetupCheck("mg-build-squares", "Build squares exactly the three next to one's own Mothership", "error",
                           setup.check_build_squares)
SYMMETRY = SetupCheck("mg-symmetry", "The two halves mirror (or match by a half turn)", "warning", setup.check_symmetry)
APPROACH = ApproachCheck()

ALL = (SIZE, MOTHERSHIPS, BUILD_SQUARES, SYMMETRY, APPROACH)
