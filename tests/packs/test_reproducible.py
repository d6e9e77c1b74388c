"""Same input, same bytes: packs, PDFs and exports built in separate processes, under any Qt hash seed.

Qt's PDF writer wrote a document's fonts in the order of a ``QHash`` salted per process, so a
PDF with two fonts (DejaVu Sans and its bold: every print and render) came out in one of two
byte sequences, and so did every pack (issue 43, item 5).  The outputs are checked with qpdf
(through pikepdf) and poppler, not with our own reader."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from editor.print_pdf import print_pdf
from editor.reproducible_pdf import subset_tag
from tests.packs.conftest import FAST, ROOT, measurable_arena
from tests.packs.consumers import qpdf_font_subsets, qpdf_problems

pytestmark = pytest.mark.usefixtures("qapp")

#: One shipped arena per game, with the validators the pack runs for it (the quick ones where
#: the full set takes seconds: the reports are bytes of the pack like any other).
GAMES = {
    "gravstrike": ("arenas/default.yaml", FAST),
    "car-wars": ("arenas/car-wars/crossroads-4p.yaml",
                 ["cw-arena-size", "cw-corner-angle", "cw-wall-gap", "cw-start-key", "cw-start-spread"]),
    "arena-rex": ("arenas/arena-rex/colosseum-30.yaml", None),
    "glider-pit": ("arenas/glider-pit-gladiators/hexagonal-pit.yaml", None),
    "mothership": ("arenas/mothership-grid/battlefield-3x5.yaml", None),
}

#: Run in a fresh interpreter: each game's pack (``arena pack build``'s bytes), its ``arena
#: render`` PDF and its ``arena export`` files (with their images), written to argv[1].
BUILD = """
import sys
from pathlib import Path
from app.cli.editor_commands import build_pack_bytes
from editor.export_render import render_bytes
import schema
from schema.formats import FormatError, get, image_frame
from schema.formats.grid_games import refuse
out = Path(sys.argv[1])
for game, (path, only) in GAMES.items():
    src = ROOT / path
    (out / f"{game}.arenapack.zip").write_bytes(
        build_pack_bytes([src], name=game, version="1.0.0", author=None, license=None, description=None, enable=only))
    arena = schema.load(src)
    (out / f"{game}.render.pdf").write_bytes(render_bytes(arena, "pdf"))
    for to, suffix in (("tiled", ".tmx"), ("tiled", ".tmj"), ("geojson", ".geojson"), ("uvtt", ".dd2vtt"),
                       ("foundry", ".json")):
        try:
            refuse(to, arena)
        except FormatError:
            continue
        fmt = get(to)
        image = (render_bytes(arena, "png", view=image_frame(to, arena, 32).view, px_per_length=32)
                 if fmt.capabilities.needs_image else None)
        result = fmt.write(arena, image_png=image, px_per_length=32, image_name="side.png", suffix=suffix)
        (out / f"{game}.export{suffix}").write_bytes(result.data)
        for name, data in [("image.png", image or b"")] + sorted(result.files.items()):
            (out / f"{game}.export{suffix}.{name}").write_bytes(data)
"""


def build_in_new_process(out: Path) -> dict[str, bytes]:
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "QT_HASH_SEED"}  # Qt's own random seed
    env["QT_QPA_PLATFORM"] = "offscreen"
    script = f"from pathlib import Path\nROOT = Path({str(ROOT)!r})\nGAMES = {GAMES!r}\n" + BUILD
    subprocess.run([sys.executable, "-c", script, str(out)], check=True, cwd=ROOT, env=env, timeout=600)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def entries(pack: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(pack)) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    base = tmp_path_factory.mktemp("builds")
    return build_in_new_process(base / "first"), build_in_new_process(base / "second")


def test_every_games_pack_and_exports_are_the_same_bytes_in_two_processes(two_builds) -> None:  # type: ignore[no-untyped-def]
    first, second = two_builds
    assert sorted(first) == sorted(second)
    assert {n.split(".", 1)[1] for n in first if n.startswith("car-wars.")} >= {
        "arenapack.zip", "render.pdf", "export.tmx", "export.tmj", "export.geojson", "export.dd2vtt", "export.json",
        "export.json.image.png"}
    assert {n.split(".", 1)[1] for n in first if n.startswith("glider-pit.")} >= {"export.tmx", "export.tmx.side.png"}
    for name in first:
        if first[name] != second[name]:
            differ = ([e for e, data in entries(first[name]).items() if entries(second[name]).get(e) != data]
                      if name.endswith(".zip") else [name])
            pytest.fail(f"{name}: not the same bytes in two processes; differing: {differ}")


def test_the_pdfs_are_sound_and_their_subset_tags_come_from_the_subsets(two_builds) -> None:  # type: ignore[no-untyped-def]
    first, _ = two_builds
    pdfs = {f"{n}:{e}": data for n, pack in first.items() if n.endswith(".zip")
            for e, data in entries(pack).items() if e.endswith(".pdf")}
    pdfs.update({n: data for n, data in first.items() if n.endswith(".pdf")})
    assert len(pdfs) == 2 * len(GAMES)
    for name, data in pdfs.items():
        # the tags were replaced in place: qpdf finds every object where the xref table says
        assert qpdf_problems(data) == [], name
        subsets = qpdf_font_subsets(data)
        assert {base for _, base, _ in subsets} == {"/DejaVuSans", "/DejaVuSans-Bold"}, name
        tags = []
        for font_name, base, program in subsets:
            m = re.fullmatch(r"/([A-Z]{6})\+(\S+)", font_name)
            assert m and "/" + m.group(2) == base, (name, font_name)
            tags.append(m.group(1))
            # derived from the name and the embedded subset (read here by qpdf, not by us)
            assert m.group(1).encode() == subset_tag(m.group(2).encode(), program), (name, font_name)
        assert len(set(tags)) == len(tags), (name, tags)


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler-utils not installed")
def test_poppler_lists_the_embedded_fonts_and_reads_the_text(two_builds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first, _ = two_builds
    pdf = tmp_path / "car-wars.pdf"
    pdf.write_bytes(entries(first["car-wars.arenapack.zip"])["print/crossroads-4p.pdf"])
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
    rows = [line.split() for line in fonts.stdout.splitlines()[2:]]
    assert sorted(r[0] for r in rows) == ["DejaVuSans", "DejaVuSans-Bold"] and all(r[4] == "yes" for r in rows)
    assert fonts.stderr == ""
    text = subprocess.run(["pdftotext", "-l", "1", str(pdf), "-"], capture_output=True, text=True, check=True)
    assert "Crossroads (four players)" in text.stdout and text.stderr == ""


def test_a_print_is_the_same_bytes_under_any_qt_hash_seed() -> None:
    """In one process, re-drawing Qt's hash seed before each print (what a new process does)."""
    from PySide6.QtCore import QHashSeed

    arena = measurable_arena()
    outputs = set()
    for _ in range(8):
        QHashSeed.resetRandomGlobalSeed()
        outputs.add(print_pdf(arena, "a4"))
    assert len(outputs) == 1
    assert len(qpdf_font_subsets(outputs.pop())) == 2  # the regular and the bold font: two orders possible


def test_subset_tags_are_six_letters_distinct_within_a_document() -> None:
    tag = subset_tag(b"DejaVuSans", b"glyphs")
    assert re.fullmatch(rb"[A-Z]{6}", tag) and subset_tag(b"DejaVuSans", b"glyphs") == tag
    assert subset_tag(b"DejaVuSans", b"other glyphs") != tag and subset_tag(b"DejaVuSans-Bold", b"glyphs") != tag
    other = subset_tag(b"DejaVuSans", b"glyphs", frozenset({tag}))
    assert re.fullmatch(rb"[A-Z]{6}", other) and other != tag



def test_every_pdf_is_written_through_pdf_document() -> None:
    """The writer is made in one place (editor/reproducible_pdf.py), so no PDF misses the fixes."""
    makers = {p.relative_to(ROOT).as_posix() for d in ("editor", "validators", "schema", "engine")
              for p in (ROOT / d).rglob("*.py") if re.search(r"\b(QPdfWriter|QPrinter)\(", p.read_text("utf-8"))}
    assert makers == {"editor/reproducible_pdf.py"}
