"""The Car Wars runner evaluates the checks that need no travel first, so that they run while
the forked workers search (issue 13: full validation of the four-player arena in <= 1 s on two
cores), and assembles the report in the registry's order all the same."""

from __future__ import annotations

from pathlib import Path

from schema import load
from validators.games.carwars import context as ctx_mod
from validators.games.carwars.checks import ALL
from validators.run import validate

SHIPPED = Path(__file__).resolve().parents[2] / "tests" / "carwars" / "data" / "shipped"


def test_setup_checks_run_before_the_travel_table_is_asked_for(monkeypatch) -> None:  # noqa: ANN001
    arena = load(SHIPPED / "crossroads-4p.yaml")
    seen: list[str] = []
    asked: list[int] = []
    table = ctx_mod.CarWarsContext.table

    def watched(self):  # noqa: ANN001, ANN202
        asked.append(len(seen))
        return table.fget(self)

    monkeypatch.setattr(ctx_mod.CarWarsContext, "table", property(watched))
    plain = validate(arena, progress=lambda code, i, n: seen.append(code))
    monkeypatch.undo()
    needs = {v.id: v.needs_travel for v in ALL}
    setup = [c for c in seen if c != "done" and not needs[c]]
    assert seen[:len(setup)] == setup and len(setup) == 10  # cw-game-size (issue 39) is the tenth
    assert asked and min(asked) == len(setup) + 1  # the first travel check is the first to ask
    codes = [v["code"] for v in plain.to_json()["validators"]]
    assert codes == sorted(codes) and list(plain.timings) == codes
    again = validate(arena)
    assert again.to_json() == plain.to_json()
