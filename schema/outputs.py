"""Writing a command's output files safely: never through a symbolic link, never over one of
the command's own input files, always atomically (:func:`schema.io.write_atomic`: a temporary
file beside the target, fsync, rename).

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> src = os.path.join(d, "a.yaml"); open(src, "w").close()
>>> check_outputs([src], inputs=[src])
Traceback (most recent call last):
...
schema.outputs.OutputError: ...a.yaml: is the input file; refusing to overwrite it (choose another output file)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from schema.errors import ArenaError

PathLike = str | os.PathLike[str]


class OutputError(OSError):
    """An output file that must not or cannot be written (the message names it and says why)."""


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def check_outputs(outputs: Sequence[PathLike], inputs: Iterable[PathLike] = ()) -> None:
    """Refuse outputs that are symbolic links (even dangling ones), directories, one of the
    inputs (also through another name or a hard link), or named twice."""
    ins = [Path(p) for p in inputs]
    seen: list[Path] = []
    for out in map(Path, outputs):
        if out.is_symlink():
            raise OutputError(f"{out}: is a symbolic link; refusing to write through it (remove the link or choose "
                              "another output file)")
        if out.is_dir():
            raise OutputError(f"{out}: is a directory, not a file")
        for src in ins:
            if _same(out, src):
                raise OutputError(f"{out}: is the input file; refusing to overwrite it (choose another output file)")
        if any(_same(out, other) for other in seen):
            raise OutputError(f"{out}: would be written twice")
        seen.append(out)


def write_outputs(files: Sequence[tuple[PathLike, bytes]], inputs: Iterable[PathLike] = ()) -> None:
    """Check every output first (:func:`check_outputs`), then write each atomically."""
    from schema.io import write_atomic  # (jsonschema, YAML: only when a file is written)

    check_outputs([p for p, _ in files], inputs)
    for path, data in files:
        try:
            write_atomic(path, data)
        except ArenaError as exc:
            raise OutputError(str(exc)) from None


def write_output(path: PathLike, data: bytes, inputs: Iterable[PathLike] = ()) -> None:
    """One output file: see :func:`write_outputs`."""
    write_outputs([(path, data)], inputs)


__all__ = ["OutputError", "check_outputs", "write_output", "write_outputs"]
