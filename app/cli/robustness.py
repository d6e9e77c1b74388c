"""``arena validate --robustness N``: the tabletop-robustness run and its human output."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from app.batch import Options
from app.cli.shared import printable, terminal_text
from validators.run import Report
from validators.robustness import Settings, robustness

#: Headline metrics shown in the terminal (the JSON report has them all): the most at risk first.
SHOWN_METRICS = 12


def run_robustness(report: Report, samples: int, seed: int, options: Options, workers: int,
                   scheduler: str | None, err: Console) -> None:
    """Fill ``report.robustness`` (exit 2 for a game without a hook or an unreachable scheduler)."""
    settings = Settings(samples, seed, None, options)
    try:
        if err.is_terminal:
            with Progress(TextColumn("[bold]placing by hand"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=err, transient=True) as bar:
                task = bar.add_task("robustness", total=samples)
                report.robustness = robustness(report.arena, report, settings, workers=workers, scheduler=scheduler,
                                               progress=lambda done, total: bar.update(task, completed=done))
        else:
            report.robustness = robustness(report.arena, report, settings, workers=workers, scheduler=scheduler)
    except LookupError as exc:
        err.print(printable(f"{report.source}: {exc}"), markup=False)
        raise typer.Exit(2) from None
    except (OSError, TimeoutError) as exc:
        err.print(f"cannot reach the Dask scheduler {scheduler}: {exc}", markup=False)
        raise typer.Exit(2) from None


def _pct(share: float) -> str:
    return f"{share * 100:.0f} %"


def _num(v: Any) -> str:
    return "—" if v is None else f"{v:.2f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def sentence(m: dict[str, Any]) -> str:
    """One headline metric in words: "start 3's access gap: 0.4 turns, 0.1–0.9 under table
    error; over the 0.5 tolerance in 38 % of placements"."""
    side = "over" if m["limit"] == "above" else "under"
    return (f"{m['label']}: {_num(m['nominal'])} {m['unit']}, {_num(m['min'])}–{_num(m['max'])} under table error; "
            f"{side} the {_num(m['tolerance'])} tolerance in {_pct(m['share_over'])} of placements")


def print_robustness(section: dict[str, Any], console: Console) -> None:
    tol = section["tolerance"]
    console.print(f"[bold]Tabletop robustness[/]: {section['validated']} placements within ±{_num(tol['length'])} "
                  f"{tol['unit']} and ±{_num(tol['angle'])}° (seed {section['seed']}; {section['skipped']} skipped, "
                  f"{section['redraws']} piece draws redone at the table's edge; not run: "
                  f"{', '.join(section['not_run']) or 'none'})")
    for failure in section.get("failures", []):
        console.print(f"  [red]a sample failed[/]: {terminal_text(failure)}")
    if section["findings"]:
        table = Table(title="Findings under table error", title_justify="left")
        for name in ("finding", "elements", "drawn arena", "placements with it", "flips"):
            table.add_column(name, justify="right" if name in ("placements with it", "flips") else "left")
        for f in section["findings"]:
            table.add_row(terminal_text(f["code"]), terminal_text(", ".join(f["elements"])),
                          "found" if f["nominal"] else "clear", _pct(f["share"]), _pct(f["flip_share"]))
        console.print(table)
    else:
        console.print("no finding appears in any placement")
    ranked = sorted(section["metrics"], key=lambda m: (-m["share_over"], -_spread(m), m["key"]))
    if not ranked:
        console.print()
        return
    table = Table(title=f"Headline metrics under table error (the {min(SHOWN_METRICS, len(ranked))} most at risk of "
                  f"{len(ranked)})", title_justify="left")
    for name in ("metric", "drawn", "min", "median", "max", "tolerance", "beyond it"):
        table.add_column(name, justify="left" if name == "metric" else "right")
    for m in ranked[:SHOWN_METRICS]:
        limit = ("≤ " if m["limit"] == "above" else "≥ ") + _num(m["tolerance"])
        table.add_row(terminal_text(f"{m['label']} ({m['unit']})"), _num(m["nominal"]), _num(m["min"]),
                      _num(m["median"]), _num(m["max"]), limit, _pct(m["share_over"]))
    console.print(table)
    console.print(printable(sentence(ranked[0])), markup=False, highlight=False)
    console.print()


def _spread(m: dict[str, Any]) -> float:
    return float(m["max"] - m["min"]) if m["max"] is not None and m["min"] is not None else 0.0
