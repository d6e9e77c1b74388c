"""Install a game's distribution source tree in this test session as pip would: its package and a
``.dist-info`` (``METADATA``, ``entry_points.txt`` read from the tree's own ``pyproject.toml``)
in a folder put on ``sys.path`` and on the ``PYTHONPATH`` of the ``arena`` commands the tests
run.  No file of the product changes: the studio finds the game through its entry points.

Used by tests/plugin_game (Tortoise Derby, tortoise-derby/) and its real-window test."""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Tortoise Derby's source tree: pyproject.toml and the tortoise_derby package.
TORTOISE_DERBY = Path(__file__).resolve().parent / "tortoise-derby"


def reset_studio_caches() -> None:
    """Forget the installed games and validators (each is looked up once per process)."""
    import schema.io as sio
    import validators.registry as vreg
    from schema.ruleset import load_schema_resource, rulesets

    rulesets.cache_clear()
    load_schema_resource.cache_clear()
    sio.schema_registry.cache_clear()
    sio._system_validator.cache_clear()
    vreg._default = None


def write_distribution(tree: Path, root: Path) -> Path:
    """``tree``'s packages and its ``.dist-info`` under ``root``; returns ``root``."""
    project = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    packages = [p for p in tree.iterdir() if (p / "__init__.py").is_file()]
    for package in packages:
        shutil.copytree(package, root / package.name, ignore=shutil.ignore_patterns("__pycache__"))
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    groups = project.get("entry-points", {})
    (info / "entry_points.txt").write_text(
        "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n" for group, eps in groups.items()),
        encoding="utf-8")
    (info / "top_level.txt").write_text("".join(f"{p.name}\n" for p in packages), encoding="utf-8")
    return root


@contextmanager
def installed(tree: Path, root: Path) -> Iterator[Path]:
    """The distribution of ``tree`` installed under ``root`` for the ``with`` block: on
    ``sys.path`` and on ``PYTHONPATH`` (for subprocesses); removed afterwards."""
    write_distribution(tree, root)
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    old = os.environ.get("PYTHONPATH")
    sys.path.insert(0, str(root))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(root), *([old] if old else [])])
    reset_studio_caches()
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
        for module in [m for m in sys.modules if m.partition(".")[0] in packages]:
            del sys.modules[module]
        reset_studio_caches()
