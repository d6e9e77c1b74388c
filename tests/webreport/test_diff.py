"""``arena diff A B`` (issue 41, point 2): a wall moved, an element deleted, one retyped, and
how the verdict moved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from typer.testing import CliRunner

import schema
from app.cli.main import load_commands
from app.cli.shared import app
from tests.webreport.conftest import ROOT
from validators.arenadiff import diff_arenas, unchanged
from validators.run import validate
from validators.webreport import render_report

YARD = ROOT / "arenas" / "car-wars" / "broken-yard-flawed.yaml"


def edited(tmp_path: Path) -> Path:
    """Broken Yard with block-A moved 3 in west (its gaps to block-B and the pen widen past a
    turning key), the hazard card 'clay' deleted, and barrel-3 retyped into an obstacle."""
    doc = yaml.safe_load(YARD.read_text("utf-8"))
    for wall in doc["walls"]:
        if wall["id"] == "block-A":
            wall["shape"]["center"] = [3, 0]
    doc["hazards"] = [h for h in doc["hazards"] if h["id"] != "clay"]
    token = next(t for t in doc["tokens"] if t["id"] == "barrel-3")
    doc["tokens"].remove(token)
    doc.setdefault("obstacles", []).append({"id": "barrel-3", "shape": {"type": "circle", "center": token["position"],
                                                                         "radius": 0.5}})
    doc["name"] = "Broken Yard, mended a little"
    path = tmp_path / "yard-2.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")
    return path


def test_moved_deleted_retyped_and_the_verdict(tmp_path: Path) -> None:
    a, b = schema.load(YARD), schema.load(edited(tmp_path))
    ra, rb = validate(a, source="a").to_json(), validate(b, source="b").to_json()
    doc = diff_arenas(a, b, before="a.yaml", after="b.yaml", report_a=ra, report_b=rb)
    els = doc["elements"]
    assert [(m["id"], m["distance"], m["shift"]) for m in els["moved"]] == [("block-A", 3.0, [-3.0, 0.0])]
    assert els["removed"] == [{"id": "clay", "kind": "hazard"}]
    assert els["retyped"] == [{"id": "barrel-3", "before": "token", "after": "obstacle"}]
    assert els["added"] == []
    assert {"pointer": "/name", "before": a.name, "after": b.name, "change": "changed"} in doc["fields"]
    v = doc["verdict"]
    lost = [(f["code"], tuple(f["elements"])) for f in v["lost"]]
    # block-A now stands 6 in from block-B and clear of the pen: those two gaps are no longer errors
    assert ("cw-wall-gap", ("block-A", "block-B")) in lost
    assert ("cw-wall-gap", ("block-A", "pen-S", "pen-W")) in lost
    assert v["summary"]["before"]["error"] - v["summary"]["after"]["error"] >= 2
    assert all(f["code"] != "cw-wall-gap" or "block-A" not in f["elements"] for f in v["gained"])
    assert not unchanged(doc)
    check_schema(doc)
    # the HTML section lists the changes, each change's element hoverable on B's map
    html = render_report(rb, b, diff=doc)
    assert 'id="changes"' in html and "block-A" in html and "Findings lost" in html
    assert 'data-targets="[&#34;block-A&#34;]"' in html


def check_schema(doc: dict[str, Any]) -> None:
    sch = json.loads((ROOT / "schema" / "diff.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(sch)
    jsonschema.validate(doc, sch)


def test_an_arena_against_itself_is_unchanged_and_the_cli_says_so(tmp_path: Path) -> None:
    load_commands(["diff"])
    r = CliRunner().invoke(app, ["diff", str(YARD), str(YARD), "--json", "--no-verdict"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert unchanged(doc) and doc["verdict"] is None
    check_schema(doc)
    r = CliRunner().invoke(app, ["diff", str(YARD), str(edited(tmp_path)), "--no-verdict"])
    assert r.exit_code == 1, r.output
    assert "moved" in r.output and "block-A" in r.output and "removed" in r.output and "retyped" in r.output


def test_grid_cells_are_compared_by_coordinates(tmp_path: Path) -> None:
    src = ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml"
    doc = yaml.safe_load(src.read_text("utf-8"))
    key = "squares"
    doc[key] = doc[key][:-1]
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), "utf-8")
    d = diff_arenas(schema.load(src), schema.load(path))
    assert len(d["elements"]["cells"]["removed"]) == 1 and d["elements"]["cells"]["added"] == []
    check_schema(d)
