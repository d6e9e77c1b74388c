"""The analysis overlays for a Car Wars arena (issue 13: "Heat map, path and line-of-sight
overlays as for Gravstrike"), driven from View → Overlays like Gravstrike's
(:mod:`editor.overlays` hands a Car Wars arena's choices to :class:`CarWarsOverlays`):

* **Travel heat map from start N** — :func:`engine.carwars.reach.reach` under the chosen policy;
* **Car Wars heat map from card** — the same from a numbered card (the selected one, or one
  chosen by name): a car on the card, at every heading it fits at, at the starting speed 2 -
  how many turns each part of the arena is from the card (it replaces the map from a start);
* **Car Wars path** — the planner's plan from a start to a numbered card or the centre; or a
  plan computed elsewhere (:meth:`CarWarsOverlays.show_plan`: the travel dock's selected row,
  the clicked travel finding), drawn until the arena or the path choice changes;
* **Line of sight from start** — blocked / through cover / clear squares around the arena;
* **Car Wars travel policy** — ``flat-out`` or ``safe``, for the heat map and the path.

Everything is computed in a child process on a thread pool (:mod:`editor.games.overlay_jobs`,
shared with Arena Rex's overlays): the window never waits, a newer edit or choice kills the
running child, results of older generations are dropped, and the layers keep the previous picture
until the new one arrives (the key says "Computing …").  Edits are coalesced (:data:`EDIT_DELAY_MS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QAction, QActionGroup

from editor.games import is_generic
from editor.games.carwars import overlay_work as W
from editor.games.overlay_jobs import EDIT_DELAY_MS, KINDS, OverlayJob, OverlayJobs, OverlaySignals, fill_choices
from editor.games.overlay_layers import CwHeatLayer, CwLegend, CwPathLayer, CwSightLayer

POLICY_TEXT = {"flat-out": "Flat out (every maneuver, dice counted)", "safe": "Safe (no maneuver dice)"}


def goal_label(arena: Any, goal: str) -> str:
    if goal == "centre":
        return "the centre"
    if goal.startswith("start:"):
        return f"start {goal[6:]}"
    ident = goal.removeprefix("card:")
    card = next((c for c in arena.cards if c.id == ident), None)
    return f"card {card.number} ({ident})" if card is not None else ident


class CarWarsOverlays(OverlayJobs):
    """The Car Wars layers, their key, their background jobs and their menu entries."""

    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.heat, self.path, self.sight = CwHeatLayer(), CwPathLayer(), CwSightLayer()
        for layer in (self.heat, self.path, self.sight):
            layer.setVisible(False)
            win.scene.addItem(layer)
        self.legend = CwLegend(win.view, win.view.viewport())
        self.policy = "flat-out"
        self.heat_player: int | None = None
        #: Heat map from a card: None, "selected" (the selected card) or a card id.
        self.heat_card: str | None = None
        #: A plan drawn on request (show_plan): (arena, plan, title), kept while the arena is.
        self.pinned: tuple[Any, W.PathPlan | None, str] | None = None
        self.path_choice: tuple[int, str] | None = None  # (start player, goal ref)
        self.sight_mode: int | str | None = None  # a player, "selected" or None
        self._menu_key: tuple[Any, ...] | None = None

    # -- state
    def active(self) -> bool:
        return is_generic(self.win.doc.arena) and getattr(self.win.doc.arena, "system", "") == "car-wars-6e"

    def _players(self) -> set[int]:
        return {s.player for s in getattr(self.win.doc.arena, "start_positions", ())}

    def sight_player(self) -> int | None:
        if self.sight_mode == "selected":
            from editor.games import model as G

            sel = self.win.doc.selection
            el = G.find(self.win.doc.arena, sel[0]) if len(sel) == 1 else None
            player = getattr(el, "player", None) if el is not None and sel[0].startswith("start:") else None  # a start
            return player if isinstance(player, int) else None
        return self.sight_mode if isinstance(self.sight_mode, int) else None

    def heat_card_id(self) -> str | None:
        """The card the heat map is from (the selected one, or the chosen one), if any."""
        if self.heat_card is None or not self.active():
            return None
        arena = self.win.doc.arena
        if self.heat_card == "selected":
            sel = self.win.doc.selection
            return sel[0] if len(sel) == 1 and any(c.id == sel[0] for c in arena.cards) else None
        return self.heat_card if any(c.id == self.heat_card for c in arena.cards) else None

    def params(self) -> dict[str, tuple[Any, ...] | None]:
        """What each overlay should show for the current arena and choices (None: nothing)."""
        arena = self.win.doc.arena
        players = self._players() if self.active() else set()
        out: dict[str, tuple[Any, ...] | None] = dict.fromkeys(KINDS)
        card = self.heat_card_id()
        if card is not None:
            out["heat"] = (f"card:{card}", self.policy)
        elif self.heat_player in players:
            out["heat"] = (self.heat_player, self.policy)
        if self.path_choice is not None and self.path_choice[0] in players:
            goal = self.path_choice[1]
            if goal == "centre" or any(f"card:{c.id}" == goal for c in arena.cards):
                out["path"] = (self.path_choice[0], goal, self.policy)
        sp = self.sight_player()
        if self.sight_mode is not None and sp in players:
            out["sight"] = (sp,)
        return out

    # -- choices (from the menus)
    def show_heat(self, player: int | None) -> None:
        self.heat_player = player
        if player is not None:
            self._set_heat_card(None)
        self.refresh()

    def show_heat_card(self, card: str | None) -> None:
        """The heat map from card ``card`` (an id), from the selected card (``"selected"``) or
        not from a card (None); a card replaces the start in View → Overlays → heat map."""
        self._set_heat_card(card)
        if card is not None:
            self.heat_player = None
            ov = getattr(self.win, "overlays", None)
            if ov is not None and hasattr(ov, "heat_group"):
                ov.heat_player = None
                ov._check_menu(ov.heat_group, None)
        self.refresh()

    def _set_heat_card(self, card: str | None) -> None:
        self.heat_card = card
        if hasattr(self, "card_heat_group"):
            for act in self.card_heat_group.actions():
                act.setChecked(act.data() == card)

    def show_plan(self, plan: W.PathPlan | None, title: str) -> None:
        """Draw ``plan`` (computed elsewhere: the travel dock, a finding) on the current arena,
        or the note ``title`` alone while it is None (being computed); it replaces the path
        chosen in the menu and stays until the arena or the choice changes."""
        self.path_choice = None
        if hasattr(self, "path_group"):
            for act in self.path_group.actions():
                act.setChecked(act.data() is None)
        self._cancel("path")
        self.wanted["path"] = self.shown["path"] = None
        self.pinned = (self.win.doc.arena, plan, title)
        if plan is None:
            self.path.set_plan(None, None)
            self.path.setVisible(False)
            self.legend.set_state("path", title, "computing")
            return
        self.path.set_plan(plan, self.win.doc.arena.vehicle)
        self.path.setVisible(True)
        self.legend.set_state("path", title, detail=f"{plan.summary()}; labels: turn.point, +N dice rolled there")

    def clear_plan(self) -> None:
        """Take away a plan drawn by :meth:`show_plan` (nothing else)."""
        if self.pinned is not None:
            self.pinned = None
            self.refresh()

    def show_path(self, choice: tuple[int, str] | None) -> None:
        self.path_choice = choice
        self.pinned = None
        if hasattr(self, "path_group"):
            for act in self.path_group.actions():
                act.setChecked(act.data() == (list(choice) if choice else None))
        self.refresh()

    def show_sight(self, mode: int | str | None) -> None:
        self.sight_mode = mode
        self.refresh()

    def set_policy(self, policy: str) -> None:
        if policy not in W.POLICIES:
            raise ValueError(f"policy is one of {W.POLICIES}, not {policy!r}")
        self.policy = policy
        if hasattr(self, "policy_group"):
            for act in self.policy_group.actions():
                act.setChecked(act.data() == policy)
        self.refresh()

    def arena_changed(self) -> None:
        """An edit: recompute what is shown once the edits pause (a newer edit cancels)."""
        self._fill_menus()
        if self.pinned is not None and self.pinned[0] is not self.win.doc.arena:
            self.pinned = None  # a plan of the old arena (the travel dock draws the new one)
            self.clear("path")
        self.recompute_later()

    def selection_changed(self) -> None:
        """The selection moved: the line of sight from the selected start and the heat map
        from the selected card follow it."""
        if self.sight_mode == "selected" or self.heat_card == "selected":
            self.refresh()

    # -- jobs (OverlayJobs)
    def work(self, kind: str) -> Callable[..., Any]:
        works: dict[str, Callable[..., Any]] = {"heat": W.heat_map, "path": W.path_plan, "sight": W.sight_grid}
        return works[kind]

    def kept(self, kind: str, arena: Any) -> bool:
        if kind == "path" and self.pinned is not None:
            if self.pinned[0] is arena and self.active():
                return True  # a plan drawn on request, still of this arena
            self.pinned = None
        return False

    def notes(self, params: dict[str, tuple[Any, ...] | None]) -> None:
        if self.sight_mode is not None and params["sight"] is None and self.active():
            self.legend.set_state("sight", "Line of sight: select a start" if self.sight_mode == "selected"
                                  else "Line of sight: no such start", "")
        if self.heat_card is not None and params["heat"] is None and self.active():
            self.legend.set_state("heat", "Heat map: select a card" if self.heat_card == "selected"
                                  else "Heat map: no such card", "")

    def title(self, kind: str, p: tuple[Any, ...]) -> str:
        if kind == "heat":
            if isinstance(p[0], str):
                return f"Heat map from {goal_label(self.win.doc.arena, p[0])} ({p[1]})"
            return f"Heat map from start {p[0]} ({p[1]})"
        if kind == "path":
            return f"Path from start {p[0]} to {goal_label(self.win.doc.arena, p[1])} ({p[2]})"
        return f"Line of sight from start {p[0]}"

    def clear(self, kind: str) -> None:
        layer = {"heat": self.heat, "path": self.path, "sight": self.sight}[kind]
        layer.setVisible(False)
        if kind == "heat":
            self.heat.set_map(None, None)
        elif kind == "path":
            self.path.set_plan(None, None)
        else:
            self.sight.set_grid(None)
        self.legend.set_state(kind, None)

    def draw(self, kind: str, arena: Any, p: tuple[Any, ...], result: Any) -> None:
        title = self.title(kind, p)
        if kind == "heat":
            self.heat.set_map(arena, result)
            self.heat.setVisible(True)
            self.legend.set_state(kind, title)
        elif kind == "path":
            assert isinstance(result, W.PathPlan)
            self.path.set_plan(result, arena.vehicle)
            self.path.setVisible(True)
            self.legend.set_state(kind, title, detail=f"{result.summary()}; labels: turn.point, +N dice rolled there")
        else:
            self.sight.set_grid(result)
            self.sight.setVisible(True)
            self.legend.set_state(kind, title)

    # -- menus
    def install_menu(self, menu: Any) -> None:
        """The Car Wars entries of View → Overlays (shown only for a Car Wars arena; the heat
        map and line-of-sight entries are shared with Gravstrike)."""
        self.path_menu = menu.addMenu("Car Wars &path from start")
        self.path_group = QActionGroup(self)
        self.path_group.setExclusive(True)
        self.card_heat_menu = menu.addMenu("Car Wars heat map from &card")
        self.card_heat_group = QActionGroup(self)
        self.card_heat_group.setExclusive(True)
        self.policy_menu = menu.addMenu("Car Wars travel p&olicy")
        self.policy_group = QActionGroup(self)
        self.policy_group.setExclusive(True)
        for policy in W.POLICIES:
            act = QAction(POLICY_TEXT[policy], self, checkable=True)
            act.setData(policy)
            act.setChecked(policy == self.policy)
            act.triggered.connect(lambda _c=False, p=policy: self.set_policy(p))
            self.policy_group.addAction(act)
            self.policy_menu.addAction(act)
        self._fill_menus()

    def _fill_menus(self) -> None:
        if not hasattr(self, "path_menu"):
            return
        on = self.active()
        self.path_menu.menuAction().setVisible(on)
        self.card_heat_menu.menuAction().setVisible(on)
        self.policy_menu.menuAction().setVisible(on)
        arena = self.win.doc.arena
        key = (on, tuple(sorted(self._players())) if on else (),
               tuple((c.id, c.number) for c in arena.cards) if on else ())
        if key == self._menu_key:
            return
        self._menu_key = key
        self._fill_card_heat_menu(arena if on else None)
        self.path_menu.clear()
        for act in self.path_group.actions():
            self.path_group.removeAction(act)
        none = QAction("None", self, checkable=True)
        none.setData(None)
        none.setChecked(self.path_choice is None)
        none.triggered.connect(lambda _c=False: self.show_path(None))
        self.path_group.addAction(none)
        self.path_menu.addAction(none)
        if not on:
            return
        goals = [f"card:{c.id}" for c in sorted(arena.cards, key=lambda c: (c.number, c.id))] + ["centre"]
        for player in sorted(self._players()):
            sub = self.path_menu.addMenu(f"Start {player}")
            for goal in goals:
                act = QAction(f"to {goal_label(arena, goal)}", self, checkable=True)
                act.setData([player, goal])
                act.setChecked(self.path_choice == (player, goal))
                act.triggered.connect(lambda _c=False, c=(player, goal): self.show_path(c))
                self.path_group.addAction(act)
                sub.addAction(act)

    def _fill_card_heat_menu(self, arena: Any) -> None:
        choices: list[tuple[str, object]] = [("None", None), ("Selected card", "selected")]
        if arena is not None:
            choices += [(f"Card {c.number} ({c.id})", c.id)
                        for c in sorted(arena.cards, key=lambda c: (c.number, c.id))]
        fill_choices(self, self.card_heat_menu, self.card_heat_group, choices, self.heat_card, self.show_heat_card)


def install(win: Any, menu: Any) -> CarWarsOverlays:
    cw = CarWarsOverlays(win)
    cw.install_menu(menu)
    cw.message.connect(lambda text: win.statusBar().showMessage(text, 8000))
    win.doc.selectionChanged.connect(lambda _s: cw.selection_changed() if cw.heat_card == "selected" else None)
    return cw


__all__ = ["CarWarsOverlays", "EDIT_DELAY_MS", "KINDS", "OverlayJob", "OverlaySignals", "fill_choices", "goal_label", "install"]
