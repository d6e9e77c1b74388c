"""Export and import formats for other tools, behind one interface (:class:`ArenaFormat`).

>>> sorted(FORMATS)
['foundry', 'geojson', 'tiled', 'uvtt']
>>> get("tiled").capabilities.read, get("uvtt").capabilities.needs_image
(True, True)
"""

from __future__ import annotations

from pathlib import PurePath

from schema.formats.base import (
    DEFAULT_PX_PER_LENGTH,
    ArenaFormat,
    Canvas,
    Capabilities,
    ExportResult,
    FormatError,
    canvas,
)
from schema.formats.foundry import FoundryFormat
from schema.formats.geojson import GeoJSONFormat
from schema.formats.tiled import TiledFormat
from schema.formats.uvtt import UVTTFormat

FORMATS: dict[str, ArenaFormat] = {f.name: f for f in (UVTTFormat(), FoundryFormat(), TiledFormat(), GeoJSONFormat())}


def get(name: str) -> ArenaFormat:
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(f"unknown format {name!r}; known: {', '.join(sorted(FORMATS))}") from None


def for_import(path: str) -> ArenaFormat:
    """The readable format of a file, by extension (``.tmj`` Tiled, ``.geojson`` GeoJSON)."""
    suffix = PurePath(path).suffix.lower()
    for f in FORMATS.values():
        if f.capabilities.read and f.extensions[0] == suffix:
            return f
    readable = [f"{f.extensions[0]} ({f.name})" for f in FORMATS.values() if f.capabilities.read]
    raise FormatError(f"{path}: cannot import {suffix or 'files without an extension'}; readable: {', '.join(readable)}")


__all__ = ["DEFAULT_PX_PER_LENGTH", "FORMATS", "ArenaFormat", "Canvas", "Capabilities", "ExportResult",
           "FormatError", "canvas", "for_import", "get"]
