"""A game's analysis (issue 37, points 1 and 3): one typed object per game, found through the
entry-point group ``arena_studio.analyses`` (:mod:`validators.game`), which the shared validators
and the apps (``arena validate``/``travel``/``generate``, the service) ask instead of naming a game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import validators.game as vg
from app.cli.main import load_commands
from app.cli.shared import app
from schema.ruleset import rulesets
from validators.game import GameAnalysis, NoTravel, TravelQuery, UnknownAnalysis, analysis

ROOT = Path(__file__).resolve().parents[2]
PIT = ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml"


def test_every_installed_game_has_its_own_analysis() -> None:
    for system in rulesets():
        found = analysis(system)
        assert isinstance(found, GameAnalysis) and found.system == system
        assert type(found) is not GameAnalysis  # the five games subclass it
        assert type(found).__module__.startswith("validators.games.")


def test_an_unknown_game_or_a_malformed_plugin_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UnknownAnalysis, match="unknown system 'no-such-game'; installed: .*gravstrike"):
        analysis("no-such-game")

    class EntryPoint:
        def __init__(self, name: str, value: str, obj: Any) -> None:
            self.name, self.value, self._obj = name, value, obj

        def load(self) -> Any:
            if isinstance(self._obj, Exception):
                raise self._obj
            return self._obj

    eps = {"gravstrike": EntryPoint("gravstrike", "elsewhere:THING", object()),
           "arena-rex": EntryPoint("arena-rex", "elsewhere:OTHER", analysis("car-wars-6e")),
           "car-wars-6e": EntryPoint("car-wars-6e", "missing:ANALYSIS", ImportError("No module named 'missing'"))}
    monkeypatch.setattr(vg, "_entry_points", lambda: eps)
    monkeypatch.setattr(vg, "_LOADED", {})
    with pytest.raises(UnknownAnalysis, match="entry point 'gravstrike' in arena_studio.analyses is not a GameAnalysis"):
        analysis("gravstrike")
    with pytest.raises(UnknownAnalysis, match="'arena-rex' in arena_studio.analyses loads the analysis of 'car-wars-6e'"):
        analysis("arena-rex")
    with pytest.raises(UnknownAnalysis, match=r"'car-wars-6e' \(missing:ANALYSIS\) cannot be loaded: ImportError"):
        analysis("car-wars-6e")


def test_the_base_class_says_what_a_game_lacks() -> None:
    """A game that registers a ruleset and validators only gets the base class: its validators
    run, and every other hook says so in words."""
    bare = GameAnalysis("mothership-grid")
    with pytest.raises(NoTravel, match="no travel model for mothership-grid arenas yet"):
        bare.travel(None, TravelQuery("start:1", "centre"))
    with pytest.raises(LookupError, match=r"proposed fixes are not available for Mothership .* \(mothership-grid\) yet"):
        bare.balance_hook()
    with pytest.raises(LookupError, match="arena generation is not available for"):
        bare.generator_hook()
    with pytest.raises(LookupError, match="tabletop robustness is not available for"):
        bare.robustness_hook()
    with pytest.raises(LookupError, match="does not apply to .*: every card sits in a square"):
        analysis("mothership-grid").robustness_hook()
    assert not bare.has_generator() and analysis("mothership-grid").has_generator()
    from schema import load

    report = bare.validate(load(ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml"))
    assert report.system == "mothership-grid" and {v.id for v in report.validators} >= {"mg-size", "mg-approach"}


def test_finding_a_games_analysis_imports_only_that_game() -> None:
    code = ("import json, sys\nfrom validators.game import analysis\nanalysis('mothership-grid')\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('validators.games.', 'engine.', 'schema.games.')))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == ["validators.games.mothership"]


def test_travel_on_a_game_without_a_travel_model_is_refused_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose analysis has no travel hook (the base class's: every shipped game has one
    now, so the pit's analysis is swapped for the bare base class here)."""
    import validators.game

    monkeypatch.setattr(validators.game, "analysis_of", lambda arena: GameAnalysis(arena.system))
    load_commands()
    result = CliRunner().invoke(app, ["travel", str(PIT), "--from", "Z1", "--to", "centre"])
    assert result.exit_code == 2
    assert "arena travel: no travel model for glider-pit-gladiators arenas yet" in result.output


def test_gravstrike_travel_names_another_games_place_in_the_cli_as_in_the_service() -> None:
    """One travel hook for the CLI and the service: ``arena travel`` on a Gravstrike arena says a
    card is a Car Wars place (the service's words), where it used to list Gravstrike's sources."""
    load_commands()
    result = CliRunner().invoke(app, ["travel", str(ROOT / "arenas" / "default.yaml"), "--from", "card:A", "--to",
                                      "checkpoint:A"])
    assert result.exit_code == 2
    assert "a Gravstrike arena has no cards or centre goal: the source 'card:A' is a Car Wars place" in result.output


def test_generate_without_system_makes_the_default_game() -> None:
    """Without --system, ``arena generate`` makes the studio's first game: the ruleset that says
    ``Ruleset.default`` (Gravstrike), as a file naming no game is read."""
    from schema.ruleset import rulesets

    assert vg.default_system() == "gravstrike"
    assert [rs.id for rs in rulesets().values() if rs.default] == ["gravstrike"]