"""The validation panel names a finding's VP tier when a report of every tier gives one (issue 39,
point 3: "findings naming their tier"; the book's "Exclusion Field Activation": fields that
switch on at a tier)."""

from __future__ import annotations

from editor.analysis import normalise
from validators.findings import Finding


def test_normalise_keeps_a_findings_tier() -> None:
    f = Finding("start-checkpoint-access", "warning", "start 1 needs 2.7", ("start:1", "start:2"), tier=2)
    assert normalise(f)["tier"] == 2
    assert "tier" not in normalise(Finding("bounds", "error", "out", ("W1",)))


def test_the_panel_shows_the_tier_after_the_code(window) -> None:  # type: ignore[no-untyped-def]
    panel = window.validation
    panel.show_findings([normalise(Finding("start-checkpoint-access", "warning", "start 1 needs 2.7", ("start:1",), tier=3)),
                         normalise(Finding("bounds", "error", "out", ("W1",)))])
    codes = {panel.tree.topLevelItem(i).text(1) for i in range(panel.tree.topLevelItemCount())}
    assert codes == {"start-checkpoint-access [tier 3]", "bounds"}
