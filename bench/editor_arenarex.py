"""Editor feedback benchmark for Arena Rex (issue 14): after dragging a pit of the shipped 30 in
circle about 1 in, how long until the editor shows the new findings.

It drives an offscreen editor window (the real one: document, undo command, canvas, inspector,
validation runner) on arenas/arena-rex/colosseum-30.yaml: each move pushes the select tool's
MoveElements command for pit-west (1.03 in: 0.25 in east and 1 in north or south, a new place
every time) and times until the runner publishes that edit's findings (the quick stage: the
schema and the setup checks, those that do not read pits kept from before), then until the zone
fairness checks' final findings (a persistent worker, :mod:`editor.games.arenarex.analysis`).
Medians over N moves; opening the arena is reported apart.

Usage: python bench/editor_arenarex.py [--moves N] [--final-moves M] [--back-and-forth]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.editor_drag import ROOT, run

ARENA = ROOT / "arenas" / "arena-rex" / "colosseum-30.yaml"


def main() -> int:
    return run(ARENA, "pit-west", ((0.25, 1.0), (0.25, -1.0)), ((0.0, 1.0), (0.0, -1.0)),
               label="pit-west ~1 in", final_label="the zone fairness checks' findings",
               back_help="drag the pit 1 in north and back in turn", final_target=False)


if __name__ == "__main__":
    raise SystemExit(main())
