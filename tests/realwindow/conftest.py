"""The real-window suite's X session: one Xvfb display (1366 x 768, a window manager) for the
module; skipped, with the reason, only when no X server can be started. Screenshots go to the
test's folder, and also to ``ARENA_STUDIO_SCREENSHOTS`` when set (``scripts/screenshots.py``
sets it to ``docs/img``, the one image folder of the README and the manual, to regenerate their
pictures)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realwindow.harness import Unavailable, XSession


@pytest.fixture(scope="module")
def xsession(tmp_path_factory: pytest.TempPathFactory) -> Iterator[XSession]:
    work = tmp_path_factory.mktemp("x")
    try:
        session = XSession(work).start()
    except Unavailable as exc:
        pytest.skip(f"real-window suite skipped: {exc}")
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture
def shots(tmp_path: Path, xsession: XSession):  # type: ignore[no-untyped-def]
    """``shots(name, publish=True)``: a screenshot of the X screen saved as ``name`` (and
    copied to ARENA_STUDIO_SCREENSHOTS, when set, unless ``publish=False``)."""
    target = os.environ.get("ARENA_STUDIO_SCREENSHOTS")

    def take(name: str, publish: bool = True) -> Path:
        path = xsession.screenshot(tmp_path / "shots" / name)
        if target and publish:
            Path(target).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, Path(target) / name)
        return path
    return take
