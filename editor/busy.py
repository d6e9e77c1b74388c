"""The status bar says while the live validation runs (issue 42, point 9).

The first validation after the editor opens, or after a file is opened, starts the validation
workers and takes seconds; the Validation panel's status line said so, but a designer looks at
the canvas and the status bar.  Now a busy bar and "validating…" (with the stage still running,
e.g. "validating: travel checks…") sit at the status bar's right end while a run has been going for
:data:`SHOW_AFTER_MS` (so that the quick runs of a drag do not flicker), and go when its last
stage is in.  The run is off the UI thread (:mod:`editor.validation`): the canvas stays usable.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QLabel, QProgressBar, QSizePolicy

#: A run shows in the status bar once it has been running this long (ms).
SHOW_AFTER_MS = 250
BAR_WIDTH = 60
#: The label is as wide as this text (a longer stage name is elided): showing or hiding it, or a
#: new stage's name, never changes the width the tool hint has, so the canvas never resizes.
LABEL_SAMPLE = "validating: travel checks…"


class ValidationBusy(QObject):
    """The status bar's "validating…" label and busy bar, following the window's runner."""

    def __init__(self, win: Any, show_after_ms: int = SHOW_AFTER_MS) -> None:
        super().__init__(win)
        self.win, self.runner = win, win.runner
        self.label = QLabel()
        self.label.setObjectName("validating")
        self.bar = QProgressBar()
        self.bar.setObjectName("validating-bar")
        self.bar.setRange(0, 0)  # busy
        self.bar.setTextVisible(False)
        self.bar.setMaximumWidth(BAR_WIDTH)
        self.bar.setMaximumHeight(12)
        self.label.setFixedWidth(self.label.fontMetrics().horizontalAdvance(LABEL_SAMPLE) + 6)
        for w in (self.label, self.bar):  # hidden, they keep their place in the status bar
            policy = w.sizePolicy()
            policy.setRetainSizeWhenHidden(True)
            w.setSizePolicy(policy)
        bar = win.statusBar()
        bar.addPermanentWidget(self.label)
        bar.addPermanentWidget(self.bar)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(show_after_ms)
        self.timer.timeout.connect(self._show)
        self.runner.started.connect(lambda _g: self._started())
        self.runner.finished.connect(lambda _f: self._stage_done())
        self.runner.failed.connect(lambda _t: self._stage_done())
        self._set(False)

    @property
    def shown(self) -> bool:
        return not self.bar.isHidden()

    def _set(self, on: bool) -> None:
        stage = self.runner.running
        text = (f"validating: {stage}…" if stage else "validating…") if on else ""
        self.label.setText(self.label.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, self.label.width()))
        self.label.setToolTip(text)
        self.label.setVisible(on)
        self.bar.setVisible(on)

    def _started(self) -> None:
        if self.shown:
            self._set(True)
        elif not self.timer.isActive():
            self.timer.start()

    def _show(self) -> None:
        if self.runner.busy:
            self._set(True)

    def _stage_done(self) -> None:
        if self.runner.busy and not self.runner.final:
            if self.shown:
                self._set(True)  # the next stage's name
            return
        if not self.runner.busy:
            self.timer.stop()
            self._set(False)


def install(win: Any) -> ValidationBusy:
    return ValidationBusy(win)
