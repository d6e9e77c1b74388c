"""File → Export: every entry writes its file (dialogs replaced), shows the loss report, and a
failure is reported to the designer instead of raising."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path


def test_export_menu_lists_every_target(window) -> None:  # type: ignore[no-untyped-def]
    keys = set(window.exports.actions)
    assert keys == {"picture_svg", "picture_png", "picture_pdf", "print", "format_uvtt", "format_foundry",
                    "format_tiled", "format_geojson", "pack"}


def test_every_export_action_writes_its_file(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ex = window.exports
    shown: list[tuple[str, str]] = []
    ex.inform = lambda title, text: shown.append((title, text))
    ex.ask_paper = lambda default: default  # the printable PDF asks for its paper
    targets = {"picture_svg": "a.svg", "picture_png": "a.png", "picture_pdf": "a.pdf", "print": "p.pdf",
               "format_uvtt": "a.dd2vtt", "format_foundry": "a.json", "format_tiled": "a.tmj",
               "format_geojson": "a.geojson", "pack": "a.arenapack.zip"}
    for key, name in targets.items():
        ex.ask_path = lambda _t, _s, _f, n=name: str(tmp_path / n)
        window.exports.actions[key].trigger()
        assert (tmp_path / name).stat().st_size > 0, key
    assert (tmp_path / "a.svg").read_bytes().lstrip().startswith((b"<?xml", b"<svg"))
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "p.pdf").read_bytes()[:4] == b"%PDF"
    assert (tmp_path / "a.png").exists() and json.loads((tmp_path / "a.json").read_text())  # Foundry scene + image
    assert json.loads((tmp_path / "a.geojson").read_text())["type"] == "FeatureCollection"
    with zipfile.ZipFile(tmp_path / "a.arenapack.zip") as zf:
        assert "manifest.json" in zf.namelist()
    uvtt = next(t for _title, t in shown if "dd2vtt" in t)
    assert "cannot represent" in uvtt and "acceleration field" in uvtt.lower()


def test_cancelled_dialog_writes_nothing_and_errors_are_shown(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ex = window.exports
    shown: list[tuple[str, str]] = []
    ex.inform = lambda title, text: shown.append((title, text))
    ex.ask_path = lambda *_a: ""
    assert ex.export_picture("png") is False and not shown
    ex.ask_path = lambda *_a: str(tmp_path / "missing-dir" / "x.svg")
    assert ex.export_picture("svg") is False
    assert shown and shown[-1][0] == "Export picture failed"


def test_a_grid_map_exported_from_the_editor_has_its_tileset_beside_it(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Tiled export of the Glider-Pit pit writes the generated tileset the map points at, so
    pytiled-parser can load the map with its image (issue 15)."""
    import pytiled_parser

    assert window.new_arena("glider-pit-gladiators")
    shown: list[str] = []
    window.exports.inform = lambda _title, text: shown.append(text)
    target = tmp_path / "pit.tmx"
    assert window.exports.export_format("tiled", str(target))
    tmap = pytiled_parser.parse_map(target)
    images = [ts.image for ts in tmap.tilesets.values() if ts.image is not None]
    assert [Path(img).name for img in images] == ["pit.tiles.png"] and (tmp_path / "pit.tiles.png").is_file()
    assert "pit.tiles.png" in shown[-1]
    assert not window.exports.export_format("uvtt", str(tmp_path / "pit.dd2vtt"))  # refused, with the reason
    assert not (tmp_path / "pit.dd2vtt").exists() and "tiled" in window.exports.last_message.lower()
