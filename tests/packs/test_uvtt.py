"""Issue 43, item 3: our Universal VTT files read by Foundry's UVTT importer, moo-man/FVTT-DD-Import
(the port of its reading code: ``tests/packs/consumers.py``, :func:`~tests.packs.consumers.dd_import`,
with its default options).  Reported: its default mode ignores ``objects_line_of_sight``, where the
Arena Rex columns (and Car Wars' full-cover obstacles) were, so they vanished; it uploads the
picture as a square of the map's width, resampling non-square maps; its simplification turned
48-sided pillars into 11 points.

Every shipped arena of every game that exports UVTT goes through ``arena export --to uvtt`` (the
image rendered as a user's export renders it) and the ported importer: each blocking element must
be walls where the picture shows it, in scene pixels through the importer's own placement of the
picture, the picture must not be rescaled, and round pillars keep their radius."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import LineString, MultiLineString, Point as ShapelyPoint, Polygon as ShapelyPolygon

import schema
from schema.formats import FormatError, get, image_frame
from schema.formats.base import Canvas
from schema.formats.pieces import PiecesProfile
from schema.formats.common import split
from schema.formats.grid_games import refuse
from schema.formats.systems import profile_of
from schema.shapes import Circle, Polygon, Rect, Shape
from schema.games.gravstrike.model import Arena, Wall
from tests.packs import consumers as C
from tests.packs.test_render import arena_cli

pytestmark = pytest.mark.usefixtures("qapp")
ROOT = Path(__file__).resolve().parents[2]


def _uvtt_arenas() -> list[Path]:
    out = []
    for path in sorted((ROOT / "arenas").rglob("*.yaml")):
        try:
            refuse("uvtt", schema.load(path))
        except FormatError:
            continue  # a grid game: UVTT is refused (tests/packs/test_grid_tiled.py)
        out.append(path)
    return out


UVTT_ARENAS = _uvtt_arenas()
#: Round pillars may come this far inside or outside their circle (share of the radius), plus
#: one pixel for Foundry's whole-pixel wall ends.
ROUND_TOLERANCE = 0.03
#: A wall end or edge is where we drew it within this many scene pixels (Foundry rounds wall
#: ends to whole pixels: half a pixel each way).
PLACE_TOLERANCE = 1.0


def header_png(width: int, height: int) -> bytes:
    """A PNG signature and header of the given size (what the writer checks; no pixels)."""
    return b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + struct.pack(">II", width, height) + b"\x08\x06\x00\x00\x00"


def blocking(arena: Any) -> list[tuple[str, Shape]]:
    """(name, exact shape) of everything that should block sight in a VTT: the bounds and, for
    Gravstrike, every wall; for the other games each element the ruleset exports to UVTT as a
    wall that blocks sight (Car Wars full cover, Arena Rex sight-blocking hazards)."""
    if isinstance(arena, Arena):
        return [("bounds", arena.bounds)] + [(w.id, w.shape) for w in arena.walls]
    out: list[tuple[str, Shape]] = [("bounds", arena.bounds)]
    prof = profile_of(arena)
    assert isinstance(prof, PiecesProfile)
    for kind, doc in split(arena)[1]:
        if kind != "bounds" and prof.kind_export(prof.list_key(kind), "uvtt") == "wall" and prof.blocks_sight(kind, doc):
            out.append((str(doc.get("id")), prof.shape_of(kind, doc)))
    return out


def _scene_px(scene: C.DDImportScene, fr: Canvas, p: tuple[float, float]) -> tuple[float, float]:
    """Where the arena point ``p`` is in the scene: the picture pixel it was drawn at (the frame
    the export rendered), placed in the scene as the importer places the picture."""
    return scene.picture_to_scene(*fr.to_px(p))


def _walls(scene: C.DDImportScene) -> MultiLineString:
    return MultiLineString([((c[0], c[1]), (c[2], c[3])) for c in scene.walls])


def _misplaced(scene: C.DDImportScene, fr: Canvas, name: str, shape: Shape, walls: MultiLineString) -> list[str]:
    """How the imported walls miss the drawn outline of one element (empty when they follow it)."""
    out: list[str] = []
    if isinstance(shape, Circle):
        cx, cy = _scene_px(scene, fr, shape.center)
        r = shape.radius * fr.px * scene.width / scene.image[0]
        tol = ROUND_TOLERANCE * r + PLACE_TOLERANCE
        ring = [(cx + r * math.cos(2 * math.pi * i / 360), cy + r * math.sin(2 * math.pi * i / 360)) for i in range(360)]
        worst = max(walls.distance(ShapelyPoint(p)) for p in ring)
        if worst > tol:
            out.append(f"{name}: its circle (r = {r:.1f} px) is up to {worst:.1f} px from the walls (allowed {tol:.1f})")
        band = max(0.2 * r, 2 * tol)  # wall ends this close to the circle are the pillar's own
        ends = [(c[i], c[i + 1]) for c in scene.walls for i in (0, 2)]
        off = [e for e in ends if tol < abs(math.dist(e, (cx, cy)) - r) < band]
        if off:
            out.append(f"{name}: wall ends {off[:3]} are off its circle")
        return out
    corners = list(shape.corners()) if isinstance(shape, Rect) else list(shape.points) if isinstance(shape, Polygon) \
        else [(float(x), float(y)) for x, y in shape.to_shapely().exterior.coords[:-1]]
    pts = [_scene_px(scene, fr, p) for p in corners]
    ends = [(c[i], c[i + 1]) for c in scene.walls for i in (0, 2)]
    for p in pts:
        if min(math.dist(p, e) for e in ends) > PLACE_TOLERANCE:
            out.append(f"{name}: no wall ends at its corner {tuple(round(v, 1) for v in p)}")
    for a, b in zip(pts, pts[1:] + pts[:1]):
        edge = LineString([a, b])
        steps = max(1, int(edge.length // 2))
        far = max(walls.distance(edge.interpolate(i / steps, normalized=True)) for i in range(steps + 1))
        if far > PLACE_TOLERANCE:
            out.append(f"{name}: its edge {a} - {b} is up to {far:.1f} px from the walls")
    return out


def _painted_share(scene: C.DDImportScene, picture: Any, fr: Canvas, shape: Shape) -> float:
    """Share of points inside the element (2 px in from its outline, in scene pixels) where the
    picture, placed as the importer places it, is painted (not floor: darker than 200 of 255)."""
    poly = ShapelyPolygon([_scene_px(scene, fr, p) for p in
                           (shape.to_shapely().exterior.coords[:-1])]).buffer(-2.0)
    minx, miny, maxx, maxy = poly.bounds
    step = max(1.0, min(maxx - minx, maxy - miny) / 8)
    inside = [(minx + i * step, miny + j * step) for i in range(int((maxx - minx) / step) + 1)
              for j in range(int((maxy - miny) / step) + 1) if poly.contains(ShapelyPoint(minx + i * step, miny + j * step))]
    assert inside, "no sample point inside"
    painted = 0
    for x, y in inside:
        u, v = scene.scene_to_picture(x, y)
        painted += picture[int(v), int(u)].mean() < 200
    return painted / len(inside)


@pytest.mark.parametrize("path", UVTT_ARENAS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_foundry_uvtt_importer_puts_every_blocking_element_where_the_picture_shows_it(path: Path,
                                                                                    tmp_path: Path) -> None:
    arena = schema.load(path)
    px = 32
    out = tmp_path / f"{path.stem}.dd2vtt"
    r = arena_cli("export", str(path), "--to", "uvtt", "-o", str(out), "--px", str(px))
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_bytes())
    scene = C.dd_import(doc)
    # nothing stretched: the importer uploads the picture at its own size, which is the scene's
    assert scene.stretch == (1.0, 1.0), f"the importer rescales the {scene.image} px picture to {scene.upload}"
    assert scene.upload == (scene.width, scene.height)
    assert not [c for c in scene.walls if c[:2] == c[2:]], "zero-length walls"
    fr = image_frame("uvtt", arena, px)  # the frame `arena export` rendered the picture in
    walls = _walls(scene)
    problems = [p for name, shape in blocking(arena) for p in _misplaced(scene, fr, name, shape, walls)]
    assert not problems, "\n".join(problems)
    import base64

    picture = C.png_array(base64.b64decode(doc["image"]))
    assert picture.shape[:2] == (scene.image[1], scene.image[0])
    for name, shape in blocking(arena)[1:]:
        share = _painted_share(scene, picture, fr, shape)
        assert share > 0.7, f"{name}: the picture under its walls is floor ({share:.0%} painted)"


@pytest.mark.parametrize("fidelity", range(1, 7))
def test_pillars_keep_their_radius_at_every_fidelity(fidelity: int) -> None:
    """The importer's fidelity slider (1, the default, to 6) skips fewer short segments; the
    Arena Rex columns (radius 1 in) and Gravstrike's round walls (0.7) keep their circle at each."""
    for name in ("arena-rex/colosseum-30", "default"):
        arena = schema.load(ROOT / "arenas" / f"{name}.yaml")
        fr = image_frame("uvtt", arena, 64)
        doc = json.loads(get("uvtt").write(arena, image_png=header_png(fr.width, fr.height), px_per_length=64).data)
        scene = C.dd_import(doc, fidelity=fidelity)
        walls = _walls(scene)
        round_ones = [(n, s) for n, s in blocking(arena)[1:] if isinstance(s, Circle)]
        assert round_ones
        problems = [p for n, s in round_ones for p in _misplaced(scene, fr, n, s, walls)]
        assert not problems, "\n".join(problems)


def test_outlines_with_many_short_sides_survive_whole() -> None:
    """Beyond the shipped arenas: a toothed polygon (sides of 0.1), a thin bar, a tiny disc and
    two walls sharing a corner keep every corner at every fidelity, with no zero-length walls."""
    teeth = []
    for i in range(12):
        x = -3.0 + 0.5 * i
        teeth += [(x, 2.0), (x + 0.1, 2.0), (x + 0.1, 2.1), (x + 0.2, 2.1), (x + 0.2, 2.0)]
    teeth += [(3.0, 2.0), (3.0, 3.0), (-3.0, 3.0)]
    arena = Arena(name="fine", bounds=Rect((0.0, 0.0), (10.0, 8.0)),
                  walls=(Wall("T", Polygon(tuple(teeth))), Wall("bar", Rect((0.0, -1.0), (4.0, 0.1))),
                         Wall("dot", Circle((2.0, -3.0), 0.2)),
                         Wall("a", Polygon(((-4.0, -2.0), (-3.0, -2.0), (-3.0, -1.0)))),
                         Wall("b", Polygon(((-4.0, -2.0), (-4.0, -3.0), (-3.0, -3.0))))))
    fr = image_frame("uvtt", arena, 40)
    doc = json.loads(get("uvtt").write(arena, image_png=header_png(fr.width, fr.height), px_per_length=40).data)
    for fidelity in range(1, 7):
        scene = C.dd_import(doc, fidelity=fidelity)
        assert not [c for c in scene.walls if c[:2] == c[2:]], "zero-length walls"
        walls = _walls(scene)
        problems = [p for n, s in blocking(arena) if n != "dot" for p in _misplaced(scene, fr, n, s, walls)]
        assert not problems, f"fidelity {fidelity}:\n" + "\n".join(problems)
        # the tiny disc is a triangle (no side of 0.31 fits more): its three corners are kept
        cx, cy = _scene_px(scene, fr, (2.0, -3.0))
        near = {(c[i], c[i + 1]) for c in scene.walls for i in (0, 2) if math.dist((c[i], c[i + 1]), (cx, cy)) < 10}
        assert len(near) == 3


def test_the_grid_lies_on_the_painted_grid_at_100_px() -> None:
    """The importer's default mode leaves Foundry's grid at 100 px whatever ``pixels_per_grid``
    says: at ``--px 100`` its grid lines (multiples of 100 px from the padded canvas' corner) are
    the picture's cell edges; at any other size the loss report says to use 100."""
    arena = schema.load(ROOT / "arenas" / "arena-rex" / "lopsided-pit.yaml")
    fr = image_frame("uvtt", arena, 100)
    result = get("uvtt").write(arena, image_png=header_png(fr.width, fr.height), px_per_length=100)
    scene = C.dd_import(json.loads(result.data))
    assert scene.grid_size == 100 and scene.scene_x % 100 == 0 and scene.scene_y % 100 == 0
    assert scene.picture_to_scene(fr.px, fr.px) == (scene.scene_x + 100, scene.scene_y + 100)
    assert not any("--px 100" in loss for loss in result.losses)
    fr = image_frame("uvtt", arena, 64)
    losses = get("uvtt").write(arena, image_png=header_png(fr.width, fr.height), px_per_length=64).losses
    assert any("100 px grid" in loss and "--px 100" in loss for loss in losses)


def test_objects_line_of_sight_is_empty_and_the_map_square() -> None:
    """Everything blocking is in ``line_of_sight`` (the importer's legacy layouts merge
    ``objects_line_of_sight`` into it when "Object Walls" is on, so writing both would double
    them); the map is square, the arena centred, the padding said in the loss report."""
    arena = schema.load(ROOT / "arenas" / "car-wars" / "broken-yard-flawed.yaml")
    fr = image_frame("uvtt", arena, 16)
    result = get("uvtt").write(arena, image_png=header_png(fr.width, fr.height), px_per_length=16)
    doc = json.loads(result.data)
    assert doc["objects_line_of_sight"] == [] and doc["portals"] == [] and doc["lights"] == []
    assert doc["resolution"]["map_size"] == {"x": 42, "y": 42} and doc["resolution"]["map_origin"] == {"x": 0, "y": 0}
    ys = [p["y"] for line in doc["line_of_sight"] for p in line]
    assert (min(ys), max(ys)) == (6.0, 36.0)  # 30 inches tall, 6 of padding above and below
    assert any("padded to a square of 42 x 42 inches (the arena needs 42 x 30)" in loss for loss in result.losses)


@pytest.mark.parametrize("image", [b"png", header_png(24 * 16, 22 * 16)])
def test_an_image_not_of_the_square_frame_is_refused(image: bytes) -> None:
    """An image rendered in the old, unpadded frame (or not a PNG at all) would be stretched by
    the importer: the writer says so instead of writing a wrong file."""
    arena = schema.load(ROOT / "arenas" / "default.yaml")
    with pytest.raises(FormatError, match="not a PNG|UVTT's frame is 384 x 384 px"):
        get("uvtt").write(arena, image_png=image, px_per_length=16)
