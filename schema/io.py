"""Read and write arena files: YAML or JSON in, validated typed model out; canonical, atomic
writes.

>>> arena = loads('{format: arena-studio/1, system: gravstrike, name: Tiny}')
>>> arena.name, arena.bounds.size
('Tiny', (24.0, 24.0))
>>> loads('{format: arena-studio/1, system: gravstrike, nmae: Tiny}', source='t.yaml')
Traceback (most recent call last):
...
schema.errors.ArenaError: t.yaml:1:1: /: 'name' is a required property
t.yaml:1:46: /nmae: unknown property 'nmae' (did you mean 'name'?)
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import jsonschema
import yaml

from referencing import Registry, Resource

from schema.checks import format_problems
from schema.errors import ArenaError, ArenaIOError, Problem, pointer
from schema.migrate import MigrationError, migrate
from schema.positions import Located, ParseError, parse_json, parse_yaml, text_of
from schema.ruleset import (ArenaModel, UnknownSystem, common_schema, default_system, load_schema_resource, ruleset,
                            ruleset_of, rulesets)

#: A typed arena of whichever game its ``system`` names (Gravstrike's ``Arena``, Car Wars'
#: ``CarWarsArena``...): what its ruleset's ``build`` returns, read here through the
#: :class:`~schema.ruleset.ArenaModel` protocol.
TypedArena = ArenaModel

Format = Literal["yaml", "json"]

#: Largest arena file read, in bytes.
MAX_FILE_BYTES = 4 * 1024 * 1024


def arena_schema() -> dict[str, Any]:
    """The arena JSON Schema of the default game (:func:`schema.ruleset.default_system`, the
    studio's first game: Gravstrike's ``schema/games/gravstrike/gravstrike.schema.json``), as
    this function always returned; each game's is :func:`system_schema`."""
    return ruleset(default_system()).json_schema()


def dispatcher_schema() -> dict[str, Any]:
    """The arena file's JSON Schema (``schema/arena.schema.json``): ``format``, ``system`` and
    ``name``, and each built-in game's schema chosen by ``system``."""
    return load_schema_resource("schema:arena.schema.json")


def system_schema(system: str) -> dict[str, Any]:
    """The JSON Schema of one game's arena files (raises :class:`~schema.ruleset.UnknownSystem`)."""
    return ruleset(system).json_schema()


@lru_cache(maxsize=1)
def schema_registry() -> Registry:
    """Every schema resource by its ``$id``: the dispatcher, the shared definitions
    (:func:`schema.ruleset.common_schema`) and every installed ruleset's schema."""
    pairs = [(uri, Resource.from_contents(d)) for uri, d in _schema_documents()]
    registry: Registry = Registry().with_resources(pairs)
    return registry


def _schema_documents(system: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """($id, document) of the dispatcher, the shared definitions and every installed ruleset's
    schema - or, given a ``system``, the dispatcher's branch for that game and only that game's
    schema (which spares importing every ruleset)."""
    docs = [_dispatcher_for(system), common_schema()]
    if system is None:
        docs += [rs.json_schema() for rs in rulesets().values()]
    else:
        docs.append(ruleset(system).json_schema())
    return [(d["$id"], d) for d in docs if isinstance(d.get("$id"), str)]


@lru_cache(maxsize=1)
def _validator() -> Any:
    return jsonschema.Draft202012Validator(dispatcher_schema(), registry=schema_registry())


@lru_cache(maxsize=None)
def _fast_validator(system: str | None = None) -> Any:
    """The dispatcher's schema compiled by jsonschema-rs (a Rust validator: 0.3 ms for a
    48-length table where :func:`_validator` takes 18 ms), used as a gate: a document it finds
    valid skips :func:`_validator`; on any other the problems are :func:`_validator`'s.  A test
    keeps the two agreeing on every shipped arena and on invalid documents.  None when it cannot
    be had.

    For a dispatched game's ``system`` the dispatcher keeps only that game's branch (the others'
    ``if`` cannot hold for a document of that system, so the answer is the same) and the
    registry only the shared definitions and that game's schema: a command reading one arena
    then neither imports every ruleset nor compiles every game's schema."""
    try:
        import jsonschema_rs  # a dependency, but only a speed-up
    except ImportError:  # pragma: no cover
        return None
    registry = jsonschema_rs.Registry(_schema_documents(system))
    return jsonschema_rs.Draft202012Validator(_dispatcher_for(system), registry=registry)


def _dispatcher_for(system: str | None) -> dict[str, Any]:
    """The dispatcher's schema, keeping only ``system``'s branch when one is given."""
    root = dispatcher_schema()
    if system is None:
        return root
    return dict(root, allOf=[b for b in root.get("allOf", []) if _branch_system(b) == system])


def _branch_system(branch: Any) -> Any:
    """The ``system`` a dispatcher branch (``if system == X then ...``) is for."""
    return branch.get("if", {}).get("properties", {}).get("system", {}).get("const")


def _schema_valid(doc: Any) -> bool:
    """Does the fast gate (:func:`_fast_validator`) find ``doc`` valid?  False when it can't
    say (no gate, or values it does not take, such as the dates YAML may read)."""
    system = doc.get("system") if isinstance(doc, dict) else None
    fast = _fast_validator(system if isinstance(system, str) and system in dispatched_systems() else None)
    if fast is None:
        return False
    try:
        return bool(fast.is_valid(doc))
    except Exception:  # noqa: BLE001 - the full validator then decides, and says why
        return False


@lru_cache(maxsize=None)
def _system_validator(system: str) -> Any:
    return jsonschema.Draft202012Validator(system_schema(system), registry=schema_registry())


@lru_cache(maxsize=1)
def dispatched_systems() -> frozenset[str]:
    """The systems whose schema the dispatcher itself selects (the built-in games)."""
    out = set()
    for branch in dispatcher_schema().get("allOf", []):
        const = _branch_system(branch)
        if isinstance(const, str):
            out.add(const)
    return frozenset(out)


def format_of(path: str | os.PathLike[str], text: str | None = None) -> Format:
    """``json`` for ``.json`` files, ``yaml`` for ``.yaml``/``.yml``; otherwise sniffed."""
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    return "json" if text is not None and text.lstrip().startswith("{") and '"format"' in text else "yaml"


# ------------------------------------------------------------------ reading


def read_raw(path: str | os.PathLike[str]) -> bytes:
    """A file's bytes, one past :data:`MAX_FILE_BYTES` at most (the caller says it is too large);
    :class:`ArenaIOError` naming the file when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ArenaIOError([Problem(str(path), 0, 0, "", f"cannot read file: {exc.strerror or exc}")]) from None


def load(path: str | os.PathLike[str]) -> TypedArena:
    """Read, validate and build an arena file. Raises :class:`ArenaError` listing every problem."""
    raw = read_raw(path)
    return loads(raw, source=str(path), fmt=format_of(path, raw[:200].decode("utf-8", "replace")))


def loads(text: str | bytes, *, source: str = "<string>", fmt: Format = "yaml") -> TypedArena:
    """Validate and build an arena from YAML or JSON text (``bytes`` must be UTF-8): the typed
    arena of the game its ``system`` names."""
    return build(validate_text(text, source=source, fmt=fmt))


def build(doc: dict[str, Any]) -> TypedArena:
    """The typed arena of a validated document, built by its game's ruleset."""
    return ruleset(str(doc["system"])).build(doc)


def to_document(arena: TypedArena) -> dict[str, Any]:
    """The canonical document of an arena of any installed game (its ruleset's ``document``)."""
    return ruleset_of(arena).document(arena)


def validate_text(text: str | bytes, *, source: str = "<string>", fmt: Format = "yaml") -> dict[str, Any]:
    """Parse and validate; return the (migrated) document or raise :class:`ArenaError`."""
    if len(text) > MAX_FILE_BYTES:
        raise ArenaError([Problem(source, 0, 0, "", f"file is larger than the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit for arena files")])
    try:
        text = text_of(text, source)
        located = parse_json(text, source) if fmt == "json" else parse_yaml(text, source)
    except ParseError as exc:
        raise ArenaError(sorted(exc.problems)) from None
    return validate_located(located, source)


def from_document(doc: Any, *, source: str = "<document>") -> TypedArena:
    """Validate an in-memory document (no positions) and build the arena."""
    return build(validate_located(Located(doc, {}), source))


def validate_located(located: Located, source: str) -> dict[str, Any]:
    doc = located.data
    problems: list[Problem] = []
    if isinstance(doc, dict):
        try:
            doc = migrate(doc)
        except MigrationError as exc:
            line, col = located.where("/format")
            raise ArenaError([Problem(source, line, col, "/format", str(exc))]) from None
    if not _schema_valid(doc):
        _collect(_validator().iter_errors(doc), problems, located, source)
    system = doc.get("system") if isinstance(doc, dict) else None
    found: list[tuple[str, str]] = format_problems(doc)
    if isinstance(system, str):
        try:
            rs = ruleset(system)
        except UnknownSystem:
            found.append(("/system", f"{_short(system)} is not one of the installed systems: {', '.join(rulesets())}"))
        else:
            if system not in dispatched_systems():  # a third party's game: its ruleset's schema
                _collect(_system_validator(system).iter_errors(doc), problems, located, source)
            # The game's own checks read the document's numbers and shapes as the schema
            # promises them (a positive radius, coordinates within range...): they run only on
            # a document that passed the schema and the format's own rules.
            if rs.semantic is not None and not problems and not found:
                found += rs.semantic(doc)
    for ptr, message in found:
        line, col = located.where(ptr)
        problems.append(Problem(source, line, col, ptr, message))
    if problems:
        raise ArenaError(sorted(set(problems), key=lambda p: (p.line, p.column, p.pointer, p.message)))
    assert isinstance(doc, dict)
    return doc


#: Most schema problems listed for one file (a list of 199 000 wrong items would otherwise give
#: as many problems, and take as long to find them all).
MAX_PROBLEMS = 100


def _collect(errors: Any, problems: list[Problem], located: Located, source: str) -> None:
    """Add the problems of the schema ``errors`` to ``problems``, at most :data:`MAX_PROBLEMS`
    in all, then one saying the list stops there."""
    for error in errors:
        if len(problems) >= MAX_PROBLEMS:
            line, col = located.where("")
            problems.append(Problem(source, max(line, 1), max(col, 1), "",
                                    f"the file has more than {MAX_PROBLEMS} problems; the first {MAX_PROBLEMS} found are listed"))
            return
        problems.extend(schema_problems(error, located, source))


def document_problems(doc: Any) -> list[tuple[str, str]]:
    """What reading an in-memory document (a typed arena's ``document()`` after an edit) would
    refuse, as ``(JSON pointer, message)`` pairs, empty when it passes: the schema, the format's
    own rules, then - only on a document that passed both - the game's own checks."""
    if not _schema_valid(doc):
        for error in _validator().iter_errors(doc):
            return [(pointer(tuple(error.absolute_path)), _message(error))]
    found = format_problems(doc)
    system = doc.get("system") if isinstance(doc, dict) else None
    if found or not isinstance(system, str):
        return found
    rs = ruleset(system)  # UnknownSystem: the schema refused it above
    if system not in dispatched_systems():
        for error in _system_validator(system).iter_errors(doc):
            return [(pointer(tuple(error.absolute_path)), _message(error))]
    return rs.semantic(doc) if rs.semantic is not None else []


def schema_problems(error: Any, located: Located, source: str) -> list[Problem]:
    path = tuple(error.absolute_path)
    ptr = pointer(path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        out = []
        pattern = error.schema.get("patternProperties", {})
        for key in error.instance:
            if key in allowed or (pattern and key.startswith("x-")):
                continue
            kptr = pointer((*path, key))
            line, col = located.where(kptr, key=True)
            hint = difflib.get_close_matches(key, allowed, n=1)
            msg = f"unknown property {key!r}"
            if hint:
                msg += f" (did you mean {hint[0]!r}?)"
            elif pattern:
                msg += " (tool extensions must start with 'x-')"
            out.append(Problem(source, line, col, kptr, msg))
        return out
    line, col = located.where(ptr)
    return [Problem(source, line, col, ptr, _message(error))]


def _message(error: Any) -> str:
    if error.validator == "const" and error.absolute_path and list(error.absolute_path) == ["format"]:
        return f"{error.instance!r} is not a supported format; expected {error.validator_value!r}"
    if error.validator == "items" and error.validator_value is False:
        return f"expected exactly {len(error.schema.get('prefixItems', []))} items"
    if error.validator == "pattern" and isinstance(error.instance, str):
        said = error.schema.get("description") if isinstance(error.schema, dict) and "type" not in error.schema else None
        if said:  # a pattern on names (propertyNames), said in words
            return f"{_short(error.instance)} is not {said}"
        return f"{_short(error.instance)} is not a valid id (a letter, then letters, digits, '_', '.', '-')"
    rule = error.schema.get("description") if isinstance(error.schema, dict) and "type" not in error.schema else None
    if rule and error.validator in ("const", "minimum", "required"):  # a rule across properties, said in words
        return str(rule)
    if error.validator == "maxItems" and isinstance(error.instance, list):
        return f"{len(error.instance)} items; at most {error.validator_value} are allowed"
    if error.validator == "maxLength" and isinstance(error.instance, str):
        return f"{len(error.instance)} characters; at most {error.validator_value} are allowed"
    message = str(error.message)
    if len(message) > MAX_MESSAGE:  # jsonschema quotes the whole value: keep the message readable
        whole = repr(error.instance)
        message = message.replace(whole, _short(error.instance)) if whole in message else message[:MAX_MESSAGE] + "…"
    return message


#: Longest message the schema layer reports for one problem (values are abbreviated).
MAX_MESSAGE = 300


def _short(value: Any) -> str:
    """``repr`` of a value, abbreviated past 60 characters."""
    text = repr(value)
    if len(text) <= 60:
        return text
    if isinstance(value, list):
        return f"[... {len(value)} items]"
    if isinstance(value, dict):
        return f"{{... {len(value)} keys}}"
    return text[:57] + "..."


# ------------------------------------------------------------------ writing


class YamlDumper(yaml.SafeDumper):
    """Block style for mappings, flow style for short lists of numbers (points, sizes)."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = len(data) <= 4 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


#: Characters YAML reads as line breaks besides "\n": outside double quotes the emitter may fold
#: them into spaces, so strings holding them are written double-quoted (escaped as \r, \N, \L, \P).
_YAML_BREAKS = ("\r", "\x85", "\u2028", "\u2029")


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = "|" if "\n" in data and all(c == "\n" or c.isprintable() for c in data) and not data.endswith(" ") else None
    if any(c in data for c in _YAML_BREAKS):
        style = '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


YamlDumper.add_representer(list, _represent_list)
YamlDumper.add_representer(str, _represent_str)


def dumps(arena: TypedArena, fmt: Format = "yaml") -> str:
    """Canonical text of an arena (of any game: its ruleset writes the document): stable key
    order; ``loads(dumps(a)) == a``."""
    doc = ruleset_of(arena).document(arena)
    if fmt == "json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    text: str = yaml.dump(doc, Dumper=YamlDumper, sort_keys=False, allow_unicode=True, width=100,
                          default_flow_style=False)
    return text


def save(arena: TypedArena, path: str | os.PathLike[str], fmt: Format | None = None) -> None:
    """Write ``arena`` canonically to ``path`` (YAML or JSON by extension), atomically."""
    text = dumps(arena, fmt or format_of(path))
    write_atomic(path, text.encode("utf-8"))


#: A temporary file younger than this (seconds) is left alone: its save may just have begun.
FRESH_TEMP_SECONDS = 2.0
#: Where files cannot be locked, a temporary file is stale once this old (seconds).
STALE_TEMP_SECONDS = 60.0
#: The name :func:`write_atomic` gives its temporary file: ``.NAME.<8 random characters>.tmp``.
_TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp$")
#: Arena files' suffixes: a directory sweep removes only these files' temporaries.
ARENA_SUFFIXES = (".yaml", ".yml", ".json")


def remove_stale_temp_files(target: str | os.PathLike[str] | None = None, *,
                            directory: str | os.PathLike[str] | None = None) -> list[Path]:
    """Delete temporary files left by interrupted saves (a ``kill -9`` between writing and
    renaming): those of ``target``, or, with ``directory``, those of every arena file in it.
    A file some save still holds (locked) or made in the last few seconds is kept; only
    regular files are removed, never through a symlink. Returns what was removed."""
    if target is not None:
        where = Path(target).parent if str(Path(target).parent) else Path(".")
        wanted: str | None = Path(target).name
    else:
        where, wanted = Path(directory or "."), None
    try:
        names = [e.name for e in os.scandir(where) if e.name.endswith(".tmp")]
    except OSError:
        return []
    removed = []
    for name in sorted(names):
        m = _TEMP_NAME.match(name)
        if not m or (m["name"] != wanted if wanted is not None else not m["name"].lower().endswith(ARENA_SUFFIXES)):
            continue
        tmp = where / name
        if _abandoned(tmp):
            try:
                tmp.unlink()
            except OSError:
                continue
            removed.append(tmp)
    return removed


def _abandoned(tmp: Path) -> bool:
    """A regular file no live save holds: older than a moment and not locked (the writer holds
    a lock until its rename; a killed process holds none), or old, where locks don't work."""
    import stat
    import time

    try:
        st = tmp.lstat()
    except OSError:
        return False
    age = time.time() - st.st_mtime
    if not stat.S_ISREG(st.st_mode) or age < FRESH_TEMP_SECONDS:
        return False
    try:
        import fcntl
    except ImportError:
        return age >= STALE_TEMP_SECONDS
    try:
        fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return age >= STALE_TEMP_SECONDS
    finally:
        os.close(fd)
    return True


def _lock(fd: int) -> int | None:
    """An exclusive lock on the open temporary file, held by a second descriptor (closing the
    first after writing keeps it); None where files cannot be locked."""
    try:
        import fcntl
    except ImportError:
        return None
    hold = os.dup(fd)
    try:
        fcntl.flock(hold, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(hold)
        return None
    return hold


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write to a temporary file beside ``path``, fsync it, rename it over ``path``, fsync
    the directory: a crash leaves the old file or the new one, never half of either. Temporary
    files that earlier, interrupted saves of ``path`` left behind are removed."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    remove_stale_temp_files(target)
    try:
        mode = target.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise ArenaIOError([Problem(str(path), 0, 0, "", f"cannot write file: {exc.strerror or exc}")]) from None
    hold = _lock(fd)  # until the rename: tells remove_stale_temp_files this save is alive
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise ArenaIOError([Problem(str(path), 0, 0, "", f"cannot write file: {exc.strerror or exc}")]) from None
    finally:
        if hold is not None:
            os.close(hold)
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
