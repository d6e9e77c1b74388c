"""The veteran-card limit of a season's events (issue 39, point 2), by the Gravstrike book
(shared/seeds/000_bb67baed89c8981a.txt):

* L848: "it's typical for a battle to limit the number of veteran cards allowed. If no limit is
  specified, players should assume that no veteran cards are allowed." (``scenario.veteran_limit``,
  default 0; an event's ``scenario`` may override it: L864 "Event parameters include ... the
  limit on veteran cards");
* L874: UNLIMITED FORMAT - each event's restriction stands alone;
* L876-880: STRICT FORMAT - "From one event to the next, only one tactic veteran card and one
  turbine veteran card can be swapped into the deck." / "only two non-veteran tactic cards and
  two non-veteran turbine cards can be swapped into the deck." / "A player's fixtures can't be
  changed during a series at all."
"""

from __future__ import annotations

from pathlib import Path

from validators.game import analysis
from validators.games.gravstrike.season import strict_veteran_problems
from validators.season import Event, check, load
from validators.report import Report

TINY = "format: arena-studio/1\nsystem: gravstrike\nname: {name}\nscenario:\n  veteran_limit: {limit}\n"


def _event(i: int, name: str) -> Event:
    return Event(i, name, "a.yaml", {}, 1, None, {})


def _problems(*limits: int) -> list[tuple[str, str]]:
    events = [(_event(i, f"E{i + 1}"), n) for i, n in enumerate(limits)]
    return [(e.name, m) for e, m in strict_veteran_problems(events)]


def test_a_strict_deck_gains_at_most_two_veteran_cards_per_event() -> None:
    """0 -> 2 -> 4 is reachable; 0 -> 3 leaves one of the limit unusable, and the next event is
    judged from the 2 a deck could hold."""
    assert _problems(0, 2, 4, 6) == []
    ((name, message),) = _problems(0, 3, 4)
    assert name == "E2" and "allows 3 veteran cards" in message and "at most 2" in message
    assert "1 of the limit cannot be used" in message
    assert "only one tactic veteran card and one turbine veteran card can be swapped into the deck" in message


def test_a_strict_deck_sheds_at_most_four_and_never_its_fixtures() -> None:
    """From 8 a deck sheds at most four (two non-veteran tactic and two turbine cards swapped
    in): 8 -> 4 is met, 8 -> 3 is not. A deck that began with 3 veteran fixtures keeps them:
    3 -> 2 is not met; 2 -> 0 is (two tactic/turbine veterans swapped out)."""
    assert _problems(8, 4) == []
    ((_, message),) = _problems(8, 3)
    assert "can get down to 4 at the fewest" in message and "two non-veteran turbine cards" in message
    ((_, message),) = _problems(3, 2)
    assert "3 veteran fixture(s) never change" in message
    ((_, message),) = _problems(2, 0)
    assert "2 veteran fixture(s) never change" in message
    assert _problems(6, 3) == []


def _season(tmp_path: Path, evolution: str, limits: tuple[int, ...], overrides: bool = True) -> Path:
    (tmp_path / "a.yaml").write_text(TINY.format(name="A", limit=limits[0]), encoding="utf-8")
    events = "".join(f"  - {{name: E{i + 1}, arena: a.yaml, scenario: {{veteran_limit: {n}, respawns: {i}}}}}\n"
                     if overrides else f"  - {{name: E{i + 1}, arena: a.yaml, scenario: {{respawns: {i}}}}}\n"
                     for i, n in enumerate(limits))
    path = tmp_path / "season.yaml"
    path.write_text(f"format: arena-studio-season/1\nsystem: gravstrike\nname: T\ndeck_evolution: {evolution}\n"
                    "events:\n" + events, encoding="utf-8")
    return path


def _cheap(arena: object, source: str) -> Report:
    return Report(arena, source, 1, None, [], [], {}, system="gravstrike")


def test_season_check_reads_each_events_limit_under_the_strict_format(tmp_path: Path) -> None:
    """The event overriding the limit beyond what a strict deck reaches is flagged at its
    override (line 8 of the season file); the unlimited format flags nothing; each event's
    check carries the limit it was played under."""
    result = check(load(_season(tmp_path, "strict", (0, 1, 4, 2))), validate=_cheap)
    found = [(f.severity, f.problem.pointer, f.problem.line) for f in result.findings]
    assert ("warning", "/events/2/scenario/veteran_limit", 8) in found
    assert sum(1 for f in result.findings if "veteran" in f.problem.message) == 1
    assert [e.to_json()["played"]["veteran_limit"] for e in result.events] == [0, 1, 4, 2]
    loose = check(load(_season(tmp_path, "unlimited", (0, 1, 4, 2))), validate=_cheap)
    assert not [f for f in loose.findings if "veteran" in f.problem.message]


def test_an_arena_limit_not_overridden_is_located_at_the_event_arena(tmp_path: Path) -> None:
    result = check(load(_season(tmp_path, "strict", (5, 5, 5), overrides=False)), validate=_cheap)
    assert not [f for f in result.findings if "veteran" in f.problem.message]
    path = _season(tmp_path, "strict", (8, 8), overrides=False)
    (tmp_path / "b.yaml").write_text(TINY.format(name="B", limit=1), encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8").replace("{name: E2, arena: a.yaml", "{name: E2, arena: b.yaml"),
                    encoding="utf-8")
    (f,) = [f for f in check(load(path), validate=_cheap).findings if "veteran" in f.problem.message]
    assert f.problem.pointer == "/events/1/arena" and "can get down to 4" in f.problem.message


def test_the_report_states_the_veteran_limit() -> None:
    """L848: no limit given means no veteran cards: the headline says so; the JSON report's
    scenario gives the limit and the scoring variants."""
    from schema.io import load as load_arena

    arena = load_arena(Path(__file__).resolve().parents[2] / "arenas" / "default.yaml")
    game = analysis("gravstrike")
    report = Report(arena, None, 1, 3, [], [], {}, system="gravstrike")
    assert "· no veteran cards ·" in game.headline(report)
    doc = report.to_json()
    assert doc["scenario"]["veteran_limit"] == 0 and doc["scenario"]["variants"]["gates"] is False
    from dataclasses import replace

    more = replace(arena, scenario=replace(arena.scenario, veteran_limit=2))  # type: ignore[arg-type]
    assert "· 2 veteran cards ·" in game.headline(Report(more, None, 1, 3, [], [], {}, system="gravstrike"))
