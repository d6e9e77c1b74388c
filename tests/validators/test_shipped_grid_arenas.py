"""The shipped grid arenas (issue 15: "the default arenas of both games validate clean and a
deliberately unfair one of each trips its codes"), validated as ``arena validate`` does
(``validators.run.validate``), packed and verified (``arena pack verify``), and served
(``/v1/validate``, ``/v1/validators``, ``/v1/packs/verify``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from schema import load
from schema.games import gliderpit, mothership
from schema.packs import PackArena, PackInfo, build_pack, read_pack
from app.cli.export import revalidate_report
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]
GRID_ARENAS = sorted([*(ROOT / "arenas" / "glider-pit-gladiators").glob("*.yaml"),
                      *(ROOT / "arenas" / "mothership-grid").glob("*.yaml")])
YAML = {"content-type": "application/yaml"}
runner = CliRunner()


def listed_codes(arena: object) -> set[str]:
    """The codes an arena's description says it trips (none for a fair arena)."""
    return set(re.findall(r"\b(?:gp|mg)-[a-z-]*[a-z]", getattr(arena, "description", None) or ""))


def test_each_grid_game_ships_a_clean_default_and_an_unfair_arena() -> None:
    names = {p.relative_to(ROOT / "arenas").as_posix() for p in GRID_ARENAS}
    assert names == {"glider-pit-gladiators/hexagonal-pit.yaml", "glider-pit-gladiators/crooked-pit-unfair.yaml",
                     "mothership-grid/battlefield-3x5.yaml", "mothership-grid/lopsided-battlefield-unfair.yaml"}
    assert load(ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml") == gliderpit.default_arena()
    assert load(ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml") == mothership.default_arena()


@pytest.mark.parametrize("path", GRID_ARENAS, ids=lambda p: p.name)
def test_shipped_arena_trips_exactly_the_codes_its_description_lists(path: Path) -> None:
    """The default pit (19 rows, six zones) and the book's 3 x 5 battlefield are clean; each
    unfair arena trips every code its description names and no other."""
    arena = load(path)
    found = {f.code for f in validate(arena, source=str(path)).findings}
    assert found == listed_codes(arena)
    assert ("unfair" in path.name) == bool(found)


def arena_cli(*args: str) -> object:
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.mark.parametrize("path", GRID_ARENAS, ids=lambda p: p.name)
def test_arena_validate_exits_by_the_findings(path: Path) -> None:
    r = arena_cli("validate", str(path))
    assert r.exit_code == (1 if "unfair" in path.name else 0), r.output  # type: ignore[attr-defined]


# ------------------------------------------------------------------ packs


@pytest.fixture(scope="module")
def pack_bytes() -> bytes:
    """A pack of the four shipped grid arenas with their reports.  The previews and print are
    opaque files to the pack (the renderer that makes them is the editor's, which validators'
    tests do not import): a PNG of the arena's Tiled tileset, an SVG title and a one-line PDF
    header stand in for them here; tests/packs/test_grid_pack.py builds real ones."""
    from schema.formats import get

    arenas = []
    for path in GRID_ARENAS:
        arena = load(path)
        report = validate(arena, source=f"arenas/{path.stem}.json").to_json()
        png = next(iter(get("tiled").write(arena).files.values()))
        svg = f'<svg xmlns="http://www.w3.org/2000/svg"><title>{arena.name}</title></svg>'.encode()
        arenas.append(PackArena(path.stem, arena, report, png, svg, b"%PDF-1.4\n%%EOF\n"))
    return build_pack(PackInfo(name="grid arenas", version="1.0.0"), arenas, label="grid")


def test_pack_lists_each_grid_arena_with_its_players_and_verdict(pack_bytes: bytes) -> None:
    pack = read_pack(pack_bytes, label="grid")
    entries = {e["id"]: e for e in pack.manifest["arenas"]}
    assert entries["hexagonal-pit"]["players"] == 6  # the scenario's gliders
    assert entries["battlefield-3x5"]["players"] == 2
    assert entries["hexagonal-pit"]["validation"]["worst"] is None
    assert entries["crooked-pit-unfair"]["validation"]["worst"] == "error"
    for entry, arena, stored in pack.arenas():
        assert stored["system"] == arena.system
        assert revalidate_report(arena, entry["path"], stored) == []


def test_arena_pack_verify_and_extract(pack_bytes: bytes, tmp_path: Path) -> None:
    path = tmp_path / "grid.arenapack.zip"
    path.write_bytes(pack_bytes)
    r = arena_cli("pack", "verify", str(path))
    assert r.exit_code == 0 and "4 arena(s): validation agrees" in r.output, r.output  # type: ignore[attr-defined]
    r = arena_cli("pack", "extract", str(path), "-o", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    assert load(tmp_path / "out" / "arenas" / "hexagonal-pit.json") == gliderpit.default_arena()


# ------------------------------------------------------------------ the service


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from app.service.app import create_app
    from app.service.limits import ServiceConfig

    with TestClient(create_app(ServiceConfig(workers=1, timeout=300)), raise_server_exceptions=False) as c:
        yield c


def test_service_lists_the_grid_codes_tagged_with_their_games(client: TestClient) -> None:
    games = {v["code"]: v["games"] for v in client.get("/v1/validators").json()}
    gp = sorted(c for c in games if c.startswith("gp-"))
    mg = sorted(c for c in games if c.startswith("mg-"))
    assert len(gp) == 16 and all(games[c] == ["glider-pit-gladiators"] for c in gp)
    assert len(mg) == 5 and all(games[c] == ["mothership-grid"] for c in mg)


@pytest.mark.parametrize("path", GRID_ARENAS, ids=lambda p: p.name)
def test_service_validates_grid_arenas(client: TestClient, path: Path) -> None:
    r = client.post("/v1/validate", content=path.read_bytes(), headers=YAML)
    assert r.status_code == 200, r.text
    doc = r.json()
    arena = load(path)
    assert doc["system"] == arena.system and doc["tier"] is None
    assert {f["code"] for f in doc["findings"]} == listed_codes(arena)
    assert r.headers["Arena-Verdict"] == ("fail" if "unfair" in path.name else "pass")


def test_service_refuses_another_games_validator_on_a_grid_arena(client: TestClient) -> None:
    body = (ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml").read_bytes()
    r = client.post("/v1/validate", content=body, headers=YAML, params={"enable": ["gp-rows"]})
    assert r.status_code == 422 and "does not apply to mothership-grid" in r.json()["detail"]


def test_service_verifies_a_grid_pack(client: TestClient, pack_bytes: bytes) -> None:
    r = client.post("/v1/packs/verify", content=pack_bytes, headers={"content-type": "application/zip"})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["verified"] is True and len(doc["arenas"]) == 4
