"""The play engine's parity cases (issue 40's speed work): runs of ``arena simulate`` whose JSON
and game records are pinned in ``data/play_parity.json``, recorded with the engine before it was
made faster, so a faster engine must play the very same games (Carltographer's way: a fast
engine bit-identical to the reference one, held to it by a parity suite).

Each case pins the run's JSON document (``arena simulate FILE --games G --seed S [--players K]
[--policy P] --json``) and, for every game, how it ended, its winners, its work units and a
digest of each turn of its record (:meth:`engine.play.GameRecord.to_json`, canonical JSON), so a
difference is reported at the first turn where the games part.

Regenerate (only for a deliberate, documented change of the rules model)::

    python -m tests.engine.gravstrike.parity > tests/engine/gravstrike/data/play_parity.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).resolve().parent / "data" / "play_parity.json"

#: (name, arena, games, seed, players, policy)
CASES: tuple[tuple[str, str, int, int, int | None, str | None], ...] = (
    ("greedy-6", "arenas/default.yaml", 3, 7, None, None),
    ("lookahead-6", "arenas/default.yaml", 2, 7, None, "lookahead"),
    ("greedy-3", "arenas/default.yaml", 3, 7, 3, None),
)


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def run(case: tuple[str, str, int, int, int | None, str | None]) -> dict[str, Any]:
    """The case's fingerprint: the run's JSON document and each game's record, turn by turn."""
    from schema import load
    from validators.simulate import simulate

    _name, path, games, seed, players, policy = case
    result = simulate(load(ROOT / path), games, seed, players=players, policy=policy, workers=1, records=True)
    assert result.records is not None
    return {
        "document": result.document,
        "games": [{"ended": r["ended"], "winners": r["winners"], "work": r["work"],
                   "turns": [digest(t) for t in r["turns"]]} for r in result.records],
    }


def main() -> None:
    print(json.dumps({c[0]: run(c) for c in CASES}, indent=1, sort_keys=True))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
