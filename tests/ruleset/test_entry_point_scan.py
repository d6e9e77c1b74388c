"""The installed distributions are scanned for entry points once per process (per ``sys.path``),
not once per question: ``arena validate`` asks for the rulesets and the validators five or six
times, and every scan reads the metadata of every installed distribution (issue 38, start-up)."""

from __future__ import annotations

import sys
from importlib import metadata
from typing import Any

import pytest

import schema.ruleset as sr
import validators.registry as vreg
from schema.io import load
from validators.run import validate


def test_one_validation_scans_the_installed_distributions_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    scans: list[int] = []
    real = metadata.distributions

    def counting(**params: Any) -> Any:
        scans.append(1)
        return real(**params)

    monkeypatch.setattr(metadata, "distributions", counting)
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
