"""The travel-time table (View → Travel times): rows are starts, columns checkpoints, cells the
turns flat out - best bold, worst red - and, after a tabletop-robustness run, each cell's band:
the least and most turns over the placements by hand (tooltip: the median and how often the
checkpoint was not reached)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from editor import render as R


class TravelTable(QWidget):
    """Rows: starts; columns: checkpoints; cells: turns. Best per column bold, worst marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.status = QLabel("Open this panel to compute travel times")
        self.table = QTableWidget(0, 0)
        self.data: dict[str, dict[str, float | None]] | None = None
        #: start -> checkpoint ref -> band, from the last tabletop-robustness run (set_bands).
        self.bands: dict[str, dict[str, dict[str, Any]]] | None = None
        self.placements = 0
        layout.addWidget(self.status)
        layout.addWidget(self.table)

    def show_table(self, data: dict[str, dict[str, float | None]]) -> None:
        self.data = data
        starts = list(data)
        cps = list(next(iter(data.values()), {}))
        bands = self.bands or {}
        self.table.clear()
        self.table.setRowCount(len(starts))
        self.table.setColumnCount(len(cps))
        self.table.setVerticalHeaderLabels(starts)
        self.table.setHorizontalHeaderLabels(cps)
        for j, cp in enumerate(cps):
            col = [data[s][cp] for s in starts]
            finite = [t for t in col if t is not None]
            for i, t in enumerate(col):
                band = bands.get(starts[i], {}).get(f"checkpoint:{cp}")
                item = QTableWidgetItem(("—" if t is None else f"{t:.2f}") + band_text(band))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if band is not None:
                    item.setToolTip(band_tip(band, self.placements))
                if finite and t is not None and len(set(finite)) > 1:
                    if t == min(finite):
                        font = item.font()
                        font.setBold(True)
                        item.setFont(font)
                    elif t == max(finite):
                        item.setForeground(R.VERMILLION)
                self.table.setItem(i, j, item)
        self.table.resizeColumnsToContents()
        text = "Turns from each start to each checkpoint (flat out; best bold, worst red)"
        if bands:
            text += f"; in brackets: the least and most under table error ({self.placements} placements)"
        self.status.setText(text)

    def set_bands(self, section: dict[str, Any] | None) -> None:
        """Show (None: drop) the bands of a tabletop-robustness run on the table shown."""
        self.bands = (section or {}).get("travel")
        self.placements = int((section or {}).get("validated", 0))
        if self.data is not None:
            self.show_table(self.data)


def band_text(band: dict[str, Any] | None) -> str:
    """A cell's band in brackets ("" without one): the least and most turns under table error."""
    if band is None or band.get("min") is None:
        return "" if band is None else "  (not reached)"
    lo, hi = band["min"], band["max"]
    return f"  ({lo:.2f})" if lo == hi else f"  ({lo:.2f}–{hi:.2f})"


def band_tip(band: dict[str, Any], placements: int) -> str:
    drawn = "not reached" if band.get("nominal") is None else f"{band['nominal']:.2f} turns"
    text = f"Drawn arena: {drawn}. Under table error ({placements} placements): "
    if band.get("min") is None:
        text += "never reached"
    else:
        text += f"{band['min']:.2f}–{band['max']:.2f} turns, median {band['median']:.2f}"
    if band.get("unreached"):
        text += f"; not reached in {band['unreached']:.0%}"
    return text
