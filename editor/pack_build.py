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
                     load: Callable[[Path], Any] | None = None, simulate: int | None = None, seed: int = 0,
                     policy: str | None = None, warn: Callable[[str], None] | None = None) -> bytes:
    """Load (with ``load``, :func:`schema.load` by default), validate, render and pack the arena
    files (deterministic bytes).  ``simulate``: also play each arena out that many games from
    ``seed`` (:func:`validators.simulate.attach`; the same seed gives the same pack): its
    report, JSON and HTML, holds the summary and the manifest notes it; an arena whose game
    has no play engine is packed without it, and ``warn`` is told."""
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
        checked = validate(arena, source=entry, enable=enable or (), registry=registry)
        if simulate is not None:
            _simulate(checked, path, simulate, seed, policy, warn)
        report = checked.to_json()
        arenas.append(PackArena(ident, arena, report, render_bytes(arena, "png", source=entry),
                                render_bytes(arena, "svg", source=entry), print_pdf(arena, paper),
                                report_page(entry, arena, report)))
        if progress is not None:
            progress(path)
    info = PackInfo(name=name, version=version, author=author, license=license, description=description)
    return build_pack(info, arenas, label=name)


def _simulate(report: Any, path: Path, games: int, seed: int, policy: str | None,
              warn: Callable[[str], None] | None) -> None:
    from schema.packs import PackError
    from validators.game import analysis_of
    from validators.simulate import attach

    if not analysis_of(report.arena).has_play():
        if warn is not None:
            warn(f"{path}: packed without simulated play: {analysis_of(report.arena).title} has no play engine")
        return
    try:
        attach(report, games, seed, policy=policy)
    except ValueError as exc:  # a policy the game does not play
        raise PackError("<pack>", str(path), f"--simulate: {exc}") from None


def report_page(entry: str, arena: Any, report: dict[str, Any]) -> bytes:
    """The arena's HTML report as the pack holds it: its header names the pack's arena file and
    that file's checksum, and no date (the same inputs give the same pack)."""
    from schema.io import dumps
    from validators.webreport import header_for, render_report

    header = header_for(entry, dumps(arena, "json").encode("utf-8"))
    return render_report(report, arena, header=header).encode("utf-8")


def build_season_pack_bytes(season: Any, *, root: Path | None = None, version: str = "1.0.0",
                            author: str | None = None, license: str | None = None, paper: str = "a4",
                            progress: Any = None) -> bytes:
    """One pack for a season (:class:`validators.season.Season`): each event's arena under the
    event's scenario (its overrides merged in) with its report, previews and print, named
    ``N-event-name``; ``season.json`` (the season, its events pointing at the pack's arenas) and
    ``standings.json`` (as ``arena season standings --json``) at its root.  Raises
    :class:`validators.season.SeasonError` (located) for an event whose arena cannot be read,
    ``LookupError`` for a game without season play."""
    from editor.export_render import render_bytes
    from editor.print_pdf import print_pdf
    from schema.packs import PackArena, PackInfo, build_pack, canonical_json, slug
    from validators.run import validate
    from validators.season import arena_path, event_arena, standings

    table = standings(season)  # first: a game without season play is refused before any work
    arenas = []
    doc = dict(season.located.data)
    events = [dict(e) for e in doc["events"]]
    for n, event in enumerate(season.events, 1):
        path = arena_path(season, event, root)
        arena, _ = event_arena(season, event, path.read_bytes(), str(path))
        ident = slug(f"{n}-{event.name}")
        entry = f"arenas/{ident}.json"
        report = validate(arena, source=entry).to_json()
        arenas.append(PackArena(ident, arena, report, render_bytes(arena, "png", source=entry),
                                render_bytes(arena, "svg", source=entry), print_pdf(arena, paper),
                                report_page(entry, arena, report)))
        events[n - 1]["arena"] = entry
        if progress is not None:
            progress(event)
    doc["events"] = events
    extra = {"season.json": canonical_json(doc), "standings.json": canonical_json(table.to_json())}
    description = doc.get("description") if isinstance(doc.get("description"), str) else None
    info = PackInfo(name=season.name, version=version, author=author, license=license, description=description)
    return build_pack(info, arenas, label=season.name, extra=extra)
