"""Property test: whatever YAML or JSON value is loaded, ``load`` raises only ArenaError."""

from __future__ import annotations

import json

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schema import ArenaError, loads

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=12))
KEYS = ["format", "system", "name", "bounds", "walls", "checkpoints", "shape", "type", "center", "radius",
        "points", "size", "id", "kind", "player", "position", "facing", "scenario", "turbine", "x-a"]
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=6)), children, max_size=5),
    ),
    max_leaves=25,
)
almost_arenas = st.fixed_dictionaries(
    {"format": st.sampled_from(["arena-studio/1", "arena-studio/2", "x"]), "system": st.just("gravstrike"),
     "name": st.text(max_size=5)},
    optional={k: values for k in ("bounds", "walls", "checkpoints", "start_positions", "scenario", "turbine")},
)


def _load_only_raises_arena_error(text: str, fmt: str) -> None:
    try:
        loads(text, source="fuzz", fmt=fmt)  # type: ignore[arg-type]
    except ArenaError as exc:
        assert exc.problems and all(p.file == "fuzz" for p in exc.problems)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(values, almost_arenas))
def test_any_json_value(value: object) -> None:
    _load_only_raises_arena_error(json.dumps(value), "json")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(values, almost_arenas))
def test_any_yaml_value(value: object) -> None:
    _load_only_raises_arena_error(yaml.safe_dump(value), "yaml")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_any_text(text: str) -> None:
    _load_only_raises_arena_error(text, "yaml")
    _load_only_raises_arena_error(text, "json")
