"""The runnable examples in the docstrings of the Qt-free modules (engine, schema, the
validators' shared analysis, the editor's worker side, bounds, circle boards, Arena Rex edges and snapping, the command line's plain
text) run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> list[str]:
    names = ["engine.gravstrike.invariance", "validators.balance_hooks", "validators.games.gravstrike.travel_session", "validators.games.gravstrike.context", "validators.games.carwars.travel",
             "editor.games.gravstrike.travel_workers", "editor.worker_requests", "editor.games.carwars.travel_work",
             "editor.analysis", "editor.bounds", "editor.snapping", "editor.board_circle",
             "editor.games.arenarex.edges", "editor.games.arenarex.symmetry", "editor.symmetry", "editor.games.symmetry_rules",
             "editor.games.carwars.symmetry", "editor.games.gliderpit.symmetry", "editor.games.grid_model",
             "editor.symmetry_form", "app.cli.plaintext", "app.cli.validating", "app.paths"]
    for package in ("engine", "schema"):
        # with the prefix, walk_packages imports each subpackage to walk it (without, it walks only
        # the top level: engine.gravstrike.* and the like went untested)
        names += [m.name for m in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}.") if not m.ispkg]
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # examples load arenas/... by relative path
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
