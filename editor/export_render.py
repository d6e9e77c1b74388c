"""Render an arena to SVG, PNG or PDF bytes with the editor's own drawing code, framed by a
title block, a legend and a scale bar.

What is drawn is the arena's game's (:class:`ArenaExport`, the game's
:meth:`editor.game.EditorGame.export` hook): by default the page of
:func:`editor.style_render.paint_page`, drawn from the game's ruleset styles, and no analysis
overlays; a game draws its own page and overlays (Gravstrike:
:mod:`editor.games.gravstrike.export_layers`).  ``overlays`` names the analysis layers asked
for: ``los`` (what each start sees), ``paths`` (the fastest routes from each start) and
``heatmap:start:N`` (the travel time from start N); a game that does not draw them refuses.

``render_bytes`` is the ``arena_studio.renderers`` entry point ``qt``; with ``view`` and
``px_per_length`` it renders a bare, exactly-framed image for VTT exports.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from schema.ruleset import ArenaModel

if TYPE_CHECKING:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter

#: The analysis overlays ``arena render --overlay`` names; a game draws those its
#: :attr:`ArenaExport.overlays` lists.
OVERLAYS = ("los", "paths", "heatmap")
PANEL = 330.0
GAP = 20.0


class RenderError(ValueError):
    """A render request that cannot be met (unknown format, overlay not available)."""


def ensure_app() -> object:
    """The process's Qt application (offscreen when there is no display), needed for fonts.  A
    QApplication, not just a QGuiApplication: a process that renders a pack first and opens a
    window later (the editor, a test run) could not make a widget under a QGuiApplication - Qt
    aborts - and a process has one application for good."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


@dataclass(frozen=True)
class Overlay:
    """One overlay asked for: its kind (:data:`OVERLAYS`) and argument (``start:2``)."""

    kind: str
    arg: str = ""


def parse_overlays(specs: Iterable[str]) -> list[Overlay]:
    out = []
    for spec in specs:
        kind, _, arg = spec.partition(":")
        if kind not in OVERLAYS:
            raise RenderError(f"unknown overlay {spec!r}; known: los, paths, heatmap:start:N")
        if kind == "heatmap":
            who, _, player = arg.partition(":")
            if who != "start" or not player.isdigit():
                raise RenderError(f"overlay {spec!r}: the heat map is heatmap:start:N (a start player)")
        out.append(Overlay(kind, arg))
    return out


# ------------------------------------------------------------------ painting


def nice_lengths(px_per_length: float, want_px: float) -> int:
    """A 1-2-5 number of lengths whose bar is about ``want_px`` long."""
    target = max(1.0, want_px / px_per_length)
    for n in (1, 2, 5, 10, 20, 50, 100):
        if n >= target * 0.7:
            return n
    return 100


def paint_scale_bar(painter: object, x: float, y: float, px_per_length: float, lengths: int, length_mm: float,
                    px: float = 12.0) -> float:
    """Alternating black/white bar of ``lengths`` lengths with length and centimetre labels;
    returns its width in device units."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QPainter

    from editor import render as R

    assert isinstance(painter, QPainter)
    painter.save()
    h = px * 0.8
    for i in range(lengths):
        painter.setPen(R.pen(R.INK, 1.0))
        painter.setBrush(R.INK if i % 2 == 0 else QColor("white"))
        painter.drawRect(QRectF(x + i * px_per_length, y, px_per_length, h))
    font = QFont(painter.font())
    font.setPixelSize(max(1, round(px)))
    painter.setFont(font)
    painter.setPen(R.INK)
    width = lengths * px_per_length
    for i in sorted({0, lengths} | ({lengths // 2} if lengths >= 4 else set())):
        painter.drawText(QRectF(x + i * px_per_length - 40, y + h + 2, 80, px * 1.4),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, str(i))
    cm = lengths * length_mm / 10.0
    unit = "length" if lengths == 1 else "lengths"
    painter.drawText(QRectF(x + width + 10, y - px * 0.3, 400, px * 1.4), Qt.AlignmentFlag.AlignLeft,
                     f"{lengths} {unit} = {cm:g} cm at 1:1 ({length_mm:g} mm per length)")
    painter.restore()
    return width


def file_name(source: str | None) -> str | None:
    """What a title block prints of the arena's file: its name, never the folder it is in on
    this computer (issue 42, point 11)."""
    if not source:
        return None
    return source.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


class ArenaExport:
    """What ``arena render`` draws of an arena of one game, asked through the game's
    :meth:`editor.game.EditorGame.export` hook.  This base class is every game's default: the
    page drawn from the game's ruleset styles (:mod:`editor.style_render`) and no analysis
    overlays; a game overrides the three methods (and names the overlays it draws)."""

    #: The overlay kinds (:data:`OVERLAYS`) the game draws.
    overlays: tuple[str, ...] = ()

    def check_overlays(self, arena: ArenaModel, overlays: Sequence[Overlay]) -> None:
        """Refuse (:class:`RenderError`) overlays the game cannot draw on ``arena``, before a
        painter is open (an exception mid-paint leaves it dangling)."""
        if not overlays:
            return
        from editor.game import editors

        drawn = [game.label() for game in editors().values() if game.export().overlays]
        raise RenderError(f"overlays ({', '.join(o.kind for o in overlays)}) are drawn for "
                          f"{' and '.join(drawn) or 'no game'} arenas only so far; this is a "
                          f"{getattr(arena, 'system', '?')} arena")

    def paint_page(self, painter: QPainter, arena: ArenaModel, width: float, height: float, *,
                   overlays: Sequence[Overlay] = (), title: str | None = None, source: str | None = None) -> None:
        """The decorated page (device units ``width`` x ``height``): the arena, its title block
        and legend, its scale bar, and ``overlays`` (checked by :meth:`check_overlays`)."""
        from editor import style_render

        style_render.paint_page(painter, arena, width, height, title=title, source=source, panel=PANEL, gap=GAP)

    def paint_view(self, painter: QPainter, arena: ArenaModel, target: QRectF, overlays: Sequence[Overlay] = ()) -> None:
        """The bare arena, its bounds filling ``target`` exactly (no margin), with ``overlays``."""
        from editor import style_render

        style_render.paint_arena(painter, arena, target, margin=0.0)


# ------------------------------------------------------------------ devices


def _model(arena: ArenaModel) -> Any:
    """``arena`` for :mod:`editor.render`'s geometry (its bounds shape: every game's arena has
    one), whose functions are still typed on one game's model."""
    return cast(Any, arena)


def page_size(arena: ArenaModel, width: float = 1400.0) -> tuple[float, float]:
    """Page size (device units) giving the arena area the arena's aspect ratio."""
    from editor import render as R

    src = R.arena_rect(_model(arena), 1.0)
    aw = width - PANEL - 3 * GAP
    ah = aw * src.height() / src.width()
    return width, max(ah + 3 * GAP + 50, 760.0)


def _open_buffer() -> tuple[object, object]:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    ba = QByteArray()
    buf = QBuffer(ba)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    return ba, buf


def render_bytes(arena: ArenaModel, fmt: str, *, overlays: Iterable[str] = (), width: float = 1400.0,
                 view: tuple[float, float, float, float] | None = None, px_per_length: int | None = None,
                 title: str | None = None, source: str | None = None) -> bytes:
    """Render ``arena`` as ``svg``, ``png`` or ``pdf``.  With ``view`` (min x, min y, max x,
    max y in lengths) and ``px_per_length``: a bare image of exactly that frame (PNG only)."""
    ensure_app()
    from PySide6.QtCore import QRectF, QSize
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtSvg import QSvgGenerator

    from editor import render as R

    from editor.game import game_of

    ovs = parse_overlays(overlays)
    export = game_of(arena).export()
    export.check_overlays(arena, ovs)  # refuse before a painter is open (an exception mid-paint leaves it dangling)
    if fmt not in ("svg", "png", "pdf"):
        raise RenderError(f"cannot render {fmt!r}; use svg, png or pdf")
    ba, buf = _open_buffer()
    if view is not None:
        if fmt != "png" or not px_per_length:
            raise RenderError("a framed view renders to png with px_per_length")
        x0, y0, x1, y1 = view
        w, h = round((x1 - x0) * px_per_length), round((y1 - y0) * px_per_length)
        img = QImage(w, h, QImage.Format.Format_ARGB32)
        img.fill(R.OUTSIDE)
        p = QPainter(img)
        try:
            minx, miny, maxx, maxy = _model(arena).bounds.to_shapely().bounds
            target = QRectF((minx - x0) * px_per_length, (y1 - maxy) * px_per_length,
                            (maxx - minx) * px_per_length, (maxy - miny) * px_per_length)
            export.paint_view(p, arena, target, ovs)
        finally:  # a painter left open on its device when painting fails kills the process
            p.end()
        img.save(buf, "PNG")  # type: ignore[call-overload]
        png: bytes = bytes(ba)  # type: ignore[call-overload]  # PySide6's stub has no QByteArray.__bytes__
        return png
    pw, ph = page_size(arena, width)
    if fmt == "png":
        img = QImage(round(pw), round(ph), QImage.Format.Format_ARGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        try:
            export.paint_page(p, arena, pw, ph, overlays=ovs, title=title, source=source)
        finally:
            p.end()
        img.save(buf, "PNG")  # type: ignore[call-overload]
    elif fmt == "svg":
        gen = QSvgGenerator()
        gen.setOutputDevice(buf)  # type: ignore[arg-type]
        gen.setSize(QSize(round(pw), round(ph)))
        gen.setViewBox(QRectF(0, 0, pw, ph))
        gen.setTitle(title or arena.name)
        gen.setDescription(f"Arena Studio render of {arena.name}")
        p = QPainter(gen)
        try:
            export.paint_page(p, arena, pw, ph, overlays=ovs, title=title, source=source)
        finally:
            p.end()
        from editor.svg_flatten import flatten_svg

        return flatten_svg(bytes(ba))  # type: ignore[call-overload]
    else:
        from editor.reproducible_pdf import DPI, pdf_document

        mm = 25.4 / DPI
        return pdf_document(pw * mm, ph * mm, title or arena.name,
                            lambda q, _writer: export.paint_page(q, arena, pw, ph, overlays=ovs, title=title, source=source))
    out: bytes = bytes(ba)  # type: ignore[call-overload]  # PySide6's stub has no QByteArray.__bytes__
    return out


__all__ = ["GAP", "OVERLAYS", "PANEL", "ArenaExport", "Overlay", "RenderError", "ensure_app", "file_name", "nice_lengths",
           "page_size", "paint_scale_bar", "parse_overlays", "render_bytes"]
