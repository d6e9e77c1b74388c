"""Build an arena pack from arena files: each validated, drawn (PNG, SVG) and printed (PDF) with
the editor's Qt renderer, then packed by :func:`schema.packs.build_pack`.  Used by File → Export
pack and by ``arena pack build`` (:mod:`app.cli.editor_commands`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def build_pack_bytes(files: list[Path], *, name: str, version: str, author: str | None, license: str | None,
                     description: str | None, paper: str = "a4", progress: Any = None,
                     enable: list[str] | None = None, registry: Any = None,
                     load: Callable[[Path], Any] | None = None) -> bytes:
    """Load (with ``load``, :func:`schema.load` by default), validate, render and pack the arena
    files (deterministic bytes)."""
    from editor.export_render import render_bytes
    from editor.print_pdf import print_pdf
    from schema.packs import PackArena, PackError, PackInfo, build_pack, slug
    from validators.run import validate

    from schema import load as load_file

    read = load if load is not None else load_file
    arenas, seen = [], set()
    for path in files:
        arena = read(path)
        ident = slug(path.stem.removesuffix(".arena"))
        if ident in seen:
            raise PackError(name, str(path), f"two arenas would be named {ident!r} in the pack")
        seen.add(ident)
        entry = f"arenas/{ident}.json"
        report = validate(arena, source=entry, enable=enable or (), registry=registry).to_json()
        arenas.append(PackArena(ident, arena, report, render_bytes(arena, "png", source=entry),
                                render_bytes(arena, "svg", source=entry), print_pdf(arena, paper)))
        if progress is not None:
            progress(path)
    info = PackInfo(name=name, version=version, author=author, license=license, description=description)
    return build_pack(info, arenas, label=name)
