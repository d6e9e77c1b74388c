"""Car Wars at table scale (issue 38, goal 2): the shipped Crossroads scaled to 4.5 ft and 6 ft
about its centre (``tests.runaway.crossroads_scaled``: the pieces' and the car's sizes kept,
the starts against the new edges) must be *decided* - every travel question answered - within a
bound in expanded states, not only by a machine fast enough to reach the default cap.  The
bound is work, not time: :data:`STATES` per search, twelve times what the 3 ft table's largest
search expands (about 5 000) and comfortably above the 4.5 ft table's (about 36 000).

The 6 ft table's flat-out search from a start settled the far cards at 3.8 turns only after
about 240 000 states and stopped undecided on the opposite start at the default 400 000 until
the search keyed states by a floor on the dice the turning still needed takes
(docs/carwars-performance.md, "The dice floor"): now about 23 000 and 60 000 states.
"""

from __future__ import annotations

from engine.carwars.travel import SearchLimits
from tests.runaway import crossroads_scaled
from validators.games.carwars.run import validate

#: Expanded states a search may use before it answers "undecided" (a work bound, not time).
STATES = 60_000


def _open_questions(feet: float) -> list[tuple[str, str, str | None]]:
    report = validate(crossroads_scaled(feet), limits=SearchLimits(max_states=STATES))
    return [(q["from"], q["to"], q.get("policy")) for f in report.findings if f.code == "analysis-limit"
            for q in f.metrics.get("undecided", [])]


def test_the_four_and_a_half_foot_crossroads_is_decided_within_the_state_bound() -> None:
    assert _open_questions(4.5) == []


def test_the_six_foot_crossroads_is_decided_within_the_state_bound() -> None:
    assert _open_questions(6.0) == []
