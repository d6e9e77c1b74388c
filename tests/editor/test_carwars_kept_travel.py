"""The editor's Car Wars travel stage runs on a persistent worker that keeps its searches
(:mod:`editor.games.kept_travel`): its findings after a card drag are a cold run's."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from editor.analysis import Cancelled
from editor.games.analysis import slow_findings
from editor.games.kept_travel import KeptTravel
from schema.io import load

SHIPPED = Path(__file__).parents[1] / "carwars" / "data" / "shipped"


def test_the_worker_finds_what_a_cold_run_finds() -> None:
    base = load(str(SHIPPED / "broken-yard-flawed.yaml"))
    card = base.cards[0]
    drag = dataclasses.replace(base, cards=(dataclasses.replace(card, position=(card.position[0] + 0.5,
                                                                               card.position[1])),) + base.cards[1:])
    live = KeptTravel()
    try:
        first = live(base)
        assert first and first == slow_findings(base)  # the flawed yard trips travel checks
        live.submit(drag)
        with pytest.raises(Cancelled):
            live(drag, should_stop=lambda: True)
        assert live(drag) == slow_findings(drag)
    finally:
        live.close()
