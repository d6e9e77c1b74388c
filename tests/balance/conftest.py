"""The proposed-fix searches of these tests are bounded by their own steps (seeds times step
sizes, then pairs), not by seconds: the searches' clock is frozen, so a loaded machine gets the
proposals a fast one gets (issue 36, point 15: the 30 s default budget ran out - "stopped" - on a
loaded 2-core machine).  A budget of 0 still stops at once."""

from __future__ import annotations

import pytest

import validators.balance as balance
from tests.clocks import counting_time


@pytest.fixture(autouse=True)
def frozen_balance_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(balance, "time", counting_time(0.0))
