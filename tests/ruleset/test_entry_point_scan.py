"""The installed distributions are scanned for entry points once per process (per ``sys.path``),
not once per question: ``arena validate`` asks for the rulesets and the validators five or six
times, and every scan reads the metadata of every installed distribution (issue 38, start-up).
The scan (:func:`schema.ruleset._scan`) finds what ``importlib.metadata.entry_points()`` finds,
in its order, without importing it."""

from __future__ import annotations

import sys
import zipfile
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import schema.ruleset as sr
import validators.registry as vreg
from schema.io import load
from validators.run import validate


def test_one_validation_scans_the_installed_distributions_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    scans: list[int] = []
    real = sr._scan

    def counting() -> Any:
        scans.append(1)
        return real()

    monkeypatch.setattr(sr, "_scan", counting)
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])  # a path not scanned yet
    monkeypatch.setattr(vreg, "_default", None)  # a new registry (as test_plugin.py resets it)
    sr.rulesets.cache_clear()
    try:
        report = validate(load("arenas/mothership-grid/battlefield-3x5.yaml"))
    finally:
        sr.rulesets.cache_clear()
    assert report.validators and len(scans) == 1


def test_a_path_added_later_is_scanned_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    info = tmp_path / "extra-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: extra\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[arena_studio.test_group]\nthing = json:dumps\n", encoding="utf-8")
    assert [ep.name for ep in sr.entry_points(group="arena_studio.test_group")] == []
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])
    assert [ep.name for ep in sr.entry_points(group="arena_studio.test_group")] == ["thing"]


def _importlib_entry_points() -> list[tuple[str, str, str]]:
    found = metadata.entry_points()
    return [(ep.group, ep.name, ep.value) for group in sorted(found.groups) for ep in found.select(group=group)]


def _ours() -> list[tuple[str, str, str]]:
    by_group = sorted(sr._scan(), key=lambda ep: ep.group)  # stable: each group's order kept
    return [(ep.group, ep.name, ep.value) for ep in by_group]


def test_the_scan_finds_what_importlib_metadata_finds_in_this_environment() -> None:
    assert _ours() == _importlib_entry_points()
    assert any(group == sr.GROUP for group, _, _ in _ours())


def _dist(where: Path, folder: str, entry_points: str | None) -> None:
    info = where / folder
    info.mkdir(parents=True)
    name = folder.rpartition(".")[0].partition("-")[0]
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1\n", encoding="utf-8")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_the_scan_reads_entry_points_as_importlib_metadata_does(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Comments, blank lines and spaces; one distribution per normalised name, the first on the
    path (``Foo_Bar`` and ``foo.bar`` are one); ``.egg-info`` folders; a distribution without
    entry points; extras and attributes in a value."""
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(first, "Foo_Bar-1.0.dist-info", "# a comment\n\n[arena_studio.t]\n  one =  json : dumps \n"
                                          "two = json:decoder.JSONDecoder [extra]\n[other]\nx=os\n")
    _dist(second, "foo.bar-2.0.dist-info", "[arena_studio.t]\nshadowed = json:dumps\n")
    _dist(second, "legacy-0.1.egg-info", "[arena_studio.t]\nthree = json\n")
    _dist(second, "plain-1.0.dist-info", None)
    _dist(first, "later-1.0.dist-info", "[arena_studio.t]\nfour = json:loads\n")
    monkeypatch.setattr(sys, "path", [str(first), str(second), str(tmp_path / "missing")])
    assert _ours() == _importlib_entry_points()
    eps = {ep.name: ep for ep in sr._scan() if ep.group == "arena_studio.t"}
    assert sorted(eps) == ["four", "one", "three", "two"]  # foo.bar's "shadowed" is not installed
    import json

    assert eps["one"].load() is json.dumps and eps["two"].load() is json.decoder.JSONDecoder
    assert eps["three"].load() is json


def test_a_zip_on_the_path_is_read_by_importlib_metadata(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\nVersion: 1.0\n")
        zf.writestr("zipped-1.0.dist-info/entry_points.txt", "[arena_studio.t]\nzipped = json:dumps\n")
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert _ours() == _importlib_entry_points() == [("arena_studio.t", "zipped", "json:dumps")]
