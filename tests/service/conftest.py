from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "arenas" / "default.yaml"
#: Cheap validators that are installed today (travel-based ones are slower); the reports of the
#: service and of an in-process run are compared with these.
CHEAP = ["bounds", "overlap", "exclusion-placement", "checkpoint-mix", "field-orbit", "symmetry"]


@pytest.fixture(scope="session")
def default_yaml() -> bytes:
    return DEFAULT.read_bytes()


@pytest.fixture(scope="session")
def default_json(default_yaml: bytes) -> bytes:
    return json.dumps(yaml.safe_load(default_yaml)).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(*options: str, env: dict[str, str] | None = None, start_seconds: float = 90) -> Iterator[str]:
    """``arena serve OPTIONS`` in a subprocess on a free 127.0.0.1 port: its base URL once
    ``/healthz`` answers; stopped on exit."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from app.cli.main import main; main()", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", *options],
        cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + start_seconds
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError("arena serve exited:\n" + (proc.stdout.read() if proc.stdout else ""))
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("arena serve did not start")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """``arena serve`` in a subprocess on a free 127.0.0.1 port, one worker."""
    with serving("--workers", "1", "--timeout", "5", "--job-timeout", "20", "--job-queue", "4") as base:
        yield base
