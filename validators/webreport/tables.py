"""A report's metrics as tables for people, whatever the game: travel matrices (source x goal,
best and worst of each goal marked), rows of records (a zone's or a start's numbers), plain
key -> value lists; anything else is shown as JSON.  Nothing here knows a game: the shapes of
the values decide."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: Longest JSON text shown for a value that fits no table.
MAX_JSON = 4000
#: Most rows a records table shows (the rest are counted).
MAX_ROWS = 200


@dataclass(frozen=True)
class Cell:
    text: str
    mark: str | None = None  # "best" / "worst"
    number: bool = False


@dataclass
class Table:
    key: str
    title: str
    columns: list[str]
    rows: list[tuple[str, list[Cell]]]
    kind: str  # travel / records / values / json
    note: str = ""
    json: str = ""
    targets: dict[int, list[str]] = field(default_factory=dict)


def fmt(v: Any) -> str:
    """A value as a cell shows it: numbers to 3 decimals (no trailing zeros), lists joined."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        text = f"{v:.3f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    if isinstance(v, (list, tuple)):
        text = ", ".join(fmt(x) if not isinstance(x, (list, tuple)) else "(" + fmt(x) + ")" for x in v)
        return text if len(text) <= 80 else text[:77] + "…"
    if isinstance(v, dict):
        text = json.dumps(v, ensure_ascii=False)
        return text if len(text) <= 80 else text[:77] + "…"
    return str(v)


def title_of(key: str) -> str:
    return key.replace("_", " ").capitalize()


def is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _travel_cell(v: Any) -> bool:
    return isinstance(v, dict) and ("time" in v or "reachable" in v)


def is_travel(value: Any) -> bool:
    """source -> goal -> {reachable, turns, time, ...}: a travel matrix."""
    return (isinstance(value, dict) and bool(value) and all(isinstance(row, dict) and row for row in value.values())
            and all(_travel_cell(c) for row in value.values() for c in row.values()))


def travel_table(key: str, value: dict[str, dict[str, dict[str, Any]]]) -> Table:
    goals = list(dict.fromkeys(g for row in value.values() for g in row))
    best: dict[str, float] = {}
    worst: dict[str, float] = {}
    for g in goals:
        times = [row[g]["time"] for row in value.values() if isinstance(row.get(g, {}).get("time"), (int, float))]
        if len(times) > 1 and min(times) != max(times):
            best[g], worst[g] = min(times), max(times)
    rows = []
    for source, row in value.items():
        cells = []
        for g in goals:
            c = row.get(g)
            if c is None:
                cells.append(Cell("", None))
                continue
            t = c.get("time")
            if isinstance(t, (int, float)):
                text = fmt(t)
                extra = [f"{k} {fmt(c[k])}" for k in ("dice",) if isinstance(c.get(k), (int, float)) and c[k]]
                if extra:
                    text += " (" + ", ".join(extra) + ")"
                mark = "best" if best.get(g) == t else "worst" if worst.get(g) == t else None
            elif c.get("reachable") is False:
                text, mark = "unreachable", "worst"
            elif c.get("at_least") is not None:
                text, mark = f"≥ {fmt(c['at_least'])} (undecided)", None
            else:
                text, mark = "undecided", None
            cells.append(Cell(text, mark, True))
        rows.append((source, cells))
    note = "Least time in turns (turns − 1 + the share of the arriving turn); per goal the fastest start is marked best, the slowest worst."
    return Table(key, title_of(key), ["from \\ to", *goals], rows, "travel", note,
                 targets={i: [s] for i, s in enumerate(value)})


def _records(prefix: str, value: Any, out: list[tuple[str, dict[str, Any]]], depth: int = 0) -> bool:
    """Collect the dicts holding scalars (records) under ``value``, labelled by their path."""
    if not isinstance(value, dict) or depth > 4:
        return False
    scalars = {k: v for k, v in value.items() if is_scalar(v) or (isinstance(v, list) and all(is_scalar(x) for x in v))}
    nested = {k: v for k, v in value.items() if k not in scalars}
    if scalars and prefix:
        out.append((prefix, scalars))
    ok = bool(scalars)
    for k, v in nested.items():
        if isinstance(v, dict):
            ok = _records(f"{prefix} · {k}" if prefix else str(k), v, out, depth + 1) or ok
    return ok


def table_of(key: str, value: Any) -> Table:
    """The table of one metric."""
    if is_travel(value):
        return travel_table(key, value)
    if isinstance(value, dict) and value and all(is_scalar(v) or isinstance(v, list) for v in value.values()):
        return Table(key, title_of(key), ["", "value"], [(str(k), [Cell(fmt(v), None, isinstance(v, (int, float)))])
                                                          for k, v in value.items()], "values")
    records: list[tuple[str, dict[str, Any]]] = []
    if isinstance(value, dict) and _records("", value, records) and records:
        columns = list(dict.fromkeys(c for _, r in records for c in r))
        rows = [(label, [Cell(fmt(r.get(c)), None, isinstance(r.get(c), (int, float))) for c in columns])
                for label, r in records[:MAX_ROWS]]
        note = f"{len(records) - MAX_ROWS} more rows not shown" if len(records) > MAX_ROWS else ""
        return Table(key, title_of(key), ["", *columns], rows, "records", note,
                     targets={i: [label.split(" · ")[0]] for i, (label, _) in enumerate(records[:MAX_ROWS])})
    if is_scalar(value):
        return Table(key, title_of(key), ["", "value"], [(title_of(key), [Cell(fmt(value), None, True)])], "values")
    text = json.dumps(value, indent=1, ensure_ascii=False)
    return Table(key, title_of(key), [], [], "json", json=text if len(text) <= MAX_JSON else text[:MAX_JSON] + "\n…")


def metric_tables(metrics: dict[str, Any]) -> list[Table]:
    """Every metric as a table, scalars first gathered into one "Figures" table."""
    scalars = {k: v for k, v in metrics.items() if is_scalar(v)}
    out = []
    if scalars:
        out.append(Table("figures", "Figures", ["", "value"],
                         [(title_of(k), [Cell(fmt(v), None, isinstance(v, (int, float)))]) for k, v in scalars.items()],
                         "values"))
    out += [table_of(k, v) for k, v in metrics.items() if k not in scalars]
    return out
