"""``arena diff A B``: what changed between two versions of an arena (elements added, removed,
moved, retyped or changed; the arena's own fields) and how the verdict moved (findings gained
and lost, metrics before -> after) - as a table, ``--json`` (schema/diff.schema.json) or an
HTML page (``--html OUT``: B's report with the changes on top, as ``arena report B --against A``).

Exit codes: 0 the two are the same, 1 they differ, 2 usage or I/O errors (``diff``'s own).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from app.cli.shared import app, fail, load_arena, printable, terminal_text
from engine.budget import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS

if TYPE_CHECKING:
    from rich.console import Console


@app.command("diff")
def diff_cmd(
    before: Annotated[Path, typer.Argument(help="The older arena file.", show_default=False)],
    after: Annotated[Path, typer.Argument(help="The newer arena file.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the diff document (schema/diff.schema.json).")] = False,
    html: Annotated[Optional[Path], typer.Option("--html", help="Also write B's HTML report with the changes on top.",
                                                 show_default=False)] = None,
    verdict: Annotated[bool, typer.Option("--verdict/--no-verdict", help="Validate both to compare their verdicts "
                                                                        "(--no-verdict: the files only, at once).")] = True,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0, envvar="ARENA_TIME_LIMIT", metavar="SECONDS",
                                              help="Cap each arena's analysis (0: no cap).")] = DEFAULT_SECONDS,
    memory_limit: Annotated[float, typer.Option("--memory-limit", min=0, envvar="ARENA_MEMORY_LIMIT_MIB", metavar="MIB",
                                                help="Cap each arena's analysis memory (0: no cap).")] = DEFAULT_MEMORY_MIB,
) -> None:
    """Compare two versions of an arena: the changes and the verdict's."""
    from app.cli.report import today, validated
    from schema.outputs import OutputError, check_outputs, write_output
    from validators.arenadiff import diff_arenas, unchanged

    if html is not None:
        if not verdict:
            raise fail("--html draws B's report: leave out --no-verdict")
        try:
            check_outputs([html], inputs=[before, after])
        except OutputError as exc:
            raise fail(str(exc)) from None
    a, b = load_arena(before), load_arena(after)
    ra = rb = None
    if verdict:
        ra = validated(before, a, time_limit=time_limit, memory_limit=memory_limit)
        rb = validated(after, b, time_limit=time_limit, memory_limit=memory_limit)
    doc = diff_arenas(a, b, before=str(before), after=str(after), report_a=ra, report_b=rb)
    if html is not None and rb is not None:
        from validators.webreport import header_for, render_report

        page = render_report(rb, b, header=header_for(after.name, after.read_bytes(), date=today()), diff=doc)
        try:
            write_output(html, page.encode("utf-8"), inputs=[before, after])
        except OutputError as exc:
            raise fail(str(exc)) from None
        typer.echo(printable(f"wrote {html}"), err=True)
    if as_json:
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        from rich.console import Console

        print_diff(doc, Console(file=sys.stdout))
    raise typer.Exit(0 if unchanged(doc) else 1)


def _v(value: Any) -> str:
    return terminal_text(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value)


def print_diff(doc: dict[str, Any], console: Console, max_metrics: int = 25) -> None:
    from rich.table import Table

    console.rule(f"[bold]{terminal_text(doc['before']['file'])}[/] -> [bold]{terminal_text(doc['after']['file'])}[/]")
    els = doc.get("elements")
    if els is None:
        console.print("different games: elements not compared")
    else:
        table = Table(title="Elements", title_justify="left")
        for c in ("change", "element", "kind", "detail"):
            table.add_column(c)
        for e in els["added"]:
            table.add_row("[green]added[/]", terminal_text(e["id"]), terminal_text(e["kind"]), "")
        for e in els["removed"]:
            table.add_row("[red]removed[/]", terminal_text(e["id"]), terminal_text(e["kind"]), "")
        for e in els["moved"]:
            table.add_row("[yellow]moved[/]", terminal_text(e["id"]), terminal_text(e["kind"]),
                          f"centre {e['distance']} (by {e['shift'][0]}, {e['shift'][1]}), outline {e['outline']}")
        for e in els["retyped"]:
            table.add_row("[yellow]retyped[/]", terminal_text(e["id"]), f"{terminal_text(e['before'])} -> {terminal_text(e['after'])}", "")
        for e in els["changed"]:
            table.add_row("[yellow]changed[/]", terminal_text(e["id"]), terminal_text(e["kind"]),
                          "; ".join(f"{terminal_text(c['field'])}: {_v(c['before'])} -> {_v(c['after'])}" for c in e["fields"]))
        cells = els.get("cells") or {}
        for what in ("added", "removed"):
            if cells.get(what):
                table.add_row(f"cells {what}", terminal_text(", ".join(cells[what])), "", "")
        if table.rows:
            console.print(table)
        else:
            console.print("no element changed")
    if doc["fields"]:
        table = Table(title="Arena fields", title_justify="left")
        for c in ("field", "before", "after"):
            table.add_column(c)
        for c in doc["fields"]:
            table.add_row(terminal_text(c["pointer"]), _v(c["before"]), _v(c["after"]))
        console.print(table)
    v = doc.get("verdict")
    if v is None:
        return
    s = v["summary"]
    console.print(f"\nverdict: {s['before']['error']} error(s), {s['before']['warning']} warning(s), {s['before']['info']} info"
                  f" -> {s['after']['error']} error(s), {s['after']['warning']} warning(s), {s['after']['info']} info")
    for title, items, style in (("gained", v["gained"], "red"), ("lost", v["lost"], "green")):
        if items:
            console.print(f"[{style}]findings {title} ({len(items)})[/]")
            for f in items:
                console.print(f"  [{style}]{terminal_text(f['code'])}[/] ({f['severity']}): ", end="")
                console.print(printable(f["message"]), markup=False, highlight=False)
    for f in v["changed"]:
        console.print(f"  [yellow]{terminal_text(f['code'])}[/] changed: ", end="")
        console.print(printable(f"{f['before']['message']} -> {f['after']['message']}"), markup=False, highlight=False)
    if v["metrics"]:
        table = Table(title=f"Metrics before -> after ({len(v['metrics'])})", title_justify="left")
        for c in ("metric", "before", "after"):
            table.add_column(c)
        for m in v["metrics"][:max_metrics]:
            table.add_row(terminal_text(m["pointer"]), _v(m["before"]), _v(m["after"]))
        console.print(table)
        if len(v["metrics"]) > max_metrics:
            console.print(f"{len(v['metrics']) - max_metrics} more (arena diff --json has them all)")
