"""Small Gravstrike arenas built for the robustness tests."""

from __future__ import annotations

from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import Arena, Checkpoint, Scenario, StartPosition, Wall


def edge_case_arena() -> Arena:
    """A 12 x 8 table: checkpoint A just touches wall W1 (the overlap validator's threshold: any
    area under the wall), checkpoint B stands 3 lengths clear of everything; three starts whose
    nearest-neighbour distances differ by exactly the start-spacing tolerance (1 length):
    start 1 and 2 are 3 apart, start 3 is 4 from start 2."""
    return Arena(
        name="Edge cases",
        bounds=Rect(center=(0.0, 0.0), size=(12.0, 8.0)),
        walls=(Wall("W1", Rect(center=(0.0, 0.0), size=(2.0, 0.6))),),
        checkpoints=(Checkpoint("A", "outlying", Circle((0.0, 1.3), 1.0)),
                     Checkpoint("B", "outlying", Circle((-4.0, -2.5), 0.8))),
        start_positions=(StartPosition(1, (-4.0, 3.0), 0.0), StartPosition(2, (-1.0, 3.0), 0.0),
                         StartPosition(3, (3.0, 3.0), 180.0)),
        scenario=Scenario(players=3),
    )
