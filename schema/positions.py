"""Parse YAML and JSON text into plain data plus a map from JSON pointer to line/column.

YAML is read with PyYAML's safe loader only, after checking the node graph for duplicate
keys, non-string keys and alias bombs; libyaml (the C parser of ``yaml.CSafeLoader``) scans and
parses it when PyYAML has it, under the same Python composer and constructor, so every limit and
check below is the same either way. JSON is indexed by a small scanner that records where each
value and key starts, then parsed by :mod:`json` (which rejects what is not JSON).

Both readers enforce the same limits while reading, and name where a limit was passed: at most
:data:`MAX_DEPTH` levels of nesting, :data:`MAX_VALUES` values, :data:`MAX_EXTENSION_VALUES`
values inside tool extensions (``x-`` keys), :data:`MAX_NUMBER_CHARS` characters in one number,
and for YAML :data:`MAX_ALIASES` aliases and :data:`MAX_EXPANDED_NODES` values once aliases are
followed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from schema.errors import Problem, escape_pointer_token, pointer

#: Largest number of nodes a YAML document may expand to once aliases are followed.
MAX_EXPANDED_NODES = 200_000
#: Most values (mappings, lists, scalars) a document may hold as written.
MAX_VALUES = 200_000
#: Most aliases a YAML document may use.
MAX_ALIASES = 1_000
#: Most values the tool extensions (``x-`` keys, at any level) of a document may hold, all
#: together: tools keep settings there, not data sets.
MAX_EXTENSION_VALUES = 10_000
EXTENSION_LIMIT_MESSAGE = (f"the tool extensions ('x-' keys) hold more than {MAX_EXTENSION_VALUES} values in all; "
                           "keep large tool data in a file of its own")
#: Deepest nesting of a document.
MAX_DEPTH = 64
#: Longest number literal, in characters (numbers in an arena stay within +-10 000; Python
#: refuses to convert integers of more than 4 300 digits).
MAX_NUMBER_CHARS = 400


@dataclass
class Located:
    """Parsed data and, for each JSON pointer, the 1-based (line, column) of its value; keys'
    own positions are stored under ``pointer + "#key"``."""

    data: Any
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)

    def where(self, ptr: str, *, key: bool = False) -> tuple[int, int]:
        """Position of the value at ``ptr`` (or of its key), else of the nearest ancestor."""
        if key and ptr + "#key" in self.positions:
            return self.positions[ptr + "#key"]
        p = ptr
        while True:
            if p in self.positions:
                return self.positions[p]
            if not p:
                return (0, 0)
            p = p[: p.rfind("/")]


class ParseError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def text_of(text: str | bytes, source: str) -> str:
    """A file's text: ``bytes`` decoded as UTF-8 (:class:`ParseError` locating the first byte that
    is not), a leading byte-order mark dropped."""
    if isinstance(text, bytes):
        raw = text
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            raise ParseError([Problem(source, line, col, "", "file is not UTF-8 text")]) from None
    return text.removeprefix("\ufeff")


# ---------------------------------------------------------------- YAML


def _mark(node: yaml.Node) -> tuple[int, int]:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


class _Limit(Exception):
    """A reading limit passed at ``mark`` (a PyYAML mark), inside ``path``."""

    def __init__(self, mark: Any, path: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.mark, self.path, self.message = mark, path, message


class _LimitedComposer(Composer):
    """PyYAML's composer under the limits: nesting depth, values, values inside tool extensions
    and aliases are counted as nodes are composed (so a deep or huge document is refused where
    it passes the limit, before Python's recursion limit or memory is reached).  The same
    composer reads the pure parser's events and the C parser's."""

    def _start_limits(self) -> None:
        self._path: list[str | int] = []
        self._depth = 0
        self._values = 0
        self._aliases = 0
        self._extension_depth = 0  # how many 'x-' keys the path holds
        self._extension_values = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        if isinstance(parent, yaml.SequenceNode):
            step: str | int | None = len(parent.value)
        elif isinstance(parent, yaml.MappingNode):
            step = str(index.value) if isinstance(index, yaml.ScalarNode) else None if index is None else "?"
        else:
            step = None
        path = (*self._path, step) if step is not None else tuple(self._path)
        try:
            event = self.peek_event()  # type: ignore[attr-defined]
        except yaml.MarkedYAMLError as exc:
            exc.arena_path = path  # type: ignore[attr-defined]
            raise
        extension = isinstance(step, str) and step.startswith("x-")
        if isinstance(event, yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise _Limit(event.start_mark, path, f"more than {MAX_ALIASES} YAML aliases")
        else:
            self._values += 1
            if self._values > MAX_VALUES:
                raise _Limit(event.start_mark, path, f"the document holds more than {MAX_VALUES} values; "
                                                     "an arena needs far fewer")
            if self._extension_depth or extension:
                self._extension_values += 1
                if self._extension_values > MAX_EXTENSION_VALUES:
                    raise _Limit(event.start_mark, path, EXTENSION_LIMIT_MESSAGE)
            if self._depth > MAX_DEPTH:  # keys count too: '? ? ? x' nests without a path
                raise _Limit(event.start_mark, path, f"nesting deeper than {MAX_DEPTH} levels")
        if step is not None:
            self._path.append(step)
        self._depth += 1
        self._extension_depth += extension
        try:
            node: yaml.Node | None = super().compose_node(parent, index)
        except yaml.MarkedYAMLError as exc:
            if not hasattr(exc, "arena_path"):  # found reading ahead inside this value
                exc.arena_path = path  # type: ignore[attr-defined]
            raise
        finally:
            self._depth -= 1
            self._extension_depth -= extension
            if step is not None:
                self._path.pop()
        assert node is not None
        return node


class _SafeNumbers(SafeConstructor):
    """PyYAML's safe constructor; number literals longer than :data:`MAX_NUMBER_CHARS` are
    refused before conversion."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> Any:
        _short_number(node)
        return super().construct_yaml_int(node)

    def construct_yaml_float(self, node: yaml.ScalarNode) -> Any:
        _short_number(node)
        return super().construct_yaml_float(node)


def _short_number(node: yaml.ScalarNode) -> None:
    if len(str(node.value)) > MAX_NUMBER_CHARS:
        raise yaml.constructor.ConstructorError(
            None, None, f"a number written with {len(str(node.value))} characters; numbers in an arena "
                        f"stay within ±10 000 (at most {MAX_NUMBER_CHARS} characters)", node.start_mark)


# (what add_constructor does, which the type stubs allow on loader classes only)
_SafeNumbers.yaml_constructors = {**SafeConstructor.yaml_constructors,
                                  "tag:yaml.org,2002:int": _SafeNumbers.construct_yaml_int,
                                  "tag:yaml.org,2002:float": _SafeNumbers.construct_yaml_float}


class _Loader(_LimitedComposer, _SafeNumbers, yaml.SafeLoader):
    """PyYAML's safe loader, all in Python (the reader, scanner and parser too), under the
    limits."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._start_limits()


try:  # PyYAML built with libyaml: the C parser of yaml.CSafeLoader
    from yaml._yaml import CParser
except ImportError:  # pragma: no cover - a PyYAML without libyaml reads with the pure parser
    _LOADERS: tuple[Any, ...] = (_Loader,)
else:
    class _CLoader(_LimitedComposer, _SafeNumbers, CParser, Resolver):
        """yaml.CSafeLoader's C parser (libyaml: scanning and parsing, 10-20 times faster than
        PyYAML's Python) under the same composer, constructor and resolver as :class:`_Loader`,
        so every limit and check is the same; the events, their marks and so the places named
        are libyaml's."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self._start_limits()

    _LOADERS = (_CLoader, _Loader)


#: libyaml's problem when a document nests deeper than its own limit (1 000 levels): in a flow
#: collection it scans ahead, so it may meet that limit before the composer meets MAX_DEPTH.
_LIBYAML_DEPTH = "exceeded maximum nesting depth"


def yaml_loader(pure: bool = False) -> Any:
    """The loader class :func:`parse_yaml` reads with: the C parser's when PyYAML has libyaml
    (unless ``pure``), else the pure Python one."""
    return _LOADERS[-1] if pure else _LOADERS[0]


def parse_yaml(text: str, source: str, *, pure: bool = False) -> Located:
    """Parse YAML ``text`` (named ``source`` in problems) with :func:`yaml_loader` (``pure``: the
    pure Python loader, which gives the same results, slower)."""
    bad = yaml.reader.Reader.NON_PRINTABLE.search(text)  # as the pure reader checks, before any parsing
    if bad is not None:
        line = text[: bad.start()].count("\n") + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise ParseError([Problem(source, line, col, "", f"invalid YAML: character {bad.group()!r} is not allowed")])
    try:
        loader = yaml_loader(pure)(text)
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise ParseError([Problem(source, line, col, "", f"invalid YAML: character {exc.character!r} is not allowed")]) from None
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
            what = exc.problem or exc.context or "invalid YAML"
            if what == _LIBYAML_DEPTH:  # libyaml's own nesting limit (1 000) met while it looked ahead
                raise ParseError([Problem(source, line, col, "", f"nesting deeper than {MAX_DEPTH} levels")]) from None
            # a scalar that cannot be read (a bad escape, an unclosed quote) is named by its place
            ptr = pointer(getattr(exc, "arena_path", ())) if "scalar" in (exc.context or "") else ""
            raise ParseError([Problem(source, line, col, ptr, f"invalid YAML: {what}")]) from None
        except yaml.YAMLError as exc:
            raise ParseError([Problem(source, 1, 1, "", f"invalid YAML: {exc}")]) from None
        except _Limit as exc:
            raise ParseError([Problem(source, exc.mark.line + 1, exc.mark.column + 1, pointer(exc.path),
                                      exc.message)]) from None
        if node is None:
            raise ParseError([Problem(source, 1, 1, "", "the file is empty; expected an arena mapping")])
        sizes: dict[int, int] = {}
        if _expanded_size(node, sizes, set(), 0) > MAX_EXPANDED_NODES:
            path, big = _largest_path(node, sizes)
            raise ParseError([Problem(source, *_mark(big), pointer(path),
                                      f"document expands to more than {MAX_EXPANDED_NODES} values "
                                      "once aliases are followed (YAML alias bomb?)")])
        positions: dict[str, tuple[int, int]] = {}
        problems: list[Problem] = []
        _walk_yaml(node, (), positions, problems, source, set(), [0, 0])
        if problems:
            raise ParseError(problems)
        try:
            data = loader.construct_document(node)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            ptr = next((p for p, at in positions.items() if at == (line, col) and not p.endswith("#key")), "")
            raise ParseError([Problem(source, line, col, ptr, f"invalid YAML value: {getattr(exc, 'problem', exc)}")]) from None
        except (ValueError, OverflowError) as exc:
            raise ParseError([Problem(source, 1, 1, "", f"invalid YAML value: {exc}")]) from None
    finally:
        loader.dispose()
    return Located(data, positions)


def _children(node: yaml.Node) -> list[tuple[str | int, yaml.Node]]:
    if isinstance(node, yaml.SequenceNode):
        return list(enumerate(node.value))
    if isinstance(node, yaml.MappingNode):
        return [(str(k.value) if isinstance(k, yaml.ScalarNode) else "?", v) for k, v in node.value]
    return []


def _expanded_size(node: yaml.Node, sizes: dict[int, int], active: set[int], depth: int) -> int:
    """Number of values the node stands for once aliases are expanded (memoised per node)."""
    key = id(node)
    if key in sizes:
        return sizes[key]
    if key in active or depth > MAX_DEPTH:
        return 1  # recursion and depth are reported, with their path, by _walk_yaml
    active.add(key)
    total = 1
    for _, child in _children(node):
        total += _expanded_size(child, sizes, active, depth + 1)
        if total > MAX_EXPANDED_NODES:
            break
    active.discard(key)
    sizes[key] = total
    return total


def _largest_path(node: yaml.Node, sizes: dict[int, int]) -> tuple[tuple[str | int, ...], yaml.Node]:
    """Walk from the root into the child that alone exceeds the limit, as far as one does."""
    path: tuple[str | int, ...] = ()
    while True:
        for name, child in _children(node):
            if sizes.get(id(child), 0) > MAX_EXPANDED_NODES:
                node, path = child, (*path, name)
                break
        else:
            return path, node


def _walk_yaml(node: yaml.Node, path: tuple[str | int, ...], positions: dict[str, tuple[int, int]],
               problems: list[Problem], source: str, active: set[int], counts: list[int]) -> None:
    """Record positions; reject duplicate/non-string keys, recursive aliases and alias bombs.

    ``counts`` = [expanded nodes, aliases]. A node reached again through an alias is counted
    again, so the count is the size of the expanded document.
    """
    counts[0] += 1
    if counts[0] > MAX_EXPANDED_NODES:
        raise ParseError([Problem(source, *_mark(node), pointer(path),
                                  f"document expands to more than {MAX_EXPANDED_NODES} nodes "
                                  "(YAML alias bomb?)")])
    if len(path) > MAX_DEPTH:
        raise ParseError([Problem(source, *_mark(node), pointer(path), f"nesting deeper than {MAX_DEPTH} levels")])
    if id(node) in active:
        raise ParseError([Problem(source, *_mark(node), pointer(path), "recursive YAML alias")])
    ptr = pointer(path)
    positions.setdefault(ptr, _mark(node))
    if isinstance(node, yaml.ScalarNode):
        return
    active.add(id(node))
    try:
        if isinstance(node, yaml.SequenceNode):
            for i, child in enumerate(node.value):
                _walk_yaml(child, (*path, i), positions, problems, source, active, counts)
        elif isinstance(node, yaml.MappingNode):
            seen: dict[str, tuple[int, int]] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    problems.append(Problem(source, *_mark(key_node), ptr, "YAML merge keys ('<<') are not supported; write the keys out"))
                    continue
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
                    shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "a collection"
                    problems.append(Problem(source, *_mark(key_node), ptr, f"keys must be strings; got {shown!r} (quote it)"))
                    continue
                key = str(key_node.value)
                if key in seen:
                    first = seen[key]
                    problems.append(Problem(source, *_mark(key_node), pointer((*path, key)),
                                            f"duplicate key {key!r} (first at line {first[0]})"))
                    continue
                seen[key] = _mark(key_node)
                positions.setdefault(pointer((*path, key)) + "#key", _mark(key_node))
                _walk_yaml(value_node, (*path, key), positions, problems, source, active, counts)
    finally:
        active.discard(id(node))


# ---------------------------------------------------------------- JSON

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_LITERAL = re.compile(r"true|false|null")


class _JsonLimit(Exception):
    """The JSON text passes a reading limit (or holds NaN/Infinity) at ``offset``, in ``path``."""

    def __init__(self, offset: int, path: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.offset, self.path, self.message = offset, path, message


_CONSTANT = re.compile(r"-?(?:NaN|Infinity)")


class _JsonIndexer:
    """Walks JSON text recording the start of each value; enforces the depth, size and number
    limits (:class:`_JsonLimit`, located); other structure errors are left to :mod:`json`."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.positions: dict[str, tuple[int, int]] = {}
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.values = 0
        self.extension_values = 0

    def linecol(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return (lo + 1, offset - self.line_starts[lo] + 1)

    def ws(self, i: int) -> int:
        m = _WS.match(self.text, i)
        return m.end() if m else i

    def value(self, i: int, path: tuple[str | int, ...], extension: bool = False) -> int:
        """Index the value at offset ``i`` (``extension``: inside a tool extension); return
        the offset past it."""
        i = self.ws(i)
        if len(path) > MAX_DEPTH:
            raise _JsonLimit(i, path, f"nesting deeper than {MAX_DEPTH} levels")
        self.values += 1
        if self.values > MAX_VALUES:
            raise _JsonLimit(i, path, f"the document holds more than {MAX_VALUES} values; an arena needs far fewer")
        if extension:
            self.extension_values += 1
            if self.extension_values > MAX_EXTENSION_VALUES:
                raise _JsonLimit(i, path, EXTENSION_LIMIT_MESSAGE)
        self.positions.setdefault(pointer(path), self.linecol(i))
        c = self.text[i : i + 1]
        if c == "{":
            i = self.ws(i + 1)
            if self.text[i : i + 1] == "}":
                return i + 1
            while True:
                i = self.ws(i)
                key, j = json.decoder.scanstring(self.text, i + 1)  # type: ignore[attr-defined]
                self.positions.setdefault(pointer((*path, key)) + "#key", self.linecol(i))
                i = self.ws(j)
                if self.text[i : i + 1] != ":":
                    raise ValueError("expected ':'")
                i = self.ws(self.value(i + 1, (*path, key), extension or key.startswith("x-")))
                if self.text[i : i + 1] == ",":
                    i += 1
                    continue
                if self.text[i : i + 1] == "}":
                    return i + 1
                raise ValueError("expected ',' or '}'")
        if c == "[":
            i = self.ws(i + 1)
            if self.text[i : i + 1] == "]":
                return i + 1
            n = 0
            while True:
                i = self.ws(self.value(i, (*path, n), extension))
                n += 1
                if self.text[i : i + 1] == ",":
                    i += 1
                    continue
                if self.text[i : i + 1] == "]":
                    return i + 1
                raise ValueError("expected ',' or ']'")
        if c == '"':
            return int(json.decoder.scanstring(self.text, i + 1)[1])  # type: ignore[attr-defined]
        m = _CONSTANT.match(self.text, i)
        if m:
            raise _JsonLimit(i, path, f"{m.group()} is not a valid JSON number (numbers in an arena are finite)")
        m = _NUMBER.match(self.text, i)
        if m:
            if m.end() - i > MAX_NUMBER_CHARS:
                raise _JsonLimit(i, path, f"a number written with {m.end() - i} characters; numbers in an arena "
                                          f"stay within ±10 000 (at most {MAX_NUMBER_CHARS} characters)")
            return m.end()
        m = _LITERAL.match(self.text, i)
        if not m:
            raise ValueError("unexpected character")
        return m.end()


def parse_json(text: str, source: str) -> Located:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                dupes.append(k)
            out[k] = v
        return out

    # The indexer goes first: it stops at the first limit passed (depth, size, long numbers,
    # NaN) with its place, before json's recursion or int conversion can fail unlocated.
    indexer = _JsonIndexer(text)
    try:
        indexer.value(0, ())
    except _JsonLimit as exc:
        raise ParseError([Problem(source, *indexer.linecol(exc.offset), pointer(exc.path), exc.message)]) from None
    except (ValueError, IndexError):
        pass  # a syntax error: json names it below, and positions are best-effort
    dupes: list[str] = []
    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ParseError([Problem(source, exc.lineno, exc.colno, "", f"invalid JSON: {exc.msg}")]) from None
    except (ValueError, RecursionError) as exc:
        raise ParseError([Problem(source, 1, 1, "", f"invalid JSON: {exc}")]) from None
    if dupes:
        problems = []
        for k in dupes:
            line, col, where = 1, 1, ""
            for ptr, pos in indexer.positions.items():
                if ptr.endswith("/" + escape_pointer_token(k) + "#key"):
                    (line, col), where = pos, ptr[: -len("#key")]
            problems.append(Problem(source, line, col, where, f"duplicate key {k!r}"))
        raise ParseError(problems)
    return Located(data, indexer.positions)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a valid JSON number")
