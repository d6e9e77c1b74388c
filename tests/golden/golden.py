"""Golden outputs of every shipped arena of the five games, made through the user's own commands.

The ruleset layer (issue 13) moves Gravstrike onto a game-independent layer "with no change of
behaviour": these files were written before that move, and ``test_golden.py`` checks that the
same commands still print them byte for byte.  Regenerate only for an intended change of
behaviour: ``python -m tests.golden.golden`` (then review ``git diff tests/golden/data``).

Raster images (the Universal VTT image, Foundry's background PNG) are not compared byte for
byte: their glyphs depend on the fonts of the machine.  Their JSON is compared with the image
replaced by its pixel size.
"""

from __future__ import annotations

import base64
import json
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"

#: Every shipped arena of the five games (paths relative to the repository): the game plug-in
#: redesign (issue 37) moves every game's code, "before moving, extend tests/golden to every shipped
#: arena of all five games".
ARENAS = tuple(sorted(str(p.relative_to(ROOT)) for p in (ROOT / "arenas").rglob("*.yaml")))

#: ``arena travel`` queries: (arena, from, to, extra options).
TRAVEL = (
    ("arenas/default.yaml", "start:1", "checkpoint:A", ()),
    ("arenas/default.yaml", "start:4", "checkpoint:M", ()),
    ("arenas/default.yaml", "checkpoint:A", "checkpoint:B", ()),
    ("arenas/default.yaml", "start:2", "target:T1", ("--fewest-icons",)),
    ("arenas/examples/lopsided.yaml", "start:2", "checkpoint:A", ()),
    ("arenas/examples/gates-and-decay.yaml", "start:1", "checkpoint:B", ("--tolerance", "0.1")),
    ("arenas/examples/three-player.yaml", "12,12,90,-2", "checkpoint:A", ()),
    ("arenas/car-wars/crossroads-4p.yaml", "start:1", "centre", ()),
    ("arenas/car-wars/twin-pillars-2p.yaml", "start:2", "card:own-1", ("--policy", "safe")),
    ("arenas/car-wars/broken-yard-flawed.yaml", "start:1", "centre", ()),
    ("arenas/arena-rex/colosseum-30.yaml", "deploy:1", "centre", ()),
    ("arenas/arena-rex/lopsided-pit.yaml", "deploy:2", "deploy:1", ()),
)

#: ``arena export`` targets and the output's suffix.
EXPORTS = (("geojson", ".geojson"), ("tiled", ".tmx"), ("tiled", ".tmj"), ("uvtt", ".dd2vtt"),
           ("foundry", ".json"), ("svg", ".svg"))


def arena_cmd(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``arena ARGS`` from the repository root, as a user would."""
    cmd = [sys.executable, "-c", "from app.cli.main import main; main()", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin",
                               # no wall-clock cap: a loaded machine must not turn a golden answer
                               # into "undecided" (the searches stay bounded by their state caps)
                               "ARENA_TIME_LIMIT": "0"})


def _png_size(data: bytes) -> list[int]:
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return [-1, -1]
    return list(struct.unpack(">II", data[16:24]))


def _without_images(text: str) -> str:
    doc = json.loads(text)
    if isinstance(doc.get("image"), str):  # Universal VTT: base64 PNG
        doc["image"] = {"png_size": _png_size(base64.b64decode(doc["image"]))}
    return json.dumps(doc, indent=1, sort_keys=True) + "\n"


def _export(arena: str, target: str, suffix: str) -> dict[str, str]:
    stem = Path(arena).stem
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp) / f"{stem}-{target}{suffix}"
        res = arena_cmd("export", arena, "--to", target, "-o", str(dest))
        text = dest.read_text(encoding="utf-8") if dest.exists() else ""
        if target in ("uvtt", "foundry") and text:
            text = _without_images(text)
        if target == "foundry":
            png = dest.with_suffix(".png")
            text += f"background png size: {_png_size(png.read_bytes()) if png.exists() else None}\n"
        return {f"export/{stem}-{target}{suffix}": text.replace(tmp, "<out>"),
                f"export/{stem}-{target}{suffix}.report": (res.stdout + res.stderr).replace(tmp, "<out>")}


def _travel(arena: str, src: str, goal: str, extra: tuple[str, ...]) -> dict[str, str]:
    name = f"travel/{Path(arena).stem}--{src.replace(',', '_').replace(':', '-')}--{goal.replace(':', '-')}.json"
    return {name: arena_cmd("travel", arena, "--from", src, "--to", goal, *extra, "--json").stdout}


def outputs() -> dict[str, str]:
    """Every golden file's name and the text the commands print or write now (two commands at a
    time: each is its own process)."""
    jobs: list[tuple[Callable[..., dict[str, str]], tuple[Any, ...]]] = []
    for arena in ARENAS:
        jobs.append((lambda a: {f"validate/{Path(a).stem}.json": arena_cmd("validate", a, "--json").stdout}, (arena,)))
        jobs += [(_export, (arena, target, suffix)) for target, suffix in EXPORTS]
    jobs += [(_travel, q) for q in TRAVEL]
    out: dict[str, str] = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for part in pool.map(lambda job: job[0](*job[1]), jobs):
            out.update(part)
    return out


def main() -> None:
    for name, text in outputs().items():
        path = DATA / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({len(text)} chars)")


if __name__ == "__main__":
    main()
