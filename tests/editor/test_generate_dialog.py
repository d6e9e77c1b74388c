"""File → Generate arena… (issue 19 part 3): the dialog's settings, the search in the background
with progress, opening the best arena as a new untitled document, cancel, and a bad catalogue
shown naming its line and pointer (nothing starts)."""

from __future__ import annotations

from pathlib import Path

import pytest

import validators.generate as gen
from editor.generate import GenerateDialog
from tests.clocks import counting_time


@pytest.fixture(autouse=True)
def counted_generator_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The searches run in this process (one worker, in the thread) and count their budget in
    clock readings, 0.1 s each (about one a candidate), not seconds: the same candidates on a
    loaded machine (issue 36, point 15); the waits below are safety nets only."""
    monkeypatch.setattr(gen, "time", counting_time(0.1))


def test_menu_generates_a_new_untitled_arena(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.act["generate"].text() == "&Generate arena…"
    dialog = GenerateDialog(window)
    dialog.players.setValue(2)
    dialog.symmetry.setCurrentText("mirror")
    dialog.seed.setValue(3)
    dialog.budget.setValue(4.0)
    values = dialog.values()
    assert values == {"system": "gravstrike", "players": 2, "symmetry": "mirror", "table": None, "seed": 3,
                      "budget": 4.0, "catalogue": None}
    window.generator.run.workers = 1  # in the thread: the test needs no worker processes
    steps: list[object] = []
    window.generator.run.progress.connect(steps.append)
    assert window.generator.start(**values)
    assert window.generator.progress_dialog is not None
    with qtbot.waitSignal(window.generator.run.finished, timeout=120_000) as got:
        pass
    outcome = got.args[0]
    assert steps and window.generator.progress_dialog is None
    arena = window.doc.arena
    assert arena is outcome.arena and window.doc.path is None
    assert window.doc.dirty and window.isWindowModified()  # unsaved until saved (issue 42, point 6)
    assert arena.players == 2 and arena.symmetry.kind == "mirror"
    assert "Generated" in window.statusBar().currentMessage() or "budget ran out" in window.statusBar().currentMessage()


def test_arena_rex_generates_from_the_dialog(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The Game choice lists every ruleset with a generator; choosing Arena Rex sets its two
    players ("both players roll a D6") and the board (the 24 in square) is passed on; the board
    opens as a new untitled Arena Rex document."""
    from schema.games.arenarex import ArenaRexArena

    dialog = GenerateDialog(window)
    assert dialog.game.findData("arena-rex") >= 0 and dialog.game.findData("gravstrike") >= 0
    dialog.choose_game("arena-rex")
    assert dialog.players.value() == 2
    dialog.table.setCurrentText("square")
    dialog.seed.setValue(2)
    values = dialog.values()
    assert values["system"] == "arena-rex" and values["table"] == "square" and values["players"] == 2
    window.generator.run.workers = 1
    assert window.generator.start(**values)
    with qtbot.waitSignal(window.generator.run.finished, timeout=120_000) as got:
        pass
    arena = window.doc.arena
    assert arena is got.args[0].arena and isinstance(arena, ArenaRexArena) and window.doc.path is None
    assert window.doc.dirty and window.isWindowModified()
    assert arena.players == 2 and arena.bounds.size == (24.0, 24.0)
    assert "Generated arena passes every validator" in window.statusBar().currentMessage()


def test_an_unsupported_player_count_is_shown_and_nothing_starts(window) -> None:  # type: ignore[no-untyped-def]
    shown: list[tuple[str, str]] = []
    window.show_problems = lambda title, text: shown.append((title, text))
    assert not window.generator.start(4, None, 0, 10.0, None, system="arena-rex")
    assert shown and "Arena Rex is a game for two" in shown[0][1]
    assert not window.generator.run.running


def test_cancel_stops_the_search_and_keeps_the_document(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    before = window.doc.arena
    window.generator.run.workers = 1
    assert window.generator.start(4, None, 0, 600.0, None)
    window.generator.progress_dialog.canceled.emit()  # the Cancel button
    qtbot.wait(200)
    assert window.generator.progress_dialog is None and not window.generator.run.running
    assert window.doc.arena is before
    window.generator.run.shutdown()
    assert window.doc.arena is before


def test_a_bad_catalogue_is_shown_and_nothing_starts(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cat = tmp_path / "pieces.yaml"
    cat.write_text("catalogue: gravstrike/1\npillars:\n- {radius: 9, count: 1}\n", encoding="utf-8")
    shown: list[tuple[str, str]] = []
    window.show_problems = lambda title, text: shown.append((title, text))
    assert not window.generator.start(4, None, 0, 10.0, str(cat))
    assert shown and f"{cat}:3:12: /pillars/0/radius: 9 is greater than the maximum of 5" in shown[0][1]
    assert not window.generator.run.running and window.generator.progress_dialog is None


def test_car_wars_is_generated_from_the_same_dialog(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The game is chosen in the dialog (the open document's by default): a two-player Car Wars
    arena opens as a new untitled document."""
    from schema.games.carwars import default_arena

    window.doc.reset(default_arena(), None)
    dialog = GenerateDialog(window)
    dialog.choose_game("car-wars-6e")
    assert dialog.game.currentData() == "car-wars-6e"
    assert {dialog.game.itemData(i) for i in range(dialog.game.count())} >= {"gravstrike", "car-wars-6e"}
    dialog.players.setValue(2)
    dialog.seed.setValue(2)
    dialog.budget.setValue(600.0)
    values = dialog.values()
    assert values["system"] == "car-wars-6e"
    window.generator.run.workers = 1
    assert window.generator.start(**values)
    with qtbot.waitSignal(window.generator.run.finished, timeout=300_000) as got:
        pass
    arena = window.doc.arena
    assert arena is got.args[0].arena and window.doc.path is None
    assert window.doc.dirty and window.isWindowModified()
    assert arena.system == "car-wars-6e" and arena.players == 2 and got.args[0].passed


def test_the_dialog_offers_the_pit_and_generates_one(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """File → Generate arena… for Glider-Pit Gladiators: the game is chosen in the dialog (the
    open pit's game first), and the generated pit opens as a new untitled document."""
    from schema.games.gliderpit import default_arena

    window.doc.reset(default_arena(), None)
    dialog = GenerateDialog(window)
    dialog.choose_game("glider-pit-gladiators")
    assert dialog.game.currentData() == "glider-pit-gladiators"
    assert {dialog.game.itemData(i) for i in range(dialog.game.count())} >= {"gravstrike", "glider-pit-gladiators"}
    dialog.players.setValue(6)
    dialog.seed.setValue(1)
    dialog.budget.setValue(120.0)
    window.generator.run.workers = 1
    assert window.generator.start(**dialog.values())
    with qtbot.waitSignal(window.generator.run.finished, timeout=180_000) as got:
        pass
    arena = window.doc.arena
    assert arena is got.args[0].arena and window.doc.path is None and got.args[0].passed
    assert window.doc.dirty and window.isWindowModified()
    assert arena.system == "glider-pit-gladiators" and arena.scenario.gliders == 6 and len(arena.launch_zones) == 6
    assert "passes every validator" in window.statusBar().currentMessage()


def test_the_dialog_generates_a_battlefield_on_a_board_variant(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The Mothership battlefield through the same menu: two players, the book's 3 x 5."""
    window.generator.run.workers = 1
    assert window.generator.start(2, None, 0, 60.0, None, system="mothership-grid")
    with qtbot.waitSignal(window.generator.run.finished, timeout=120_000) as got:
        pass
    arena = window.doc.arena
    assert got.args[0].passed and arena.system == "mothership-grid" and arena.scenario.size == (3, 5)
    assert window.doc.dirty and window.isWindowModified()
    shown: list[tuple[str, str]] = []
    window.show_problems = lambda title, text: shown.append((title, text))
    assert not window.generator.start(4, None, 0, 60.0, None, system="mothership-grid")
    assert shown and "the battlefield is for two" in shown[0][1]
