"""A ``pose`` kind of any game is drawn from what its ruleset and arena provide
(:mod:`editor.style_render`): the arena's outline of the piece (``element_shape``), else a round
base of the kind's ``base`` diameter, else an arrow marker - each in the kind's style, showing
the position and the facing.  (Before, every pose kind was drawn as Car Wars' car and any other
game's arena raised ``AttributeError: ... 'vehicle'``.)  Car Wars' cars stay as they were: the
golden SVGs (tests/golden) hold them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from editor import render as R
from editor import style_render as S
from schema.ruleset import ElementKind, Style
from schema.shapes import AreaShape, Rect

ORANGE, INK = "#E69F00", "#1A1A1A"
PX = 20.0  # device pixels per unit: the image shows x, y in [-5, 5]


@pytest.fixture(autouse=True)
def app(qapp: object) -> object:
    return qapp  # painting text needs the application


@dataclass(frozen=True)
class Units:
    printed_mm: float = 5.0  # one printed millimetre is 0.2 units, 4 px


@dataclass(frozen=True)
class Piece:
    player: int
    position: tuple[float, float]
    facing: float = 0.0


@dataclass(frozen=True)
class Table:
    """An arena with no ``vehicle`` and no outline of its pieces."""

    units: Units = Units()
    system: str = "test-poses"
    pieces: tuple[Piece, ...] = field(default=())


@dataclass(frozen=True)
class OutliningTable(Table):
    """An arena that outlines each piece: a 3 x 1 rectangle along x, centred on it."""

    def element_shape(self, el: Any) -> AreaShape:
        return Rect(el.position, (3.0, 1.0))


def kind(base: float | None = None) -> ElementKind:
    return ElementKind("pieces", "Piece", "/x", "pose", Style(ORANGE, INK, 1.0, 0.5, "player", 30), base=base)


def paint(arena: Any, k: ElementKind, piece: Piece) -> QImage:
    img = QImage(200, 200, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setWorldTransform(R.arena_transform(QRectF(-5, -5, 10, 10), QRectF(0, 0, 200, 200)))
    S.Painter(p, arena, label_px=1.0).element(k, piece)
    p.end()
    return img


def colour_at(img: QImage, x: float, y: float) -> str:
    """The pixel's colour at arena point (x, y)."""
    return str(img.pixelColor(round(100 + x * PX), round(100 - y * PX)).name().upper())


def test_a_base_of_the_kinds_size_with_its_facing() -> None:
    """``ElementKind.base`` = 2: a disc of radius 1 in the kind's fill, and an arrow (the
    style's stroke) leaving it along the facing."""
    img = paint(Table(), kind(base=2.0), Piece(1, (0.0, 0.0), 0.0))
    assert colour_at(img, 0.0, 0.8) == ORANGE and colour_at(img, -0.8, 0.0) == ORANGE
    assert colour_at(img, 0.75, 0.75) == "#FFFFFF" and colour_at(img, 0.0, -1.2) == "#FFFFFF"  # round, radius 1
    assert colour_at(img, 1.6, 0.0) == INK and colour_at(img, -1.6, 0.0) == "#FFFFFF"  # arrow to +x only
    img = paint(Table(), kind(base=2.0), Piece(1, (0.0, 0.0), 90.0))
    assert colour_at(img, 0.0, 1.6) == INK and colour_at(img, 1.6, 0.0) == "#FFFFFF"  # facing +y


def test_the_arenas_outline_of_a_piece_comes_first() -> None:
    """``element_shape`` (here a 3 x 1 rectangle) rather than the kind's base."""
    img = paint(OutliningTable(), kind(base=2.0), Piece(1, (0.0, 0.0), 180.0))
    assert colour_at(img, -1.3, 0.35) == ORANGE and colour_at(img, 1.3, -0.35) == ORANGE  # the rectangle's corners
    assert colour_at(img, 0.0, 0.8) == "#FFFFFF"  # not the base's disc
    assert colour_at(img, -1.9, 0.0) == INK and colour_at(img, 1.9, 0.0) == "#FFFFFF"  # its arrow to -x


@pytest.mark.parametrize("facing", [0.0, 90.0, 225.0])
def test_no_footprint_is_an_arrow_marker_pointing_along_the_facing(facing: float) -> None:
    """No outline, no base: an arrowhead :data:`MARKER_MM` long on the position, filled where
    it points and notched behind."""
    img = paint(Table(), kind(), Piece(1, (0.0, 0.0), facing))
    h = S.MARKER_MM / Units().printed_mm / 2  # half its length, in units
    a = math.radians(facing)
    ahead, behind = (0.8 * h * math.cos(a), 0.8 * h * math.sin(a)), (-0.8 * h * math.cos(a), -0.8 * h * math.sin(a))
    assert colour_at(img, 0.0, 0.0) == ORANGE
    assert colour_at(img, *ahead) == ORANGE and colour_at(img, *behind) == "#FFFFFF"
    assert colour_at(img, 1.2 * h * math.cos(a), 1.2 * h * math.sin(a)) == "#FFFFFF"


def test_the_legend_swatch_is_the_first_piece_facing_right_fitted_to_its_box() -> None:
    arena = Table(pieces=(Piece(2, (3.0, -2.0), 45.0),))
    img = QImage(64, 40, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    S.paint_swatch(p, arena, kind(base=2.0), QRectF(2, 2, 60, 36))
    p.end()

    def where(colour: str) -> list[tuple[int, int]]:
        return [(x, y) for x in range(64) for y in range(40) if img.pixelColor(x, y).name().upper() == colour]

    orange, ink = where(ORANGE), where(INK)
    xs, ys = [x for x, _ in orange], [y for _, y in orange]
    assert min(ys) >= 2 and max(ys) <= 38 and max(ys) - min(ys) >= 24  # the base, fitted with its arrow
    assert max(xs) - min(xs) == pytest.approx(max(ys) - min(ys), abs=2)  # round
    assert ink and max(x for x, _ in ink) > max(xs) + 5 and max(x for x, _ in ink) <= 62  # its arrow, to the right
    assert S.vehicle_of(arena) is None and S.pose_footprint(arena, kind(), arena.pieces[0]) is None


PAINT_FAILS = """
import sys
from editor import style_render as S
from editor.export_render import render_bytes
from schema.io import load

def fails(self, kind, el):
    self.p.save()
    raise RuntimeError("fails mid-paint")

S.Painter.element = fails
arena = load("arenas/car-wars/crossroads-4p.yaml")
for _ in range(2):
    try:
        render_bytes(arena, sys.argv[1])
    except RuntimeError as e:
        print(e)
import gc
gc.collect()
print("alive")
"""


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_failure_mid_paint_is_an_exception_not_a_dead_process(fmt: str) -> None:
    """``render_bytes`` ends its painter when painting raises (a painter left open on its image
    or SVG generator crashed the process: the CLI's abort, the service's dead render worker)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-c", PAINT_FAILS, fmt], cwd=root, capture_output=True, text=True,
                       timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert (r.returncode, r.stdout.split()) == (0, "fails mid-paint fails mid-paint alive".split()), r.stderr
