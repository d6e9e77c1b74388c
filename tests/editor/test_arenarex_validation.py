"""Live validation of Arena Rex arenas in the editor window: the setup checks in the quick stage
(each re-run only when what it reads changed), the zone fairness checks on a worker of their
own, and every finding worded as ``arena validate`` words it."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor import commands as C
from schema.io import load

SHIPPED = Path(__file__).resolve().parents[2] / "arenas" / "arena-rex"


@pytest.fixture
def colosseum(window):  # type: ignore[no-untyped-def]
    window.doc.reset(load(SHIPPED / "colosseum-30.yaml"), None)
    window.doc.symmetry_enabled = False  # one pit moves (in symmetry mode its image moves too)
    return window


def settle(win, qtbot) -> list[dict]:  # type: ignore[no-untyped-def]
    r = win.runner
    qtbot.waitUntil(lambda: r.completed_generation == r.generation and r.final and not r.busy, timeout=300_000)
    return r.findings


def as_validated(arena) -> list[tuple]:  # type: ignore[no-untyped-def]
    from validators.run import validate

    return sorted((f.code, f.severity, f.message, list(f.elements)) for f in validate(arena).findings)


def shown(findings) -> list[tuple]:  # type: ignore[no-untyped-def]
    return sorted((f["code"], f["severity"], f["message"], f["elements"]) for f in findings)


def test_live_findings_are_worded_as_arena_validate_words_them(colosseum, qtbot) -> None:  # type: ignore[no-untyped-def]
    """"Your board should have at least two pits ..." (L40): the shipped circle passes; moving a
    pit 1 in breaks its declared half-turn symmetry and the zones' equal kill bands, and
    a pit dragged onto the south arc is one a deployed base touches ("If any part of a model s
    base touches a Lethal Hazard ... that model is destroyed", L38).  After each edit the panel
    lists exactly what ``arena validate`` prints, the zone checks' findings included."""
    win = colosseum
    win.runner.run_now(win.doc.arena)
    assert settle(win, qtbot) == [] and win.validation.status.text() == "No findings"
    win.doc.push(C.MoveElements(win.doc, ["pit-west"], 0.0, 1.0))
    found = settle(win, qtbot)
    assert shown(found) == as_validated(win.doc.arena)
    assert {"ar-symmetry", "ar-kill-band"} <= {f["code"] for f in found}
    win.doc.push(C.MoveElements(win.doc, ["pit-west"], 7.0, -14.0))  # onto the south arc's centre
    found = settle(win, qtbot)
    assert shown(found) == as_validated(win.doc.arena)
    assert any(f["code"] == "ar-deployment" and "pit-west" in f["elements"] for f in found)
    rows = [win.validation.tree.topLevelItem(i).text(1) for i in range(win.validation.tree.topLevelItemCount())]
    assert "ar-deployment" in rows
    win.doc.undo_stack.undo()
    win.doc.undo_stack.undo()
    assert settle(win, qtbot) == []


def test_a_pit_drag_reruns_only_the_setup_checks_that_read_pits(colosseum, qtbot) -> None:  # type: ignore[no-untyped-def]
    win = colosseum
    win.runner.run_now(win.doc.arena)
    settle(win, qtbot)
    quick = win.runner.game_analyses["arena-rex"].quick
    assert set(quick.cache) == {"ar-board-size", "ar-pits", "ar-hazard-mix", "ar-deployment", "ar-zone-hazard",
                                "ar-zone-room", "ar-symmetry"}
    win.doc.push(C.MoveElements(win.doc, ["pit-west"], 0.0, 1.0))
    settle(win, qtbot)
    assert set(quick.ran) == {"ar-pits", "ar-deployment", "ar-zone-room", "ar-symmetry"}


def test_each_stage_runs_only_for_the_arenas_it_has_work_for() -> None:
    """Each game's editor has its own stages (:meth:`editor.game.EditorGame.analysis`): Arena
    Rex's are its setup checks and its fairness stage, which needs two zones and some zone check
    enabled (the runner skips a stage that does not apply: no worker is started); a Car Wars
    arena gets Car Wars' stages, never Arena Rex's."""
    import dataclasses

    from editor.game import editor_game, game_of
    from schema.games import arenarex as ar

    staged = editor_game("arena-rex").analysis()
    try:
        stages = [fn for fn, _ in staged.stages()]  # type: ignore[attr-defined]
        rex = load(SHIPPED / "colosseum-30.yaml")
        assert [getattr(fn, "applies", lambda _a: True)(rex) for fn in stages] == [True, True]
        alone = dataclasses.replace(rex, deployment=rex.deployment[:1])
        assert [getattr(fn, "applies", lambda _a: True)(alone) for fn in stages] == [True, False]
        off = dataclasses.replace(rex, scenario=dataclasses.replace(rex.scenario, analysis=dataclasses.replace(
            rex.scenario.analysis, disabled=("ar-reach", "ar-centre-access", "ar-zone-access", "ar-hazard-access",
                                             "ar-kill-band", "ar-sightlines"))))
        assert not stages[1].applies(off)
        cw = load(Path(__file__).resolve().parents[2] / "tests" / "carwars" / "data" / "shipped" / "crossroads-4p.yaml")
        assert game_of(cw).system == "car-wars-6e" and game_of(rex).system == "arena-rex"
        assert ar.default_arena().system == "arena-rex"
    finally:
        staged.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("shares", [1, 2, 3])
def test_the_fairness_workers_shares_add_up_to_the_whole_analysis(shares: int) -> None:
    """The editor's fairness workers each compute every ``shares``-th base size; put together in
    the listed order they are exactly :func:`engine.arenarex.fairness.zone_metrics`, and the
    findings made from them are ``arena validate``'s."""
    from editor.games.arenarex.analysis import fairness_findings, share_metrics
    from engine.arenarex.fairness import zone_metrics

    arena = load(SHIPPED / "lopsided-pit.yaml")
    parts = [p for k in range(shares) for p in share_metrics(arena, k, shares)]
    whole = zone_metrics(arena)
    assert sorted(mm for mm, _ in parts) == sorted(whole)
    merged = {mm: ms for mm, ms in parts}
    assert {mm: [m.to_json() for m in ms] for mm, ms in merged.items()} == \
        {mm: [m.to_json() for m in ms] for mm, ms in whole.items()}
    ordered = {mm: merged[mm] for mm in whole}
    assert fairness_findings(arena, ordered) == fairness_findings(arena)
