"""A seat's frame (play parameter ``symmetric_frames``): on a pit whose declared symmetry holds
under the rules (:func:`engine.gliderpit.invariance.pit_symmetries`), a seat asks every question
with a choice in it - the travel plan to the centre, the launch, the Movement Phase and dive with
the best value, the order of the fallback maneuvers - in the frame of the first zone of its
orbit (:func:`engine.gliderpit.invariance.zone_frames`), and maps the answer back: hexes and
facings through the inverse operation, left and right swapped by a mirror.  So a seat decides in
a situation exactly as its orbit's first seat decides in the image situation, and the orders
the searches explore in (sorted hexes, directions counted counter-clockwise, Turn left before
right) cannot favour one of two zones the pit treats alike.

>>> from engine.grids import hex_map, reflection, HexLayout
>>> f = Frame(hex_map(HexLayout("pointy"), reflection((0.0, 0.0), 90.0)))
>>> f.state((2, 1), 0), f.world_token("turn-left/speed"), f.world_token("slip-right")
(((-3, 1), 3), 'turn-right/speed', 'slip-left')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.gliderpit.travel import Glider as TravelGlider
from engine.gliderpit.travel import PathStep
from engine.grids import Axial, HexMap

_SWAP = {"left": "right", "right": "left"}


def mirrored(name: str) -> str:
    """A maneuver's name (or a record's token ``name/paid``) seen in a mirror: left and right
    swapped."""
    head, sep, paid = name.partition("/")
    kind, dash, side = head.partition("-")
    if dash and side in _SWAP:
        head = f"{kind}-{_SWAP[side]}"
    return head + sep + paid


class Frame:
    """One seat's frame: ``op`` takes the seat's world to its orbit's first seat's, whose
    launch zone is ``zone`` (None: the seat is that seat, or frames are off)."""

    def __init__(self, op: HexMap | None, zone: str | None = None) -> None:
        self.op = op
        self.zone = zone if op is not None else None
        self.back = None if op is None else op.inverse()

    def state(self, h: Axial, facing: int) -> tuple[Axial, int]:
        """A hex and facing of the world in this frame."""
        if self.op is None:
            return h, facing
        return self.op.cell(h), self.op.facing(facing)

    def world(self, h: Axial, facing: int) -> tuple[Axial, int]:
        """A hex and facing of this frame in the world."""
        if self.back is None:
            return h, facing
        return self.back.cell(h), self.back.facing(facing)

    def facing(self, facing: int) -> int:
        """A facing of this frame in the world (the Random Direction Indicator read by the seat,
        :meth:`engine.gliderpit.play.game.Game.spin`)."""
        return facing if self.back is None else self.back.facing(facing)

    def glider(self, g: TravelGlider) -> TravelGlider:
        h, f = self.state(g.hex, g.facing)
        return TravelGlider(h, f, g.speed, g.altitude)

    def world_path(self, path: Sequence[PathStep]) -> tuple[PathStep, ...]:
        """A plan made in this frame, as the seat flies it."""
        if self.back is None:
            return tuple(path)
        out = []
        for s in path:
            h, f = self.world(s.hex, s.facing)
            name = mirrored(s.maneuver) if self.back.reflects else s.maneuver
            out.append(PathStep(s.turn, s.phase, name, h, f, s.speed, s.altitude))
        return tuple(out)

    def world_token(self, token: str) -> str:
        return mirrored(token) if self.back is not None and self.back.reflects else token

    def world_tokens(self, tokens: Iterable[str]) -> list[str]:
        return [self.world_token(t) for t in tokens]
