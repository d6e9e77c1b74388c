"""File → Export: pictures, the printable 1:1 PDF, other tools' formats and packs, from the
editor. Each entry asks for a file name, writes atomically, shows the target's loss report and
reports failures in a message box (never an exception in the event loop).

The work is the same as the ``arena render / print / export / pack build`` commands: the same
renderer, printer, format writers and pack builder.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

from editor import dialogs
from schema import save
from schema.io import write_atomic
from schema.outputs import write_outputs

#: The settings key of the paper last chosen for the printable PDF.
PAPER_KEY = "export/paper"
PICTURES = (("svg", "SVG picture (*.svg)"), ("png", "PNG picture (*.png)"), ("pdf", "PDF picture (*.pdf)"))
TARGETS = (("uvtt", "Universal VTT (*.dd2vtt)", ".dd2vtt"), ("foundry", "Foundry VTT scene (*.json)", ".json"),
           ("tiled", "Tiled map (*.tmx *.tmj)", ".tmx"), ("geojson", "GeoJSON (*.geojson)", ".geojson"))


class ExportMenu:
    """Builds the Export submenu of a main window and performs the exports."""

    def __init__(self, win: Any) -> None:
        self.win = win
        # dialogs and message boxes are attributes so tests can replace them
        self.ask_path: Callable[[str, str, str], str] = self._ask_path
        self.ask_paper: Callable[[str], str] = self._ask_paper
        self.inform: Callable[[str, str], object] = lambda title, text: dialogs.information(win, title, text)
        self.last_message = ""

    # -- plumbing
    def _ask_path(self, title: str, suggested: str, filters: str) -> str:
        path, _ = QFileDialog.getSaveFileName(self.win, title, suggested, filters)
        return path

    def _suggest(self, suffix: str) -> str:
        """The file's name with ``suffix``; for a document never saved, the arena's name."""
        proposed = getattr(self.win, "proposed_path", None)
        base = proposed() if proposed is not None else (self.win.doc.path or "arena.yaml")
        return str(Path(base).with_suffix(suffix))

    def _report(self, title: str, text: str) -> None:
        self.last_message = text
        self.inform(title, text)

    def _guard(self, title: str, work: Callable[[], str]) -> bool:
        try:
            text = work()
        except Exception as exc:  # noqa: BLE001 - shown to the designer
            self._report(f"{title} failed", str(exc) or repr(exc))
            return False
        self.win.statusBar().showMessage(text.splitlines()[0], 8000)
        self._report(title, text)
        return True

    # -- the exports
    def export_picture(self, fmt: str, path: str | None = None) -> bool:
        from editor.export_render import render_bytes

        target = path or self.ask_path("Export picture", self._suggest("." + fmt), dict(PICTURES)[fmt])
        if not target:
            return False

        def work() -> str:
            write_atomic(target, render_bytes(self.win.doc.arena, fmt, source=self.win.doc.path))
            return f"Wrote {target}"
        return self._guard("Export picture", work)

    def default_paper(self) -> str:
        """The paper last chosen, else the locale's: Letter where the US measurement system is
        used, A4 elsewhere."""
        from PySide6.QtCore import QLocale

        from editor.print_pdf import PAPERS

        settings = getattr(self.win, "settings", None)
        last = str(settings.value(PAPER_KEY, "")) if settings is not None else ""
        if last in PAPERS:
            return last
        us = QLocale().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem
        return "letter" if us else "a4"

    def _ask_paper(self, default: str) -> str:
        from PySide6.QtWidgets import QInputDialog

        from editor.print_pdf import PAPER_NAMES

        keys = list(PAPER_NAMES)
        name, ok = QInputDialog.getItem(self.win, "Printable 1:1 PDF", "Paper:", list(PAPER_NAMES.values()),
                                        keys.index(default), False)
        return keys[list(PAPER_NAMES.values()).index(name)] if ok and name in PAPER_NAMES.values() else ""

    def export_print(self, path: str | None = None, paper: str | None = None) -> bool:
        """The printable 1:1 PDF on ``paper`` (asked, from the menu: issue 42, point 11)."""
        from editor.games.rulesets import printed_mm, units_name
        from editor.print_pdf import PAPER_NAMES, layout, print_pdf

        if paper is None:
            paper = self.ask_paper(self.default_paper()) if path is None else self.default_paper()
            if not paper:
                return False
            settings = getattr(self.win, "settings", None)
            if settings is not None and path is None:
                settings.setValue(PAPER_KEY, paper)
        target = path or self.ask_path("Printable 1:1 PDF", self._suggest(".print.pdf"), "PDF (*.pdf)")
        if not target:
            return False
        sheet: str = paper

        def work() -> str:
            arena = self.win.doc.arena
            write_atomic(target, print_pdf(arena, sheet))
            lay = layout(arena, sheet)
            return (f"Wrote {target}: {len(lay.tiles)} {PAPER_NAMES[sheet].split(' (')[0]} tile pages + assembly map + "
                    "measuring aids; "
                    f"1 {units_name(arena, 1)} = {printed_mm(arena):g} mm. Print at 100 % (actual size).")
        return self._guard("Printable PDF", work)

    def export_format(self, name: str, path: str | None = None, px: int = 64) -> bool:
        from editor.export_render import render_bytes
        from schema.formats import get, image_frame
        from schema.formats.grid_games import is_grid, refuse

        label, suffix = next((lab, suf) for n, lab, suf in TARGETS if n == name)
        target = path or self.ask_path(f"Export for {label.split(' (')[0]}", self._suggest(suffix), label)
        if not target:
            return False

        def work() -> str:
            arena = self.win.doc.arena
            fmt = get(name)
            refuse(name, arena)  # UVTT and Foundry hold no grid arena: said, never a wrong file
            image = image_name = None
            extra: list[tuple[Path, bytes]] = []
            if fmt.capabilities.needs_image:
                image = render_bytes(arena, "png", view=image_frame(name, arena, px).view, px_per_length=px)
                if name == "foundry":
                    image_name = Path(target).with_suffix(".png").name
                    extra.append((Path(target).with_suffix(".png"), image))
            elif is_grid(arena):  # the generated tileset the grid map points at, named after the map
                image_name = f"{Path(target).stem}.tiles.png"
            result = fmt.write(arena, image_png=image, px_per_length=px, image_name=image_name,
                               suffix=Path(target).suffix)
            # files the map refers to (a grid map's generated tileset) are written beside it
            extra += [(Path(target).with_name(n), data) for n, data in result.files.items()]
            write_outputs([(Path(target), result.data), *extra], inputs=[self.win.doc.path] if self.win.doc.path else [])
            text = f"Wrote {target}" + (f" and its background image {image_name}" if name == "foundry" else "")
            if result.files:
                text += " and " + ", ".join(sorted(result.files))
            if result.losses:
                text += f"\n\n{fmt.name} cannot represent:\n" + "\n".join(f"• {loss}" for loss in result.losses)
            return text
        return self._guard("Export", work)

    def export_pack(self, path: str | None = None) -> bool:
        from editor.pack_build import build_pack_bytes

        target = path or self.ask_path("Build arena pack", self._suggest(".arenapack.zip"), "Arena pack (*.arenapack.zip)")
        if not target:
            return False

        def work() -> str:
            arena = self.win.doc.arena
            with tempfile.TemporaryDirectory() as tmp:
                src = Path(tmp) / (Path(self.win.doc.path).name if self.win.doc.path else "arena.yaml")
                save(arena, src)
                data = build_pack_bytes([src], name=arena.name, version="1.0.0", author=arena.author,
                                        license=arena.license, description=arena.description)
            write_atomic(target, data)
            return f"Wrote {target} ({len(data)} bytes): the arena, its validation report, previews and printable PDF"
        return self._guard("Build pack", work)

    # -- the menu
    def install(self, file_menu: Any) -> None:
        from PySide6.QtWidgets import QMenu

        m = QMenu("E&xport", file_menu)
        quit_act = self.win.act.get("quit")
        acts = file_menu.actions()
        # with the other file commands, above the separator before Quit
        at = next((acts[i - 1] for i, a in enumerate(acts) if a is quit_act and i and acts[i - 1].isSeparator()),
                  quit_act if quit_act in acts else None)
        file_menu.insertMenu(at, m) if at is not None else file_menu.addMenu(m)
        self.actions: dict[str, QAction] = {}

        def add(key: str, text: str, slot: Callable[[], object]) -> None:
            act = QAction(text, self.win)
            act.triggered.connect(lambda _checked=False: slot())
            m.addAction(act)
            self.actions[key] = act

        for fmt, label in PICTURES:
            add(f"picture_{fmt}", f"Picture as {fmt.upper()}…", partial(self.export_picture, fmt))
        add("print", "Printable 1:1 PDF…", self.export_print)
        m.addSeparator()
        for name, label, _suffix in TARGETS:
            add(f"format_{name}", label.split(" (")[0] + "…", partial(self.export_format, name))
        m.addSeparator()
        add("pack", "Arena pack…", self.export_pack)


def install(win: Any) -> ExportMenu:
    menu = ExportMenu(win)
    file_menu = next(a.menu() for a in win.menuBar().actions() if a.menu() is not None and "File" in a.text())
    menu.install(file_menu)
    return menu


__all__ = ["ExportMenu", "install"]
