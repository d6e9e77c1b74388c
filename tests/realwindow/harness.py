"""Drive the real editor in a real X server: an Xvfb display with a window manager, the editor
started as its own process (``python -m editor.app``), input sent through the X server with
``xdotool`` (mouse moves, presses, drags, keys, typing: what a designer's hands do), and the
editor's state read back from its automation probe (``ARENA_STUDIO_PROBE``, see
:mod:`editor.probe`), which also says where things are on the screen. Screenshots grab the X
screen from a separate small Qt process.

Used by ``tests/realwindow`` and ``scripts/screenshots.py``.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCREEN = (1366, 768)
#: Every wait of the harness (:meth:`Editor.wait`) is this many times the time given: they are
#: safety nets, and a loaded 2-core machine can be several times slower (issue 36, point 15).
WAIT_SLACK = float(os.environ.get("ARENA_TEST_WAIT_SLACK", "5"))
WINDOW_MANAGERS = (("matchbox-window-manager", "-use_titlebar", "no"), ("openbox",), ("fluxbox",), ("twm",))
SHOT = "import sys\nfrom PySide6.QtGui import QGuiApplication\napp = QGuiApplication(sys.argv[:1])\n" \
       "ok = app.primaryScreen().grabWindow(0).save(sys.argv[1])\nsys.exit(0 if ok else 1)\n"


class Unavailable(Exception):
    """No X server can be started here (the suite skips with this reason)."""


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                parents[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out, frontier = [], [pid]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        out += kids
        frontier += kids
    return [p for p in out if alive(p)]


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class XSession:
    """An Xvfb display (a free display number, chosen by the server) with a window manager."""

    def __init__(self, workdir: Path, size: tuple[int, int] = SCREEN) -> None:
        self.workdir, self.size = workdir, size
        self.procs: list[subprocess.Popen[bytes]] = []
        self.display = ""
        self.wm = ""
        self.shots: list[Path] = []

    def start(self) -> XSession:
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise Unavailable("Xvfb is not installed (apt install xvfb): no X server can be started")
        if shutil.which("xdotool") is None:
            raise RuntimeError("xdotool is not installed (apt install xdotool): it drives the real window")
        r, w = os.pipe()
        log = open(self.workdir / "xvfb.log", "wb")  # noqa: SIM115 - lives as long as the server
        server = subprocess.Popen([xvfb, "-displayfd", str(w), "-screen", "0", f"{self.size[0]}x{self.size[1]}x24",
                                   "-nolisten", "tcp", "-noreset"], pass_fds=(w,), stdout=log, stderr=log)
        os.close(w)
        self.procs.append(server)
        number, end = b"", time.monotonic() + 15.0 * WAIT_SLACK
        while not number.endswith(b"\n") and time.monotonic() < end:  # "N", then "\n": two writes
            ready, _, _ = select.select([r], [], [], max(0.0, end - time.monotonic()))
            chunk = os.read(r, 64) if ready else b""
            if not chunk:
                break
            number += chunk
        os.close(r)
        number = number.strip() if number.endswith(b"\n") else b""
        if not number:
            self.stop()
            raise Unavailable(f"Xvfb did not start: {(self.workdir / 'xvfb.log').read_text(errors='replace')[-500:]}")
        self.display = f":{number.decode()}"
        for wm in WINDOW_MANAGERS:
            if shutil.which(wm[0]):
                self.procs.append(subprocess.Popen(list(wm), env=self.env(), stdout=subprocess.DEVNULL,
                                                   stderr=subprocess.DEVNULL))
                self.wm = wm[0]
                time.sleep(0.3)
                break
        return self

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
        env.update(DISPLAY=self.display, QT_QPA_PLATFORM="xcb", **extra)
        return env

    def stop(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
        self.procs = []

    def xdotool(self, *args: str) -> str:
        out = subprocess.run(["xdotool", *args], env=self.env(), capture_output=True, text=True, timeout=20)
        if out.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)}: {out.stderr.strip()}")
        return out.stdout

    def screenshot(self, path: Path) -> Path:
        """The whole X screen, as the designer sees it."""
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-c", SHOT, str(path)], env=self.env(), check=True, timeout=60,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.shots.append(path)
        return path


class Editor:
    """One editor process on the session's display, with its own settings, data and probe."""

    def __init__(self, session: XSession, workdir: Path, args: Sequence[str] = (), recovery: Path | None = None) -> None:
        """``recovery``: the recovery folder (an editor started after another was killed finds
        its copy there); by default ``workdir/recovery``."""
        self.x = session
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.probe = workdir / "probe.json"
        self.probe.unlink(missing_ok=True)
        self.recovery = recovery or workdir / "recovery"
        env = session.env(XDG_CONFIG_HOME=str(workdir / "config"), XDG_DATA_HOME=str(workdir / "data"),
                          ARENA_STUDIO_RECOVERY_DIR=str(self.recovery), ARENA_STUDIO_PROBE=str(self.probe),
                          PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
        self.log = open(workdir / "editor.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "editor.app", *args], cwd=ROOT, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT)

    @classmethod
    def started(cls, session: XSession, workdir: Path, path: Path) -> Editor:
        """An editor on ``path``, once its probe is written (or its process ended)."""
        ed = cls(session, workdir, [str(path)])
        end = time.monotonic() + 120  # a loaded machine may take a while to start the editor
        while not ed.probe.exists() and ed.proc.poll() is None and time.monotonic() < end:
            time.sleep(0.2)
        return ed

    @classmethod
    def on(cls, session: XSession, tmp_path: Path, arena: Any, name: str) -> Editor:
        """An editor on ``arena`` (any game's model), written to ``tmp_path / name`` first."""
        from editor.games.io import dumps

        path = tmp_path / name
        path.write_text(dumps(arena), encoding="utf-8")
        return cls.started(session, tmp_path / "editor", path)

    @property
    def pid(self) -> int:
        return self.proc.pid

    # ---------------------------------------------------------------- state

    def state(self) -> dict[str, Any]:
        for _ in range(50):
            read = self._read()
            if read is not None:
                return read
            if self.proc.poll() is not None:
                raise RuntimeError(f"the editor exited ({self.proc.returncode}): {self.log_text()}") from None
            time.sleep(0.1)
        raise RuntimeError(f"no state from the editor: {self.log_text()}")

    def _read(self) -> dict[str, Any] | None:
        """The editor's last state, or None while it has written none (or is writing it)."""
        try:
            return json.loads(self.probe.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
        except (OSError, ValueError):
            return None

    def log_text(self) -> str:
        return (self.workdir / "editor.log").read_text(errors="replace")[-3000:]

    def wait(self, check: Callable[[dict[str, Any]], Any], what: str, timeout: float = 30.0) -> dict[str, Any]:
        """The first state for which ``check`` is true (``what`` names it in the failure).  Waits
        are safety nets, never measures: ``timeout`` (what a quiet machine needs, with room) is
        stretched :data:`WAIT_SLACK` times, for a loaded one."""
        timeout *= WAIT_SLACK
        end = time.monotonic() + timeout
        last: dict[str, Any] = {}
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the editor exited ({self.proc.returncode}) waiting for {what}: {self.log_text()}")
            try:
                read = self._read()
                if read is not None:  # (none yet while a starting editor writes its first)
                    last = read
                    if check(last):
                        return last
            except (KeyError, IndexError, TypeError):
                pass
            time.sleep(0.05)
        raise AssertionError(f"timed out ({timeout:g} s) waiting for {what}; last state: "
                             f"{json.dumps({k: last.get(k) for k in ('tool', 'focus', 'selection', 'runner', 'errors', 'status', 'simulation') if k in last})}")

    def steady(self, read: Callable[[dict[str, Any]], Any], what: str, hold: float = 0.6,
               timeout: float = 30.0) -> dict[str, Any]:
        """The first state from which ``read`` has not changed for ``hold`` seconds: a widget's
        place after a dock is shown and resized (Qt lays it out on a later turn of its event
        loop, so the first place read can be stale)."""
        since: list[Any] = [None, 0.0]

        def still(s: dict[str, Any]) -> bool:
            value, now = read(s), time.monotonic()
            if value != since[0]:
                since[:] = [value, now]
            return bool(now - since[1] >= hold)

        return self.wait(still, what, timeout)

    def ready(self, timeout: float = 90.0) -> dict[str, Any]:
        """The window is up and active and its first validation is complete."""
        return self.wait(lambda s: s["active"] and s["runner"]["completed"] >= 1 and s["runner"]["completed"] ==
                         s["runner"]["generation"] and s["runner"]["final"], "the window and its first findings",
                         timeout)

    def settled(self, before: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        """The final findings of a run newer than ``before``'s."""
        gen = before["runner"]["generation"]
        return self.wait(lambda s: s["runner"]["generation"] > gen and s["runner"]["completed"] ==
                         s["runner"]["generation"] and s["runner"]["final"] and not s["runner"]["busy"],
                         "the findings of the edit", timeout)

    # ---------------------------------------------------------------- where things are

    def screen(self, x: float, y: float, state: dict[str, Any] | None = None) -> tuple[int, int]:
        """The screen pixel of arena point (x, y)."""
        s = state or self.state()
        m11, m12, m21, m22, dx, dy = s["view"]["matrix"]
        ox, oy = s["view"]["viewport"][:2]
        return round(ox + m11 * x + m21 * y + dx), round(oy + m12 * x + m22 * y + dy)

    @staticmethod
    def centre(rect: Sequence[int]) -> tuple[int, int]:
        return rect[0] + rect[2] // 2, rect[1] + rect[3] // 2

    def named(self, name: str, state: dict[str, Any] | None = None) -> dict[str, Any]:
        s = state or self.wait(lambda s: name in s["named"], f"the field {name}", 10)
        return s["named"][name]  # type: ignore[no-any-return]

    # ---------------------------------------------------------------- hands

    def move(self, px: tuple[int, int]) -> None:
        self.x.xdotool("mousemove", "--sync", str(px[0]), str(px[1]))

    def click_at(self, px: tuple[int, int], button: int = 1) -> None:
        self.move(px)
        self.x.xdotool("click", str(button))

    def click(self, x: float, y: float) -> None:
        self.click_at(self.screen(x, y))

    def drag_px(self, points: Sequence[tuple[int, int]], steps: int = 6) -> None:
        """Press at the first point, move through the others in small steps, release (one
        xdotool run: its commands chain)."""
        cmd = ["mousemove", "--sync", str(points[0][0]), str(points[0][1]), "mousedown", "1", "sleep", "0.05"]
        for a, b in zip(points, points[1:]):
            for i in range(1, steps + 1):
                cmd += ["mousemove", str(round(a[0] + (b[0] - a[0]) * i / steps)),
                        str(round(a[1] + (b[1] - a[1]) * i / steps)), "sleep", "0.015"]
        self.x.xdotool(*cmd, "sleep", "0.05", "mouseup", "1")

    def drag(self, points: Sequence[tuple[float, float]]) -> None:
        s = self.state()
        self.drag_px([self.screen(x, y, s) for x, y in points])

    def key(self, *keys: str) -> None:
        self.x.xdotool("key", "--clearmodifiers", *keys)

    def type(self, text: str) -> None:
        self.x.xdotool("type", "--delay", "30", text)

    def click_field(self, name: str) -> None:
        self.click_at(self.centre(self.named(name)["rect"]))
        self.wait(lambda s: s["focus"] and s["focus"]["name"] == name, f"the focus in {name}", 10)

    def click_tab(self, text: str) -> None:
        s = self.wait(lambda s: any(t["text"] == text for t in s["tabs"]), f"the tab {text}", 10)
        tab = next(t for t in s["tabs"] if t["text"] == text)
        self.click_at(self.centre(tab["rect"]))
        self.wait(lambda s: any(t["text"] == text and t["current"] for t in s["tabs"]), f"the tab {text} in front", 10)

    def dialog(self, title: str, timeout: float = 10) -> dict[str, Any]:
        """The dialog titled ``title``, once it is on the screen and active."""
        s = self.wait(lambda s: any(d["title"] == title and d["active"] for d in s["dialogs"]),
                      f"the dialog {title!r}", timeout)
        return next(d for d in s["dialogs"] if d["title"] == title)

    def answer(self, title: str, button: str, timeout: float = 10) -> None:
        """Click ``button`` of the dialog titled ``title``; wait until it has gone."""
        box = self.dialog(title, timeout)
        self.click_at(self.centre(next(b for b in box["buttons"] if b["text"] == button)["rect"]))
        self.wait(lambda s: not any(d["title"] == title for d in s["dialogs"]), f"the dialog {title!r} to close", 10)

    def menu(self, *path: str) -> None:
        """Open the menu bar's ``path[0]`` and click through submenus to the last entry."""
        s = self.state()
        top = next(m for m in s["menubar"] if m["text"] == path[0])
        self.click_at(self.centre(top["rect"]))
        for i, entry in enumerate(path[1:], start=1):
            s = self.wait(lambda s, e=entry: any(a["text"] == e for m in s["menus"] for a in m["actions"]),
                          f"the menu entry {' → '.join(path[:i + 1])}", 10)
            act = next(a for m in reversed(s["menus"]) for a in m["actions"] if a["text"] == entry)
            self.click_at(self.centre(act["rect"]))
        self.wait(lambda s: not s["menus"], "the menus to close", 10)

    # ---------------------------------------------------------------- processes

    def helpers(self) -> list[int]:
        """Processes the editor started (forkserver, resource tracker, workers, children)."""
        return descendants(self.pid)

    def kill(self) -> None:
        """``kill -9``: the editor gets no chance to clean up."""
        os.kill(self.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()
