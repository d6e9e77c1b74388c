"""The Scenario tab's *Start sets* section (:mod:`editor.start_sets`): one row per declared player
count (its start numbers as ``1, 3, 5``, a button removing it), a count to add, and the *Active
count* chooser whose set the canvas highlights and live validation judges.

Shown for every game whose ruleset has ``starts``; hidden for the others.  Each edit is one undo
command; a set the format refuses is refused with its words in red and the row shows the
current set again.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from editor import render
from editor import start_sets as SS
from editor.document import ArenaDocument


def _counted(count: int, word: str) -> str:
    """``3 players``, ``1 player``."""
    return f"{count} {word.rstrip('s') if count == 1 else word}"


def _listed(starts: tuple[int, ...]) -> str:
    return ", ".join(map(str, starts))


class StartSetsBox(QGroupBox):
    """The arena's start sets and the active count (see the module docstring)."""

    message = Signal(str)

    def __init__(self, doc: ArenaDocument, parent: QWidget | None = None) -> None:
        super().__init__("Start sets", parent)
        self.setObjectName("start-sets")
        self.doc = doc
        layout = QVBoxLayout(self)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        layout.addWidget(self.hint)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        layout.addLayout(self.form)
        add_row = QHBoxLayout()
        self.new_count = QSpinBox()
        self.new_count.setObjectName("start-set-new-count")
        self.new_count.setRange(1, 99)
        self.add_button = QPushButton("Add count")
        self.add_button.setObjectName("start-set-add")
        self.add_button.clicked.connect(lambda: self.add(self.new_count.value()))
        add_row.addWidget(self.new_count)
        add_row.addWidget(self.add_button)
        add_row.addStretch(1)
        layout.addLayout(add_row)
        active_row = QFormLayout()
        self.active = QComboBox()
        self.active.setObjectName("active-count")
        self.active.setToolTip("The start set the canvas highlights (the others drawn faint) and live validation "
                               "judges, as arena validate --players N does. Not saved in the file.")
        self.active.activated.connect(self._chosen)
        active_row.addRow("Active count", self.active)
        layout.addLayout(active_row)
        self.error = QLabel()
        self.error.setObjectName("start-sets-error")
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # refusals quote what was typed
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {render.VERMILLION.name()}")
        layout.addWidget(self.error)
        #: The line edit of each declared count's set.
        self.edits: dict[int, QLineEdit] = {}
        self._built: tuple[str, tuple[int, ...]] | None = None
        doc.arenaChanged.connect(lambda _a: self.refresh())
        doc.activeCountChanged.connect(lambda _c: self._show_active())
        doc.pathChanged.connect(lambda _p: self.error.clear())
        self.refresh()

    # ------------------------------------------------------------------ showing

    def refresh(self) -> None:
        arena = self.doc.arena
        if SS.slots_of(arena) is None:  # a game without start sets: nothing to show
            self.setVisible(False)
            self._built = None
            return
        self.setVisible(True)
        sets = SS.declared(arena)
        key = (str(arena.system), tuple(sets))
        if key != self._built:
            self._build(sets)
            self._built = key
        for count, edit in self.edits.items():
            text = _listed(sets[count])
            if edit.text() != text:
                edit.blockSignals(True)
                edit.setText(text)
                edit.blockSignals(False)
        starts = SS.numbers(arena)
        word, noun = SS.count_word(arena), SS.noun(arena)
        self.hint.setText(f"Which {noun}s play at each number of {word} (the arena's {noun}s: "
                          f"{_listed(starts) or 'none'}). Without a set, every {noun} plays.")
        self._fill_active(sets, word)

    def _build(self, sets: dict[int, tuple[int, ...]]) -> None:
        while self.form.rowCount():  # later: a row's own button may be what was clicked
            taken = self.form.takeRow(0)
            for part in (taken.labelItem, taken.fieldItem):
                w = part.widget() if part is not None else None
                if w is not None:
                    w.hide()
                    w.deleteLater()
        self.edits.clear()
        word = SS.count_word(self.doc.arena)
        for count in sets:
            row = QWidget()
            box = QHBoxLayout(row)
            box.setContentsMargins(0, 0, 0, 0)
            edit = QLineEdit()
            edit.setObjectName(f"start-set:{count}")
            edit.setMinimumWidth(90)
            edit.setToolTip(f"The {SS.noun(self.doc.arena)} numbers that play with {_counted(count, word)}, "
                            "separated by commas")
            edit.editingFinished.connect(lambda c=count, e=edit: self._edited(c, e))
            remove = QPushButton("Remove")
            remove.setObjectName(f"start-set-remove:{count}")
            remove.clicked.connect(lambda _=False, c=count: self.remove(c))
            box.addWidget(edit, 1)
            box.addWidget(remove)
            self.edits[count] = edit
            self.form.addRow(_counted(count, word), row)

    def _fill_active(self, sets: dict[int, tuple[int, ...]], word: str) -> None:
        self.active.blockSignals(True)
        self.active.clear()
        self.active.addItem(f"All {SS.noun(self.doc.arena)}s", None)
        for count, starts in sets.items():
            self.active.addItem(f"{_counted(count, word)}: {_listed(starts)}", count)
        self.active.blockSignals(False)
        self._show_active()

    def _show_active(self) -> None:
        i = self.active.findData(self.doc.active_count)
        self.active.blockSignals(True)
        self.active.setCurrentIndex(max(0, i))
        self.active.blockSignals(False)

    def _chosen(self, index: int) -> None:
        data: Any = self.active.itemData(index)
        self.doc.active_count = None if data is None else int(data)

    # ------------------------------------------------------------------ editing

    def _edited(self, count: int, edit: QLineEdit) -> None:
        sets = SS.declared(self.doc.arena)
        if count not in sets or edit.text().strip() == _listed(sets[count]):
            return
        try:
            starts = SS.parse_starts(edit.text(), SS.noun(self.doc.arena))
        except ValueError as exc:
            self._refuse(str(exc))
            return
        self.commit({**sets, count: starts}, f"Set the {_counted(count, SS.count_word(self.doc.arena))} start set")

    def set_starts(self, count: int, text: str) -> bool:
        """Type ``text`` into the set of ``count`` (as the row's field does)."""
        edit = self.edits[count]
        edit.setText(text)
        before = self.doc.arena
        self._edited(count, edit)
        return self.doc.arena is not before

    def add(self, count: int) -> bool:
        """Declare a set for ``count``: that many of the arena's starts spread evenly round their
        numbers (:func:`editor.start_sets.spread`), to be edited in its row."""
        sets = SS.declared(self.doc.arena)
        word = SS.count_word(self.doc.arena)
        if count in sets:
            self._refuse(f"a {_counted(count, word)} set is declared already: edit its row")
            return False
        starts = SS.spread(SS.numbers(self.doc.arena), count)
        return self.commit({**sets, count: starts}, f"Add a {_counted(count, word)} start set")

    def remove(self, count: int) -> bool:
        sets = SS.declared(self.doc.arena)
        if count not in sets:
            return False
        rest = {k: v for k, v in sets.items() if k != count}
        return self.commit(rest, f"Remove the {_counted(count, SS.count_word(self.doc.arena))} start set")

    def commit(self, sets: dict[int, tuple[int, ...]], text: str) -> bool:
        try:
            cmd = SS.SetStartSets(self.doc, sets, text)
        except ValueError as exc:
            self._refuse(str(exc))
            return False
        self.error.clear()
        self.doc.push(cmd)
        return True

    def _refuse(self, why: str) -> None:
        self.error.setText(why)
        self.message.emit(f"Refused: {why}")
        self.refresh()  # the rows show the file's sets again


__all__ = ["StartSetsBox"]
