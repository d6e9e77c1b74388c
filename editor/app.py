"""``arena-studio [FILE]`` — start the editor, optionally opening an arena file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from editor import files as F
from editor.mainwindow import MainWindow


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arena-studio", description="Arena Studio: the Gravstrike arena editor.")
    parser.add_argument("file", nargs="?", help="arena file to open (.yaml, .yml or .json)")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setOrganizationName("Arena Studio")
    app.setApplicationName("Arena Studio")
    window = MainWindow()
    window.show()
    F.clean_interrupted_saves(window.settings, window.recovery.directory, args.file)
    recovered = window.offer_recovery()
    if args.file and not recovered:
        window.open_path(args.file, ask=False)
    QTimer.singleShot(0, window.view.fit_arena)
    return int(app.exec())


if __name__ == "__main__":
    raise SystemExit(main())
