"""A directory named on the command line may hold Arena Studio's other documents beside its
arenas - the shipped ``arenas/`` holds a season file. ``arena validate DIR`` (one process, the
batch runner, the plain command line) and ``arena pack build DIR`` leave each of them out with a
line on stderr naming it, and go on with the arenas; before, the season file stopped
``arena validate arenas/`` with exit 2 and nothing validated. A file named on its own is still
read as an arena, and the loader's error says what it is."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.paths import expand, other_document

ROOT = Path(__file__).resolve().parents[2]
ARENA = str(Path(sys.executable).with_name("arena"))


@pytest.fixture()
def mixed(tmp_path: Path) -> Path:
    """A folder as a tournament organiser keeps one: two arenas, the season that uses them, a
    saved validation report, a simulation record as JSON, and a broken arena."""
    d = tmp_path / "league"
    d.mkdir()
    shutil.copy(ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml", d / "a-battlefield.yaml")
    shutil.copy(ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml", d / "b-pit.yaml")
    shutil.copy(ROOT / "arenas" / "autumn-league.season.yml", d / "autumn.season.yml")
    (d / "c-report.json").write_text(json.dumps({"format": "arena-studio-report/1", "findings": []}))
    (d / "d-sim.json").write_text(json.dumps({"format": "arena-studio-simulation/1", "games": 3}, indent=2))
    return d


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([ARENA, *args], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)


def test_other_documents_are_told_apart_from_arenas_and_from_broken_files(mixed: Path, tmp_path: Path) -> None:
    assert other_document(mixed / "autumn.season.yml") == "arena-studio-season/1"
    assert other_document(mixed / "c-report.json") == "arena-studio-report/1"
    assert other_document(mixed / "a-battlefield.yaml") is None
    # the key nested, a comment or an arena's own format: not a document of another kind
    nested = tmp_path / "nested.yaml"
    nested.write_text("format: arena-studio/1\nnotes:\n  format: arena-studio-season/1\n")
    assert other_document(nested) is None
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "arena-studio-report/1", ')
    assert other_document(broken) is None  # malformed: the loader explains it, with its line and column
    notes: list[str] = []
    assert [p.name for p in expand([mixed], note=notes.append)] == ["a-battlefield.yaml", "b-pit.yaml"]
    assert [n.split(": skipped: ")[0] for n in notes] == [str(mixed / "autumn.season.yml"), str(mixed / "c-report.json"),
                                                          str(mixed / "d-sim.json")]
    assert "`arena season check` reads it" in notes[0] and "a validation report" in notes[1]
    # named on its own, a file is always taken
    assert expand([mixed / "autumn.season.yml"], note=notes.append) == [mixed / "autumn.season.yml"]


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]], ids=["one process", "batch"])
def test_validate_a_directory_skips_them_out_loud_and_validates_the_arenas(mixed: Path, jobs: list[str]) -> None:
    done = run("validate", "--json", *jobs, str(mixed))
    assert done.returncode == 0, done.stderr
    skipped = [line for line in done.stderr.splitlines() if ": skipped: " in line]
    assert len(skipped) == 3 and "autumn.season.yml" in skipped[0]
    reports = json.loads(done.stdout)
    assert sorted(Path(r["arena"]["file"]).name for r in reports) == ["a-battlefield.yaml", "b-pit.yaml"]


def test_the_shipped_arenas_folder_validates(tmp_path: Path) -> None:
    """``arena validate arenas/`` as a new user types it: the default arena's report, the season
    file named as skipped."""
    done = run("validate", "--enable", "bounds", "arenas/")
    assert done.returncode == 0, done.stderr
    assert "arenas/autumn-league.season.yml: skipped: a season file" in done.stderr
    assert "Tri-Crown" in done.stdout


def test_a_season_named_as_an_arena_is_refused_saying_what_it_is() -> None:
    done = run("validate", "arenas/autumn-league.season.yml")
    assert done.returncode == 2
    assert "arena-studio-season/1" in done.stderr and "another kind of Arena Studio document, not an arena" in done.stderr


def test_pack_build_of_a_directory_skips_them_too(mixed: Path, tmp_path: Path) -> None:
    out = tmp_path / "league.arenapack.zip"
    (mixed / "b-pit.yaml").unlink()
    done = run("pack", "build", str(mixed), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert sum(": skipped: " in line for line in done.stderr.splitlines()) == 3
    assert "1 arena(s)" in done.stderr and out.exists()


@pytest.mark.parametrize("args", [[], ["--json"], ["--jobs", "2"]], ids=["plain", "json", "batch"])
def test_a_directory_with_no_arena_is_an_input_error_not_a_clean_verdict(mixed: Path, tmp_path: Path,
                                                                        args: list[str]) -> None:
    """An empty folder (or one holding only a season and reports) validated to exit 0 with no
    output: "never silently clean". Now exit 2, naming the directory, as a missing file is."""
    for name in ("a-battlefield.yaml", "b-pit.yaml"):
        (mixed / name).unlink()
    empty = tmp_path / "empty"
    empty.mkdir()
    for folder in (empty, mixed):
        done = run("validate", *args, str(folder))
        assert done.returncode == 2, done.stdout
        assert f"error: {folder}: no arena file in this directory" in done.stderr
        assert done.stdout == ""
    done = run("pack", "build", str(empty), "-o", str(tmp_path / "e.arenapack.zip"))
    assert done.returncode == 2 and "no arena file in this directory" in done.stderr


def test_check_takes_directories_as_validate_does(mixed: Path, tmp_path: Path) -> None:
    """``arena check DIR``: the arenas in it checked, the other documents named as skipped (it
    answered "is a directory; name arena files"); an empty directory is an input error."""
    done = run("check", str(mixed))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2 of 2 file(s) valid"
    assert sum(": skipped: " in line for line in done.stderr.splitlines()) == 3
    (mixed / "b-pit.yaml").write_text("format: arena-studio/1\nname: [unclosed\n")
    done = run("check", "--json", str(mixed))
    assert done.returncode == 1
    assert {Path(p["file"]).name for p in json.loads(done.stdout)} == {"b-pit.yaml"}
    empty = tmp_path / "empty"
    empty.mkdir()
    done = run("check", str(empty))
    assert done.returncode == 2 and f"error: {empty}: no arena file in this directory" in done.stderr
