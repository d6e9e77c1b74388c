"""Packs: deterministic builds, verification, safe extraction against hostile zips."""

from __future__ import annotations

import io
import json
import struct
import warnings
import zipfile
from pathlib import Path

import jsonschema
import pytest

import schema
from schema.packs import (MANIFEST, Limits, PackArena, PackError, PackInfo, build_pack, extract_pack,
                          manifest_schema, read_pack, sha256)
from tests.packs.conftest import SHIPPED

REPORT = {"format": "arena-studio-report/1", "summary": {"error": 0, "warning": 1, "info": 2}, "findings": [],
          "validators": [{"code": "bounds", "title": "t", "severity": "error"}]}


def make_pack(arenas=None) -> bytes:  # type: ignore[no-untyped-def]
    arenas = arenas or [schema.load(p) for p in SHIPPED[:2]]
    items = [PackArena(f"a{i}", a, REPORT, b"png%d" % i, b"<svg/>", b"%PDF-1.4") for i, a in enumerate(arenas)]
    return build_pack(PackInfo("Test pack", author="me", license="CC0-1.0"), items)


def rezip(files: list[tuple[str, bytes]], *, attrs: dict[str, int] | None = None, stored: bool = False) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buf, "w") as zf:
        warnings.simplefilter("ignore")
        for name, data in files:
            zi = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            zi.create_system = 3
            zi.external_attr = (attrs or {}).get(name, 0o100644) << 16
            zi.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            zf.writestr(zi, data)
    return buf.getvalue()


def pack_files(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return [(i.filename, zf.read(i)) for i in zf.infolist()]


def with_manifest(data: bytes, edit) -> bytes:  # type: ignore[no-untyped-def]
    files = pack_files(data)
    out = []
    for name, content in files:
        if name == MANIFEST:
            m = json.loads(content)
            edit(m)
            content = json.dumps(m).encode()
        out.append((name, content))
    return rezip(out)


def lying_header(data: bytes, name: str, declared: int) -> bytes:
    """Patch the local and central headers of ``name`` to declare ``declared`` uncompressed bytes."""
    raw = bytearray(data)
    enc = name.encode()
    i = raw.find(b"PK\x03\x04")
    while i != -1:
        n = struct.unpack_from("<H", raw, i + 26)[0]
        if raw[i + 30:i + 30 + n] == enc:
            struct.pack_into("<I", raw, i + 22, declared)
        i = raw.find(b"PK\x03\x04", i + 4)
    j = raw.find(b"PK\x01\x02")
    while j != -1:
        n = struct.unpack_from("<H", raw, j + 28)[0]
        if raw[j + 46:j + 46 + n] == enc:
            struct.pack_into("<I", raw, j + 24, declared)
        j = raw.find(b"PK\x01\x02", j + 4)
    return bytes(raw)


def corrupt_stored(data: bytes, needle: bytes) -> bytes:
    raw = bytearray(data)
    k = raw.find(needle)
    raw[k] ^= 0x20
    return bytes(raw)


GOOD = make_pack()
ARENA = json.loads(dict(pack_files(GOOD))["arenas/a0.json"])
BIG = b"\x00" * (2 * 1024 * 1024)

HOSTILE = {
    "traversal": (rezip([("../evil", b"x")]), None, "'../evil': path traversal"),
    "nested-traversal": (rezip([("a/../../evil", b"x")]), None, "path traversal"),
    "absolute": (rezip([("/abs", b"x")]), None, "'/abs': absolute path"),
    "drive": (rezip([("C:/win", b"x")]), None, "absolute path"),
    "backslash": (rezip([("a\\..\\evil", b"x")]), None, "backslash"),
    "symlink": (rezip([("link", b"/etc/passwd")], attrs={"link": 0o120777}), None, "link: symbolic link"),
    "device": (rezip([("dev", b"")], attrs={"dev": 0o020644}), None, "dev: special file"),
    "duplicate": (rezip([("a.json", b"1"), ("a.json", b"2")]), None, "a.json: duplicate entry name"),
    "case-duplicate": (rezip([("A.json", b"1"), ("a.json", b"2")]), None, "duplicate entry name"),
    "too-many": (rezip([(f"f{i}", b"") for i in range(6)]), Limits(max_files=5), "6 entries, more than the limit of 5"),
    "declared-bomb": (rezip([("bomb", BIG)]), Limits(max_file_bytes=1024 * 1024), "bomb: declares 2097152 bytes"),
    "total-bomb": (rezip([("b1", BIG), ("b2", BIG)]), Limits(max_total_bytes=3 * 1024 * 1024), "b2: entries declare more"),
    "lying-header": (lying_header(rezip([("bomb", BIG)]), "bomb", 100), None, "bomb: CRC-32 checksum mismatch"),
    "bad-crc": (corrupt_stored(rezip([("x.txt", b"hello world")], stored=True), b"hello"), None, "x.txt: CRC-32 checksum mismatch"),
    "not-zip": (b"PK\x03\x04 nonsense", None, "not a zip file"),
    "missing-manifest": (rezip([("arenas/a.json", b"{}")]), None, "manifest.json: missing: not an arena pack"),
    "manifest-schema": (with_manifest(GOOD, lambda m: m.update(pack_format="zip/9")), None,
                        "manifest.json: does not match manifest.schema.json: /pack_format"),
    "manifest-extra-field": (with_manifest(GOOD, lambda m: m["arenas"][0].update(evil=1)), None,
                             "/arenas/0: Additional properties"),
    "sha256": (rezip([(n, b"tampered" if n == "previews/a0.png" else c) for n, c in pack_files(GOOD)]), None,
               "previews/a0.png: SHA-256 checksum does not match"),
    "unlisted": (rezip(pack_files(GOOD) + [("extra.txt", b"hi")]), None, "extra.txt: not listed in the manifest"),
    "missing-file": (rezip([(n, c) for n, c in pack_files(GOOD) if n != "print/a1.pdf"]), None,
                     "print/a1.pdf: listed in the manifest but missing"),
    "invalid-arena": (with_manifest(rezip([(n, json.dumps({**ARENA, "name": 5}).encode() if n == "arenas/a0.json" else c)
                                           for n, c in pack_files(GOOD)]),
                                    lambda m: [f.update(sha256=sha256(json.dumps({**ARENA, "name": 5}).encode()),
                                                        size=len(json.dumps({**ARENA, "name": 5}).encode()))
                                               for f in m["files"] if f["path"] == "arenas/a0.json"]
                                    and m["arenas"][0].update(sha256=sha256(json.dumps({**ARENA, "name": 5}).encode()))),
                      None, "arenas/a0.json: not a valid arena file"),
}


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_packs_are_rejected_and_nothing_is_written(case: str, tmp_path: Path) -> None:
    data, limits, message = HOSTILE[case]
    path = tmp_path / f"{case}.arenapack.zip"
    path.write_bytes(data)
    target = tmp_path / "out" / "deep"
    with pytest.raises(PackError) as err:
        extract_pack(path, target, limits=limits or Limits())
    assert message in str(err.value)
    assert str(err.value).startswith(str(path))
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # nothing beside the pack either


def test_pack_round_trip(tmp_path: Path) -> None:
    arenas = [schema.load(p) for p in SHIPPED]
    data = make_pack(arenas)
    written = extract_pack(data, tmp_path / "x", label="t.zip")
    assert all(p.resolve().is_relative_to((tmp_path / "x").resolve()) for p in written)
    for i, arena in enumerate(arenas):
        assert schema.load(tmp_path / "x" / "arenas" / f"a{i}.json") == arena
    pack = read_pack(tmp_path.joinpath("p.zip").write_bytes(data) and tmp_path / "p.zip")
    assert [a for _, a, _ in pack.arenas()] == arenas
    assert pack.manifest["arenas"][0]["validation"] == {"error": 0, "warning": 1, "info": 2, "worst": "warning"}


def test_builds_are_deterministic_and_entries_fixed() -> None:
    assert make_pack() == make_pack() == GOOD
    with zipfile.ZipFile(io.BytesIO(GOOD)) as zf:
        infos = zf.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names) and MANIFEST in names
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {i.external_attr >> 16 for i in infos} == {0o100644}


def test_manifest_validates_and_schema_is_documented() -> None:
    manifest = json.loads(dict(pack_files(GOOD))[MANIFEST])
    validator = jsonschema.Draft202012Validator(manifest_schema())
    validator.check_schema(manifest_schema())
    validator.validate(manifest)
    assert {f["path"] for f in manifest["files"]} == {n for n, _ in pack_files(GOOD)} - {MANIFEST}

    def props(node, where="#"):  # type: ignore[no-untyped-def]
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                assert sub.get("title") and sub.get("description"), f"{where}/{key} lacks title/description"
            for key, sub in node.items():
                yield from props(sub, f"{where}/{key}")
        return
        yield
    list(props(manifest_schema()))
    bad = dict(manifest, version="")
    assert not validator.is_valid(bad)


def test_extraction_refuses_symlinked_directories(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    target = tmp_path / "target"
    target.mkdir()
    (target / "arenas").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PackError, match="not a plain directory"):
        extract_pack(GOOD, target)
    assert list(outside.iterdir()) == []


def test_extraction_does_not_follow_symlinked_files(tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("keep")
    target = tmp_path / "target"
    (target / "print").mkdir(parents=True)
    (target / "print" / "a0.pdf").symlink_to(outside)
    with pytest.raises(PackError, match="print/a0.pdf: .*is a symbolic link"):
        extract_pack(GOOD, target)
    assert outside.read_text() == "keep"
    assert sorted(p.name for p in target.iterdir()) == ["print"]  # refused before writing anything


def test_build_rejects_bad_ids() -> None:
    arena = schema.load(SHIPPED[0])
    with pytest.raises(PackError, match="Bad: arena ids"):
        build_pack(PackInfo("x"), [PackArena("Bad", arena, REPORT, b"", b"", b"")])
    with pytest.raises(PackError, match="a: two arenas"):
        build_pack(PackInfo("x"), [PackArena("a", arena, REPORT, b"", b"", b"")] * 2)


# -- issue 16, item 5: a deeply nested manifest crashed verify/extract (RecursionError)


def deep_manifest_pack(depth: int) -> bytes:
    files = pack_files(GOOD)
    out = []
    for name, content in files:
        if name == MANIFEST:
            content = content.rstrip()[:-1] + b', "x": ' + b"[" * depth + b"]" * depth + b"}"
        out.append((name, content))
    return rezip(out)


@pytest.mark.parametrize("depth", [70, 5000, 100_000])
def test_deeply_nested_manifest_is_refused(depth: int, tmp_path: Path) -> None:
    data = deep_manifest_pack(depth)
    with pytest.raises(PackError, match="manifest.json: not JSON: nested deeper than 64 levels"):
        read_pack(data)
    with pytest.raises(PackError, match="nested deeper"):
        extract_pack(data, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_deeply_nested_report_is_refused() -> None:
    files = [(n, b"[" * 3000 + b"]" * 3000 if n == "reports/a0.report.json" else c) for n, c in pack_files(GOOD)]
    data = with_manifest(rezip(files), lambda m: [f.update(sha256=sha256(b"[" * 3000 + b"]" * 3000), size=6000)
                                                  for f in m["files"] if f["path"] == "reports/a0.report.json"])
    with pytest.raises(PackError, match="reports/a0.report.json: report is not JSON: nested deeper"):
        read_pack(data)


# -- item 12: verify passed a pack that extract then failed half-way; writestr packs were refused


def test_a_file_where_a_directory_is_needed_is_refused_by_verify(tmp_path: Path) -> None:
    data = with_manifest(rezip(pack_files(GOOD) + [("print", b"blocks the print/ directory")]),
                         lambda m: m["files"].append({"path": "print", "size": 27, "sha256": sha256(b"blocks the print/ directory")}))
    with pytest.raises(PackError, match="print/a0.pdf: needs 'print' to be a directory, but the pack also holds a file 'print'"):
        read_pack(data)
    target = tmp_path / "out"
    with pytest.raises(PackError):
        extract_pack(data, target)
    assert not target.exists()


def test_extract_checks_the_target_before_writing_anything(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    (target / "reports").write_text("a file where the pack needs a directory")
    with pytest.raises(PackError, match="reports/a0.report.json: .*exists and is not a plain directory"):
        extract_pack(GOOD, target)
    assert sorted(p.name for p in target.iterdir()) == ["reports"]  # arenas/ etc. were not written first
    (target / "reports").unlink()
    (target / "previews" / "a0.png").mkdir(parents=True)  # a directory where a file goes
    with pytest.raises(PackError, match="previews/a0.png: .*exists and is not a regular file"):
        extract_pack(GOOD, target)
    assert sorted(p.name for p in target.iterdir()) == ["previews"]
    target_file = tmp_path / "not-a-dir"
    target_file.write_text("x")
    with pytest.raises(PackError, match="exists and is not a plain directory"):
        extract_pack(GOOD, target_file)


def test_a_pack_rezipped_with_writestr_is_accepted(tmp_path: Path) -> None:
    """zipfile.writestr(name, data) stores permissions only (0o600, no file-type bits)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in pack_files(GOOD):
            zf.writestr(name, content)
    data = buf.getvalue()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert all((i.external_attr >> 16) & 0o170000 == 0 for i in zf.infolist())
    pack = read_pack(data)
    assert len(pack.arenas()) == 2
    written = extract_pack(data, tmp_path / "out")
    assert len(written) == len(pack.files)
    # type bits that are there still count: a character device is refused
    with pytest.raises(PackError, match="special file"):
        read_pack(rezip([("dev", b"")], attrs={"dev": 0o020644}))


def listing_pack(entries: int) -> bytes:
    """Issue 36 item 13's pack: a manifest listing ``entries`` files (200 000 took 182 s to verify)."""
    entry = b'{"path": "previews/x.png", "size": 1, "sha256": "' + b"0" * 64 + b'"}'
    manifest = (b'{"pack_format": "arena-studio-pack/1", "name": "Many", "version": "1", "arena_format": '
                b'"arena-studio/1", "arenas": [], "files": [' + b", ".join([entry] * entries) + b"]}")
    return rezip([(MANIFEST, manifest)])


def test_a_manifest_listing_200_000_files_is_refused_unread(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import schema.packs as packs

    def unread(*args: object, **kwargs: object) -> None:
        raise AssertionError("the manifest was parsed")

    monkeypatch.setattr(packs, "parse_json", unread)
    data = listing_pack(200_000)
    assert len(data) < 1024 * 1024  # small on disk, 21 MB inflated
    with pytest.raises(PackError, match=r"manifest.json: declares \d+ bytes; a manifest is at most 1048576 bytes"):
        read_pack(data)
    path = tmp_path / "many.arenapack.zip"
    path.write_bytes(data)
    from typer.testing import CliRunner

    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    r = CliRunner().invoke(app, ["pack", "verify", str(path)])
    assert r.exit_code == 1 and "a manifest is at most" in r.output


def test_a_small_manifest_listing_too_many_files_is_counted_before_its_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    import schema.packs as packs

    def no_schema(*args: object, **kwargs: object) -> None:
        raise AssertionError("the schema looked at every entry")

    monkeypatch.setattr(packs, "_schema_problems", no_schema)
    with pytest.raises(PackError, match="manifest.json: lists 5000 files; a pack holds at most 512 files"):
        read_pack(listing_pack(5000))  # 500 KB: under the size cap
    with pytest.raises(PackError, match="lists 20 files; a pack holds at most 10 files"):
        read_pack(listing_pack(20), limits=Limits(max_files=10))
