"""The registry loads only the validators that can apply to the arena's game (issue 15's
"validation of either default arena <= 0.2 s", cold): a validator whose entry point lies in
another game's analysis package (the module its ``arena_studio.analyses`` entry point names) is not imported,
and the selection is the same as loading every validator and asking each for its games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from schema.ruleset import rulesets
from validators.registry import Registry, games_of

ROOT = Path(__file__).resolve().parents[2]


def test_each_game_owns_its_analysis_package() -> None:
    from validators.game import owner_modules

    packages = {game: module for module, game in owner_modules().items()}
    assert set(packages) == set(rulesets())
    assert packages["gravstrike"] == "validators.games.gravstrike"
    assert packages["car-wars-6e"] == "validators.games.carwars"
    assert packages["glider-pit-gladiators"] == "validators.games.gliderpit"
    assert packages["mothership-grid"] == "validators.games.mothership"
    assert packages["arena-rex"] == "validators.games.arenarex"


@pytest.mark.parametrize("game", ["gravstrike", "car-wars-6e", "glider-pit-gladiators", "mothership-grid"])
def test_selecting_for_a_game_skips_only_other_games_validators(game: str) -> None:
    lazy = Registry.discover()
    chosen = [v.id for v in lazy.select(game=game)]
    eager = Registry.discover()
    everything = [eager.get(c) for c in eager.codes()]
    assert chosen == [v.id for v in everything if game in games_of(v)]
    assert lazy.for_game(game) == chosen


def test_validating_a_pit_imports_no_other_games_rules() -> None:
    """A fresh process validates the shipped pit and battlefield: Car Wars' and Gravstrike's
    validators and engines (and scipy, which they use) are never imported."""
    code = ("import sys, json\nfrom schema import load\nfrom validators.run import validate\n"
            "for p in sys.argv[1:]:\n    validate(load(p))\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('validators.', 'engine.', 'scipy')))))")
    paths = [str(ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml"),
             str(ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml")]
    out = subprocess.run([sys.executable, "-c", code, *paths], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert "validators.games.gliderpit.checks" in loaded and "validators.games.mothership.checks" in loaded
    assert not [m for m in loaded if m.startswith(("validators.games.carwars", "validators.games.gravstrike", "engine.carwars",
                                                    "engine.gravstrike", "scipy"))]
