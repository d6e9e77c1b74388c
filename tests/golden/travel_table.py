"""The golden travel table (issue 36, "Travel answers must not get slower between versions"): the
travel time of every goal from every source of the generated arenas of
:mod:`tests.golden.travel_arenas`, as the validators search it (the analysis context's planner:
``validators.options.ANALYSIS_TOLERANCE``, the time-only search, the analysis turn limit), kept
in ``travel_times.json``.  ``test_travel_table.py`` fails when an answer is slower than the
table's (or no longer reached) and asks for the table to be updated when one is faster, so
a change may only improve the times.

Each row also keeps the answer of the finest search that completes on these arenas
(:data:`FINEST`; the CLI's 0.01 runs out of its 1 GiB on most of them) - the reference the
analysis tolerance's error is measured against (docs/motion-model.md, "How far from exact").

Update the table after a change that makes answers faster (review ``git diff`` first)::

    python -m tests.golden.travel_table                   # the analysis answers; the finest ones kept
    python -m tests.golden.travel_table --finest-missing  # and the finest ones of new cases
    python -m tests.golden.travel_table --finest          # every finest search again (half an hour)

and quote the bound it prints in docs/motion-model.md and docs/cli.md (a test checks them).

Work is bounded by states, not time: every search stops at :data:`MAX_BYTES` of kept states
(a few hundred thousand states is all any of them needs) and would then answer "undecided",
which the test counts as slower.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from engine.gravstrike.planner import Planner, TravelResult
from engine.gravstrike.travel_types import SearchLimits
from tests.golden.travel_arenas import CASES, Case, parse_source
from validators.games.gravstrike.context import AnalysisContext

TABLE = Path(__file__).resolve().parent / "travel_times.json"
#: Memory each search of the test may keep (about 1.2 M states; the largest needs 0.4 M).
MAX_BYTES = 256 << 20
#: The tolerances tried for the reference answers, finest first: the first that decides a goal
#: gives its reference.
FINEST = (0.02, 0.05)
FINEST_BYTES = 1 << 30
UPDATE = "python -m tests.golden.travel_table"


@dataclass(frozen=True)
class Answer:
    """One goal's answer: its status (``reached``, ``unreachable``, ``beyond``, ``undecided``) and,
    when reached, the exact time in turns."""

    status: str
    time: Fraction | None = None

    @classmethod
    def of(cls, r: TravelResult) -> Answer:
        if not r.reachable:
            return cls(r.status)
        return cls("reached", Fraction(r.turns - 1) + Fraction(r.lengths, abs(r.speed)))

    def text(self) -> str:
        return self.status if self.time is None else f"{float(self.time):.3f} turns ({self.time})"

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "time": None if self.time is None else str(self.time),
                "turns": None if self.time is None else round(float(self.time), 3)}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Answer:
        return cls(doc["status"], None if doc["time"] is None else Fraction(doc["time"]))


def digest(case: Case) -> str:
    """What the case's arena is, digested (an edited generator makes another arena)."""
    return hashlib.sha256(repr(case.build()).encode()).hexdigest()[:16]


def answers(case: Case, planner: Planner | None = None) -> tuple[dict[tuple[str, str], Answer], int]:
    """(source, goal) -> the analysis answer, for every source of ``case`` and every goal of its
    arena; and the states the searches kept."""
    arena = case.build()
    if planner is None:
        planner = AnalysisContext(arena, limits=SearchLimits(max_bytes=MAX_BYTES)).planner
    out: dict[tuple[str, str], Answer] = {}
    states = 0
    for text in case.sources:
        source = parse_source(text)
        search = planner.frontier_search(source)
        assert search is not None, f"{case.name} {text}: not a vectorised search"
        results = planner.confirm(source, search.run(), search.proven)
        states += search.store.n
        search.release()
        for goal, r in results.items():
            out[(text, goal.ref)] = Answer.of(r)
    return out, states


def finest(case: Case) -> dict[tuple[str, str], tuple[Answer, float]]:
    """(source, goal) -> the reference answer and its tolerance (the finest of :data:`FINEST`
    that decides the goal)."""
    arena = case.build()
    out: dict[tuple[str, str], tuple[Answer, float]] = {}
    for q in FINEST:
        planner = Planner(arena, quantum=q, minimise="time", max_turns=AnalysisContext(arena).max_turns,
                          limits=SearchLimits(max_bytes=FINEST_BYTES))
        got, _ = answers(case, planner)
        for key, a in got.items():
            if key not in out and a.status != "undecided":
                out[key] = (a, q)
        if all(key in out for key in got):
            break
    return out


def key_of(row: dict[str, Any]) -> tuple[str, str, str]:
    return row["case"], row["source"], row["goal"]


def load_table(path: Path = TABLE) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def worse(now: Answer, kept: Answer) -> bool:
    """Is ``now`` a worse answer than the table's ``kept``: slower, or no longer reached; a
    proven answer (unreachable) that changes at all counts too."""
    if kept.status == "reached":
        return now.status != "reached" or (now.time is not None and kept.time is not None and now.time > kept.time)
    if kept.status == "unreachable":
        return now.status != "unreachable"
    return now.status in ("undecided",) and kept.status != "undecided"


def better(now: Answer, kept: Answer) -> bool:
    """Is ``now`` a better answer than ``kept``: faster, or reached where the table's was not
    (beyond the turn limit, undecided)."""
    if now.status != "reached" or now.time is None:
        return kept.status == "undecided" and now.status in ("beyond", "unreachable")
    return kept.status in ("beyond", "undecided") or (kept.time is not None and now.time < kept.time)


def compare(case: Case, now: dict[tuple[str, str], Answer], table: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(problems, improvements) of ``case``'s answers ``now`` against the table: an answer slower
    than the table's, a row missing on either side or an arena that is not the one the table was
    made on are problems; a faster answer is an improvement (the table should record it)."""
    rows = {key_of(r): r for r in table["rows"] if r["case"] == case.name}
    problems: list[str] = []
    improved: list[str] = []
    if not rows:
        return [f"{case.name}: not in the table (new case: run `{UPDATE}`)"], []
    if any(r["arena"] != digest(case) for r in rows.values()):
        return [f"{case.name}: the arena is not the one the table was made on (a generator changed?): "
                f"check the change, then run `{UPDATE}`"], []
    for (src, goal), a in sorted(now.items()):
        row = rows.pop((case.name, src, goal), None)
        if row is None:
            problems.append(f"{case.name} {src} -> {goal}: not in the table (run `{UPDATE}`)")
            continue
        kept = Answer.from_json(row["answer"])
        if worse(a, kept):
            problems.append(f"{case.name} {src} -> {goal}: {a.text()}, slower than the table's {kept.text()}")
        elif better(a, kept):
            improved.append(f"{case.name} {src} -> {goal}: {a.text()}, better than the table's {kept.text()}")
    problems += [f"{k[0]} {k[1]} -> {k[2]}: in the table but no longer answered" for k in rows]
    return problems, improved


def bound(table: dict[str, Any]) -> tuple[Fraction, int, int]:
    """(the largest amount by which an analysis answer is slower than the reference answer, the
    number of goals where it is slower, the number of goals both reach)."""
    worst, slower, both = Fraction(0), 0, 0
    for r in table["rows"]:
        a, ref = Answer.from_json(r["answer"]), r.get("finest")
        if ref is None or a.time is None:
            continue
        f = Answer.from_json(ref)
        if f.time is None:
            continue
        both += 1
        if a.time > f.time:
            slower += 1
            worst = max(worst, a.time - f.time)
    return worst, slower, both


def dumps(doc: dict[str, Any]) -> str:
    """The table as text: one row a line (a change shows as the lines of the answers it moved)."""
    head = {k: v for k, v in doc.items() if k != "rows"}
    rows = ",\n".join("  " + json.dumps(r, sort_keys=False) for r in doc["rows"])
    return json.dumps(head, indent=1)[:-2] + ',\n "rows": [\n' + rows + "\n ]\n}\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the golden travel table (tests/golden/travel_times.json).")
    parser.add_argument("--finest", action="store_true", help="search every reference answer again (half an hour)")
    parser.add_argument("--finest-missing", action="store_true",
                        help="search the reference answers of the cases that have none (new cases)")
    args = parser.parse_args(argv)
    old = load_table() if TABLE.exists() else {"rows": []}
    kept = {key_of(r): r for r in old["rows"]}
    rows: list[dict[str, Any]] = []
    from validators.options import ANALYSIS_TOLERANCE

    for case in CASES:
        now, states = answers(case)
        missing = any("finest" not in kept.get((case.name, src, goal), {}) for src, goal in now)
        ref = finest(case) if args.finest or (args.finest_missing and missing) else {}
        for (src, goal), a in sorted(now.items()):
            row: dict[str, Any] = {"case": case.name, "family": case.family, "arena": digest(case), "source": src,
                                   "goal": goal, "answer": a.to_json()}
            if (src, goal) in ref:
                fa, q = ref[(src, goal)]
                row["finest"], row["finest_tolerance"] = fa.to_json(), q
            elif (case.name, src, goal) in kept and "finest" in kept[(case.name, src, goal)]:
                old_row = kept[(case.name, src, goal)]
                row["finest"], row["finest_tolerance"] = old_row["finest"], old_row["finest_tolerance"]
            rows.append(row)
        print(f"{case.name}: {len(now)} answers, {states:,} states")
    doc = {"tolerance": ANALYSIS_TOLERANCE, "rows": rows}
    worst, slower, both = bound(doc)
    doc["bound"] = {"worst": str(worst), "worst_turns": round(float(worst), 3), "slower": slower, "compared": both}
    TABLE.write_text(dumps(doc), encoding="utf-8")
    print(f"wrote {TABLE} ({len(rows)} answers; slower than the finest search: {slower} of {both}, by at most {worst} turn)")


if __name__ == "__main__":
    main()
