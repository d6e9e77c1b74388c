"""Seasons: a linked series of events (games), each on an arena under its own scenario, and the
standings their results give (``arena season``, the service's ``/v1/season/...``).

A season file (format ``arena-studio-season/1``, ``schema/season.schema.json``) names its game
(``system``), its events in play order - each an arena file relative to the season file, scenario
overrides, a championship ``multiplier`` and, once played, each player's ``results`` (victory
points when the event ended) and ``kill_shots`` - and optionally ``deck_evolution`` and the game's
``scoring`` options.  This module is the game-free core: it reads and locates (every problem as
FILE:LINE:COLUMN: /pointer: message, like arena files), resolves the arenas, checks the events
(:func:`check`) and adds up the standings (:func:`standings`); how one event's results become
placement points and how players are ranked is the game's (:class:`SeasonScoring`, from
:meth:`validators.game.GameAnalysis.season_scoring`; a game without one has no season play).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal

from schema.errors import ArenaError, ArenaIOError, Problem, pointer

if TYPE_CHECKING:
    from schema.positions import Located
    from validators.report import Report

__all__ = ["FORMAT", "MAX_EVENTS", "MIN_EVENTS", "MAX_SEASON_BYTES", "Event", "EventScore", "Placing", "Season",
           "SeasonCheck", "SeasonError", "SeasonScoring", "ScoringRefusal", "Standing", "Standings", "check",
           "from_document", "load", "loads", "merge_scenario", "season_schema", "standings"]

FORMAT = "arena-studio-season/1"
#: A season's usual number of events (fewer or more is a warning, not an error).
MIN_EVENTS, MAX_EVENTS = 4, 8
#: Largest season file read, in bytes.
MAX_SEASON_BYTES = 1024 * 1024

Severity = Literal["error", "warning", "info"]


class SeasonError(ArenaError):
    """A season that cannot be read or scored: ``problems`` located in the season file."""


class ScoringRefusal(ValueError):
    """Raised by a game's :class:`SeasonScoring` for results it will not score as given;
    ``player`` names the result at fault when it is one."""

    def __init__(self, message: str, player: str | None = None) -> None:
        super().__init__(message)
        self.player = player


@dataclass(frozen=True)
class Event:
    """One event of a season (``index`` from 0, ``pointer`` ``/events/<index>``)."""

    index: int
    name: str
    arena: str
    scenario: Mapping[str, Any]
    multiplier: int
    results: Mapping[str, int] | None
    kill_shots: Mapping[str, int]

    @property
    def pointer(self) -> str:
        return f"/events/{self.index}"

    @property
    def played(self) -> bool:
        return self.results is not None


@dataclass(frozen=True)
class Finding:
    """A season-level finding of :func:`check` or of reading (``problem`` locates it)."""

    severity: Severity
    problem: Problem

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, **self.problem.to_json()}

    def __str__(self) -> str:
        return f"{self.severity}: {self.problem}"


@dataclass(frozen=True)
class Season:
    """A season read from ``source``; ``base``: the folder its arena paths are relative to
    (None: a document with no file, whose arenas are given another way)."""

    source: str
    system: str
    name: str
    events: tuple[Event, ...]
    deck_evolution: str | None
    scoring: Mapping[str, Any]
    base: Path | None
    located: Located = field(repr=False)
    #: What reading found worth saying that does not stop it (event count outside 4-8...).
    warnings: tuple[Finding, ...] = ()

    def problem(self, ptr: str, message: str, *, key: bool = False) -> Problem:
        line, col = self.located.where(ptr, key=key)
        return Problem(self.source, line, col, ptr, message)

    def players(self) -> list[str]:
        """Every player named in a played event's results, in order of first appearance."""
        return list(dict.fromkeys(p for e in self.events if e.results is not None for p in e.results))


# ------------------------------------------------------------------ the game's part


@dataclass(frozen=True)
class Placing:
    """A player's place in one event (None: did not play it) and the placement points it earns
    before the event's multiplier."""

    place: int | None
    points: int


@dataclass(frozen=True)
class EventScore:
    """One player's outcome of one event in the standings."""

    event: str
    multiplier: int
    place: int | None
    victory_points: int | None
    kill_shots: int
    placement_points: int

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "place": self.place, "victory_points": self.victory_points,
                "kill_shots": self.kill_shots, "multiplier": self.multiplier,
                "placement_points": self.placement_points}


@dataclass(frozen=True)
class Standing:
    """A player's season so far; ``rank`` shared by players the game's ranking cannot part."""

    player: str
    placement_points: int
    victory_points: int
    kill_shots: int
    events: tuple[EventScore, ...]
    rank: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "placement_points": self.placement_points,
                "victory_points": self.victory_points, "kill_shots": self.kill_shots,
                "events": [e.to_json() for e in self.events]}


class SeasonScoring:
    """A game's season scoring (:meth:`validators.game.GameAnalysis.season_scoring`): how one
    event's results become places and placement points (:meth:`place`) and how players are
    ranked (:meth:`rank_key`).  ``options_schema``: the JSON Schema of the season file's
    ``scoring`` options the game reads (validated, and located, before :meth:`place` sees them)."""

    options_schema: Mapping[str, Any] = {"type": "object", "additionalProperties": False}

    def place(self, results: Mapping[str, int], players: Sequence[str],
              options: Mapping[str, Any]) -> dict[str, Placing]:
        """Each of ``players`` (everyone in the season) placed in an event whose ``results``
        (player -> score at the event's end) are given; :class:`ScoringRefusal` for results
        the game does not score as given."""
        raise NotImplementedError

    def rank_key(self, standing: Standing) -> tuple[int, ...]:
        """What ranks players, greater first; players with equal keys share a rank."""
        return (standing.placement_points, standing.victory_points)

    def advice(self, season: Season) -> list[Finding]:
        """What the game's book advises about a season's plan that this one does not follow
        (:func:`check` adds it to its findings)."""
        return []

    def event_advice(self, season: Season, played: Sequence[tuple[Event, Any]]) -> list[Finding]:
        """What the game's book says about the events' settings as played: ``played`` is each
        readable event with its typed arena under the event's scenario (the arena's own with the
        event's overrides merged over it), in season order (:func:`check` adds it to its findings)."""
        return []


# ------------------------------------------------------------------ reading


@lru_cache(maxsize=1)
def season_schema() -> dict[str, Any]:
    """The season file's JSON Schema (``schema/season.schema.json``)."""
    data: dict[str, Any] = json.loads(resources.files("schema").joinpath("season.schema.json")
                                      .read_text(encoding="utf-8"))
    return data


def load(path: str | os.PathLike[str]) -> Season:
    """Read a season file; :class:`SeasonError` listing every problem, located."""
    from schema.io import format_of

    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_SEASON_BYTES + 1)
    except OSError as exc:
        raise ArenaIOError([Problem(str(path), 0, 0, "", f"cannot read file: {exc.strerror or exc}")]) from None
    return loads(raw, source=str(path), fmt=format_of(path, raw[:200].decode("utf-8", "replace")),
                 base=Path(path).parent)


def loads(text: str | bytes, *, source: str = "<season>", fmt: Literal["yaml", "json"] = "yaml",
          base: Path | None = None) -> Season:
    """Read a season from YAML or JSON text (``bytes``: UTF-8); ``base``: the folder its arena
    paths are relative to."""
    from schema.positions import ParseError, parse_json, parse_yaml, text_of

    if len(text) > MAX_SEASON_BYTES:
        raise SeasonError([Problem(source, 0, 0, "", f"file is larger than the {MAX_SEASON_BYTES // 1024} KiB "
                                                     "limit for season files")])
    try:
        text = text_of(text, source)
        located = parse_json(text, source) if fmt == "json" else parse_yaml(text, source)
    except ParseError as exc:
        raise SeasonError(sorted(exc.problems)) from None
    return _build(located, source, base)


def from_document(doc: Any, *, source: str = "<season>", base: Path | None = None) -> Season:
    """A season from an in-memory document (no positions: problems name their pointer)."""
    from schema.positions import Located

    return _build(Located(doc, {}), source, base)


def _build(located: Located, source: str, base: Path | None) -> Season:
    import jsonschema

    from schema.io import schema_problems
    from schema.ruleset import UnknownSystem, ruleset

    doc = located.data
    problems: list[Problem] = []
    validator = jsonschema.Draft202012Validator(season_schema())
    for error in validator.iter_errors(doc):
        problems.extend(schema_problems(error, located, source))
        if len(problems) > 100:
            break
    if problems:
        raise SeasonError(_sorted(problems))
    events = tuple(Event(index=i, name=e["name"], arena=e["arena"], scenario=e.get("scenario", {}),
                         multiplier=int(e.get("multiplier", 1)), results=e.get("results"),
                         kill_shots=e.get("kill_shots", {}))
                   for i, e in enumerate(doc["events"]))
    season = Season(source=source, system=doc["system"], name=doc["name"], events=events,
                    deck_evolution=doc.get("deck_evolution"), scoring=doc.get("scoring", {}), base=base,
                    located=located)
    try:
        ruleset(season.system)
    except UnknownSystem as exc:
        problems.append(season.problem("/system", str(exc.args[0])))
    for e in events:
        ptr = e.pointer
        if e.results is None and e.kill_shots:
            problems.append(season.problem(f"{ptr}/kill_shots", "kill shots of an event with no results; "
                                                                "give the event's results too"))
        for player in e.kill_shots:
            if e.results is not None and player not in e.results:
                problems.append(season.problem(f"{ptr}/kill_shots/{_token(player)}",
                                               f"{player!r} has kill shots but no result in this event",
                                               key=True))
        if not _relative(e.arena):
            problems.append(season.problem(f"{ptr}/arena", f"{e.arena!r} is not a relative path; arena paths are "
                                                           "relative to the season file, with '/' between folders"))
    if problems:
        raise SeasonError(_sorted(problems))
    warnings: list[Finding] = []
    if not MIN_EVENTS <= len(events) <= MAX_EVENTS:
        warnings.append(Finding("warning", season.problem(
            "/events", f"{len(events)} events; a season has {MIN_EVENTS} to {MAX_EVENTS}")))
    return replace(season, warnings=tuple(warnings))


def _token(key: str) -> str:
    return pointer((key,))[1:]


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(set(problems), key=lambda p: (p.line, p.column, p.pointer, p.message))


def _relative(path: str) -> bool:
    """Is an event's ``arena`` a relative path written with '/' (no drive, no backslash)?"""
    return not (path.startswith("/") or "\\" in path or ":" in path or "\x00" in path)


def arena_path(season: Season, event: Event, root: Path | None = None) -> Path:
    """The file of ``event``'s arena: its path resolved against the season file's folder, which
    it may not leave (nor ``root``, when given, a folder that holds that one);
    :class:`SeasonError` located at the event's ``arena`` when it does or when there is no file."""
    ptr = f"{event.pointer}/arena"
    if season.base is None:
        raise SeasonError([season.problem(ptr, "this season has no folder to find its arenas in")])
    fence = (root if root is not None else season.base).resolve()
    path = (season.base / PurePosixPath(event.arena)).resolve()
    if not path.is_relative_to(fence):
        raise SeasonError([season.problem(ptr, f"{event.arena!r} leads out of {fence} (arena paths stay inside the "
                                               "season file's folder, or the root given)")])
    if not path.is_file():
        raise SeasonError([season.problem(ptr, f"no arena file {event.arena!r} (looked for {path})")])
    return path


# ------------------------------------------------------------------ standings


@dataclass(frozen=True)
class Standings:
    """A season's standings after its played events; ``pending``: events not yet played."""

    season: Season
    standings: tuple[Standing, ...]
    pending: tuple[str, ...]

    def ferocity(self) -> list[str]:
        """The players with the most kill shots (the award for ferocity), none when nobody has any."""
        best = max((s.kill_shots for s in self.standings), default=0)
        return [s.player for s in self.standings if best > 0 and s.kill_shots == best]

    def to_json(self) -> dict[str, Any]:
        return {"season": self.season.name, "system": self.season.system,
                "standings": [s.to_json() for s in self.standings],
                "pending": list(self.pending), "ferocity": self.ferocity()}


def scoring_of(season: Season) -> SeasonScoring:
    """The season scoring of the season's game; ``LookupError`` (from the game's analysis, or
    for a game not installed) when it has none."""
    from validators.game import UnknownAnalysis, analysis

    try:
        game = analysis(season.system)
    except UnknownAnalysis as exc:
        raise LookupError(str(exc)) from None
    return game.season_scoring()


def standings(season: Season, scoring: SeasonScoring | None = None) -> Standings:
    """Add up the season's played events under its game's scoring (``scoring``: another one)."""
    import jsonschema

    from schema.io import schema_problems

    scoring = scoring if scoring is not None else scoring_of(season)
    options_schema = dict(scoring.options_schema)
    problems = []
    for error in jsonschema.Draft202012Validator(options_schema).iter_errors(dict(season.scoring)):
        for p in schema_problems(error, season.located, season.source):
            ptr = "/scoring" + p.pointer
            problems.append(season.problem(ptr, p.message, key=p.message.startswith("unknown property")))
    if problems:
        raise SeasonError(_sorted(problems))
    options = {k: v.get("default") for k, v in options_schema.get("properties", {}).items()}
    options.update(season.scoring)
    players = season.players()
    rows: dict[str, list[EventScore]] = {p: [] for p in players}
    for event in season.events:
        if event.results is None:
            continue
        try:
            placed = scoring.place(event.results, players, options)
        except ScoringRefusal as exc:
            ptr = f"{event.pointer}/results" + (f"/{_token(exc.player)}" if exc.player is not None else "")
            raise SeasonError([season.problem(ptr, str(exc))]) from None
        for player in players:
            at = placed[player]
            rows[player].append(EventScore(event.name, event.multiplier, at.place, event.results.get(player),
                                           event.kill_shots.get(player, 0), at.points * event.multiplier))
    table = [Standing(p, sum(e.placement_points for e in ev), sum(e.victory_points or 0 for e in ev),
                      sum(e.kill_shots for e in ev), tuple(ev)) for p, ev in rows.items()]
    keys = {s.player: scoring.rank_key(s) for s in table}
    table.sort(key=lambda s: s.player)
    table.sort(key=lambda s: keys[s.player], reverse=True)
    ranked = tuple(replace(s, rank=1 + sum(keys[o.player] > keys[s.player] for o in table)) for s in table)
    return Standings(season, ranked, tuple(e.name for e in season.events if e.results is None))


# ------------------------------------------------------------------ check


@dataclass(frozen=True)
class EventCheck:
    """One event's arena validated under the event's scenario: its ``report`` (None when the
    arena could not be read; ``problems`` then say why)."""

    event: Event
    path: str
    report: Report | None
    problems: tuple[Problem, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.event.name, "arena": self.event.arena, "file": self.path,
                               "scenario": dict(self.event.scenario), "multiplier": self.event.multiplier}
        if self.report is None:
            out["problems"] = [p.to_json() for p in self.problems]
        else:
            out["summary"] = self.report.summary()
            played = self.report.to_json().get("scenario")
            if played is not None:  # the game's settings as played (Gravstrike: the veteran limit)
                out["played"] = played
        return out


@dataclass(frozen=True)
class SeasonCheck:
    """:func:`check`'s answer: each event's check and the season's own findings."""

    season: Season
    events: tuple[EventCheck, ...]
    findings: tuple[Finding, ...]

    def failed(self, fail_on: str = "error") -> bool:
        """Whether an arena could not be read, a finding of the season is an error, or some
        event's report has a finding of ``fail_on`` or worse."""
        return (any(e.report is None or e.report.fails(fail_on) for e in self.events)
                or any(f.severity == "error" for f in self.findings))

    def to_json(self) -> dict[str, Any]:
        return {"season": self.season.name, "system": self.season.system,
                "deck_evolution": self.season.deck_evolution,
                "events": [e.to_json() for e in self.events],
                "findings": [f.to_json() for f in self.findings]}


def merge_scenario(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``overrides`` merged over it: mappings merged key by key, anything else
    replaced.

    >>> merge_scenario({"players": 6, "variants": {"gates": True}}, {"variants": {"small_targets": True}})
    {'players': 6, 'variants': {'gates': True, 'small_targets': True}}
    """
    out = dict(base)
    for key, value in overrides.items():
        old = out.get(key)
        out[key] = merge_scenario(old, value) if isinstance(old, Mapping) and isinstance(value, Mapping) else value
    return out


def _pointers(value: Any, prefix: str) -> set[str]:
    out = {prefix}
    if isinstance(value, Mapping):
        for k, v in value.items():
            out |= _pointers(v, f"{prefix}/{_token(str(k))}")
    return out


def event_arena(season: Season, event: Event, text: bytes, source: str) -> tuple[Any, dict[str, Any]]:
    """``event``'s arena read from ``text`` (its file ``source``) with the event's scenario
    merged over its own: the typed arena and its document.  :class:`SeasonError`: a problem of
    the overrides located in the season file, the arena's own in the arena file."""
    from schema.io import MAX_FILE_BYTES, build, format_of, validate_located
    from schema.positions import Located, ParseError, parse_json, parse_yaml

    if len(text) > MAX_FILE_BYTES:
        raise SeasonError([Problem(source, 0, 0, "", f"file is larger than the {MAX_FILE_BYTES // (1024 * 1024)} "
                                                     "MiB limit for arena files")])
    try:
        raw = text.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise SeasonError([Problem(source, 0, 0, "", "file is not UTF-8 text")]) from None
    try:
        located = parse_json(raw, source) if format_of(source, raw[:200]) == "json" else parse_yaml(raw, source)
    except ParseError as exc:
        raise SeasonError(sorted(exc.problems)) from None
    doc = located.data
    if isinstance(doc, dict) and event.scenario:
        own = doc.get("scenario")
        doc = dict(doc, scenario=merge_scenario(own if isinstance(own, Mapping) else {}, event.scenario))
    overridden = _pointers(dict(event.scenario), "/scenario") - {"/scenario"}
    try:
        valid = validate_located(Located(doc, located.positions), source)
    except ArenaError as exc:
        raise SeasonError(_sorted([season.problem(event.pointer + p.pointer, f"{p.message} (in {source})",
                                                  key=p.message.startswith("unknown property"))
                                   if p.pointer in overridden else p for p in exc.problems])) from None
    system = valid.get("system")
    if system != season.system:
        raise SeasonError([season.problem(f"{event.pointer}/arena",
                                          f"{event.arena!r} is a {system} arena; this season is {season.system}")])
    return build(valid), valid


def check(season: Season, *, root: Path | None = None, arenas: Mapping[str, bytes] | None = None,
          validate: Any = None) -> SeasonCheck:
    """Validate each event's arena under the event's scenario through the game's analysis, and
    say what the season's plan gets wrong: events that repeat an earlier one's arena and
    parameters (each game of a season should have different ones), and the game's own advice
    (:meth:`SeasonScoring.advice`).  ``arenas``: the arena files' bytes by their path as the season writes
    it (the service), instead of reading them from disk under ``root``; ``validate``: called as
    ``validate(arena, source)`` instead of the game's analysis (tests)."""
    from validators.game import analysis

    scoring = scoring_of(season)
    findings = list(season.warnings)
    if validate is None:
        game = analysis(season.system)

        def validate(arena: Any, source: str) -> Report:
            return game.validate(arena, source=source)

    checks: list[EventCheck] = []
    played: list[tuple[Event, Any]] = []
    seen: dict[str, Event] = {}
    for event in season.events:
        try:
            if arenas is not None:
                key = str(PurePosixPath(event.arena))
                if key not in arenas:
                    raise SeasonError([season.problem(f"{event.pointer}/arena",
                                                      f"no arena {event.arena!r} was given with the season")])
                source, text = key, arenas[key]
            else:
                path = arena_path(season, event, root)
                source, text = str(path), path.read_bytes()
            arena, doc = event_arena(season, event, text, source)
        except ArenaError as exc:
            checks.append(EventCheck(event, event.arena, None, tuple(exc.problems)))
            continue
        except OSError as exc:
            checks.append(EventCheck(event, event.arena, None, (season.problem(
                f"{event.pointer}/arena", f"cannot read {event.arena!r}: {exc.strerror or exc}"),)))
            continue
        same = json.dumps({k: v for k, v in doc.items() if k not in ("name", "description")}, sort_keys=True)
        if same in seen:
            first = seen[same]
            findings.append(Finding("warning", season.problem(
                event.pointer, f"event {event.name!r} repeats event {first.name!r}: the same arena under the same "
                               "parameters (each game of a season should have different ones)")))
        else:
            seen[same] = event
        played.append((event, arena))
        checks.append(EventCheck(event, source, validate(arena, source)))
    findings.extend(scoring.advice(season))
    findings.extend(scoring.event_advice(season, played))
    return SeasonCheck(season, tuple(checks), tuple(findings))
