"""The analysis overlays for an Arena Rex arena (issue 14: "Heat map of 'moves to reach' from a
zone, paths and sight overlays as for Gravstrike"), driven from View → Overlays
(:mod:`editor.overlays` installs them; their entries show only for an Arena Rex arena, and
Gravstrike's heat map, line of sight and path entries, which need start positions, hide):

* **Arena Rex heat map (moves) from zone** — :func:`engine.arenarex.fairness.heat_map`: how
  many moves of MOV inches a base of the zone takes to every part of the board, in bands of 1,
  2, 3 (one activation: the free move and two fatigued ones) and more;
* **Arena Rex walk from zone** — the shortest walk of a base to the centre, to another zone or
  to the nearest other zone, with its length and moves; clicking an ``ar-centre-access``,
  ``ar-zone-access``, ``ar-hazard-access`` or ``ar-reach`` finding draws the walks it compares;
* **Arena Rex sight from zone** — the board's cells seen from the zone's base positions,
  terrain hazards that block sight blocking (:func:`engine.arenarex.sight.sight_grid`);
* **Arena Rex base size** — the base the heat map and walks are for (default the largest listed).

The work runs in child processes like Car Wars' (:class:`editor.games.overlay_jobs.OverlayJobs`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QActionGroup

from editor.games import is_generic
from editor.games.arenarex import overlay_work as RW
from editor.games.overlay_jobs import OverlayJobs
from editor.games.overlay_layers import CwSightLayer
from editor.games.overlay_jobs import fill_choices
from editor.games.arenarex.overlay_layers import RexHeatLayer, RexPathLayer, legend, walks_text

SYSTEM = "arena-rex"


class RexOverlays(OverlayJobs):
    """The Arena Rex layers, their key, their background jobs and their menu entries; ``ov`` is
    the window's :class:`editor.overlays.Overlays` (whose Gravstrike entries hide meanwhile)."""

    def __init__(self, win: Any, ov: Any = None) -> None:
        super().__init__(win)
        self.ov = ov
        self.heat, self.path, self.sight = RexHeatLayer(), RexPathLayer(), CwSightLayer()
        for layer in (self.heat, self.path, self.sight):
            layer.setVisible(False)
            win.scene.addItem(layer)
        self.legend = legend(win.view, win.view.viewport())
        self.heat_zone: int | None = None
        self.sight_zone: int | None = None
        #: The walks drawn: ((player, goal), ...), their base (None: the chosen one) and title.
        self.walk_pairs: tuple[tuple[int, str], ...] | None = None
        self.walk_base: float | None = None
        self.walk_title: str | None = None
        #: The base (mm) of the heat map and the walks chosen in the menu (None: the largest).
        self.base: float | None = None
        self._menu_key: tuple[Any, ...] | None = None

    # -- state
    def active(self) -> bool:
        arena = self.win.doc.arena
        return is_generic(arena) and getattr(arena, "system", "") == SYSTEM

    def zones(self) -> list[int]:
        return sorted({d.player for d in self.win.doc.arena.deployment}) if self.active() else []

    def base_mm(self) -> float:
        """The chosen base (mm), or the largest listed."""
        bases = [float(b) for b in self.win.doc.arena.bases]
        return self.base if self.base in bases else max(bases)

    def params(self) -> dict[str, tuple[Any, ...] | None]:
        out: dict[str, tuple[Any, ...] | None] = {"heat": None, "path": None, "sight": None}
        zones = set(self.zones())
        if not zones:
            return out
        if self.heat_zone in zones:
            out["heat"] = (self.heat_zone, self.base_mm())
        if self.walk_pairs and all(p in zones and (not g.startswith("deploy:") or int(g[7:]) in zones)
                                   for p, g in self.walk_pairs):
            base = self.walk_base if self.walk_base in [float(b) for b in self.win.doc.arena.bases] else self.base_mm()
            out["path"] = (self.walk_pairs, base)
        if self.sight_zone in zones:
            out["sight"] = (self.sight_zone,)
        return out

    def work(self, kind: str) -> Callable[..., Any]:
        works: dict[str, Callable[..., Any]] = {"heat": RW.heat, "path": RW.walks, "sight": RW.sight}
        return works[kind]

    def title(self, kind: str, p: tuple[Any, ...]) -> str:
        if kind == "heat":
            mov = self.win.doc.arena.scenario.analysis.mov
            return f"Moves from deploy:{p[0]} ({p[1]:g} mm bases, MOV {mov:g} in)"
        if kind == "path":
            if self.walk_title:
                return f"{self.walk_title}, {p[1]:g} mm bases"
            (player, goal), *_ = p[0]
            return f"Walk from deploy:{player} to {RW.goal_text(goal)} ({p[1]:g} mm bases)"
        return f"Sight from deploy:{p[0]}"

    def draw(self, kind: str, arena: Any, p: tuple[Any, ...], result: Any) -> None:
        title = self.title(kind, p)
        if kind == "heat":
            self.heat.set_heat(arena, result)
            self.heat.setVisible(True)
            self.legend.set_state(kind, title)
        elif kind == "path":
            self.path.set_walks(result)
            self.path.setVisible(True)
            self.legend.set_state(kind, title, detail=walks_text(result))
        else:
            self.sight.set_grid(result)
            self.sight.setVisible(True)
            self.legend.set_state(kind, title)

    def clear(self, kind: str) -> None:
        if kind == "heat":
            self.heat.set_heat(None, None)
            self.heat.setVisible(False)
        elif kind == "path":
            self.path.set_walks(())
            self.path.setVisible(False)
        else:
            self.sight.set_grid(None)
            self.sight.setVisible(False)
        self.legend.set_state(kind, None)

    # -- choices
    def show_heat(self, zone: int | None) -> None:
        self.heat_zone = zone
        self._check(self.heat_group if hasattr(self, "heat_group") else None, zone)
        self.refresh()

    def show_sight(self, zone: int | None) -> None:
        self.sight_zone = zone
        self._check(self.sight_group if hasattr(self, "sight_group") else None, zone)
        self.refresh()

    def show_walk(self, choice: tuple[int, str] | None) -> None:
        """The walk from zone ``choice[0]`` to ``choice[1]`` (``centre``, ``deploy:N`` or
        ``nearest-zone``) for the chosen base, or none."""
        self.walk_pairs = None if choice is None else (tuple(choice),)  # type: ignore[assignment]
        self.walk_base = self.walk_title = None
        self._check(self.path_group if hasattr(self, "path_group") else None, list(choice) if choice else None)
        self.refresh()

    def set_base(self, base: float | None) -> None:
        self.base = base
        self._check(self.base_group if hasattr(self, "base_group") else None, base)
        self.refresh()

    def show_finding(self, finding: dict[str, Any]) -> None:
        """Draw the walks a clicked fairness finding is about (nothing for other findings)."""
        if not self.active():
            return
        q = RW.finding_query(self.win.doc.arena, finding)
        if q is None:
            return
        self.walk_pairs, self.walk_base, self.walk_title = q
        self._check(self.path_group if hasattr(self, "path_group") else None, None)
        self.refresh()

    @staticmethod
    def _check(group: QActionGroup | None, value: object) -> None:
        for act in group.actions() if group is not None else ():
            act.setChecked(act.data() == value)

    def arena_changed(self) -> None:
        """An edit: recompute what is shown once the edits pause (a newer edit cancels)."""
        self._fill_menus()
        self.recompute_later()

    # -- menus
    def install_menu(self, menu: Any) -> None:
        """The Arena Rex entries of View → Overlays (shown only for an Arena Rex arena)."""
        self.heat_menu = menu.addMenu("Arena Rex &heat map (moves) from zone")
        self.path_menu = menu.addMenu("Arena Rex &walk from zone")
        self.sight_menu = menu.addMenu("Arena Rex &sight from zone")
        self.base_menu = menu.addMenu("Arena Rex &base size")
        self.heat_group, self.path_group, self.sight_group, self.base_group = (QActionGroup(self) for _ in range(4))
        self._fill_menus()

    def _fill_menus(self) -> None:
        if not hasattr(self, "heat_menu"):
            return
        on = self.active()
        for m in (self.heat_menu, self.path_menu, self.sight_menu, self.base_menu):
            m.menuAction().setVisible(on)
        if self.ov is not None:  # Gravstrike's entries need start positions: none here
            for m in (self.ov.heat_menu, self.ov.sight_menu):
                m.menuAction().setVisible(not on)
            self.ov.path_action.setVisible(not on)
        arena = self.win.doc.arena
        key = (on, tuple(self.zones()), tuple(arena.bases) if on else ())
        if key == self._menu_key:
            return
        self._menu_key = key
        zones = self.zones()
        zone_choices: list[tuple[str, object]] = [("None", None)] + [(f"Zone deploy:{z}", z) for z in zones]
        fill_choices(self, self.heat_menu, self.heat_group, zone_choices, self.heat_zone, self.show_heat)
        fill_choices(self, self.sight_menu, self.sight_group, zone_choices, self.sight_zone, self.show_sight)
        bases: list[tuple[str, object]] = [("Largest listed", None)]
        bases += [(f"{float(b):g} mm", float(b)) for b in sorted(arena.bases)] if on else []
        fill_choices(self, self.base_menu, self.base_group, bases, self.base, self.set_base)
        current = list(self.walk_pairs[0]) if self.walk_pairs and len(self.walk_pairs) == 1 and not self.walk_title \
            else None
        fill_choices(self, self.path_menu, self.path_group, [("None", None)], current, self.show_walk)
        for z in zones:
            sub = self.path_menu.addMenu(f"Zone deploy:{z}")
            goals = [RW.CENTRE] + [f"deploy:{o}" for o in zones if o != z] + ([RW.NEAREST_ZONE] if len(zones) > 2 else [])
            for goal in goals:
                act = sub.addAction(f"to {RW.goal_text(goal)}")
                act.setCheckable(True)
                act.setData([z, goal])
                act.setChecked(current == [z, goal])
                act.triggered.connect(lambda _c=False, c=(z, goal): self.show_walk(c))
                self.path_group.addAction(act)


def install(win: Any, ov: Any) -> RexOverlays:
    """Add the Arena Rex overlays to the window whose :class:`editor.overlays.Overlays` is ``ov``
    (its View → Overlays menu gets the entries)."""
    rex = RexOverlays(win, ov)
    rex.install_menu(ov.menu)
    rex.message.connect(lambda text: win.statusBar().showMessage(text, 8000))
    win.doc.arenaChanged.connect(lambda _a: rex.arena_changed())
    win.validation.findingSelected.connect(rex.show_finding)
    return rex


__all__ = ["RexOverlays", "SYSTEM", "install"]
