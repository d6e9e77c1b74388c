"""The HTML report: one self-contained page (inline SVG, CSS and script; a content security
policy that forbids every remote load) from a validation report document
(schema/report.schema.json) and, when given, the arena it is about.

:func:`render_report` is a pure function of its arguments - the same report, arena and header
give the same bytes - so packs embed it and the service can serve it.  Every string that comes
from a file (arena and element names, messages, metric keys) reaches the page through Jinja2
with autoescaping, and the report embedded as JSON through ``tojson`` (``<``, ``>``, ``&`` and
``'`` written as ``\\u`` escapes): a name ``<script>`` stays text.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from schema.ruleset import ArenaModel, UnknownSystem, ruleset
from validators.findings import QUOTED
from validators.heatmaps import HeatMap
from validators.webreport.heat import OPACITY, heat_views
from validators.webreport.picture import Picture, arena_picture, arrow, n, xy
from validators.webreport.tables import Table, fmt, metric_tables, table_of

SEVERITIES = ("error", "warning", "info")
#: The report's fields the page shows in their own sections; others get a generic table.
KNOWN_FIELDS = {"format", "system", "arena", "tier", "budget", "tolerance", "validators", "summary", "findings",
                "metrics", "robustness", "simulation"}
KNOWN_FINDING_FIELDS = {"code", "severity", "message", "elements", "metrics", "path"}


@dataclass(frozen=True)
class Header:
    """What the page's header says besides the report: the file's name, its bytes' SHA-256,
    the studio's version and the date (None: not shown - a pack's page stays reproducible)."""

    file: str
    sha256: str | None = None
    version: str | None = None
    date: str | None = None


def header_for(file: str, data: bytes | None, version: str | None = None, date: str | None = None) -> Header:
    return Header(file, hashlib.sha256(data).hexdigest() if data is not None else None,
                  version if version is not None else studio_version(), date)


def studio_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("arena-studio")
    except PackageNotFoundError:
        return "unknown"


@dataclass
class Overlay:
    """What a finding draws when clicked: its path (a polyline), lines and points its metrics
    name, in SVG path data."""

    path: str = ""
    lines: list[str] = field(default_factory=list)
    points: list[tuple[float, float]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.path or self.lines or self.points)


@dataclass
class FindingView:
    index: int
    code: str
    severity: str
    title: str
    parts: list[tuple[str, bool]]  # (text, is a quote of the book)
    quotes: list[str]
    elements: list[str]
    targets: list[str]
    metrics: list[tuple[str, str]]
    extra: list[tuple[str, str]]
    overlay: Overlay
    steps: int = 0


def split_quotes(message: str) -> list[tuple[str, bool]]:
    """``message`` cut into plain text and the passages it quotes (the book's words)."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in QUOTED.finditer(message):
        start = m.start() + (1 if message[m.start()] != '"' else 0)
        if start > pos:
            out.append((message[pos:start], False))
        out.append((message[start:m.end()], True))
        pos = m.end()
    if pos < len(message):
        out.append((message[pos:], False))
    return out


def _pairs(v: Any) -> bool:
    return (isinstance(v, list) and len(v) >= 2 and all(isinstance(p, list) and len(p) == 2 and all(
        isinstance(c, (int, float)) and not isinstance(c, bool) for c in p) for p in v))


def _is_point(v: Any) -> bool:
    return (isinstance(v, list) and len(v) == 2 and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v)
            and any(isinstance(c, float) for c in v))


def finding_view(i: int, f: dict[str, Any], titles: dict[str, str], picture: Picture | None) -> FindingView:
    elements = [str(e) for e in f.get("elements", [])]
    targets = list(dict.fromkeys(elements))
    overlay = Overlay()
    metrics = f.get("metrics") or {}
    path = f.get("path") or []
    if path:
        pts = [(float(p["x"]), float(p["y"])) for p in path
               if isinstance(p, dict) and isinstance(p.get("x"), (int, float)) and isinstance(p.get("y"), (int, float))]
        if pts:
            overlay.path = "M" + " L".join(xy(p) for p in pts)
            overlay.points.append(pts[-1])
    if picture is not None:
        for key, v in metrics.items() if isinstance(metrics, dict) else ():
            if picture.grid is not None:  # cells named by [q, r] (one, or a list of them)
                cells = [v] if picture.cell_id(v) else v if isinstance(v, list) else []
                for c in cells:
                    ident = picture.cell_id(c)
                    if ident is not None:
                        targets.append(ident)
            elif _is_point(v):
                overlay.points.append((float(v[0]), float(v[1])))
            elif _pairs(v):
                overlay.lines.append("M" + " L".join(xy(p) for p in v))
    shown = [(str(k), fmt(v)) for k, v in metrics.items()] if isinstance(metrics, dict) else []
    extra = [(str(k), fmt(v)) for k, v in f.items() if k not in KNOWN_FINDING_FIELDS]
    message = str(f.get("message", ""))
    parts = split_quotes(message)
    code = str(f.get("code", ""))
    return FindingView(i, code, str(f.get("severity", "info")), titles.get(code, ""), parts,
                       [t.strip().strip('"') for t, q in parts if q], elements, list(dict.fromkeys(targets)),
                       shown, extra, overlay, len(path))


@dataclass
class Band:
    """A robustness metric drawn as a band: its range, median, the drawn arena's value and the
    limit, scaled to 0..100."""

    label: str
    unit: str
    nominal: str
    low: float
    high: float
    median: float
    at: float | None
    limit: float | None
    row: dict[str, str]


def robustness_view(section: dict[str, Any]) -> dict[str, Any]:
    bands = []
    for m in section.get("metrics") or []:
        values = [m.get(k) for k in ("min", "median", "max", "nominal", "limit")]
        nums = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if not nums:
            continue
        lo, hi = min(0.0, *nums), max(nums)
        span = (hi - lo) or 1.0

        def at(v: Any) -> float | None:
            return None if not isinstance(v, (int, float)) or isinstance(v, bool) else round(100 * (float(v) - lo) / span, 2)

        bands.append(Band(str(m.get("label", m.get("key", ""))), str(m.get("unit", "")), fmt(m.get("nominal")),
                          at(m.get("min")) or 0.0, at(m.get("max")) or 0.0, at(m.get("median")) or 0.0,
                          at(m.get("nominal")), at(m.get("limit")),
                          {k: fmt(m.get(k)) for k in ("nominal", "min", "median", "max", "tolerance", "limit", "share_over")}))
    return {"section": section, "bands": bands,
            "codes": section.get("codes") or [], "findings": section.get("findings") or [],
            "tolerance": section.get("tolerance") or {},
            "figures": [(k, fmt(section.get(k))) for k in ("samples", "validated", "skipped", "redraws", "seed")
                        if k in section],
            "not_run": section.get("not_run") or [],
            "extra": [table_of(k, v) for k, v in section.items()
                      if k not in ("metrics", "codes", "findings", "tolerance", "samples", "validated", "skipped",
                                   "redraws", "seed", "not_run")]}


#: The simulated-play chart's geometry (SVG user units): label column, plot width, row height.
CHART_LEFT, CHART_WIDTH, CHART_ROW = 64.0, 300.0, 26.0


def _scale(section: dict[str, Any]) -> float:
    """The chart's full width as a win rate: the largest interval end or fair share plus
    tolerance, rounded up to a tenth (at most 1)."""
    fair, tol = float(section.get("fair_share") or 0.0), float(section.get("tolerance") or 0.0)
    top = max([fair + tol] + [float(s["ci"][1]) for s in section.get("starts") or []])
    return min(1.0, max(0.1, -(-round(top * 1000) // 100) / 10))


def simulation_view(section: dict[str, Any]) -> dict[str, Any]:
    """The "Simulated play" section: per start a bar (its win rate) with its 95 % interval's
    whiskers, the fair share 1/K and its tolerance band, all in chart units (``CHART_*``); who
    takes each objective first; the contact heat map's cells in arena coordinates."""
    scale = _scale(section)

    def x(rate: float) -> float:
        return round(CHART_LEFT + CHART_WIDTH * min(max(rate, 0.0), scale) / scale, 2)

    flagged = {f.get("metrics", {}).get("start") for f in section.get("findings") or []}
    bars = []
    for i, s in enumerate(section.get("starts") or []):
        lo, hi = (float(v) for v in s["ci"])
        y = round(12 + i * CHART_ROW, 2)
        bars.append({"start": s["start"], "rate": float(s["win_rate"]), "width": round(x(float(s["win_rate"])) - CHART_LEFT, 2),
                     "lo": x(lo), "hi": x(hi), "y": y, "mid": round(y + 8, 2), "flagged": s["start"] in flagged,
                     "text": f"{100 * float(s['win_rate']):.1f} %", "ci": f"{100 * lo:.1f}–{100 * hi:.1f} %",
                     "mean_vp": fmt(s.get("mean_vp")), "wins": fmt(s.get("wins"))})
    fair, tol = float(section.get("fair_share") or 0.0), float(section.get("tolerance") or 0.0)
    height = round(24 + len(bars) * CHART_ROW, 2)
    step = 0.1 if scale <= 0.5 else 0.2
    ticks = [(x(step * k), f"{10 * round(step * k * 10):.0f} %") for k in range(int(scale / step + 1e-9) + 1)]
    contacts = section.get("contacts") or {}
    heat = []
    if contacts.get("cell") and contacts.get("origin"):
        x0, y0 = (float(v) for v in contacts["origin"])
        cell = float(contacts["cell"])
        top = max((c for row in contacts.get("counts") or [] for c in row), default=0)
        for r, row in enumerate(contacts.get("counts") or []):
            for c, count in enumerate(row):
                if count:
                    heat.append({"x": x0 + c * cell, "y": -(y0 + (r + 1) * cell), "size": cell, "count": count,
                                 "opacity": round(0.15 + 0.55 * count / top, 3)})
    objectives = [{"id": str(o.get("id")), "first": [f"{100 * float(o['first'].get(str(s['start']), 0)):.0f} %"
                                                      for s in section.get("starts") or []],
                   "untaken": f"{100 * float(o.get('untaken') or 0):.0f} %"} for o in section.get("objectives") or []]
    figures = [(k, fmt(section.get(k))) for k in ("games", "games_counted", "seed", "policy", "players")
               if section.get(k) is not None]
    chi = section.get("chi_square") or None
    return {"section": section, "bars": bars, "scale": scale, "fair": x(fair), "band": (x(fair - tol), x(fair + tol)),
            "fair_text": f"{100 * fair:.1f} % ± {100 * tol:.1f}", "height": height, "ticks": ticks,
            "left": CHART_LEFT, "right": CHART_LEFT + CHART_WIDTH, "heat": heat, "objectives": objectives,
            "figures": figures, "chi": chi, "findings": section.get("findings") or [],
            "contacts_total": contacts.get("total", 0), "hottest": contacts.get("hottest")}


def scenario_rows(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """The scenario flattened to (path, value) rows."""
    out: list[tuple[str, str]] = []

    def walk(prefix: str, v: Any) -> None:
        if isinstance(v, dict) and v:
            for k, x in v.items():
                walk(f"{prefix}.{k}" if prefix else str(k), x)
        else:
            out.append((prefix, fmt(v)))

    walk("", doc)
    return out


@lru_cache(maxsize=1)
def _environment() -> Any:
    from jinja2 import DictLoader, Environment

    loader = DictLoader({name: _resource(f"{name}.html.j2") for name in ("report", "table", "diff")})
    env = Environment(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters["n"] = n
    env.globals.update(xy=xy, arrow=arrow)
    return env


def _resource(name: str) -> str:
    return resources.files("validators.webreport").joinpath("templates", name).read_text("utf-8")


@lru_cache(maxsize=1)
def _template() -> Any:
    return _environment().get_template("report")


def csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy(css: str, script: str) -> str:
    """Nothing loads from anywhere: no default source, only the page's own style and script
    (by their hashes), images only as ``data:``, no form target, no base URL."""
    return (f"default-src 'none'; style-src {csp_hash(css)}; script-src {csp_hash(script)}; img-src data:; "
            "base-uri 'none'; form-action 'none'; connect-src 'none'")


def render_report(report: dict[str, Any], arena: ArenaModel | None = None, *, header: Header | None = None,
                  diff: dict[str, Any] | None = None, heat_maps: Sequence[HeatMap] = ()) -> str:
    """The HTML page of ``report`` (``Report.to_json()``), drawing ``arena`` when given;
    ``diff`` (:func:`validators.arenadiff.diff_arenas`'s document) adds the "What changed"
    section; ``heat_maps`` (:func:`validators.heatmaps.report_heat_maps`) are layers over the
    arena, one at a time, chosen in the page (drawn only with the arena)."""
    system = str(report.get("system") or (arena.system if arena is not None else "") or "")
    if not system:
        from validators.game import default_system

        system = default_system()
    try:
        rs = ruleset(system)
        game, book = f"{rs.game} ({rs.edition})" if rs.edition else rs.game, rs.book
    except UnknownSystem:
        game, book = system, ""
    picture = arena_picture(arena) if arena is not None else None
    titles = {str(v.get("code")): str(v.get("title", "")) for v in report.get("validators") or []}
    findings = [finding_view(i, f, titles, picture) for i, f in enumerate(report.get("findings") or [])]
    groups = [(s, [f for f in findings if f.severity == s]) for s in SEVERITIES]
    groups += [(s, [f for f in findings if f.severity == s])
               for s in dict.fromkeys(f.severity for f in findings) if s not in SEVERITIES]
    tables: list[Table] = metric_tables(report.get("metrics") or {})
    extra = [table_of(k, v) for k, v in report.items() if k not in KNOWN_FIELDS]
    arena_doc: dict[str, Any] = {}
    if arena is not None:
        arena_doc = ruleset(arena.system).document(arena)
    scenario = scenario_rows(arena_doc.get("scenario") or {}) if arena_doc else []
    info = report.get("arena") or {}
    settings = [(k, fmt(report.get(k))) for k in ("tier", "budget", "tolerance") if report.get(k) is not None]
    heat = heat_views(heat_maps) if picture is not None else []
    # a regular grid's squares go under the elements, clipped to the arena's bounds (none: over them)
    heat_clip = next((s.d for s in picture.shapes if s.kind == "bounds" and s.d), "") if heat and picture else ""
    css, script = _resource("report.css"), _resource("report.js")
    return str(_template().render(
        report=report, info=info, name=str(info.get("name") or (arena.name if arena is not None else "arena")),
        arena=arena, arena_doc=arena_doc, game=game, book=book, system=system, picture=picture,
        groups=groups, findings=findings, summary=report.get("summary") or {}, tables=tables, extra=extra,
        scenario=scenario, settings=settings, header=header or Header(str(info.get("file") or "")),
        robustness=robustness_view(report["robustness"]) if isinstance(report.get("robustness"), dict) else None,
        simulation=simulation_view(report["simulation"]) if isinstance(report.get("simulation"), dict) else None,
        diff=diff, heat=heat, heat_opacity=OPACITY, heat_clip=heat_clip,
        css=css, script=script, csp=content_security_policy(css, script),
        report_json=json.loads(json.dumps(report)),
    ))
