"""Errors of the format layer: every problem carries file, line, column and JSON pointer.

>>> p = Problem(file="arenas/x.yaml", line=14, column=7, pointer="/walls/3/shape/radius",
...             message="-1 is less than the minimum of 0.001")
>>> str(p)
'arenas/x.yaml:14:7: /walls/3/shape/radius: -1 is less than the minimum of 0.001'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, order=True)
class Problem:
    """One located problem in an arena file. ``line``/``column`` are 1-based (0 = unknown)."""

    file: str
    line: int
    column: int
    pointer: str
    message: str

    def __str__(self) -> str:
        where = self.file if self.line == 0 else f"{self.file}:{self.line}:{self.column}"
        ptr = self.pointer if self.pointer else "/"
        return f"{where}: {ptr}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column,
                "pointer": self.pointer, "message": self.message}


@dataclass
class ArenaError(Exception):
    """Raised when an arena file cannot be read; ``problems`` lists every problem found."""

    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


class ArenaIOError(ArenaError):
    """The file could not be read or written at all (missing, unreadable, too large)."""


def escape_pointer_token(token: str | int) -> str:
    """Escape one JSON-pointer reference token (RFC 6901).

    >>> escape_pointer_token("a/b~c")
    'a~1b~0c'
    """
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(path: tuple[str | int, ...] | list[str | int]) -> str:
    """Join a path into a JSON pointer.

    >>> pointer(("walls", 3, "shape"))
    '/walls/3/shape'
    >>> pointer(())
    ''
    """
    return "".join("/" + escape_pointer_token(t) for t in path)
