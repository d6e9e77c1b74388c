"""The runner's tests play Tortoise Derby (tests/plugin_game/tortoise-derby/), the test-only sixth
game, whose small seeded race engine (``tortoise_derby.play``) is a real play engine: the real
games' engines are tested in their own packages.  The game is installed for this package's tests
only (``scope="package"``), as tests/plugin_game installs it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.plugin_game.install import TORTOISE_DERBY, installed

ARENAS = TORTOISE_DERBY / "examples"


@pytest.fixture(scope="package", autouse=True)
def tortoise_derby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with installed(TORTOISE_DERBY, tmp_path_factory.mktemp("site-packages")) as root:
        yield root


def toy(name: str) -> Any:
    """A Tortoise Derby example arena (meadow: symmetric; unfair: a rock in start 2's way)."""
    from schema import load

    return load(ARENAS / f"{name}.yaml")
