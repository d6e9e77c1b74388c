"""The printed pages' text (issue 43, item 4), read back by poppler, not by our code:
``pdftotext -bbox`` gives each word's box in points, ``pdftoppm`` the pixels.

* The calibration bars' captions are one line, under their bar and clear of it, inside the
  printable area (short bars: Car Wars' and Arena Rex's inch, Glider-Pit's hex wrapped the
  caption onto a second line drawn over the bar and clipped).
* No word of a page overprints another: the page header, the aids page (the ruler's end numbers
  sat on its frame, outside the margin), the assembly map (page codes were drawn over the arena's
  labels) and the arena's own labels (a checkpoint's name over an exclusion field's badge).
* Units are counted in English: ``1 inch``, ``9 hexes`` (the aids page said ``9 hexs``),
  ``0.25 inches``.
* A Car Wars barrel shows whole: its name and badge go under it (the badge hid its lower half).
"""

from __future__ import annotations

import io
import itertools
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest
from PIL import Image

from editor.print_pdf import ARENA_MARGIN, HEADER, MARGIN, layout, print_pdf
from schema import load
from schema.games import arenarex as ar
from schema.games import carwars as cw
from schema.games import gliderpit as gp
from schema.games import mothership as ms
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import Arena, Checkpoint, ExclusionField, Units, Wall
from schema.ruleset import Units as RulesetUnits
from schema.ruleset import ruleset

ROOT = Path(__file__).resolve().parents[2]
PT = 72 / 25.4  # points per millimetre
CROP = 6.0  # mm: the crop marks at the drawing area's corners run from 6 mm to 1 mm off them
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None or shutil.which("pdftoppm") is None,
                                   reason="poppler-utils not installed")
pytestmark = [needs_poppler, pytest.mark.usefixtures("qapp")]  # a QApplication, not print's QGuiApplication


class Word(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float
    text: str


class Page(NamedTuple):
    width: float
    height: float
    words: list[Word]


def read_pages(pdf: bytes, tmp_path: Path) -> list[Page]:
    src = tmp_path / "p.pdf"
    src.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-bbox", str(src), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for w, h, body in re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S):
        words = [Word(float(a), float(b), float(c), float(d), t) for a, b, c, d, t in
                 re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<', body)]
        pages.append(Page(float(w), float(h), words))
    return pages


def raster(pdf: bytes, tmp_path: Path, page: int, dpi: int) -> np.ndarray:
    src = tmp_path / "r.pdf"
    src.write_bytes(pdf)
    png = subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", str(src)],
                         capture_output=True, check=True).stdout
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def overlap(a: Word | tuple[float, float, float, float], b: Word | tuple[float, float, float, float],
            tol: float = 0.5) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > tol and min(a[3], b[3]) - max(a[1], b[1]) > tol


def overprinted(words: list[Word]) -> list[tuple[str, str]]:
    return [(a.text, b.text) for a, b in itertools.combinations(words, 2) if overlap(a, b)]


def outside(page: Page, words: list[Word]) -> list[str]:
    """Words reaching into the unprinted margin (a font box may rise 1 pt above its line)."""
    m = MARGIN * PT
    return [w.text for w in words if w.x0 < m - 0.5 or w.x1 > page.width - m + 0.5 or w.y0 < m - 3
            or w.y1 > page.height - m + 0.5]


def caption_lines(page: Page) -> list[list[Word]]:
    """Each line (words sharing a baseline box) holding the word ``measure``."""
    out = []
    for m in (w for w in page.words if w.text == "measure"):
        out.append(sorted((w for w in page.words if abs(w.y0 - m.y0) < 0.3), key=lambda w: w.x0))
    return out


def bars_above(img: np.ndarray, dpi: int, line: list[Word]) -> list[tuple[float, float, float, float]]:
    """Solid dark rectangles (points) at least 8 mm long and 1.5 mm high found in the pixels
    from 8 mm above a caption line to its bottom: its calibration bar."""
    px = dpi / 72.0
    top, bottom = max(0, round((line[0].y0 - 8 * PT) * px)), round(line[0].y1 * px)
    dark = img[top:bottom].sum(axis=2) < 3 * 90
    runs: dict[tuple[int, int], list[int]] = {}
    for r, row in enumerate(dark):
        edges = np.flatnonzero(np.diff(np.concatenate([[0], row.astype(int), [0]])))
        for a, b in zip(edges[::2], edges[1::2]):
            if b - a >= 8 * PT * px:
                runs.setdefault((int(a), int(b)), []).append(r)
    return [(a / px, (top + min(rows)) / px, b / px, (top + max(rows) + 1) / px)
            for (a, b), rows in runs.items() if len(rows) >= 1.5 * PT * px]


def one_tile(arena: Any) -> Any:
    lay = layout(arena, "a4")
    assert len(lay.tiles) == 1
    return lay


def carwars_arena() -> cw.CarWarsArena:
    return cw.CarWarsArena(name="Barrel test", bounds=Rect((0.0, 0.0), (6.0, 4.0)),
                           walls=(cw.Wall("W1", Rect((-1.5, 1.0), (2.0, 0.5))),),
                           tokens=(cw.Token("barrel-1", "barrel", (1.0, -0.5), size=(1.0, 1.0)),))


SMALL: dict[str, Any] = {
    "gravstrike": lambda: Arena(name="Ruler test", bounds=Rect((0.0, 0.0), (6.0, 3.0)), units=Units(30.0),
                                walls=(Wall("W1", Rect((0.0, 0.0), (4.0, 1.0))),)),
    "car-wars": carwars_arena,
    "arena-rex": lambda: ar.ArenaRexArena("Pit test", bounds=Rect((0.0, 0.0), (6.0, 3.0)),
                                          pits=(ar.Pit("p", Circle((0.0, 0.0), 1.0)),)),
    "glider-pit": lambda: gp.GliderPitArena(name="Hex test", cells=((0, 0), (1, 0), (2, 0), (3, 0))),
    "mothership": lambda: ms.MothershipArena(name="Square test", squares=((0, 0), (1, 0), (0, 1), (1, 1)),
                                             units=ms.Units(square_mm=20.0)),
}


@pytest.mark.parametrize("game", list(SMALL))
def test_scale_captions_are_one_line_under_their_bar_inside_the_page(game: str, tmp_path: Path) -> None:
    """On the assembly map, the tile page and the aids page: the caption ``1 inch = 25.4 mm:
    measure to check the print scale`` is one line whose words are inside the printable area,
    overprint no other word and do not touch the bar above them (found in pdftoppm's pixels)."""
    arena = SMALL[game]()
    one_tile(arena)
    pdf = print_pdf(arena, "a4")
    pages = read_pages(pdf, tmp_path)
    assert len(pages) == 3
    L = float(arena.units.length_mm if isinstance(arena, Arena) else arena.units.printed_mm)
    name = ruleset(getattr(arena, "system", "gravstrike")).units.name
    for number, page in enumerate(pages, 1):
        lines = caption_lines(page)
        assert len(lines) == 1, (number, lines)
        line = lines[0]
        text = " ".join(w.text for w in line)
        assert text.endswith("mm: measure to check the print scale"), (number, text)
        if number < 3:
            assert text.startswith(f"1 {name} = {L:g} mm:"), text
        assert outside(page, line) == [], (number, text)
        assert overprinted(page.words) == [], number
        img = raster(pdf, tmp_path, number, 150)
        bars = bars_above(img, 150, line)
        assert bars, (number, "no calibration bar above the caption")
        for bar in bars:
            assert not any(overlap(w, bar, 0.0) for w in line), (number, bar, text)
            assert bar[0] == pytest.approx(line[0].x0, abs=1.0)  # the bar and its caption start together
            assert 0.2 < line[0].y0 - bar[3] < 3.0  # just under the bar
            if number < 3:
                assert (bar[2] - bar[0]) / PT == pytest.approx(L, abs=0.4)


@pytest.mark.parametrize("game", list(SMALL))
def test_the_tile_header_keeps_clear_of_the_crop_marks(game: str, tmp_path: Path) -> None:
    """The page code (``A1``) started on the margin line, where the top-left crop mark runs
    down to the drawing area; the caption ends before the top-right one."""
    arena = SMALL[game]()
    lay = one_tile(arena)
    header = [w for w in read_pages(print_pdf(arena, "a4"), tmp_path)[1].words if w.y1 < (MARGIN + HEADER) * PT]
    assert header and header[0].text == "A1"
    top = MARGIN + HEADER - CROP
    for x in (MARGIN, lay.page_w - MARGIN):
        mark = (x * PT - 0.2, top * PT, x * PT + 0.2, (MARGIN + HEADER - 1) * PT)
        assert [w.text for w in header if overlap(w, mark, 0.0)] == []


def test_the_caption_fits_when_the_unit_is_longer_than_the_room(tmp_path: Path) -> None:
    """Squares of 250 mm: a bar of one square does not fit a page; the bars are whole
    centimetres that do, and say so."""
    arena = ms.MothershipArena(name="Big squares", squares=((0, 0),), units=ms.Units(square_mm=250.0))
    pdf = print_pdf(arena, "a4")
    for page in read_pages(pdf, tmp_path):
        assert outside(page, page.words) == []
        assert overprinted(page.words) == []
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "(1 square = 250 mm): measure to check the print scale" in text
    assert "One square, 250 mm a side: larger than the page" in text


COUNT = re.compile(r"(?<![\d/.])(\d+(?:\.\d+)?) (inch|inches|hex|hexs|hexes|square|squares|length|lengths)\b")


@pytest.mark.parametrize("path", ["glider-pit-gladiators/hexagonal-pit.yaml", "car-wars/twin-pillars-2p.yaml",
                                  "arena-rex/square-24.yaml", "mothership-grid/battlefield-3x5.yaml",
                                  "examples/three-player.yaml"])
def test_units_are_counted_in_english_on_every_page(path: str) -> None:
    """Every ``N unit`` printed: singular for exactly 1, the unit's plural otherwise (``9
    hexes``, ``0.25 inches``), never ``hexs``."""
    pdf = print_pdf(load(ROOT / "arenas" / path), "a4")
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "hexs" not in text
    plural = {"inch": "inches", "hex": "hexes", "square": "squares", "length": "lengths"}
    found = COUNT.findall(text)
    assert found
    for n, unit in found:
        singular = unit if unit in plural else next(k for k, v in plural.items() if v == unit)
        assert unit == (singular if float(n) == 1 else plural[singular]), (n, unit)


def test_unit_plurals() -> None:
    assert [ruleset(s).units.plural_name for s in ("gravstrike", "car-wars-6e", "glider-pit-gladiators",
                                                    "mothership-grid")] == ["lengths", "inches", "hexes", "squares"]
    hexes = ruleset("glider-pit-gladiators").units
    assert (hexes.count(9), hexes.count(1), hexes.count(0.5)) == ("9 hexes", "1 hex", "0.5 hexes")
    assert RulesetUnits("foot", "ft", 304.8, "feet").count(3) == "3 feet"


@pytest.mark.parametrize("path", ["glider-pit-gladiators/crooked-pit-unfair.yaml", "car-wars/broken-yard-flawed.yaml",
                                  "examples/gates-and-decay.yaml"])
def test_the_assembly_map_overprints_no_label(path: str, tmp_path: Path) -> None:
    """Page codes (``A1`` drawn over ``FLOOR: 8``, ``A4`` over a hazard's ``Clay +2 dice``) and
    the arena's labels at the map's scale (a track badge over a row total, a checkpoint's name
    over an exclusion field's badge): no two words share room."""
    page = read_pages(print_pdf(load(ROOT / "arenas" / path), "a4"), tmp_path)[0]
    assert overprinted(page.words) == []
    assert outside(page, page.words) == []


def test_labels_at_one_spot_both_read_on_the_tiles(tmp_path: Path) -> None:
    """Gravstrike: a decaying central checkpoint on an exclusion field, both labelled at their
    common centre: on the 1:1 tile the checkpoint's name moves off the field's badge."""
    arena = Arena(name="Centre", bounds=Rect((0.0, 0.0), (6.0, 4.0)), units=Units(30.0),
                  checkpoints=(Checkpoint("M", "central", Circle((0.0, 0.0), 1.0), decaying=True),),
                  exclusion_fields=(ExclusionField("X1", Rect((0.0, 0.0), (2.2, 2.2)), 2),))
    one_tile(arena)
    page = read_pages(print_pdf(arena, "a4"), tmp_path)[1]
    assert {"M", "(decaying)", "X1", "tier", "2+"} <= {w.text for w in page.words}
    assert overprinted(page.words) == []


def test_a_barrel_shows_whole_with_its_labels_under_it(tmp_path: Path) -> None:
    """The barrel (a 1 in disc at (1, -0.5)) on the 1:1 tile: every pixel within 0.85 of its
    radius is the barrel's fill (no text, no badge), and the words ``barrel`` and ``partial |
    light`` lie below the disc."""
    arena = carwars_arena()
    one_tile(arena)
    pdf = print_pdf(arena, "a4")
    minx, _miny, _maxx, maxy = arena.bounds.to_shapely().bounds
    L = arena.units.printed_mm
    cx = MARGIN + (1.0 - minx + ARENA_MARGIN) * L  # the barrel's centre on the page, mm
    cy = MARGIN + HEADER + (maxy + ARENA_MARGIN - (-0.5)) * L
    r = 0.5 * L
    dpi = 200
    img = raster(pdf, tmp_path, 2, dpi)
    px = dpi / 25.4
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    inside = (xx + 0.5 - cx * px) ** 2 + (yy + 0.5 - cy * px) ** 2 < (0.85 * r * px) ** 2
    disc = img[inside]
    style = next(k for k in ruleset("car-wars-6e").kinds if k.key == "tokens").style
    fill = np.array([int(style.fill[i:i + 2], 16) for i in (1, 3, 5)])
    off = np.abs(disc - fill).sum(axis=1) > 30
    assert off.sum() == 0, f"{off.sum()} of {len(disc)} pixels of the barrel are not its fill"
    words = read_pages(pdf, tmp_path)[1].words
    labels = [w for w in words if w.text in ("barrel", "partial", "|", "light")]
    assert len(labels) == 4
    for w in labels:
        assert w.y0 > (cy + r) * PT - 0.5, w  # below the disc
        assert w.x0 < cx * PT < w.x1 or abs((w.x0 + w.x1) / 2 - cx * PT) < 15  # under it, centred
