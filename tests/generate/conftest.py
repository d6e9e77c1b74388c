"""The generator searches of these tests count their budget in clock readings, not seconds: the
search's clock moves 0.1 s at each reading (:mod:`tests.clocks`), so a budget of 600 s is 6 000
readings - about one per candidate scored; every search here passes within 30 - and a loaded
machine scores the same candidates as a fast one (issue 36, point 15).  A test that needs its own
clock (out of budget after the first candidate) sets it over this one."""

from __future__ import annotations

import pytest

import validators.generate as gen
from tests.clocks import counting_time

#: Seconds the generator's clock moves at each reading.
STEP = 0.1


@pytest.fixture(autouse=True)
def counted_generator_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gen, "time", counting_time(STEP))
