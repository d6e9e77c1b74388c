"""Reading and writing arena files of every installed game, for the editor's document.

Once the ruleset layer's ``schema.io`` reads every system (``schema.ruleset.ruleset_of``
exists), this module defers to it entirely; until then a file whose ``system`` is not
Gravstrike is read here with the same checks: safe YAML/JSON, the game's JSON Schema (problems
named by JSON pointer), the game's model; and written canonically and atomically.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import yaml

import schema
from schema import ruleset as R
from schema.errors import ArenaError, Problem
from schema.io import format_of, write_atomic


def _layer() -> bool:
    return hasattr(R, "ruleset_of")


def loads(text: str, source: str = "<string>") -> Any:
    if _layer():
        return schema.loads(text, source=source, fmt=format_of(source, text))
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        doc = None
    system = doc.get("system", "gravstrike") if isinstance(doc, dict) else "gravstrike"
    if system == "gravstrike":
        return schema.loads(text, source=source, fmt=format_of(source, text))
    from editor.games import model as G
    from editor.games.rulesets import installed

    rs = installed().get(str(system))
    if rs is None:
        raise ArenaError([Problem(source, 0, 0, "/system", f"unknown system {system!r}; installed: "
                                  f"gravstrike, {', '.join(installed())}")])
    found = G.problems(rs, doc)
    if found:
        raise ArenaError([Problem(source, 0, 0, p.split(": ", 1)[0], p.split(": ", 1)[1]) for p in found])
    return rs.build(doc)


def load(path: str | os.PathLike[str]) -> Any:
    if _layer():
        return schema.load(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError([Problem(str(path), 0, 0, "", f"cannot read the file: {exc}")]) from None
    return loads(text, str(path))


def dumps(arena: Any, fmt: str = "yaml") -> str:
    if _layer() or isinstance(arena, schema.model.Arena):
        return schema.dumps(arena, fmt)  # type: ignore[arg-type]
    from editor.games import model as G

    doc = G.document(arena)
    if fmt == "json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    from schema.io import _Dumper

    text: str = yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)
    return text


def save(arena: Any, path: str | os.PathLike[str]) -> None:
    if _layer() or isinstance(arena, schema.model.Arena):
        schema.save(arena, path)
        return
    write_atomic(path, dumps(arena, format_of(path)).encode("utf-8"))
