"""``arena travel`` and ``/v1/travel`` for the two grid games, which had engines that plan moves
(:func:`engine.gliderpit.travel.plan`, :func:`engine.mothership.travel.plan`) but answered "no
travel model for ... arenas yet": their analyses' travel hooks now read the query in the game's
words and answer with the engine's plan.

- Mothership: every pair of squares of the shipped battlefields against an independent
  breadth-first search ("For every square in which the Units move, they spend 1 AP"; moves are
  orthogonal), and the rounds at the 5 AP one Unit may spend a round.
- Glider-Pit: the answers are the pit planner's own (which tests/gliderpit/test_travel.py checks
  against the reference search); here the query's forms, the path's turns, the errors and exit
  codes.
- The service answers the same documents, inside its response schema."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engine.gliderpit.travel import Glider, plan as pit_plan
from schema import load
from validators.game import TravelQuery, TravelQueryError, analysis_of

ROOT = Path(__file__).resolve().parents[2]
PIT = ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml"
BATTLEFIELDS = [ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml",
                ROOT / "arenas" / "mothership-grid" / "lopsided-battlefield-unfair.yaml"]
ARENA = str(Path(sys.executable).with_name("arena"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ARENA, *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})


def bfs(squares: set[tuple[int, int]], start: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Fewest orthogonal steps from ``start`` to every square: the reference, written apart."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in squares and n not in dist:
                dist[n] = dist[(x, y)] + 1
                todo.append(n)
    return dist


@pytest.mark.parametrize("path", BATTLEFIELDS, ids=lambda p: p.stem)
def test_mothership_ap_agrees_with_a_plain_breadth_first_search_on_every_pair(path: Path) -> None:
    from engine.mothership.battlefield import battlefield_of

    arena = load(path)
    squares = set(battlefield_of(arena).squares)
    game = analysis_of(arena)
    for a in sorted(squares):
        ref = bfs(squares, a)
        for b in sorted(squares):
            got = game.travel(arena, TravelQuery(f"{a[0]},{a[1]}", f"{b[0]},{b[1]}")).document
            if b not in ref:
                assert got["status"] == "unreachable"
                continue
            assert (got["status"], got["ap"]) == ("reached", ref[b]), (a, b)
            assert got["rounds"] == math.ceil(ref[b] / 5)  # "a maximum of 5 are utilizable by 1 single Unit"
            steps = [(p["x"], p["y"]) for p in got["path"]]
            assert steps[0] == a and steps[-1] == b and len(steps) == ref[b] + 1
            assert all(abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 and q in squares for p, q in zip(steps, steps[1:]))


def test_mothership_build_and_approach_places() -> None:
    """From player 1's build squares to the squares next to player 2's Mothership: the length of
    the battlefield less one (the book's 3 x 5: 4 AP, one round)."""
    arena = load(BATTLEFIELDS[0])
    got = analysis_of(arena).travel(arena, TravelQuery("build:1", "approach:2")).document
    assert (got["ap"], got["rounds"]) == (4, 1)
    with pytest.raises(TravelQueryError, match="players are 1, 2") as exc:
        analysis_of(arena).travel(arena, TravelQuery("build:3", "approach:2"))
    assert exc.value.param == "from"
    with pytest.raises(TravelQueryError, match="not on the battlefield") as exc:
        analysis_of(arena).travel(arena, TravelQuery("build:1", "7,7"))
    assert exc.value.param == "to"


def test_glider_pit_answers_are_the_planners() -> None:
    """A zone to the centre, a zone to a zone, a glider in flight to a hex: the engine's turns and
    altitude, a path that starts at turn 0 and ends on the goal in the answer's last turn."""
    arena = load(PIT)
    game = analysis_of(arena)
    cases = [("Z1", "centre", "Z1", "centre"), ("Z2", "Z5", "Z2", "Z5"),
             ("0,5,0,3,18", "0,-5", Glider((0, 5), 0, 3, 18), [(0, -5)])]
    for src, dst, source, goal in cases:
        doc = game.travel(arena, TravelQuery(src, dst)).document
        ref = pit_plan(arena, source, goal)  # type: ignore[arg-type]
        assert (doc["status"], doc["turns"], doc["altitude"]) == (ref.status, ref.turns, ref.altitude) == \
            ("reached", ref.turns, ref.altitude)
        assert doc["path"][0]["turn"] == 0 and doc["path"][-1]["turn"] == doc["turns"] == doc["time"]
    last = game.travel(arena, TravelQuery("Z1", "0,0")).document["path"][-1]
    assert last["hex"] == [0, 0]


@pytest.mark.parametrize(("src", "dst", "param", "words"), [
    ("Z9", "centre", "from", "a source is a launch zone (Z1, Z2, Z3, Z4, Z5, Z6)"),
    ("0,5,7,3,18", "centre", "from", "facing is 0-5"),
    ("0,5,0,9,18", "centre", "from", "speed is 1-5"),
    ("0,5,0,3,25", "centre", "from", "altitude is above FLOOR"),
    ("Z1", "moon", "to", "a goal is centre, a launch zone"),
    ("Z1", "40,40", "to", "not in the pit"),
])
def test_glider_pit_bad_queries_name_their_part(src: str, dst: str, param: str, words: str) -> None:
    arena = load(PIT)
    with pytest.raises(TravelQueryError, match=words.replace("(", r"\(").replace(")", r"\)")) as exc:
        analysis_of(arena).travel(arena, TravelQuery(src, dst))
    assert exc.value.param == param


def test_the_command_line_for_both_grid_games() -> None:
    r = run("travel", str(PIT), "--from", "Z1", "--to", "centre")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Z1 -> centre: 3 turn(s), ending the Movement Phase at altitude 20")
    assert "turn-left" in r.stdout and "launch" in r.stdout
    doc = json.loads(run("travel", str(BATTLEFIELDS[0]), "--from", "build:2", "--to", "approach:1", "--json").stdout)
    assert (doc["ap"], doc["rounds"], doc["status"]) == (4, 1, "reached")
    bad = run("travel", str(BATTLEFIELDS[0]), "--from", "foo", "--to", "approach:1")
    assert bad.returncode == 2 and "a source is build:P, approach:P (players 1, 2) or a square x,y" in bad.stderr


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from app.service.app import create_app
    from app.service.limits import ServiceConfig

    with TestClient(create_app(ServiceConfig(workers=1, timeout=300)), raise_server_exceptions=False) as c:
        yield c


def test_the_service_answers_the_same_documents_in_its_schema(client: TestClient) -> None:
    import jsonschema

    from app.service.app import TRAVEL_SCHEMA

    yaml_ct = {"content-type": "application/yaml"}
    for path, src, dst in ((PIT, "Z2", "centre"), (BATTLEFIELDS[0], "build:1", "approach:2")):
        r = client.post(f"/v1/travel?from={src}&to={dst}", content=path.read_bytes(), headers=yaml_ct)
        assert r.status_code == 200, r.text
        arena = load(path)
        assert r.json() == analysis_of(arena).travel(arena, TravelQuery(src, dst)).document
        jsonschema.validate(r.json(), TRAVEL_SCHEMA)
    r = client.post("/v1/travel?from=Z9&to=centre", content=PIT.read_bytes(), headers=yaml_ct)
    assert r.status_code == 422 and r.json()["problems"][0]["pointer"] == "/from"
