"""Item 11 of issue 16: ``kill -9`` during a save left hidden ``.NAME.*.tmp`` files behind (129
files, 66 MB over 400 kills). The next save of that file removes its stale ones; a save still in
progress (it holds a lock on its temporary until the rename) keeps its file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import schema.io as sio
from schema import load, remove_stale_temp_files, save

ROOT = Path(__file__).resolve().parents[2]

#: A child that starts saving ``argv[1]`` and stops between writing its temporary and renaming
#: it (where a kill -9 leaves the temporary behind), printing "ready" once there.
STUCK_SAVE = """
import os, sys, time
import schema.io as sio
from schema import load
sio.FRESH_TEMP_SECONDS = 600.0  # keep the earlier killed savers' temporaries, however slow the machine
real_replace = os.replace
def stuck(src, dst):
    print("ready", flush=True)
    time.sleep(600)
sio.os.replace = stuck
sio.save(load(sys.argv[2]), sys.argv[1])
"""


def stuck_saver(target: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", STUCK_SAVE, str(target), str(ROOT / "arenas" / "default.yaml")],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def temporaries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def no_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Temporaries count as stale at once (normally after FRESH_TEMP_SECONDS)."""
    monkeypatch.setattr(sio, "FRESH_TEMP_SECONDS", 0.0)


def test_killed_saves_leave_temporaries_that_the_next_save_removes(tmp_path: Path, no_grace: None) -> None:
    target = tmp_path / "arena.yaml"
    arena = load(ROOT / "arenas" / "default.yaml")
    save(arena, target)
    for _ in range(3):
        proc = stuck_saver(target)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    left = temporaries(tmp_path)
    assert len(left) == 3 and all(n.startswith(".arena.yaml.") for n in left)  # what the issue saw
    save(arena, target)
    assert temporaries(tmp_path) == []
    assert load(target) == arena


def test_a_save_in_progress_keeps_its_temporary(tmp_path: Path, no_grace: None) -> None:
    target = tmp_path / "arena.yaml"
    arena = load(ROOT / "arenas" / "default.yaml")
    proc = stuck_saver(target)  # alive, holding its lock
    try:
        (live,) = temporaries(tmp_path)
        save(arena, target)
        assert temporaries(tmp_path) == [live]
        assert remove_stale_temp_files(directory=tmp_path) == []
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert [p.name for p in remove_stale_temp_files(directory=tmp_path)] == [live]


def test_only_arena_temporaries_are_swept_and_fresh_ones_wait(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "fresh" is under 10 minutes here (2 s by default): the fresh temporary made below must stay
    # fresh until the sweep however slow the machine; the old ones are an hour old
    monkeypatch.setattr(sio, "FRESH_TEMP_SECONDS", 600.0)
    old = time.time() - 3600
    names = [".a.yaml.abcdefgh.tmp", ".b.json.0123_xyz.tmp", ".notes.txt.abcdefgh.tmp", ".a.yaml.tmp", "a.yaml.abcdefgh.tmp"]
    for n in names:
        (tmp_path / n).write_text("x")
        os.utime(tmp_path / n, (old, old))
    (tmp_path / ".c.yaml.freshnow.tmp").write_text("x")  # a save that may just have begun
    (tmp_path / ".link.yaml.abcdefgh.tmp").symlink_to(tmp_path / "a.yaml.abcdefgh.tmp")
    removed = sorted(p.name for p in remove_stale_temp_files(directory=tmp_path))
    assert removed == [".a.yaml.abcdefgh.tmp", ".b.json.0123_xyz.tmp"]
    # the file's own sweep looks at that file's temporaries only
    (tmp_path / ".a.yaml.zzzzzzzz.tmp").write_text("x")
    os.utime(tmp_path / ".a.yaml.zzzzzzzz.tmp", (old, old))
    assert [p.name for p in remove_stale_temp_files(tmp_path / "b.yaml")] == []
    assert [p.name for p in remove_stale_temp_files(tmp_path / "a.yaml")] == [".a.yaml.zzzzzzzz.tmp"]
