"""Format migrations: bring older documents up to :data:`schema.ruleset.FORMAT` before validation.

A migration is registered under the version it reads and returns the document in the next
version.  The format version is shared by every game (``format:`` in a file), so migrations are
the format's, not a game's: no game has one yet, and none is named here. ``arena-studio/2`` will add ``MIGRATIONS["arena-studio/1"] = ("arena-studio/2", fn)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from schema.ruleset import FORMAT

Document = dict[str, Any]
Migration = Callable[[Document], Document]

#: from-version -> (to-version, function)
MIGRATIONS: dict[str, tuple[str, Migration]] = {}

_VERSION = re.compile(r"^arena-studio/(\d+)$")


class MigrationError(ValueError):
    """The document's format cannot be brought to the current version."""


def format_version(fmt: str) -> int | None:
    """The number of an ``arena-studio/N`` format string.

    >>> format_version("arena-studio/1")
    1
    >>> format_version("tiled") is None
    True
    """
    m = _VERSION.match(fmt)
    return int(m.group(1)) if m else None


def migrate(doc: Document) -> Document:
    """Return ``doc`` in the current format, applying registered migrations in order."""
    fmt = doc.get("format")
    if not isinstance(fmt, str) or fmt == FORMAT:
        return doc  # the schema reports a missing or mistyped format
    seen: set[str] = set()
    while fmt != FORMAT:
        if fmt in seen:
            raise MigrationError(f"migration loop at format {fmt!r}")
        seen.add(fmt)
        if fmt in MIGRATIONS:
            target, fn = MIGRATIONS[fmt]
            doc = fn(dict(doc))
            doc["format"] = target
            fmt = target
            continue
        n, current = format_version(fmt), format_version(FORMAT)
        if n is not None and current is not None and n > current:
            raise MigrationError(
                f"format {fmt!r} is newer than this version of Arena Studio reads ({FORMAT!r}); "
                "update Arena Studio"
            )
        other = fmt.startswith("arena-studio-")  # a season, a report, a simulation record...: ours, not an arena
        raise MigrationError(f"unknown format {fmt!r}; expected {FORMAT!r}"
                             + (" (this is another kind of Arena Studio document, not an arena)" if other else ""))
    return doc
