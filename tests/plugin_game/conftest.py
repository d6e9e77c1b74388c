"""Tortoise Derby (tortoise-derby/), a sixth game from outside the studio, installed for this
package's tests through its entry points (issue 37, point 4).

The installation lasts for the package's tests (``scope="package"``): other tests of the same
session, which count the installed games, never see it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plugin_game.install import TORTOISE_DERBY, installed

ARENAS = TORTOISE_DERBY / "examples"


@pytest.fixture(scope="package", autouse=True)
def tortoise_derby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with installed(TORTOISE_DERBY, tmp_path_factory.mktemp("site-packages")) as root:
        yield root


def arena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` in a fresh process (the game found through PYTHONPATH's .dist-info)."""
    cmd = [sys.executable, "-c", "from app.cli.main import main; main()", *args]
    return subprocess.run(cmd, cwd=cwd, env=dict(os.environ), capture_output=True, text=True, timeout=300)
