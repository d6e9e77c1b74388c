"""Editor feedback benchmark for Car Wars (issue 13): after dragging a numbered card of the
shipped four-player arena, how long until the editor shows the new findings.

It drives an offscreen editor window (the real one: document, undo command, canvas, start
keys, inspector, validation runner) on tests/carwars/data/shipped/crossroads-4p.yaml: each move
pushes the select tool's MoveElements command for a card and times until the runner publishes
that edit's findings (the quick stage: the schema and every check that needs no travel search,
those whose inputs the drag did not change kept from before), then until the travel checks'
final findings (a persistent worker that keeps its searches between edits: a card drag is a
lookup or a continuation of each start's search, :mod:`engine.carwars.kept`).  Medians over N
moves; the first is the cold one (opening the arena) and is reported apart.

Usage: python bench/editor_carwars.py [--moves N] [--final-moves M] [--back-and-forth]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.editor_drag import ROOT, run

ARENA = ROOT / "tests" / "carwars" / "data" / "shipped" / "crossroads-4p.yaml"


def main() -> int:
    return run(ARENA, "checkpoint-1", ((0.3, 0.2), (0.3, -0.35)), ((0.5, 0.0), (-0.5, 0.0)),
               label="card checkpoint-1", final_label="the travel checks' findings",
               back_help="drag the card 0.5 in right and back in turn")


if __name__ == "__main__":
    raise SystemExit(main())
