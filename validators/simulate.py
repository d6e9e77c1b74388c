"""Simulated play (issue 40): whole games played out by the arena's game, and what they say of
each start's chance to win.

:func:`simulate` plays ``games`` games of an arena with its game's play engine
(:meth:`validators.game.GameAnalysis.play_hook`, :class:`engine.play.PlayEngine`) and sums them
up as the pinned JSON of ``arena simulate --json`` (schema/simulation.schema.json):

- **Seeds.** Game ``i`` of seed ``S`` plays with the seed :func:`game_seed` draws from
  ``numpy.random.SeedSequence([S, i])`` and nothing else, so game ``i`` is the same game in
  whichever process, machine or Dask worker plays it; the games fan out in chunks of
  consecutive games (:mod:`validators.fanout`: this process, local worker processes, or a Dask
  cluster) and are summed up in game order, so the JSON is the same on one process, two, or a
  cluster.
- **Seats and policies.** Every start of the engine's seat set for ``players``
  (:meth:`~engine.play.PlayEngine.seats`) plays every game: a start *is* a seat, so no seat
  rotation is needed.  One policy plays every seat by default; with several (``"greedy,rollout"``)
  seat ``j`` of game ``i`` plays policy ``(i + j) mod P``, so over any ``P`` consecutive games
  each start plays each policy once and a start's rate is never one bot's strength.
- **Wins.** The record's winners (every seat sharing the best final score) share the game's
  win: 1/k each for a k-way tie, so the win rates of a game's seats add up to 1.  A game whose
  record ended ``work-limit`` (the engine's own bound) is counted as incomplete and left out
  of every figure.
- **Intervals.** Each start's 95 % Wilson score interval (:func:`wilson`: the formula, which
  also takes the fractional win counts that split ties give).
- **``play-balance``.** A warning for each start whose whole interval lies outside the band
  ``1/K ± tolerance`` (the engine's ``balance_tolerance(arena)`` when it has one, else
  :data:`DEFAULT_TOLERANCE`): the start wins more or less often than a fair share with 95 %
  confidence, by more than the scenario tolerates.  It names the likely cause from the
  records (:func:`causes`).  A chi-square goodness-of-fit of the win counts against 1/K each
  (``scipy.stats.chisquare``) is reported for all starts together (``chi_square``).
- **Objectives.** Per objective of :meth:`~engine.play.PlayEngine.objectives`: the share of
  games in which each start took it first (the first event naming it).
- **Contacts.** A heat map of the games' contact events (:data:`engine.play.CONTACT_KINDS`):
  square cells over the arena's bounds (:func:`heat_frame`), :data:`HEAT_CELLS` along the
  longer side.
- **Time budget.** ``limits`` (:class:`engine.budget.Caps`, checked between chunks on the
  injectable ``clock``) stops the run with the games done so far: the longest run of finished
  chunks from game 0, so a stopped run of ``n`` games is exactly ``simulate(games=n)``'s
  figures, and the result says so (``"complete": false``, ``games_played``, ``stopped``).  The
  editor's Cancel (``should_stop``) stops a run the same way (``"stopped": "cancelled"``).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.budget import Budget, Caps
from engine.play import CONTACT_KINDS, GameRecord, PlayEngine, PlaySetup
from validators.fanout import Session
from validators.game import analysis_of

__all__ = ["DEFAULT_TOLERANCE", "DEFAULT_WORKERS", "HEAT_CELLS", "GameSummary", "Simulation", "causes",
           "attach", "engine_of", "game_seed", "heat_frame", "play_chunk", "policy_plan", "simulate", "summarise", "wilson"]

#: Local worker processes by default.
DEFAULT_WORKERS = 2
#: A start's win rate may differ from 1/K by this much before ``play-balance`` (absolute, in
#: win-rate points) when the engine gives no scenario tolerance.
DEFAULT_TOLERANCE = 0.05
#: Cells of the contact heat map along the longer side of the arena's bounds.
HEAT_CELLS = 12
#: Chunks per worker the games are cut into (more: a finer progress bar and time budget), and
#: the largest chunk.
CHUNKS_PER_WORKER = 4
MAX_CHUNK = 50
#: z of a two-sided 95 % interval (scipy.stats.norm.ppf(0.975)).
Z95 = 1.959963984540054
#: Decimals of the figures in the JSON.
DECIMALS = 4

#: ``progress(games_done, games)``.
SimProgress = Callable[[int, int], None]


def engine_of(arena: Any) -> PlayEngine:
    """The arena's game's play engine; ``LookupError`` naming the game when it has none."""
    return analysis_of(arena).play_hook()


def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s seed of run seed ``seed``: 53 bits (exact in any JSON reader) of
    ``numpy.random.SeedSequence([seed, index])``, a function of the two numbers only.

    >>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
    True
    """
    state = np.random.SeedSequence([seed, index]).generate_state(1, dtype=np.uint64)
    return int(state[0] >> np.uint64(11))


def policy_plan(policies: Sequence[str], index: int, seats: int) -> tuple[str, ...]:
    """The policy of each seat in game ``index``: seat ``j`` plays ``policies[(index + j) % P]``.

    >>> policy_plan(["greedy", "rollout"], 0, 3), policy_plan(["greedy", "rollout"], 1, 3)
    (('greedy', 'rollout', 'greedy'), ('rollout', 'greedy', 'rollout'))
    """
    return tuple(policies[(index + j) % len(policies)] for j in range(seats))


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` in ``n`` trials (fractional successes allowed:
    a split win counts its share); (0, 1) when ``n`` is 0.

    >>> [round(v, 4) for v in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    return (max(0.0, centre - half), min(1.0, centre + half))


# ------------------------------------------------------------------ one game, one chunk


@dataclass(frozen=True)
class GameSummary:
    """What the figures need of one game (small, so chunks travel back cheaply): its index and
    seed, final scores, winners, how it ended, who took each objective first, its contacts
    ``(x, y, start, other)``, the box of every position its pieces stood on, and its whole
    record as JSON when asked for."""

    index: int
    seed: int
    scores: Mapping[int, float]
    winners: tuple[int, ...]
    ended: str
    first: Mapping[str, int]
    contacts: tuple[tuple[float, float, int, str | None], ...]
    box: tuple[float, float, float, float] | None
    turns: int
    work: int
    record: dict[str, Any] | None = None


def summarise(index: int, record: GameRecord, objectives: Sequence[str], keep: bool = False) -> GameSummary:
    """The summary of game ``index``'s record."""
    wanted = set(objectives)
    first: dict[str, int] = {}
    contacts: list[tuple[float, float, int, str | None]] = []
    xs: list[float] = []
    ys: list[float] = []
    for turn in record.turns:
        for p in turn.pieces:
            xs.append(p.x)
            ys.append(p.y)
        for e in turn.events:
            if e.kind in CONTACT_KINDS:
                contacts.append((e.x, e.y, e.start, e.other))
            elif e.other in wanted and e.other not in first:
                first[e.other] = e.start
    box = (min(xs), min(ys), max(xs), max(ys)) if xs else None
    return GameSummary(index, record.setup.seed, dict(record.scores), tuple(record.winners), record.ended, first,
                       tuple(contacts), box, len(record.turns), record.work, record.to_json() if keep else None)


def play_chunk(arena: Any, first: int, count: int, seed: int, seats: tuple[int, ...], policies: tuple[str, ...],
               parameters: Mapping[str, Any], max_turns: int | None, max_work: int | None,
               keep: bool = False) -> list[GameSummary]:
    """Games ``first .. first + count - 1`` (runs on whichever worker: the engine is looked up
    there, through the arena's game)."""
    engine = engine_of(arena)
    objectives = engine.objectives(arena)
    out = []
    for i in range(first, first + count):
        setup = PlaySetup(seats, policy_plan(policies, i, len(seats)), game_seed(seed, i), dict(parameters),
                          max_turns, max_work)
        out.append(summarise(i, engine.play(arena, setup), objectives, keep))
    return out


# ------------------------------------------------------------------ the run


@dataclass
class Simulation:
    """A run's result: the JSON document (schema/simulation.schema.json) and, when asked for,
    every game's record (:meth:`engine.play.GameRecord.to_json`) in game order."""

    document: dict[str, Any]
    records: list[dict[str, Any]] | None = field(default=None)


def _chunk_size(games: int, workers: int) -> int:
    return max(1, min(MAX_CHUNK, math.ceil(games / (max(1, workers) * CHUNKS_PER_WORKER))))


def simulate(arena: Any, games: int, seed: int, *, players: int | None = None, policy: str | None = None,
             parameters: Mapping[str, Any] | None = None, scheduler: str | None = None,
             workers: int = DEFAULT_WORKERS, progress: SimProgress | None = None, limits: Caps | None = None,
             clock: Callable[[], float] = time.monotonic, tolerance: float | None = None,
             max_turns: int | None = None, max_work: int | None = None, chunk: int | None = None,
             records: bool = False, heat_cells: int = HEAT_CELLS, should_stop: Callable[[], bool] | None = None,
             nice: int = 0) -> Simulation:
    """Play ``games`` games of ``arena`` from ``seed`` and sum them up (the module docstring).

    ``policy``: a policy name of the engine, or several joined by commas (default: the
    engine's first); ``parameters``: overrides of the engine's; ``limits``: the run's caps
    (time on ``clock``; memory of this process and its workers), checked between chunks;
    ``chunk``: games per task (default: about :data:`CHUNKS_PER_WORKER` chunks per worker, at
    most :data:`MAX_CHUNK`); ``records``: keep every game's record; ``should_stop``: asked between
    chunks as the time budget is (the editor's Cancel): true stops the run like the budget, with
    the games done so far, ``stopped`` saying ``"cancelled"``; ``nice``: the local worker
    processes run at that much lower a priority (an editor's: its window gets the cores
    first).  ``LookupError`` for a game
    without a play engine, ``ValueError`` for a player count or policy the engine refuses."""
    if games < 1:
        raise ValueError(f"play at least one game, not {games}")
    engine = engine_of(arena)
    seats = tuple(engine.seats(arena, players))
    names = tuple(p.strip() for p in (policy or engine.policies[0]).split(","))
    unknown = [p for p in names if p not in engine.policies]
    if unknown or not all(names):
        raise ValueError(f"unknown policy {', '.join(unknown) or repr(policy)}: this game plays "
                         f"{', '.join(engine.policies)}")
    params = dict(parameters or {})
    unknown = [k for k in params if k not in engine.parameters]
    if unknown:
        raise ValueError(f"unknown parameter {', '.join(unknown)}: this game's are {', '.join(engine.parameters) or 'none'}")
    tol = tolerance
    if tol is None:
        own = getattr(engine, "balance_tolerance", None)
        tol = float(own(arena)) if callable(own) else DEFAULT_TOLERANCE
    size = chunk or _chunk_size(games, workers)
    tasks = [(arena, first, min(size, games - first), seed, seats, names, params, max_turns, max_work, records)
             for first in range(0, games, size)]
    budget = _budget(limits, clock)
    cancelled = False

    def stop() -> bool:
        nonlocal cancelled
        if should_stop is not None and should_stop():
            cancelled = True
            return True
        return budget is not None and budget.check() is not None
    report = (lambda done, _total: progress(min(games, done * size), games)) if progress else None
    with Session(jobs=min(workers, len(tasks)), scheduler=scheduler, name="arena-simulate", nice=nice) as session:
        results, complete = session.map(play_chunk, tasks, progress=report,
                                        should_stop=stop if budget is not None or should_stop is not None else None)
    played: list[GameSummary] = []
    for chunk_result in results:  # the finished chunks from game 0 on (a stopped run's prefix)
        if chunk_result is None:
            complete = False
            break
        played.extend(chunk_result)
    stopped = None if complete else ("cancelled" if cancelled else
                                     budget.reason if budget is not None and budget.reason else "stopped")
    doc = _document(arena, engine, played, games=games, seed=seed, policy=",".join(names), seats=seats,
                    tolerance=tol, stopped=stopped, heat_cells=heat_cells)
    return Simulation(doc, [g.record for g in played if g.record is not None] if records else None)


def _budget(limits: Caps | None, clock: Callable[[], float]) -> Budget | None:
    if limits is None or (limits.seconds is None and limits.memory_mib is None):
        return None
    memory = None
    if limits.memory_mib is not None:
        from validators.memory import reading

        memory = reading(os.getpid(), limits.memory_mib)
    return Budget(limits, clock=clock, memory=memory)


# ------------------------------------------------------------------ the figures


def _r(v: float) -> float:
    return round(float(v), DECIMALS)


def heat_frame(arena: Any, boxes: Sequence[tuple[float, float, float, float]],
               cells: int = HEAT_CELLS) -> tuple[float, float, float, int, int] | None:
    """The heat map's frame ``(x0, y0, cell, columns, rows)``: square cells of the longer side
    of the arena's bounds (its ``bounds`` shape's box) over ``cells``; an arena without a
    bounds shape (a grid game's) is framed by the box of every position its pieces stood on.
    None when there is nothing to frame."""
    bounds = getattr(arena, "bounds", None)
    shape = getattr(bounds, "to_shapely", None)
    if callable(shape):
        x0, y0, x1, y1 = (float(v) for v in shape().bounds)
    elif boxes:
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    else:
        return None
    side = max(x1 - x0, y1 - y0)
    if side <= 0:
        side = 1.0
    cell = side / cells
    return x0, y0, cell, max(1, math.ceil((x1 - x0) / cell - 1e-9)), max(1, math.ceil((y1 - y0) / cell - 1e-9))


def _contacts(arena: Any, played: Sequence[GameSummary], cells: int) -> dict[str, Any]:
    frame = heat_frame(arena, [g.box for g in played if g.box is not None], cells)
    total = sum(len(g.contacts) for g in played)
    if frame is None:
        return {"cell": None, "origin": None, "columns": 0, "rows": 0, "counts": [], "total": total, "hottest": None}
    x0, y0, cell, cols, rows = frame
    counts = [[0] * cols for _ in range(rows)]
    for g in played:
        for x, y, _s, _o in g.contacts:
            c = min(cols - 1, max(0, int((x - x0) // cell)))
            r = min(rows - 1, max(0, int((y - y0) // cell)))
            counts[r][c] += 1
    hottest = None
    best = max((counts[r][c], -r, -c) for r in range(rows) for c in range(cols))
    if best[0] > 0:
        r, c = -best[1], -best[2]
        hottest = {"column": c, "row": r, "x": _r(x0 + (c + 0.5) * cell), "y": _r(y0 + (r + 0.5) * cell),
                   "count": best[0]}
    return {"cell": _r(cell), "origin": [_r(x0), _r(y0)], "columns": cols, "rows": rows, "counts": counts,
            "total": total, "hottest": hottest}


def _chi_square(wins: Sequence[float], n: int) -> dict[str, Any] | None:
    if len(wins) < 2 or n == 0:
        return None
    from scipy.stats import chisquare

    expected = [n / len(wins)] * len(wins)
    stat, p = chisquare(list(wins), expected)
    return {"statistic": _r(stat), "dof": len(wins) - 1, "p_value": _r(p)}


def _document(arena: Any, engine: PlayEngine, played: Sequence[GameSummary], *, games: int, seed: int, policy: str,
              seats: tuple[int, ...], tolerance: float, stopped: str | None, heat_cells: int) -> dict[str, Any]:
    counted = [g for g in played if g.ended != "work-limit"]
    n, k = len(counted), len(seats)
    fair = 1.0 / k
    wins = {s: 0.0 for s in seats}
    vp = {s: 0.0 for s in seats}
    for g in counted:
        for s in g.winners:
            wins[s] += 1.0 / len(g.winners)
        for s in seats:
            vp[s] += float(g.scores.get(s, 0.0))
    objectives = []
    for oid in engine.objectives(arena):
        takers = [g.first.get(oid) for g in counted]
        objectives.append({"id": oid, "first": {str(s): _r(takers.count(s) / n) if n else 0.0 for s in seats},
                           "untaken": _r(takers.count(None) / n) if n else 0.0})
    contact_map = _contacts(arena, counted, heat_cells)
    starts: list[dict[str, Any]] = []
    for seat, s in enumerate(seats):
        lo, hi = wilson(wins[s], n)
        starts.append({"start": s, "seat": seat + 1, "wins": _r(wins[s]), "win_rate": _r(wins[s] / n) if n else 0.0,
                       "ci": [_r(lo), _r(hi)], "mean_vp": _r(vp[s] / n) if n else 0.0,
                       "contacts": _r(sum(1 for g in counted for c in g.contacts if s in (c[2], _seat(c[3]))) / n)
                       if n else 0.0})
    findings = []
    for row in starts:
        lo, hi = row["ci"][0], row["ci"][1]
        if n and (lo > fair + tolerance or hi < fair - tolerance):
            findings.append(_finding(row, fair, tolerance, n, counted, objectives, contact_map, seats))
    return {
        "format": "arena-studio-simulation/1", "system": getattr(arena, "system", None),
        "arena": getattr(arena, "name", None), "games": games, "seed": seed, "policy": policy, "players": k,
        "complete": stopped is None, "games_played": len(played), "incomplete_games": len(played) - n,
        "games_counted": n, "stopped": stopped, "tolerance": _r(tolerance), "fair_share": _r(fair),
        "starts": starts, "chi_square": _chi_square([wins[s] for s in seats], n), "objectives": objectives,
        "contacts": contact_map, "findings": findings,
        "turns": {"mean": _r(sum(g.turns for g in counted) / n) if n else 0.0,
                  "max": max((g.turns for g in counted), default=0)},
        "ended": {reason: sum(1 for g in played if g.ended == reason)
                  for reason in sorted({g.ended for g in played})},
    }


def _seat(other: str | None) -> int | None:
    try:
        return int(other) if other is not None else None
    except ValueError:
        return None


def causes(row: Mapping[str, Any], fair: float, tolerance: float, counted: Sequence[GameSummary],
           objectives: Sequence[Mapping[str, Any]], contact_map: Mapping[str, Any],
           seats: Sequence[int]) -> list[dict[str, Any]]:
    """The likely causes, from the records, of start ``row["start"]``'s rate (most telling
    first): for a start that wins too little, the objective it takes first least often
    ("first checkpoint contested"; objectives no start took in any game are passed over) and the
    cell where it meets others most when it meets them
    more than the average start ("ram hot spot"); for one that wins too much, the objective it
    takes first most often."""
    s = row["start"]
    low = row["win_rate"] < fair
    out: list[dict[str, Any]] = []
    # an objective nobody took in any game (walled in, out of reach) is not contested: it says
    # nothing about this start, and naming it would hide the one the others beat it to
    shares = [(o["first"][str(s)], o["id"]) for o in objectives if o["untaken"] < 1.0]
    if shares:
        share, oid = min(shares) if low else max(shares)
        if (share < fair - tolerance) if low else (share > fair + tolerance):
            out.append({"kind": "first-objective", "objective": oid, "share": share,
                        "text": f"{'first ' + oid + ' contested' if low else oid + ' taken first'}: start {s} takes "
                                f"{oid} first in {share:.0%} of games (a fair share is {fair:.0%})"})
    if low and contact_map.get("cell"):
        mine = [(x, y) for g in counted for x, y, a, b in g.contacts if s in (a, _seat(b))]
        per_start = [sum(1 for g in counted for c in g.contacts if t in (c[2], _seat(c[3]))) for t in seats]
        mean = sum(per_start) / max(1, len(seats))
        if mine and len(mine) > mean:
            x0, y0 = contact_map["origin"]
            cell = contact_map["cell"]
            cells: dict[tuple[int, int], int] = {}
            for x, y in mine:
                key = (int((x - x0) // cell), int((y - y0) // cell))
                cells[key] = cells.get(key, 0) + 1
            (c, r), count = min(cells.items(), key=lambda kv: (-kv[1], kv[0][1], kv[0][0]))
            cx, cy = _r(x0 + (c + 0.5) * cell), _r(y0 + (r + 0.5) * cell)
            out.append({"kind": "contact-hot-spot", "x": cx, "y": cy, "count": count,
                        "text": f"ram hot spot: start {s} meets another piece {len(mine)} times in {len(counted)} "
                                f"games (a start's average is {mean:.0f}), {count} of them in the cell around "
                                f"({cx:g}, {cy:g})"})
    return out


def _finding(row: Mapping[str, Any], fair: float, tolerance: float, n: int, counted: Sequence[GameSummary],
             objectives: Sequence[Mapping[str, Any]], contact_map: Mapping[str, Any],
             seats: Sequence[int]) -> dict[str, Any]:
    s = row["start"]
    found = causes(row, fair, tolerance, counted, objectives, contact_map, seats)
    lo, hi = row["ci"]
    side = "less" if row["win_rate"] < fair else "more"
    why = found[0]["text"] if found else "no single cause stands out in the records"
    message = (f"start {s} wins {side} often than a fair share: {row['win_rate']:.1%} of {n} games "
               f"(95 % interval {lo:.1%}-{hi:.1%}; fair {fair:.1%} ± {tolerance:.1%}). Likely cause: {why}.")
    elements = [f"start:{s}"] + [c["objective"] for c in found if c["kind"] == "first-objective"]
    return {"code": "play-balance", "severity": "warning", "message": message, "elements": elements,
            "metrics": {"start": s, "win_rate": row["win_rate"], "ci": list(row["ci"]), "fair_share": _r(fair),
                        "tolerance": _r(tolerance), "games": n, "causes": found}}


# ------------------------------------------------------------------ in a validation report


def attach(report: Any, games: int, seed: int, **kwargs: Any) -> Simulation:
    """Simulate ``report``'s arena (``simulate(report.arena, games, seed, **kwargs)``) and put the
    result in the report (``arena validate --simulate N``, ``arena report --simulate N``,
    ``arena pack build --simulate N``): its document becomes the report's ``simulation`` part,
    and its ``play-balance`` findings join the report's findings (severity warning, so
    ``--fail-on warning`` sees them; the verdict of the default ``--fail-on error`` does not
    change).  ``LookupError`` for a game without a play engine, ``ValueError`` for options the
    engine refuses (as :func:`simulate`)."""
    from validators.findings import Finding

    result = simulate(report.arena, games, seed, **kwargs)
    doc = result.document
    report.simulation = doc
    for f in doc["findings"]:
        report.findings.append(Finding(f["code"], f["severity"], f["message"], tuple(f["elements"]),
                                       dict(f["metrics"])))
    return result
