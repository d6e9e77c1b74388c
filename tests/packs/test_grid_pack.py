"""`arena pack build` of the grid games (issue 15) with the real renderer and printer: the pack
carries each arena's PNG and SVG previews and its 1:1 print, and verifies."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from schema.games import gliderpit, mothership
from schema.packs import read_pack
from tests.packs.test_render import arena_cli

ARENAS = Path(__file__).resolve().parents[2] / "arenas"


@pytest.mark.parametrize(("folder", "ids"), [
    ("glider-pit-gladiators", ["crooked-pit-unfair", "hexagonal-pit"]),
    ("mothership-grid", ["battlefield-3x5", "lopsided-battlefield-unfair"]),
])
def test_grid_pack_builds_with_previews_and_print(folder: str, ids: list[str], tmp_path: Path) -> None:
    import cairosvg
    from PIL import Image

    out = tmp_path / "grid.arenapack.zip"
    r = arena_cli("pack", "build", str(ARENAS / folder), "-o", str(out))
    assert r.exit_code == 0, r.output
    assert arena_cli("pack", "verify", str(out)).exit_code == 0
    r = arena_cli("pack", "extract", str(out), "-o", str(tmp_path / "x"))
    assert r.exit_code == 0, r.output
    pack = read_pack(out)
    assert sorted(Path(e["path"]).stem for e, _, _ in pack.arenas()) == ids
    default = gliderpit.default_arena() if folder.startswith("glider") else mothership.default_arena()
    assert any(arena == default for _, arena, _ in pack.arenas())
    for name in ids:
        png = Image.open(tmp_path / "x" / "previews" / f"{name}.png").convert("RGB")
        colours = {c for _, c in png.getcolors(1 << 20) or []}
        assert png.width > 300 and len(colours) > 8  # a drawn arena, not a blank page
        svg = (tmp_path / "x" / "previews" / f"{name}.svg").read_bytes()
        drawn = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg))).convert("L")
        assert drawn.getextrema()[0] < 100  # a non-Qt renderer draws ink from the SVG
        assert (tmp_path / "x" / "print" / f"{name}.pdf").read_bytes().startswith(b"%PDF")
