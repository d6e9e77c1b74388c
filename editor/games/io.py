"""Reading and writing arena files of every installed game, for the editor's document.

Once the ruleset layer's ``schema.io`` reads every system (``schema.ruleset.ruleset_of``
exists), this module defers to it entirely; until then a file whose ``system`` is not
Gravstrike is read here with the same checks: safe YAML/JSON, the game's JSON Schema (problems
named by JSON pointer), the game's model; and written canonically and atomically.
"""

from __future__ import annotations

import json
import os
from typing import Any

import yaml

import schema
import schema.games.gravstrike.model
from schema import ruleset as R
from schema.errors import ArenaError, Problem
from schema.io import format_of, write_atomic


def _layer() -> bool:
    return hasattr(R, "ruleset_of")


def loads(text: str | bytes, source: str = "<string>") -> Any:
    """An arena of any installed game from YAML/JSON text, parsed under the format's limits
    (``schema.positions``: alias bombs, depth, size) and checked by its game's schema, problems
    located at ``FILE:LINE:COLUMN: /pointer``."""
    head = text[:200] if isinstance(text, str) else text[:200].decode("utf-8", "replace")
    fmt = format_of(source, head)
    if _layer():
        return schema.loads(text, source=source, fmt=fmt)
    from schema.errors import ArenaError as Err
    from schema.io import MAX_FILE_BYTES
    from schema.positions import ParseError, parse_json, parse_yaml

    if len(text) > MAX_FILE_BYTES:
        return schema.loads(text, source=source, fmt=fmt)  # its size error
    try:
        decoded = text.decode("utf-8") if isinstance(text, bytes) else text
        located = parse_json(decoded, source) if fmt == "json" else parse_yaml(decoded.removeprefix("\ufeff"), source)
    except (UnicodeDecodeError, ParseError):
        return schema.loads(text, source=source, fmt=fmt)  # its located parse errors
    doc = located.data
    system = doc.get("system", "gravstrike") if isinstance(doc, dict) else "gravstrike"
    if system == "gravstrike":
        return schema.loads(text, source=source, fmt=fmt)
    from editor.games import model as G
    from editor.games.rulesets import installed

    rs = installed().get(str(system))
    if rs is None:
        line, col = located.where("/system")
        raise Err([Problem(source, line, col, "/system", f"unknown system {system!r}; installed: "
                           f"gravstrike, {', '.join(installed())}")])
    found = G.problems(rs, doc)
    if found:
        out = []
        for p in found:
            ptr, _, msg = p.partition(": ")
            line, col = located.where(ptr if ptr != "/" else "")
            out.append(Problem(source, line, col, ptr, msg))
        raise Err(out)
    return rs.build(doc)


def load(path: str | os.PathLike[str]) -> Any:
    if _layer():
        return schema.load(path)
    from schema.io import MAX_FILE_BYTES

    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError:
        return schema.load(path)  # its "cannot read file" error
    return loads(raw, str(path))


def dumps(arena: Any, fmt: str = "yaml") -> str:
    if _layer() or isinstance(arena, schema.games.gravstrike.model.Arena):
        return schema.dumps(arena, fmt)  # type: ignore[arg-type]
    from editor.games import model as G

    doc = G.document(arena)
    if fmt == "json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    from schema.io import YamlDumper

    text: str = yaml.dump(doc, Dumper=YamlDumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)
    return text


def save(arena: Any, path: str | os.PathLike[str]) -> None:
    if _layer() or isinstance(arena, schema.games.gravstrike.model.Arena):
        schema.save(arena, path)
        return
    write_atomic(path, dumps(arena, format_of(path)).encode("utf-8"))
