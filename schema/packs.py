"""Arena packs (``NAME.arenapack.zip``): build deterministically, read with verification, and
extract safely.

A pack holds ``manifest.json`` (``schema/manifest.schema.json``), each arena as canonical JSON
(``arenas/ID.json``), its validation report (``reports/ID.report.json``), previews
(``previews/ID.png``, ``previews/ID.svg``), a printable PDF (``print/ID.pdf``) and the report as
a self-contained HTML page (``reports/ID.report.html``; packs built before it have none).  Building the
same inputs twice gives the same bytes: entries sorted, fixed timestamps and permissions,
canonical JSON, fixed compression level.

Reading trusts nothing.  Before any byte is used, every entry name is checked (no absolute
paths, no ``..``, no backslashes, no symlinks or other special files, no duplicates), the number
of entries and the declared sizes (the manifest's too) are bounded, and the manifest's lists are
counted before its schema is checked; while inflating, actual bytes are counted
against the declared sizes and the limits; then the CRC-32 of each entry, the manifest schema,
the SHA-256 of every file and every arena file's schema are checked.  Any failure raises
:class:`PackError` naming the pack and the entry.  :func:`extract_pack` writes only verified
packs, only inside the target directory, never through symlinks.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

import jsonschema

from schema.errors import ArenaError
from schema.io import dumps, loads
from schema.ruleset import FORMAT, ArenaModel

PACK_FORMAT = "arena-studio-pack/1"
MANIFEST = "manifest.json"
SUFFIX = ".arenapack.zip"
#: Timestamp of every entry (the earliest a zip can store), for reproducible builds.
EPOCH = (1980, 1, 1, 0, 0, 0)
FILE_MODE = 0o100644
CHUNK = 64 * 1024
SEVERITIES = ("error", "warning", "info")


class PackError(Exception):
    """A pack that cannot be built, read or extracted; ``str()`` is ``PACK: ENTRY: message``."""

    def __init__(self, pack: str, entry: str | None, message: str) -> None:
        self.pack, self.entry, self.message = pack, entry, message
        super().__init__(f"{pack}: {entry}: {message}" if entry else f"{pack}: {message}")


@dataclass(frozen=True)
class Limits:
    """Bounds on what a pack may hold (zip bombs, resource exhaustion)."""

    max_files: int = 512
    max_total_bytes: int = 128 * 1024 * 1024
    max_file_bytes: int = 64 * 1024 * 1024
    #: Largest ``manifest.json`` (as declared, and as inflated): one listing ``max_files`` files
    #: takes about 150 KB.  Checked before the manifest is read: a 660 KB pack whose manifest
    #: listed 200 000 files took 182 s to verify.
    max_manifest_bytes: int = 1024 * 1024


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class PackInfo:
    name: str
    version: str = "1.0.0"
    author: str | None = None
    license: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class PackArena:
    """One arena's contents for :func:`build_pack`; ``report`` is ``Report.to_json()``,
    ``html`` its HTML page (``reports/ID.report.html``, when given)."""

    id: str
    arena: ArenaModel
    report: dict[str, Any]
    png: bytes
    svg: bytes
    pdf: bytes
    html: bytes | None = None


@dataclass(frozen=True)
class Pack:
    """A verified pack: its manifest and every file's bytes."""

    source: str
    manifest: dict[str, Any]
    files: dict[str, bytes]

    def arenas(self) -> list[tuple[dict[str, Any], ArenaModel, dict[str, Any]]]:
        """(manifest entry, arena, stored report) per arena."""
        out = []
        for entry in self.manifest["arenas"]:
            arena = loads(self.files[entry["path"]], source=f"{self.source}:{entry['path']}", fmt="json")
            out.append((entry, arena, parse_json(self.files[entry["report"]], self.source, entry["report"])))
        return out


@lru_cache(maxsize=1)
def manifest_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("schema").joinpath("manifest.schema.json").read_text("utf-8"))
    return data


def slug(name: str) -> str:
    """A file-name-safe id: ``slug("Tri-Crown (default)") == "tri-crown-default"``."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:60] or "arena"


def canonical_json(doc: Any) -> bytes:
    return (json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------ building


def _players(a: PackArena) -> int:
    """The arena's players: its own count (Gravstrike, Car Wars), else its report's (the grid
    games' arenas carry none: a pit's gliders, the battlefield's two)."""
    players = getattr(a.arena, "players", None)
    if players is None:
        players = (a.report.get("arena") or {}).get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise PackError("<pack>", a.id, "the arena's report gives no number of players")
    return players


def build_pack(info: PackInfo, arenas: list[PackArena], *, label: str = "<pack>",
               extra: dict[str, bytes] | None = None) -> bytes:
    """The zip bytes of a pack; identical inputs give identical bytes.  ``extra``: other files by
    their path in the pack (a season's file and standings), listed with their checksums."""
    if not arenas:
        raise PackError(label, None, "a pack needs at least one arena")
    files: dict[str, bytes] = {}
    for path, data in (extra or {}).items():
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*(\.[a-z0-9]+)*", path) or path == MANIFEST:
            raise PackError(label, path, "extra files are named by lower-case letters, digits, '-' and '.', at the root")
        files[path] = data
    entries = []
    for a in arenas:
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", a.id):
            raise PackError(label, a.id, "arena ids are lower-case letters, digits and '-'")
        paths = {"path": f"arenas/{a.id}.json", "report": f"reports/{a.id}.report.json",
                 "png": f"previews/{a.id}.png", "svg": f"previews/{a.id}.svg", "print": f"print/{a.id}.pdf"}
        if paths["path"] in files:
            raise PackError(label, a.id, "two arenas have this id")
        arena_bytes = dumps(a.arena, "json").encode("utf-8")
        files.update({paths["path"]: arena_bytes, paths["report"]: canonical_json(a.report),
                      paths["png"]: a.png, paths["svg"]: a.svg, paths["print"]: a.pdf})
        page: dict[str, Any] = {}
        if a.html is not None:
            page = {"report_html": f"reports/{a.id}.report.html"}
            files[page["report_html"]] = a.html
        sim = a.report.get("simulation")
        if isinstance(sim, dict):  # built with --simulate N: note the run
            page["simulation"] = {"games": sim["games_counted"], "seed": sim["seed"], "policy": sim["policy"],
                                  "players": sim["players"], "play_balance": len(sim["findings"])}
        summary = a.report.get("summary", {})
        counts = {s: int(summary.get(s, 0)) for s in SEVERITIES}
        entries.append({
            "id": a.id, "name": a.arena.name, "path": paths["path"], "sha256": sha256(arena_bytes),
            "players": _players(a), "tags": list(a.arena.tags), "report": paths["report"],
            "previews": {"png": paths["png"], "svg": paths["svg"]}, "print": paths["print"], **page,
            "validation": {**counts, "worst": next((s for s in SEVERITIES if counts[s]), None)},
        })
    manifest = {
        "pack_format": PACK_FORMAT, "name": info.name, "version": info.version, "author": info.author,
        "license": info.license, "description": info.description, "arena_format": FORMAT, "arenas": entries,
        "files": [{"path": p, "size": len(files[p]), "sha256": sha256(files[p])} for p in sorted(files)],
    }
    problems = _schema_problems(manifest)
    if problems:
        raise PackError(label, MANIFEST, "; ".join(problems))
    files[MANIFEST] = canonical_json(manifest)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for path in sorted(files):
            zi = zipfile.ZipInfo(path, date_time=EPOCH)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.create_system = 3
            zi.external_attr = FILE_MODE << 16
            zf.writestr(zi, files[path], compresslevel=9)
    return buf.getvalue()


# ------------------------------------------------------------------ reading


def _schema_problems(manifest: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(manifest_schema())
    return [f"/{'/'.join(str(p) for p in e.absolute_path)}: {e.message}"
            for e in sorted(validator.iter_errors(manifest), key=lambda e: list(map(str, e.absolute_path)))]


def check_name(name: str) -> str | None:
    """Why an entry name is unsafe, or None."""
    if not name:
        return "empty entry name"
    if "\\" in name:
        return "backslash in entry name (not a portable path)"
    if "\x00" in name or any(ord(c) < 32 for c in name):
        return "control character in entry name"
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return "absolute path"
    parts = name.rstrip("/").split("/")
    if ".." in parts:
        return "path traversal ('..')"
    if any(p in ("", ".") for p in parts):
        return "empty or '.' path component"
    return None


def _check_entries(zf: zipfile.ZipFile, label: str, limits: Limits) -> list[zipfile.ZipInfo]:
    infos = zf.infolist()
    if len(infos) > limits.max_files:
        raise PackError(label, None, f"{len(infos)} entries, more than the limit of {limits.max_files}")
    seen: dict[str, str] = {}
    total = 0
    files = []
    for info in infos:
        name = info.filename
        why = check_name(name)
        if why:
            raise PackError(label, repr(name), why)
        mode = info.external_attr >> 16
        if info.create_system == 3 and stat.S_ISLNK(mode):
            raise PackError(label, name, "symbolic link entries are not allowed")
        # no file-type bits (zipfile.writestr with a plain name writes only permissions): a
        # regular entry, or a directory when the name ends in '/'
        if info.create_system == 3 and stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise PackError(label, name, "special file entries are not allowed")
        if info.flag_bits & 0x1:
            raise PackError(label, name, "encrypted entries are not allowed")
        key = unicodedata.normalize("NFC", name.rstrip("/")).casefold()
        if key in seen:
            raise PackError(label, name, f"duplicate entry name (clashes with {seen[key]!r})")
        seen[key] = name
        if info.is_dir():
            continue
        if name == MANIFEST and info.file_size > limits.max_manifest_bytes:
            raise PackError(label, name, f"declares {info.file_size} bytes; a manifest is at most "
                                         f"{limits.max_manifest_bytes} bytes (a pack holds at most {limits.max_files} "
                                         "files)")
        if info.file_size > limits.max_file_bytes:
            raise PackError(label, name, f"declares {info.file_size} bytes uncompressed, over the per-file limit "
                                         f"of {limits.max_file_bytes}")
        total += info.file_size
        if total > limits.max_total_bytes:
            raise PackError(label, name, f"entries declare more than {limits.max_total_bytes} bytes uncompressed "
                                         "in total (zip bomb?)")
        files.append(info)
    _check_tree(files, label)
    return files


def _check_tree(files: list[zipfile.ZipInfo], label: str) -> None:
    """No file may stand where another entry needs a directory (``arenas`` and
    ``arenas/a.json``): extraction could not write both. Compared as duplicates are
    (NFC, case-folded)."""
    names = {unicodedata.normalize("NFC", i.filename).casefold(): i.filename for i in files}
    for info in files:
        parts = info.filename.split("/")
        for k in range(1, len(parts)):
            parent = unicodedata.normalize("NFC", "/".join(parts[:k])).casefold()
            if parent in names:
                raise PackError(label, info.filename, f"needs {'/'.join(parts[:k])!r} to be a directory, but the pack "
                                                      f"also holds a file {names[parent]!r} there")


def _read_entry(zf: zipfile.ZipFile, info: zipfile.ZipInfo, label: str, budget: int) -> bytes:
    out = bytearray()
    try:
        with zf.open(info) as fh:
            while True:
                chunk = fh.read(CHUNK)
                if not chunk:
                    break
                out += chunk
                if len(out) > info.file_size:
                    raise PackError(label, info.filename, "inflates past its declared size (zip bomb?)")
                if len(out) > budget:
                    raise PackError(label, info.filename, "pack inflates past the total size limit (zip bomb?)")
    except zipfile.BadZipFile as exc:
        msg = "CRC-32 checksum mismatch: the entry is corrupt" if "CRC" in str(exc) else f"corrupt entry: {exc}"
        raise PackError(label, info.filename, msg) from None
    except (zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
        raise PackError(label, info.filename, f"cannot inflate entry: {exc}") from None
    if len(out) != info.file_size:
        raise PackError(label, info.filename, f"holds {len(out)} bytes but declares {info.file_size}")
    return bytes(out)


def read_pack(source: str | os.PathLike[str] | bytes, *, label: str | None = None,
              limits: Limits = DEFAULT_LIMITS) -> Pack:
    """Open and fully verify a pack (path or bytes); raises :class:`PackError`."""
    name = label or ("<pack>" if isinstance(source, bytes) else str(source))
    fh: BinaryIO
    try:
        fh = io.BytesIO(source) if isinstance(source, bytes) else open(source, "rb")
    except OSError as exc:
        raise PackError(name, None, f"cannot open: {exc.strerror or exc}") from None
    with fh:
        try:
            zf = zipfile.ZipFile(fh)
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise PackError(name, None, f"not a zip file ({exc})") from None
        with zf:
            infos = _check_entries(zf, name, limits)
            files: dict[str, bytes] = {}
            budget = limits.max_total_bytes
            for info in infos:
                data = _read_entry(zf, info, name, budget)
                budget -= len(data)
                files[info.filename] = data
    return Pack(name, _verify_manifest(files, name, limits), files)


#: Deepest nesting of a pack's JSON files (manifest, reports), as for arena files.
MAX_JSON_DEPTH = 64


def parse_json(data: bytes, label: str, entry: str, what: str = "not JSON") -> Any:
    """A pack's JSON file, or PackError: not UTF-8 JSON, NaN/Infinity, or nested deeper than
    :data:`MAX_JSON_DEPTH` (checked without recursion, so a hostile file cannot exhaust the stack
    of a later step)."""
    try:
        doc = json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise PackError(label, entry, f"{what}: nested deeper than {MAX_JSON_DEPTH} levels") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise PackError(label, entry, f"{what}: {exc}") from None
    stack = [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise PackError(label, entry, f"{what}: nested deeper than {MAX_JSON_DEPTH} levels")
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return doc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a valid JSON number")


def _verify_manifest(files: dict[str, bytes], label: str, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    if MANIFEST not in files:
        raise PackError(label, MANIFEST, "missing: not an arena pack")
    manifest = parse_json(files[MANIFEST], label, MANIFEST)
    for key in ("files", "arenas"):  # counted before the schema looks at each entry
        listed = manifest.get(key) if isinstance(manifest, dict) else None
        if isinstance(listed, list) and len(listed) > limits.max_files:
            raise PackError(label, MANIFEST, f"lists {len(listed)} {key}; a pack holds at most {limits.max_files} files")
    problems = _schema_problems(manifest)
    if problems:
        raise PackError(label, MANIFEST, "does not match manifest.schema.json: " + "; ".join(problems))
    listed = {f["path"]: f for f in manifest["files"]}
    for path in sorted(files):
        if path == MANIFEST:
            continue
        if path not in listed:
            raise PackError(label, path, "not listed in the manifest")
        data = files[path]
        if len(data) != listed[path]["size"] or sha256(data) != listed[path]["sha256"]:
            raise PackError(label, path, "SHA-256 checksum does not match the manifest")
    for path in sorted(listed):
        if path not in files:
            raise PackError(label, path, "listed in the manifest but missing from the pack")
    ids = set()
    for entry in manifest["arenas"]:
        if entry["id"] in ids:
            raise PackError(label, entry["id"], "two arenas have this id")
        ids.add(entry["id"])
        pages = [entry["report_html"]] if "report_html" in entry else []
        for ref in (entry["path"], entry["report"], entry["print"], *entry["previews"].values(), *pages):
            if ref not in files:
                raise PackError(label, ref, f"arena {entry['id']!r} refers to it but the pack lacks it")
        if sha256(files[entry["path"]]) != entry["sha256"]:
            raise PackError(label, entry["path"], "SHA-256 checksum does not match the manifest's arena entry")
        try:
            loads(files[entry["path"]], source=f"{label}:{entry['path']}", fmt="json")
        except ArenaError as exc:
            raise PackError(label, entry["path"], f"not a valid arena file:\n{exc}") from None
        parse_json(files[entry["report"]], label, entry["report"], "report is not JSON")
    return dict(manifest)


# ------------------------------------------------------------------ extracting


def extract_pack(source: str | os.PathLike[str] | bytes, target: str | os.PathLike[str], *,
                 label: str | None = None, limits: Limits = DEFAULT_LIMITS) -> list[Path]:
    """Verify the whole pack, then write its files under ``target`` (created if needed).
    Never follows symlinks and never writes outside ``target``; returns the paths written."""
    pack = read_pack(source, label=label, limits=limits)
    root = Path(target)
    _check_target(pack, root)  # everything that could stop the extraction, before any write
    root.mkdir(parents=True, exist_ok=True)
    real = root.resolve()
    written = []
    for name in sorted(pack.files):
        parts = name.split("/")
        here = real
        for part in parts[:-1]:
            here = here / part
            if here.is_symlink() or (here.exists() and not here.is_dir()):
                raise PackError(pack.source, name, f"{here} exists and is not a plain directory")
            here.mkdir(exist_ok=True)
        dest = here / parts[-1]
        if os.path.commonpath([real, dest.resolve()]) != str(real):
            raise PackError(pack.source, name, "would be written outside the target directory")
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(dest, flags, 0o644)
        except OSError as exc:
            raise PackError(pack.source, name, f"cannot write {dest}: {exc.strerror or exc}") from None
        with os.fdopen(fd, "wb") as out:
            out.write(pack.files[name])
        written.append(dest)
    return written


def _check_target(pack: Pack, root: Path) -> None:
    """Refuse, before writing anything, what would stop the extraction half-way: a target that
    is not a plain directory, a symlink or a non-directory where a directory is needed, and a
    symlink, directory or special file where a file is to be written."""
    if root.is_symlink() or (root.exists() and not root.is_dir()):
        raise PackError(pack.source, None, f"{root} exists and is not a plain directory")
    for name in sorted(pack.files):
        parts = name.split("/")
        here = root
        for part in parts[:-1]:
            here = here / part
            if here.is_symlink() or (here.exists() and not here.is_dir()):
                raise PackError(pack.source, name, f"{here} exists and is not a plain directory")
            if not here.exists():
                break  # created fresh below: nothing further down exists yet
        else:
            dest = here / parts[-1]
            if dest.is_symlink():
                raise PackError(pack.source, name, f"{dest} is a symbolic link; it would not be replaced")
            if dest.exists() and not dest.is_file():
                raise PackError(pack.source, name, f"{dest} exists and is not a regular file")
