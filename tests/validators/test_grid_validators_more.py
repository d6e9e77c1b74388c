"""Firing and quiet tests, through the registered validators and a saved file, for the grid
checks tests/validators/test_grid_validators.py does not break one at a time: gp-pit's error,
gp-launch-facing, the launch-zone comparisons (gp-zone-centre, -spacing, -clearance, -facings,
-travel) and mg-symmetry.  Each edit is the engine tests' (tests/gliderpit/test_fairness.py,
test_checks.py, tests/mothership/test_checks.py); some trip neighbouring codes too (a hex
outside the pit is also a broken pit), so each test asserts its code fires with the book's
words where it has them, and is quiet when the file's scenario disables it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from schema import load
from schema.games import gliderpit, mothership
from tests.validators.test_grid_validators import Doc, codes_of, write
from validators.run import validate


def _zone(i: int, cells: list[list[int]], extra: list[list[int]] = ()) -> Callable[[Doc], None]:  # type: ignore[assignment]
    def edit(doc: Doc) -> None:
        doc["cells"] += [c for c in extra if c not in doc["cells"]]
        doc["launch_zones"][i]["cells"] = cells
        doc.pop("symmetry", None)
    return edit


def _notch(doc: Doc) -> None:
    """A notch in the left wall: Z1 lies deeper in the pit than the others."""
    notch = [[-9, r] for r in range(4, 9)] + [[-8, r] for r in range(3, 9)]
    doc["cells"] = [c for c in doc["cells"] if c not in notch]
    doc["launch_zones"][0]["cells"] = [[-7, r] for r in (8, 7, 6, 5, 4)]


def _stray(doc: Doc) -> None:
    doc["cells"].append([30, 0])


INLET = [[-10 - k, 0] for k in range(1, 6)]
ARM = [[-9 - k, 0] for k in range(1, 13)] + [[-9 - k, 1] for k in range(1, 13)]

GP_CASES: list[tuple[str, Callable[[Doc], None], str]] = [
    # "a hexagonal grid representing the pit" (L17): a hex far from the rest is no part of it
    ("gp-pit", _stray, "a hexagonal grid representing the pit"),
    # "facing in any direction except toward a hexside that contains a pit wall" (L55)
    ("gp-launch-facing", _zone(0, [[-9, 8], [-9, 7], [-9, 6], [-9, 5], [30, 0]], [[30, 0]]),
     "except toward a hexside that contains a pit wall"),
    ("gp-zone-centre", _notch, "centre"),
    # Z1 along the top row: further from its neighbours than the others are from theirs
    ("gp-zone-spacing", _zone(0, [[-7, 9], [-6, 9], [-5, 9], [-4, 9], [-3, 9]]), "zone"),
    # Z2 at the end of a one-hex inlet: little room ahead, few facings
    ("gp-zone-clearance", _zone(1, INLET[::-1], INLET), "clearance"),
    ("gp-zone-facings", _zone(1, INLET[::-1], INLET), "except toward a hexside that contains a pit wall"),
    # Z2 at the end of a long arm: more turns to the centre (Movement Phase, L107-121)
    ("gp-zone-travel", _zone(1, [[-21, 1], [-21, 0], [-20, 0], [-19, 0], [-18, 0]], ARM), "turn"),
]


def _disable(edit: Callable[[Doc], None], code: str) -> Callable[[Doc], None]:
    def both(doc: Doc) -> None:
        edit(doc)
        doc.setdefault("scenario", {}).setdefault("analysis", {})["disabled"] = [code]
    return both


@pytest.mark.parametrize("code, edit, words", GP_CASES, ids=[c for c, *_ in GP_CASES])
def test_glider_pit_check_fires_and_is_quiet_when_disabled(code: str, edit: Callable[[Doc], None], words: str,
                                                           tmp_path: Path) -> None:
    path = write(gliderpit.RULESET, tmp_path / "broken.yaml", edit)
    assert code in codes_of(path)
    messages = [f.message for f in validate(load(path)).findings if f.code == code]
    assert any(words.lower() in m.lower() for m in messages), messages
    assert code not in codes_of(write(gliderpit.RULESET, tmp_path / "off.yaml", _disable(edit, code)))


def test_gp_pit_is_an_error_for_a_stray_hex(tmp_path: Path) -> None:
    assert codes_of(write(gliderpit.RULESET, tmp_path / "stray.yaml", _stray))["gp-pit"] == {"error"}


def _ship_hp(player: int, hp: int) -> Callable[[Doc], None]:
    def edit(doc: Doc) -> None:
        doc["motherships"][player - 1]["hp"] = hp
    return edit


@pytest.mark.parametrize("edit, also", [(_ship_hp(2, 4), {"mg-motherships"}),
                                        (lambda d: d["motherships"][0].update(build_squares=[[0, 0], [1, 0]]),
                                         {"mg-build-squares", "mg-approach"})], ids=["hp", "build-squares"])
def test_mg_symmetry_fires_on_unmatched_halves_and_is_quiet_when_disabled(edit: Any, also: set[str],
                                                                          tmp_path: Path) -> None:
    """The halves differ (one Mothership has 4 HP; one player has two build squares): the
    mirror fails, besides the rule the edit breaks."""
    found = codes_of(write(mothership.RULESET, tmp_path / "b.yaml", edit))
    assert set(found) == {"mg-symmetry", *also} and found["mg-symmetry"] == {"warning"}
    off = write(mothership.RULESET, tmp_path / "off.yaml", lambda d: (edit(d), d["scenario"].setdefault(
        "analysis", {}).__setitem__("disabled", ["mg-symmetry"])))
    assert set(codes_of(off)) == also
