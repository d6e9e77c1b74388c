"""The editor's live analysis off the UI process: persistent workers that keep travel searches
between edits, and a scheduler that shares each edit's work out between them.

Each worker holds a :class:`validators.games.gravstrike.travel_session.TravelSession` with the searches of the
travel sources (start positions, outlying checkpoints) it *owns*.  After an edit that only moves
goals - dragging a checkpoint, a static target, a start - a kept search is resumed for the moved
goals instead of searching again; a source that moved itself is searched anew.

For every edit :meth:`TravelWorkers.submit` plans the work (:func:`plan`):

- sources that are images of each other under the arena's symmetry operations are answered by
  one search and its images (one task per orbit);
- a task costs what it cost last time (a resume, or a new search), and only the owner of a kept
  search can resume it; new searches and the quick stage (format checks and the validators that
  need no travel, :func:`editor.analysis.quick_findings`) can go anywhere;
- tasks go, largest first, to the worker that would finish them soonest; new searches from
  starts facing alike modulo 30 degrees go to one worker when that keeps the workers even, so
  that each builds one heading lattice (:func:`_assign`).

After a wall edit (walls changed, nothing else) the searches start again, but the last exact
answers are carried over first (:func:`validators.games.gravstrike.travel_session.carry_travel`, in the editor's
process): a source whose plans the moved wall does not block costs next to nothing ("carry"),
one with blocked plans has them mended ("partial": :meth:`~validators.games.gravstrike.travel_session.TravelSession.carried`),
and only a source with an unreached answer that may have changed is searched anew before the
first answers.

So the two cores finish together, and the editor's own process keeps only its UI.  Between
requests a worker warms up: it runs the searches of its sources that it doesn't have yet (or
hasn't resumed), so that the next edit is incremental again.

Answers from resumed searches are provisional (:mod:`validators.games.gravstrike.travel_session`: they can differ
from a new search's by a length's time, a goal that did not move included), so are answers
carried over a wall edit (a legal plan's time; a new search may find a faster one), and so are the
images of an orbit's search from any source but its first, in the order of
:func:`~validators.games.gravstrike.context.travel_sources` (a validation takes the images of the first).  A
worker sends them at once (``collect()``), then - unless they were exact already - renews its
session (a new planner and new searches, as after a wall edit) and sends the exact answers
(``collect_exact()``): every answer it ends on is the one ``arena validate`` gives for that version
of the arena, however the edits came to it.

A newer request stops a worker's current one between two batches of the search (the worker
watches its request queue); the parent drops answers to older requests.  A worker that dies is
started again (its searches are lost, nothing else); a worker whose editor dies exits at once
(:mod:`editor.lifeline`), so no worker outlives the editor.  No Qt here: the validation runner calls
this from its worker thread.
"""

from __future__ import annotations

import itertools
import math
import queue
import shutil
import statistics
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

from editor.lifeline import lifeline
from editor.map_share import make_dir
from editor.processes import mp_context
from editor.worker_requests import Requests, take
from engine.budget import Caps
from schema.games.gravstrike.model import Arena
from validators.games.gravstrike.context import travel_sources
from validators.run import default_limits
from engine.gravstrike.invariance import Invariance, invariances
from validators.games.gravstrike.travel_session import Carried, carry_travel, source_moved

#: Worker processes (the machines Arena Studio targets have two cores or more).
WORKERS = 2
#: A worker warms up (searches ahead, tidies its searches) after this long without a request.
WARM_DELAY_S = 0.3
#: What a task costs (seconds) before it has been measured.
DEFAULT_COST = {"resume": 0.01, "new": 0.04, "quick": 0.02, "carry": 0.002, "partial": 0.04}
#: What building a heading lattice costs, as a share of the largest new search (0.036 s of about
#: 0.45 s on a 48-length table).  Starts facing alike modulo 30 degrees share a lattice, and the
#: checkpoints' searches (every multiple of 30 degrees) that of the starts facing a multiple of 30.
LATTICE_SHARE = 0.08
#: New searches placed by trying every way (2**8 ways on two workers) when they need more than
#: one lattice.
EXHAUSTIVE_JOBS = 8

#: The name of a travel worker's process (``ps``, tests telling it from a pool's).
WORKER_NAME = "arena-travel-worker"


class Stopped(Exception):
    """The request was superseded (``should_stop()`` returned True while waiting)."""


# ------------------------------------------------------------------ planning


@dataclass
class Share:
    """One worker's part of a request: the sources to answer (each orbit's searched source
    first, then its images), the sources whose searches it keeps, and the quick stage."""

    tasks: list[str] = field(default_factory=list)
    owned: list[str] = field(default_factory=list)
    quick: bool = False
    #: The sources it searches (resumed or new): what their measured times teach the planner.
    searched: dict[str, str] = field(default_factory=dict)
    #: The arena's symmetry operations (found once, by the planner; the worker uses the images).
    symmetries: list[Invariance] = field(default_factory=list)
    #: Where the workers share distance maps (:mod:`editor.map_share`), and this worker's number.
    maps: str | None = None
    worker: int = 0
    #: Whether each orbit of ``tasks`` is searched from its first source (the one a validation
    #: searches): else its images are provisional however exact the search.
    canonical: bool = True
    #: The caps of the worker's analysis of this request (:func:`validators.run.default_limits`,
    #: read in the editor's process: a worker forked from the forkserver has the environment the
    #: forkserver started with).
    limits: Caps = field(default_factory=default_limits)
    #: Answers carried over a wall edit (:func:`~validators.games.gravstrike.travel_session.carry_travel`), per
    #: source of ``tasks``: given at once (provisional), the plans they break mended, the goals
    #: still lacking searched alone (:meth:`~validators.games.gravstrike.travel_session.TravelSession.carried`).
    carry: dict[str, Carried] = field(default_factory=dict)


def orbits(arena: Arena, sources: list[str], ops: list[Invariance] | None = None) -> list[list[str]]:
    """``sources`` grouped by the arena's symmetry operations (``ops``, by default
    :func:`~engine.gravstrike.invariance.invariances`): a source and its images, in order.

    >>> from schema import load
    >>> [len(o) for o in orbits(load("arenas/default.yaml"), travel_sources(load("arenas/default.yaml")))]
    [6, 3]
    """
    if ops is None:
        ops = invariances(arena)
    out: list[list[str]] = []
    placed: dict[str, int] = {}
    for s in sources:
        if s in placed:
            continue
        placed[s] = len(out)
        group = [s]
        for inv in ops:
            image = inv.ids.get(s)
            if image is not None and image in sources and image not in placed:
                placed[image] = placed[s]
                group.append(image)
        out.append(group)
    return out


def same_motion(old: Arena, new: Arena) -> bool:
    """Whether searches of ``old`` can be kept for ``new`` (the same test, roughly, as
    :meth:`engine.gravstrike.planner.Planner.retarget`: only where goals are may differ)."""
    return (old.walls == new.walls and old.acceleration_fields == new.acceleration_fields
            and old.exclusion_fields == new.exclusion_fields and old.bounds == new.bounds
            and old.turbine == new.turbine and old.scenario.analysis == new.scenario.analysis
            and [c.id for c in old.checkpoints] == [c.id for c in new.checkpoints]
            and [s.player for s in old.start_positions] == [s.player for s in new.start_positions]
            and [t.id for t in old.static_targets] == [t.id for t in new.static_targets]
            and [g.id for g in old.gates] == [g.id for g in new.gates])


def plan(arena: Arena, count: int, owner: dict[str, int], moved: set[str], cost: dict[tuple[str, str], float],
         quick: bool, carry: dict[str, str] | None = None) -> list[Share]:
    """Share out one request (see the module docstring).  ``owner``: source -> the worker
    holding its search (updated here); ``moved``: sources whose searches are gone; ``cost``:
    (source or "quick", "resume"/"new"/"quick"/"carry"/"partial") -> seconds last measured;
    ``carry``: sources answered from answers carried over a wall edit -> "carry" (every goal
    kept) or "partial" (some searched again), instead of a new search.

    >>> from schema import load
    >>> arena = load("arenas/default.yaml")
    >>> shares = plan(arena, 2, {}, set(travel_sources(arena)), {}, quick=True)
    >>> [len(s.tasks) for s in shares], [s.quick for s in shares]   # starts + quick | checkpoints
    ([6, 3], [True, False])
    """
    sources = travel_sources(arena)
    for s in list(owner):
        if s not in sources or s in moved:
            del owner[s]
    ops = invariances(arena)
    jobs: list[tuple[float, list[str], list[tuple[float, str, str]]]] = []  # (size, orbit, per worker (cost, rep, kind))
    for orbit in orbits(arena, sources, ops):
        options = []
        kept = any(s in owner for s in orbit)
        for w in range(count):
            mine = [s for s in orbit if owner.get(s) == w]
            if orbit[0] in owner and orbit[0] not in mine:  # its first source's search is kept elsewhere
                options.append((math.inf, orbit[0], "new"))
            elif mine:  # a kept search (the others' are images of it): the first source's if kept
                rep = orbit[0] if orbit[0] in mine else min(
                    mine, key=lambda s: cost.get((s, "resume"), DEFAULT_COST["resume"]))
                options.append((cost.get((rep, "resume"), DEFAULT_COST["resume"]), rep, "resume"))
            elif kept:  # only its owner can resume it: searching again elsewhere costs far more
                options.append((math.inf, orbit[0], "new"))
            else:
                kind = (carry or {}).get(orbit[0], "new")
                options.append((cost.get((orbit[0], kind), DEFAULT_COST[kind]), orbit[0], kind))
        jobs.append((min(c for c, _, _ in options), orbit, options))
    if quick:
        c = cost.get(("quick", "quick"), DEFAULT_COST["quick"])
        jobs.append((c, [], [(c, "", "quick")] * count))
    shares = [Share(symmetries=ops) for _ in range(count)]
    jobs.sort(key=lambda j: -j[0])
    for (_, orbit, options), w in zip(jobs, _assign(arena, count, [options for _, _, options in jobs])):
        c, rep, kind = options[w]
        if kind == "quick":
            shares[w].quick = True
            continue
        shares[w].tasks += [rep] + [s for s in orbit if s != rep]
        shares[w].searched[rep] = kind
        owner[rep] = w
        if rep != orbit[0]:  # answered from another source's kept search: the first's comes next
            shares[w].canonical = False
            owner[orbit[0]] = w
    for i, s in enumerate(sources):  # sources nobody holds: their warm-up is dealt out in turn
        owner.setdefault(s, i % count)
    for s in sources:
        shares[owner[s]].owned.append(s)
    return shares


def lattice_base(arena: Arena, source: str) -> float | None:
    """The heading lattice a new search from ``source`` reads (its start's facing modulo 30
    degrees; 0 for a checkpoint's, searched at every multiple of 30 degrees): searches on one
    lattice share its configuration-space stack."""
    kind, _, ident = source.partition(":")
    if kind == "checkpoint":
        return 0.0
    if kind != "start":
        return None
    return round(arena.start(int(ident)).facing % 30.0, 6) % 30.0


def _assign(arena: Arena, count: int, options: list[list[tuple[float, str, str]]]) -> list[int]:
    """A worker for each job (``options``: per worker (cost, source, kind), largest job first):
    the one that would finish it soonest, a new search costing a lattice more (:data:`LATTICE_SHARE`
    of the largest new search) where its lattice is not built yet.  When new searches need two
    lattices or more, the largest of them (up to :data:`EXHAUSTIVE_JOBS`) are placed by trying
    every way - so that searches on one lattice share a worker as long as that keeps the workers
    even - and the rest as above."""
    # a new search wherever it goes (a kept search's orbit is not one, even where it costs inf)
    base = [lattice_base(arena, o[0][1]) if all(k == "new" and c < math.inf for c, _, k in o) else None
            for o in options]
    lattice = LATTICE_SHARE * max([min(c for c, _, _ in o) for o, b in zip(options, base) if b is not None] or [0.0])
    load = [0.0] * count
    built: list[set[float]] = [set() for _ in range(count)]

    def price(j: int, w: int, have: list[set[float]]) -> float:
        c, b = options[j][w][0], base[j]
        return c + lattice if b is not None and b not in have[w] else c

    out = [-1] * len(options)
    heavy = [j for j in range(len(options)) if base[j] is not None and options[j][0][1].startswith("start:")]
    heavy = heavy[:EXHAUSTIVE_JOBS]
    if count > 1 and len({base[j] for j in heavy}) > 1:
        # a new search from a start covers the whole arena: they cost about the same, while their
        # last measured times carry the setup of whichever ran first on its worker, or are stale
        # (made before other edits) - so they are placed at their median cost
        typical = statistics.median(min(c for c, _, _ in options[j]) for j in heavy)
        best: tuple[float, float] | None = None
        pick: tuple[int, ...] = ()
        for combo in itertools.product(range(count), repeat=len(heavy)):
            loads = [0.0] * count
            have: list[set[float]] = [set() for _ in range(count)]
            for j, w in zip(heavy, combo):
                loads[w] += typical + (lattice if base[j] not in have[w] else 0.0)
                have[w].add(base[j])  # type: ignore[arg-type]
            key = (max(loads), sum(loads))
            if best is None or key < best:
                best, pick = key, combo
        for j, w in zip(heavy, pick):
            load[w] += typical + (lattice if base[j] not in built[w] else 0.0)
            built[w].add(base[j])  # type: ignore[arg-type]
            out[j] = w
    for j in range(len(options)):
        if out[j] >= 0:
            continue
        w = min(range(count), key=lambda i: (load[i] + price(j, i, built), i))
        load[w] += price(j, w, built)
        if base[j] is not None:
            built[w].add(base[j])  # type: ignore[arg-type]
        out[j] = w
    return out


# ------------------------------------------------------------------ the worker process


def exact_travel(session: Any, arena: Arena, share: Share) -> dict[str, Any]:
    """The answers to ``share``'s tasks that a validation of ``arena`` gives: from a renewed
    session unless its answers are exact already, each orbit searched from its first source in
    :func:`~validators.games.gravstrike.context.travel_sources` order and the others its images."""
    ctx = session.context(arena, renew=not session.exact)
    ctx.symmetries = share.symmetries
    order = {s: i for i, s in enumerate(travel_sources(arena))}
    return {s: ctx.travel_from(s) for s in sorted(share.tasks, key=order.__getitem__)}


def _serve(requests: Any, replies: Any, line: Any = None) -> None:  # pragma: no cover - runs in the worker process
    if line is not None:  # exit with the editor, however it ends (editor.lifeline)
        from editor.lifeline import watch

        watch(line)
    requests = take(requests)
    from editor.analysis import Cancelled, quick_findings
    from editor.map_share import MapShare
    from engine.gravstrike.frontier import SearchStopped
    from validators.run import analysis_budget
    from validators.games.gravstrike.travel_session import TravelSession

    from validators.registry import default_registry

    default_registry()  # the validators' plug-ins, loaded before the first request needs them
    session = TravelSession()
    owned: list[str] = []
    warm = False
    gen = 0
    quick_done: Any = None  # the last arena whose quick stage this worker ran (its caches are warm)
    last: Any = None

    def newer() -> bool:
        return not requests.empty()

    while True:
        try:  # warm up only after a quiet spell: while the user edits, the cores serve the edits
            msg = requests.get(timeout=WARM_DELAY_S) if warm else requests.get()
        except queue.Empty:
            try:
                session.warm(newer, sources=owned)
                if last is not None and quick_done is not last and requests.empty():
                    # the quick stage's caches (thin walls' witnesses, sight shares, the schema
                    # gate) warm here too: the next edit may hand the stage to this worker
                    quick_findings(last, should_stop=newer)
                    quick_done = last
                if requests.empty():
                    replies.send(("warm", gen, len(session.searches)))
            except Exception:  # noqa: BLE001 - warming is best effort; the next request reports
                pass
            warm = False
            continue
        if msg[0] == "quit":
            return
        _, gen, arena, share = msg
        owned = share.owned
        last = arena
        if share.maps is not None and (session.map_share is None or session.map_share.folder != Path(share.maps)):
            session.map_share = MapShare(share.maps, share.worker)
        try:
            with analysis_budget(share.limits):  # arena validate's caps, for this edit's analysis
                if share.quick:
                    t0 = time.perf_counter()
                    found = quick_findings(arena, should_stop=newer)
                    quick_done = arena
                    replies.send(("quick", gen, (found, time.perf_counter() - t0)))
                session.stop = newer
                t0 = time.perf_counter()
                ctx = session.context(arena)
                ctx.symmetries = share.symmetries  # what the scheduler found: not worked out again
                session.retain(owned)
                seconds = {"(update)": time.perf_counter() - t0}
                travel = {}
                for s in share.tasks:
                    t0 = time.perf_counter()
                    kept = share.carry.get(s)
                    travel[s] = ctx.travel_from(s) if kept is None else session.carried(ctx, s, kept)
                    seconds[s] = time.perf_counter() - t0
                exact = session.exact and share.canonical and not share.carry
                replies.send(("ok", gen, (travel, seconds, exact)))
            if not exact:  # provisional: the exact answers follow (a newer request stops them)
                with analysis_budget(share.limits):  # caps of their own
                    replies.send(("exact", gen, exact_travel(session, arena, share)))
            warm = True
        except (SearchStopped, Cancelled):
            replies.send(("stopped", gen, None))
            warm = False
        except BaseException:  # noqa: BLE001 - reported to the editor's validation panel
            replies.send(("error", gen, traceback.format_exc(limit=4)))
        finally:
            session.stop = None


class _Worker:
    """One worker process: requests go in through a queue (the worker sees a newer one waiting
    and stops), replies come back through a pipe, so the parent can wait on all workers at once
    and sees a dead worker's pipe close."""

    def __init__(self) -> None:
        ctx = mp_context()
        self.requests = Requests(ctx)
        self.replies, there = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_serve, args=(self.requests.reader, there, lifeline(ctx)), daemon=True,
                                name=WORKER_NAME)
        self.proc.start()
        there.close()
        self.requests.reader.close()

    def receive(self) -> tuple[str, int, Any] | None:
        """The next reply, or None if the worker died."""
        try:
            return self.replies.recv()  # type: ignore[no-any-return]
        except (EOFError, OSError):
            return None

    def stop(self) -> None:
        try:
            self.requests.put(("quit",))
            self.proc.join(1.0)
        finally:
            if self.proc.is_alive():
                self.proc.terminate()
                self.proc.join(1.0)
            self.requests.close()
            self.requests.cancel_join_thread()
            self.replies.close()


# ------------------------------------------------------------------ the parent's side


class TravelWorkers:
    """``submit(arena, quick)``, then ``collect_quick()`` (the quick stage's findings, when asked
    for) and ``collect()`` (source -> goal ref -> TravelResult), from ``count`` persistent
    workers; ``run(arena)`` is both.  ``close()`` ends them."""

    def __init__(self, count: int = WORKERS) -> None:
        self.count = max(1, count)
        self.workers: list[_Worker | None] = [None] * self.count
        self.generation = 0
        #: source -> the worker holding its search; (task, kind) -> seconds it took last time.
        self.owner: dict[str, int] = {}
        self.cost: dict[tuple[str, str], float] = {}
        self.shares: list[Share] = []
        #: Seconds each worker computed for the last collected request (benchmarks report them).
        self.seconds: list[float] = [0.0] * self.count
        #: ... and per task ("(update)": bringing the worker's session to the new arena).
        self.timings: list[dict[str, float]] = [{} for _ in range(self.count)]
        self._arena: Arena | None = None
        self._request: tuple[int, Arena, list[Share]] | None = None
        self._quick: list[dict[str, Any]] | None = None
        self._travel: dict[int, dict[str, Any]] = {}
        self._exact: dict[int, dict[str, Any]] = {}
        self._warm: dict[int, int] = {}
        self._restarts = 0
        #: The last version whose exact answers were all collected, and those answers (source ->
        #: goal ref -> TravelResult): after a wall edit, the answers whose plans still hold are
        #: carried to the new version (:func:`~validators.games.gravstrike.travel_session.carry_travel`).
        self.basis: tuple[Arena, dict[str, dict[str, Any]]] | None = None
        #: Where the workers share distance maps (:mod:`editor.map_share`); removed by close().
        self.maps_dir: str | None = make_dir() if self.count > 1 else None

    def _worker(self, i: int) -> _Worker:
        w = self.workers[i]
        if w is None or not w.proc.is_alive():
            if w is not None:
                w.stop()
            w = self.workers[i] = _Worker()
        return w

    def submit(self, arena: Arena, quick: bool = False) -> int:
        """Plan ``arena``'s work and send it to the workers (they stop what they were doing);
        with ``quick`` one of them also runs the quick stage.  Returns the request's generation."""
        self.generation += 1
        gen = self.generation
        prev = self._arena
        sources = travel_sources(arena)
        kept: dict[str, Carried] = {}
        carry: dict[str, str] = {}
        if prev is None or not same_motion(prev, arena):
            self.owner.clear()
            moved = set(sources)
            if self.basis is not None:  # a wall edit: the last exact answers whose plans still hold
                basis, answers = self.basis
                kept = carry_travel(basis, answers, arena)
                carry = {s: "carry" if len(c.kept) == len(answers[s]) else "partial" for s, c in kept.items()}
        else:
            moved = {s for s in sources if source_moved(prev, arena, s)}
        self.shares = plan(arena, self.count, self.owner, moved, self.cost, quick, carry)
        limits = default_limits()
        self._arena = arena
        self._request = (gen, arena, self.shares)
        self._quick, self._travel, self._exact, self._warm, self._restarts = None, {}, {}, {}, 0
        for i, share in enumerate(self.shares):
            share.maps, share.worker, share.limits = self.maps_dir, i, limits
            share.carry = {s: kept[s] for s in share.tasks if s in kept}
            self._worker(i).requests.put(("run", gen, arena, share))
        return gen

    def _pump(self, timeout: float) -> None:
        """Take the replies that arrive within ``timeout`` seconds (those to older requests are
        dropped; a dead worker is started again and given its share once more)."""
        assert self._request is not None, "submit() first"
        gen, arena, shares = self._request
        conns = {w.replies: i for i, w in enumerate(self.workers) if w is not None}
        for conn in wait(list(conns), timeout=timeout):
            i = conns[conn]
            w = self.workers[i]
            assert w is not None
            while True:
                msg = w.receive()
                if msg is None:  # died: start it again, a few times per request
                    self._restarts += 1
                    if self._restarts > 2 * self.count:
                        raise RuntimeError("travel worker died (exit code %s)" % w.proc.exitcode)
                    w.proc.join(1.0)
                    if i not in self._exact:
                        self._worker(i).requests.put(("run", gen, arena, shares[i]))
                    break
                self._take(i, msg)
                if not w.replies.poll():
                    break

    def _take(self, i: int, msg: tuple[str, int, Any]) -> None:
        status, g, payload = msg
        if g != self.generation:
            return  # an answer to an older request
        if status == "quick":
            self._quick, self.cost[("quick", "quick")] = payload
        elif status == "ok":
            travel, seconds, exact = payload
            self._travel[i] = travel
            if exact:
                self._exact[i] = travel
            self.seconds[i] = sum(seconds.values())
            self.timings[i] = seconds
            for source, kind in self.shares[i].searched.items():
                if source in seconds:
                    self.cost[(source, kind)] = seconds[source]
        elif status == "exact":
            self._exact[i] = payload
        elif status == "warm":
            self._warm[i] = int(payload)
        elif status == "error":
            raise RuntimeError(payload)
        if status in ("ok", "exact") and len(self._exact) == self.count and self._request is not None:
            self.basis = (self._request[1], {s: rows for part in self._exact.values() for s, rows in part.items()})

    def collect_quick(self, should_stop: Callable[[], bool] = lambda: False,
                      poll_s: float = 0.005) -> list[dict[str, Any]]:
        """The quick stage's findings for the last request (submitted with ``quick``)."""
        assert self._request is not None and any(s.quick for s in self._request[2]), "submit(quick=True) first"
        while self._quick is None:
            if should_stop():
                raise Stopped()
            self._pump(poll_s)
        return self._quick

    def collect(self, should_stop: Callable[[], bool] = lambda: False,
                poll_s: float = 0.005) -> dict[str, dict[str, Any]]:
        """The travel of the last request (raises :class:`Stopped` when ``should_stop()``,
        checked every ``poll_s`` seconds; replies are taken as soon as they arrive)."""
        while len(self._travel) < self.count:
            if should_stop():
                raise Stopped()
            self._pump(poll_s)
        return {s: rows for part in self._travel.values() for s, rows in part.items()}

    @property
    def exact(self) -> bool:
        """Whether every answer collected for the last request is exact already (no
        :meth:`collect_exact` to wait for)."""
        return len(self._exact) == self.count

    def collect_exact(self, should_stop: Callable[[], bool] = lambda: False,
                      poll_s: float = 0.005) -> dict[str, dict[str, Any]]:
        """The exact travel of the last request: what :meth:`collect` returns once the workers
        have answered from renewed sessions wherever theirs were provisional (see the module
        docstring); the same answers a validation of the arena finds."""
        while len(self._exact) < self.count:
            if should_stop():
                raise Stopped()
            self._pump(poll_s)
        return {s: rows for part in self._exact.values() for s, rows in part.items()}

    def run(self, arena: Arena, should_stop: Callable[[], bool] = lambda: False,
            poll_s: float = 0.005) -> dict[str, dict[str, Any]]:
        """:meth:`submit` then :meth:`collect`."""
        self.submit(arena)
        return self.collect(should_stop, poll_s)

    def wait_warm(self, timeout: float = 60.0) -> list[int]:
        """Wait until every worker has finished warming up after the last request; returns how
        many searches each holds (benchmarks measure the steady state after this)."""
        end = time.monotonic() + timeout
        while len(self._warm) < self.count:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the travel workers did not warm up in {timeout} s")
            self._pump(min(left, 0.1))
        return [self._warm[i] for i in range(self.count)]

    def close(self) -> None:
        for i, w in enumerate(self.workers):
            if w is not None:
                w.stop()
                self.workers[i] = None
        if self.maps_dir is not None:
            shutil.rmtree(self.maps_dir, ignore_errors=True)
            self.maps_dir = None
