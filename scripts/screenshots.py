"""Regenerate the README's and the docs' screenshots: ``python scripts/screenshots.py [-o DIR]``.

The editor pictures come from the real-window suite (``tests/realwindow``): the editor running
in an X server (Xvfb, 1366 x 768, a window manager), driven by real mouse and keyboard input
through xdotool, its screen grabbed at each step - ``editor.png`` (the default arena as it
opens), ``editor-live.png`` (checkpoint A dragged next to the centre, symmetry mode off: the
travel findings that follow), ``editor-heatmap.png`` (View → Overlays → heat map from start 1,
with its key), ``editor-path.png`` (a travel finding's path and start 1's line of sight) and
``bounds-typed.png`` (the Arena tab's bounds, typed). ``arena.png`` is the arena alone through
the shared renderer (headless). Needs Xvfb and xdotool (``.ci/run`` installs them). The other
games' real-window tests publish theirs (``car-wars-editor.png``, ``arena-rex-editor.png``, ...) to the
same folder, ``docs/img``: the one image folder of the README and the manual (``docs/``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ("editor.png", "editor-live.png", "editor-heatmap.png", "editor-path.png", "bounds-typed.png")


def arena_png(out: Path, arena: Path) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    from editor import render
    from editor.export_render import ensure_app
    from schema import load

    ensure_app()
    img = QImage(1000, 1000, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    render.paint_arena(p, load(arena), QRectF(0, 0, 1000, 1000))
    p.end()
    img.save(str(out / "arena.png"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", default=str(ROOT / "docs" / "img"))
    args = ap.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "ARENA_STUDIO_SCREENSHOTS": str(out), "QT_QPA_PLATFORM": "offscreen"}
    started = time.time()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests/realwindow"],
                         cwd=ROOT, env=env)
    stale = [n for n in SHOTS if not (out / n).exists() or (out / n).stat().st_mtime < started]
    if run.returncode != 0 or stale:
        print(f"the real-window suite failed or was skipped: not regenerated: {', '.join(stale)}", file=sys.stderr)
        return run.returncode or 1
    arena_png(out, ROOT / "arenas" / "default.yaml")
    for name in (*SHOTS, "arena.png"):
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
