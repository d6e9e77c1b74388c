"""No game in shared code (issue 37: "Shared modules talk only to the interface: no game id in
shared code (a test enforces it; ids may appear in docstrings as examples)").

A game's code lives in its own packages — ``schema/games/<game>/``, ``engine/<game>/``,
``validators/games/<game>/``, ``editor/games/<game>/`` — named by the entry points that register it.
Every other module of the product is shared: it may not import a game's package nor hold a game's
id in a string (outside docstrings and comments), so a sixth game is added without touching it.
"""

from __future__ import annotations

import ast
import re
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("schema", "engine", "validators", "editor", "app")


def _games() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The shipped games' ids and package names, from the project's own entry points."""
    ids, names = set(), set()
    for ep in entry_points(group="arena_studio.rulesets"):
        module = ep.value.partition(":")[0]
        if module.startswith("schema.games."):  # one of ours, not a test plug-in
            ids.add(ep.name)
            names.add(module.split(".")[2])
    return tuple(sorted(ids)), tuple(sorted(names))


IDS, NAMES = _games()
_LOCAL = re.compile(r"^(?:\w+\.)*games\.(?P<a>\w+)(?:\.|$)|^engine\.(?P<b>\w+)(?:\.|$)")


def _game_of(module: str) -> str | None:
    """The game whose package holds ``module`` (``validators.games.carwars.run`` -> ``carwars``)."""
    m = _LOCAL.match(module)
    name = m and (m.group("a") or m.group("b"))
    return name if name in NAMES else None


def offences(path: Path, module: str) -> list[str]:
    """Each game id in a string and each import of a game's package in a shared module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    words = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, IDS)) + r")(?![\w-])")
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                and words.search(node.value):
            out.append(f"{module}:{node.lineno}: names a game: {node.value[:60]!r}")
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if _game_of(name) is not None:
                out.append(f"{module}:{node.lineno}: imports the game package {name}")
                break
    return out


def shared_modules() -> list[tuple[Path, str]]:
    out = []
    for pkg in PRODUCT:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            if _game_of(module) is None:
                out.append((path, module))
    return out


def test_the_five_games_are_found() -> None:
    assert len(IDS) == 5 and len(NAMES) == 5, (IDS, NAMES)


def test_no_game_in_shared_code() -> None:
    found = [o for path, module in shared_modules() for o in offences(path, module)]
    assert not found, "\n".join(found)


def test_the_check_sees_ids_and_imports_not_docstrings(tmp_path: Path) -> None:
    game, name = IDS[0], NAMES[0]
    bad = tmp_path / "bad.py"
    bad.write_text(f'"""Docstrings may name {game} as an example."""\n'
                   f"from validators.games.{name} import run\n"
                   f"import engine.{name}.checks\n"
                   f"SYSTEM = {game!r}\n"
                   f"OTHER = 'x-{game}-y'\n", encoding="utf-8")
    got = [o.split(": ", 1)[1] for o in offences(bad, "bad")]
    assert got == [f"imports the game package validators.games.{name}", f"imports the game package engine.{name}.checks",
                   f"names a game: {game!r}"], got
