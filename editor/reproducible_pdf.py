"""Every PDF Arena Studio writes is made here: the same drawing gives the same bytes, in any
process (``arena render -o X.pdf``, ``arena print``, a pack's ``print/ID.pdf``, the editor's
exports).

Qt's PDF writer (``QPdfWriter``) varies from run to run in four ways; :func:`pdf_document`
removes each:

- **the order of the embedded fonts.**  Qt keeps a document's font subsets in a ``QHash`` and
  writes them in that hash's order when the document ends.  ``QHash`` is salted with a random
  seed drawn once per process, so with two fonts (DejaVu Sans and its bold) a new process wrote
  them in either order: other object numbers, other offsets, other subset tags.  The drawing is
  painted while Qt's global hash seed is the deterministic one
  (``QHashSeed.setDeterministicGlobalSeed``); a hash takes the global seed when it is first
  filled, so the writer's font table gets it, and the random seed is restored afterwards;
- **the font subset tags** (``/FontName /QVGBAA+DejaVuSans``): Qt makes the six letters from
  the font descriptor's object number.  :func:`normalise_pdf` replaces each by six letters
  derived from the font's name and its embedded subset (:func:`subset_tag`), so the same subset
  has the same tag in every PDF and different subsets in one PDF have different tags (as the
  PDF specification requires of subset tags);
- **the dates** (info dictionary and XMP metadata): fixed ones of the same length;
- **the document ID** (trailer ``/ID``, XMP ``DocumentID``): derived from the title.

Every replacement keeps the length of what it replaces, so the cross-reference table's offsets
stay right.
"""

from __future__ import annotations

import hashlib
import re
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter, QPdfWriter

FIXED_DATE = b"D:19800101000000Z"
FIXED_XMP_DATE = b"1980-01-01T00:00:00+00:00"
#: The PDF's resolution: drawing coordinates are 1/96 inch, as on the screen.
DPI = 96

_FONT_NAME = re.compile(rb"/FontName\s*/([A-Z]{6})\+([^\s/\[\]<>(){}%]+)")
_FONT_FILE = re.compile(rb"/FontFile[23]?\s+(\d+)\s+(\d+)\s+R")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?:\s+(\d+)\s+R)?")
_STREAM = re.compile(rb"stream\r?\n")

_seed_lock = threading.Lock()
_seed_users = 0


@contextmanager
def fixed_qt_hash_order() -> Iterator[None]:
    """Qt's hashes created inside take the deterministic global seed (zero); the random seed
    is back when the last user leaves (a no-op when ``QT_HASH_SEED=0`` keeps it deterministic)."""
    from PySide6.QtCore import QHashSeed

    global _seed_users
    with _seed_lock:
        if _seed_users == 0:
            QHashSeed.setDeterministicGlobalSeed()
        _seed_users += 1
    try:
        yield
    finally:
        with _seed_lock:
            _seed_users -= 1
            if _seed_users == 0:
                QHashSeed.resetRandomGlobalSeed()


def pdf_document(width_mm: float, height_mm: float, title: str,
                 paint: Callable[[QPainter, QPdfWriter], None]) -> bytes:
    """The bytes of a PDF of ``width_mm`` x ``height_mm`` pages (no margins, 96 units per
    inch) drawn by ``paint(painter, writer)`` (``writer.newPage()`` for more pages); the same
    drawing gives the same bytes in every process."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF, QUuid
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    from editor.export_render import ensure_app

    ensure_app()
    ba = QByteArray()
    buf = QBuffer(ba)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    with fixed_qt_hash_order():
        writer = QPdfWriter(buf)
        writer.setResolution(DPI)
        writer.setPageSize(QPageSize(QSizeF(width_mm, height_mm), QPageSize.Unit.Millimeter, "",
                                     QPageSize.SizeMatchPolicy.ExactMatch))
        writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)
        writer.setCreator("Arena Studio")
        writer.setTitle(title)
        writer.setDocumentId(QUuid(str(uuid.uuid5(uuid.NAMESPACE_URL, "arena-studio:" + title))))
        painter = QPainter(writer)
        try:
            paint(painter, writer)
        finally:
            painter.end()
    return normalise_pdf(bytes(ba.data()))


def normalise_pdf(data: bytes) -> bytes:
    """Fixed dates and content-derived font subset tags, each of the same length as what it
    replaces (the cross-reference offsets stay right)."""
    data = re.sub(rb"D:\d{14}Z", FIXED_DATE, data)
    data = re.sub(rb"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})",
                  lambda m: FIXED_XMP_DATE[:19] + b"Z" if m.group(0).endswith(b"Z") else FIXED_XMP_DATE, data)
    return _retag_subsets(data)


def subset_tag(font_name: bytes, subset: bytes, taken: frozenset[bytes] = frozenset()) -> bytes:
    """Six upper-case letters from a hash of the font's name and its subset (the embedded font
    program), not among ``taken``."""
    salt = 0
    while True:
        digest = hashlib.sha256(font_name + b"\0" + subset + (b"\0%d" % salt if salt else b"")).digest()
        n = int.from_bytes(digest[:8], "big")
        tag = bytes(65 + (n // 26 ** i) % 26 for i in range(6))
        if tag not in taken:
            return tag
        salt += 1


def _object(data: bytes, num: int, gen: int) -> int | None:
    """Offset just after ``num gen obj``, or None."""
    m = re.search(rb"(?<![0-9])%d\s+%d\s+obj\b" % (num, gen), data)
    return m.end() if m else None


def _stream(data: bytes, num: int, gen: int) -> bytes | None:
    """The raw (still encoded) bytes of stream object ``num gen``, or None if it cannot be read."""
    start = _object(data, num, gen)
    if start is None:
        return None
    body = _STREAM.search(data, start)
    length = _LENGTH.search(data, start, body.start()) if body else None
    if body is None or length is None:
        return None
    if length.group(2) is None:
        size = int(length.group(1))
    else:
        at = _object(data, int(length.group(1)), int(length.group(2)))
        value = re.match(rb"\s*(\d+)", data[at:]) if at is not None else None
        if value is None:
            return None
        size = int(value.group(1))
    return data[body.end():body.end() + size]


def _retag_subsets(data: bytes) -> bytes:
    """Each ``/FontName /ABCDEF+Name`` subset tag replaced, wherever ``/ABCDEF+Name`` occurs, by
    :func:`subset_tag` of the name and the font program the descriptor embeds."""
    renames: dict[bytes, bytes] = {}
    taken: set[bytes] = set()
    for m in _FONT_NAME.finditer(data):
        old_tag, name = m.group(1), m.group(2)
        if b"/%s+%s" % (old_tag, name) in renames:
            continue
        end = data.find(b"endobj", m.end())
        descriptor = data[m.end():end if end != -1 else len(data)]
        program = _FONT_FILE.search(descriptor)
        subset = _stream(data, int(program.group(1)), int(program.group(2))) if program else None
        # a descriptor without a readable program: its own entries (bounding box, metrics) stand in
        tag = subset_tag(name, subset if subset is not None else descriptor, frozenset(taken))
        taken.add(tag)
        renames[b"/%s+%s" % (old_tag, name)] = b"/%s+%s" % (tag, name)
    if not renames:
        return data
    pattern = re.compile(b"|".join(re.escape(old) + rb"(?![^\s/\[\]<>(){}%])" for old in renames))
    return pattern.sub(lambda m: renames[m.group(0)], data)


__all__ = ["FIXED_DATE", "FIXED_XMP_DATE", "fixed_qt_hash_order", "normalise_pdf", "pdf_document", "subset_tag"]
