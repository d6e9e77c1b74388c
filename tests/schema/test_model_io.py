"""Model, loading and saving: geometry, extensions, defaults, migrations, atomic writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import schema.io as sio
from schema import ArenaError, ArenaIOError, dumps, from_document, load, loads, save, to_document
from schema import migrate as mig
from schema.shapes import Circle, Polygon, Polyline, Rect

MINIMAL = "format: arena-studio/1\nsystem: gravstrike\nname: Tiny\n"


def test_minimal_file_gets_documented_defaults() -> None:
    arena = loads(MINIMAL)
    assert arena.bounds == Rect(center=(0.0, 0.0), size=(24.0, 24.0))
    assert (arena.turbine.length, arena.turbine.width, arena.turbine.speed_delta, arena.turbine.max_speed,
            arena.turbine.icons_per_turn) == (1.0, 0.5, 2, 6, 3)
    assert arena.units.length_mm == 40.0
    assert arena.scenario.vp_to_win == 12 and arena.scenario.tier_thresholds == (4, 8)
    assert arena.scenario.respawns == 2 and arena.scenario.veteran_limit == 0


def test_unlimited_icons_is_null() -> None:
    arena = loads(MINIMAL + "turbine: {icons_per_turn: null}\n")
    assert arena.turbine.icons_per_turn is None
    assert "icons_per_turn: null" in dumps(arena)


def test_shapes_convert_to_shapely() -> None:
    assert Circle(center=(1.0, 1.0), radius=2.0).to_shapely().area == pytest.approx(12.566, rel=2e-3)
    rect = Rect(center=(0.0, 0.0), size=(2.0, 1.0), rotation=90.0).to_shapely()
    minx, miny, maxx, maxy = rect.bounds
    assert (maxx - minx, maxy - miny) == pytest.approx((1.0, 2.0))
    assert Polygon(points=((0.0, 0.0), (2.0, 0.0), (0.0, 2.0))).to_shapely().area == pytest.approx(2.0)
    wall = Polyline(points=((0.0, 0.0), (4.0, 0.0)), thickness=0.5).to_shapely()
    assert wall.area == pytest.approx(2.0)  # flat caps: 4 long, 0.5 thick


def test_extensions_are_preserved() -> None:
    text = MINIMAL + "x-editor: {zoom: 2}\nwalls:\n  - id: W1\n    x-colour: red\n    shape: {type: circle, center: [0, 0], radius: 1}\n"
    arena = loads(text)
    assert arena.extensions == {"x-editor": {"zoom": 2}}
    assert arena.walls[0].extensions == {"x-colour": "red"}
    assert loads(dumps(arena)) == arena


def test_gate_from_to_names() -> None:
    arena = loads(MINIMAL + "gates:\n  - {id: G1, kind: central, from: [0, 0], to: [2, 0], one_way: true}\n")
    gate = arena.gates[0]
    assert (gate.start, gate.end, gate.one_way) == ((0.0, 0.0), (2.0, 0.0), True)
    assert to_document(arena)["gates"][0]["from"] == [0, 0]


def test_from_document_reports_pointers_without_positions() -> None:
    with pytest.raises(ArenaError) as info:
        from_document({"format": "arena-studio/1", "system": "gravstrike", "name": "X", "walls": [{"id": "W"}]})
    assert [p.pointer for p in info.value.problems] == ["/walls/0"]
    assert info.value.problems[0].line == 0


def test_elements_lookup() -> None:
    arena = load(Path(__file__).resolve().parents[2] / "arenas" / "default.yaml")
    assert arena.element("A").id == "A"
    assert arena.element("start:3").id == "start:3"
    with pytest.raises(KeyError):
        arena.element("nope")


def test_migration_hook_upgrades_old_format(monkeypatch: pytest.MonkeyPatch) -> None:
    def rename(doc: dict[str, object]) -> dict[str, object]:
        doc["name"] = doc.pop("title")
        return doc

    monkeypatch.setitem(mig.MIGRATIONS, "arena-studio/0", ("arena-studio/1", rename))
    arena = loads("format: arena-studio/0\nsystem: gravstrike\ntitle: Old\n")
    assert arena.name == "Old" and arena.format == "arena-studio/1"


def test_load_missing_file_is_io_error(tmp_path: Path) -> None:
    with pytest.raises(ArenaIOError) as info:
        load(tmp_path / "missing.yaml")
    assert "missing.yaml" in str(info.value)


def test_json_files_are_detected_by_extension(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"format": "arena-studio/1", "system": "gravstrike", "name": "J"}')
    assert load(path).name == "J"


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(MINIMAL)
    os.chmod(path, 0o600)
    arena = loads(MINIMAL)
    renamed = arena.__class__(**{**arena.__dict__, "name": "Renamed"})

    def boom(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sio.os, "replace", boom)
    with pytest.raises(ArenaIOError):
        save(renamed, path)
    assert path.read_text() == MINIMAL  # the old file is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml"]
    monkeypatch.undo()
    save(renamed, path)
    assert load(path).name == "Renamed"
    assert os.stat(path).st_mode & 0o777 == 0o600  # permissions kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml"]


def test_yaml_aliases_within_limits_are_fine() -> None:
    arena = loads(MINIMAL + "x-shared: &p [1, 2]\nstatic_targets:\n  - {id: T1, position: *p}\n")
    assert arena.static_targets[0].position == (1.0, 2.0)
