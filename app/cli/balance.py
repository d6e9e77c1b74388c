"""``arena balance FILE -o FIXED``: propose and apply the smallest symmetric moves that remove the
arena's findings (:mod:`validators.balance`), print them in words with the before/after findings
and metrics, and write the fixed arena (atomically; never over the input).

Exit codes: 0 every chosen finding was fixed (or there was none to fix), 1 some could not be fixed
(no move within the steps removed it, or the time budget ran out - the output says which; the
fixes found are still written), 2 bad input (unreadable or invalid file, unknown code or free
kind, a game without proposed fixes, an output that cannot be written), 3 an internal error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from app.cli.shared import app, fail, printable, terminal_text, working_on
from validators.options import BALANCE_BUDGET

if TYPE_CHECKING:  # the rest is imported when the command runs (tests/test_import_weight.py)
    from rich.console import Console

    from validators.balance import Proposal

STATUS = {"fixed": "[green]fixed[/]", "no-fix": "[red]no fix found[/]", "no-move": "[yellow]nothing to move[/]",
          "stopped": "[red]budget ran out[/]"}


@app.command("balance")
def balance_cmd(
    file: Annotated[Path, typer.Argument(help="The arena file to fix.", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the fixed arena (.yaml, .yml or .json).",
                                         show_default=False)],
    free: Annotated[Optional[str], typer.Option("--free", help="Comma-separated kinds that may move, e.g. "
                                                "starts,fields (default: every kind the game knows).")] = None,
    code: Annotated[Optional[str], typer.Option("--code", help="Fix only the findings of this validator code.")] = None,
    element: Annotated[Optional[list[str]], typer.Option("--element", help="Fix only findings naming this element "
                                                         "(repeatable: all of them).")] = None,
    budget: Annotated[float, typer.Option("--budget", min=0.0, help="Seconds the search may take; it stops before its "
                                          "next validation when they are up.")] = BALANCE_BUDGET,
    severity: Annotated[str, typer.Option("--severity", help="Without --code: fix findings at or above this "
                                          "severity (error|warning|info).")] = "warning",
    as_json: Annotated[bool, typer.Option("--json", help="Print the proposal as JSON (edits, fixes, findings and "
                                          "metrics before and after).")] = False,
) -> None:
    """Propose the smallest symmetric moves that remove the arena's findings, checked by
    re-validating, and write the fixed arena."""
    from rich.console import Console

    from schema import ArenaError, dumps, load
    from schema.io import format_of
    from schema.outputs import OutputError, check_outputs, write_output
    from validators.balance import hook_of, propose
    from validators.options import Options
    from validators.registry import default_registry, games_of

    if severity not in ("error", "warning", "info"):
        raise typer.BadParameter("use error, warning or info", param_hint="--severity")
    working_on(file)
    try:
        arena = load(file)
    except ArenaError as exc:
        raise fail(str(exc)) from None
    try:
        hook = hook_of(arena)
    except LookupError as exc:
        raise fail(f"{file}: {exc}") from None
    kinds = None if free is None else [k.strip() for k in free.split(",") if k.strip()]
    if kinds is not None and (not kinds or any(k not in hook.free for k in kinds)):
        bad = ", ".join(k for k in kinds if k not in hook.free) or repr(free)
        raise typer.BadParameter(f"{bad}: the kinds that may move are {', '.join(hook.free)}", param_hint="--free")
    if code is not None:
        system = str(arena.system)
        registry = default_registry()
        known = [c for c in registry.codes() if system in games_of(registry.get(c))]
        if code not in known:
            raise typer.BadParameter(f"{code!r} is not a validator of {system}: {', '.join(known)}", param_hint="--code")
    try:
        check_outputs([output], inputs=[file])
    except OutputError as exc:
        raise fail(str(exc)) from None
    err = Console(file=sys.stderr, soft_wrap=True)
    if err.is_terminal and not as_json:
        with err.status("validating and searching for fixes…"):
            proposal = propose(arena, code=code, elements=element or (), free=kinds, budget=budget, options=Options(),
                               severity=severity)
    else:
        proposal = propose(arena, code=code, elements=element or (), free=kinds, budget=budget, options=Options(),
                           severity=severity)
    if proposal.changed:
        try:
            write_output(output, dumps(proposal.arena, format_of(output)).encode("utf-8"), inputs=[file])
        except OSError as exc:
            raise fail(f"{output}: cannot write it: {exc.strerror or exc}") from None
    if as_json:
        doc = proposal.to_json()
        doc["source"], doc["output"] = str(file), str(output) if proposal.changed else None
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_proposal(proposal, str(file), str(output), Console(file=sys.stdout, soft_wrap=True))
    raise typer.Exit(0 if all(f.status == "fixed" for f in proposal.fixes) else 1)


def print_proposal(p: Proposal, source: str, output: str, console: Console) -> None:
    """The edits in words, what happened to each finding, and the before/after tables."""
    from rich.table import Table

    from validators.balance import finding_key

    if not p.fixes:
        console.print(f"{terminal_text(source)}: no finding to fix")
    # findings that read alike (one code on the same elements, e.g. a measure per base size) and
    # came out alike: one line, with their count
    alike: dict[tuple[str, str, tuple[str, ...], str], int] = {}
    for f in p.fixes:
        key = (f.status, f.finding.code, tuple(f.finding.elements), f.note or "")
        alike[key] = alike.get(key, 0) + 1
    for (status, code_, elements, note), n in alike.items():
        console.print(f"{STATUS[status]} {terminal_text(code_)}"
                      + (f" ({terminal_text(', '.join(elements))})" if elements else "")
                      + (f", {n} findings alike" if n > 1 else "") + (f": {terminal_text(note)}" if note else ""))
    if p.edits:
        console.print("[bold]Edits[/]")
        for e in p.edits:
            console.print("  " + printable(e.words(p.unit)), markup=False, highlight=False)
    before = {finding_key(f) for f in p.before.findings}
    after = {finding_key(f) for f in p.after.findings}
    rows = [(f, "found", "gone" if finding_key(f) not in after else "found") for f in p.before.findings]
    rows += [(f, "—", "new") for f in p.after.findings if finding_key(f) not in before]
    if rows and p.changed:
        table = Table(title="Findings before and after", title_justify="left")
        for name in ("finding", "severity", "elements", "before", "after"):
            table.add_column(name)
        for finding, was, now in rows:
            table.add_row(terminal_text(finding.code), finding.severity, terminal_text(", ".join(finding.elements)), was,
                          {"gone": "[green]gone[/]", "new": "[red]new[/]"}.get(now, now))
        console.print(table)
    metrics = p.to_json()["metrics"]
    if metrics:
        table = Table(title="Metrics the edits change", title_justify="left")
        for name in ("metric", "before", "after", "tolerance"):
            table.add_column(name, justify="left" if name == "metric" else "right")
        for m in metrics:
            limit = ("≤ " if m["limit"] == "above" else "≥ ") + _num(m["tolerance"])
            table.add_row(terminal_text(f"{m['label']} ({m['unit']})"), _num(m["before"]), _num(m["after"]), limit)
        console.print(table)
    where = f"wrote {terminal_text(output)}" if p.changed else f"{terminal_text(output)} not written (nothing to change)"
    stop = "; [red]stopped early: the time budget ran out[/]" if p.stopped_early else ""
    console.print(f"{where}; {p.validations} validations in {p.seconds:.1f} s (budget {_num(p.budget)} s){stop}")


def _num(v: Any) -> str:
    return "—" if v is None else f"{v:.2f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)
