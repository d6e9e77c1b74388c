"""Car Wars at table scale (issue 38, goal 2): the shipped Crossroads scaled to 4.5 ft and 6 ft
about its centre (``tests.runaway.crossroads_scaled``: the pieces' and the car's sizes kept,
the starts against the new edges) must be *decided* - every travel question answered - within a
bound in expanded states, not only by a machine fast enough to reach the default cap.  The
bound is work, not time: :data:`STATES` per search, twelve times what the 3 ft table's largest
search expands (about 5 000) and comfortably above the 4.5 ft table's (about 36 000).

The 6 ft table is not decided yet: its flat-out search from a start settles the far cards at
3.8 turns only after about 240 000 states and stops undecided on the opposite start at the
default 400 000 (docs/carwars-performance.md, "Table scale").  Its test is a strict xfail: it
fails the day the search is fixed, so that the mark is taken off then.
"""

from __future__ import annotations

import pytest

from engine.carwars.travel import SearchLimits
from tests.runaway import crossroads_scaled
from validators.carwars.run import validate

#: Expanded states a search may use before it answers "undecided" (a work bound, not time).
STATES = 60_000


def _open_questions(feet: float) -> list[tuple[str, str, str | None]]:
    report = validate(crossroads_scaled(feet), limits=SearchLimits(max_states=STATES))
    return [(q["from"], q["to"], q.get("policy")) for f in report.findings if f.code == "analysis-limit"
            for q in f.metrics.get("undecided", [])]


def test_the_four_and_a_half_foot_crossroads_is_decided_within_the_state_bound() -> None:
    assert _open_questions(4.5) == []


@pytest.mark.xfail(strict=True, reason="issue 38 goal 2 not met yet: the 6 ft flat-out search needs "
                                       "~240 000 states for the far cards and more for the opposite start")
def test_the_six_foot_crossroads_is_decided_within_the_state_bound() -> None:
    assert _open_questions(6.0) == []
