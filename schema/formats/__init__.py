"""Export and import formats for other tools, behind one interface (:class:`ArenaFormat`).

>>> sorted(FORMATS)
['foundry', 'geojson', 'tiled', 'uvtt']
>>> get("tiled").capabilities.read, get("uvtt").capabilities.needs_image
(True, True)
>>> for_import("map.tmx").name, for_import("x.json", b'{"type": "FeatureCollection"}').name
('tiled', 'geojson')
"""

from __future__ import annotations

import re
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
from schema.ruleset import ArenaModel

FORMATS: dict[str, ArenaFormat] = {f.name: f for f in (UVTTFormat(), FoundryFormat(), TiledFormat(), GeoJSONFormat())}


def get(name: str) -> ArenaFormat:
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(f"unknown format {name!r}; known: {', '.join(sorted(FORMATS))}") from None


def image_frame(name: str, arena: ArenaModel, px_per_length: int = DEFAULT_PX_PER_LENGTH) -> Canvas:
    """The frame a format's map image is rendered in (``render(..., view=image_frame(...).view)``):
    the format's own ``frame`` where it has one (UVTT: square), else :func:`canvas`.

    >>> from schema.games.gravstrike.model import Arena, Rect
    >>> a = Arena(name="w", bounds=Rect((0.0, 0.0), (6.0, 2.0)))
    >>> image_frame("foundry", a, 10).rows, image_frame("uvtt", a, 10).rows
    (2, 6)
    """
    own = getattr(get(name), "frame", None)
    if own is None:
        return canvas(arena, px_per_length)
    fr = own(arena, px_per_length)
    assert isinstance(fr, Canvas)
    return fr


def for_import(path: str, data: bytes | None = None) -> ArenaFormat:
    """The readable format of a file: by extension (``.tmj``/``.tmx`` Tiled, ``.geojson``
    GeoJSON), and for ``.json`` by content (a Tiled map says ``"type": "map"``, GeoJSON
    ``"type": "FeatureCollection"``)."""
    suffix = PurePath(path).suffix.lower()
    readable = [f for f in FORMATS.values() if f.capabilities.read]
    if suffix == ".json" and data is not None:
        head = data[:1 << 20]
        for name, marker in (("tiled", b'"map"'), ("geojson", b'"FeatureCollection"')):
            if re.search(rb'"type"\s*:\s*' + re.escape(marker), head):
                return FORMATS[name]
        raise FormatError(f"{path}: a .json file that is neither a Tiled map (\"type\": \"map\") nor a GeoJSON "
                          "FeatureCollection: nothing to import (arena files are opened directly)")
    for f in readable:
        if suffix in f.extensions and suffix != ".json":
            return f
    names = [f"{', '.join(f.extensions)} ({f.name})" for f in readable]
    raise FormatError(f"{path}: cannot import {suffix or 'files without an extension'}; readable: {'; '.join(names)}")


__all__ = ["DEFAULT_PX_PER_LENGTH", "FORMATS", "ArenaFormat", "Canvas", "Capabilities", "ExportResult",
           "FormatError", "canvas", "for_import", "get", "image_frame"]
