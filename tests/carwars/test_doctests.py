"""The runnable examples in the Car Wars modules' docstrings give what they show
(tests/test_doctests.py does not walk sub-packages)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(["schema.games.carwars"] + [f"engine.carwars.{m.name}" for m in
                                             pkgutil.iter_modules([str(ROOT / "engine" / "carwars")])])


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
