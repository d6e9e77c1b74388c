"""Replaying a Car Wars race record through the rules (not the policies): every recorded decision
and die is played again by :class:`engine.carwars.play.game.Game` and what the rules make of it
is compared with what the record says.

Checked: the move order (the first-player marker passing on each round); each speed change (one
step, two with hard acceleration or braking, within the top speed); each point a move of the
turning key (backward only in reverse, straight when out of control), as many points as the speed
gives (fewer only when the car flipped); every pose where the motion model puts it, collisions
included - so a car never passes through a wall or another car; skids and hits within the dice
rolled, and the crashes they cause (out of control, spins, flips) as the rules resolve them; the
cards taken and the scores.  The replay stops at the first move the rules refuse (what follows
depends on it) and names its turn and seat.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.carwars.play.game import POSE_TOLERANCE, Game, RuleBreak
from engine.play import GameRecord, IllegalMove, PieceState, Turn


def _gap(a: list[float], x: float, y: float, h: float | None) -> bool:
    dh = 0.0 if h is None else abs((a[2] - h + 180.0) % 360.0 - 180.0)
    return abs(a[0] - x) > POSE_TOLERANCE or abs(a[1] - y) > POSE_TOLERANCE or dh > 1e-6


class Recorded:
    """The record's decisions and dice, played as :class:`engine.carwars.play.game.Decisions`."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.turns = {t.number: t for t in record.turns}

    def piece(self, game: Game, start: int) -> PieceState:
        turn = self.turns.get(game.turn)
        if turn is None:
            raise RuleBreak(game.turn, start, f"the record has no turn {game.turn}")
        for p in turn.pieces:
            if p.start == start:
                return p
        raise RuleBreak(game.turn, start, f"turn {game.turn} of the record has no car {start}")

    def _state(self, game: Game, start: int) -> Mapping[str, Any]:
        return self.piece(game, start).state

    def first(self, game: Game) -> int:
        turn = self.turns.get(1)
        if turn is None:
            return 0
        for p in turn.pieces:
            if int(p.state.get("order", 0)) == 1:
                return list(self.record.setup.starts).index(p.start)
        raise RuleBreak(1, self.record.setup.starts[0], "no car moves first in turn 1")

    def speed(self, game: Game, start: int) -> int:
        return int(self._state(game, start).get("speed", 0))

    def check_poses(self, game: Game, start: int) -> None:
        """The pose after every point driven so far is the recorded one."""
        seat = game.seats[start]
        recorded = self._state(game, start).get("poses", [])
        for i, (mine, theirs) in enumerate(zip(seat.poses, recorded), start=1):
            if _gap(mine, float(theirs[0]), float(theirs[1]), float(theirs[2])):
                raise RuleBreak(game.turn, start, f"point {i} is recorded ending at ({theirs[0]:.3f}, {theirs[1]:.3f}) "
                                f"heading {theirs[2]:g}, but the motion model (collisions and spins included) puts it "
                                f"at ({mine[0]:.3f}, {mine[1]:.3f}) heading {mine[2]:g}")

    def point(self, game: Game, start: int) -> str:
        self.check_poses(game, start)
        moves = [str(m) for m in self._state(game, start).get("moves", [])]
        seat = game.seats[start]
        index = len(seat.moves)
        if index >= len(moves):
            raise RuleBreak(game.turn, start, f"recorded {len(moves)} points, but at speed {seat.speed} the car moves "
                            "all its movement points (4B. Drive)")
        return moves[index]

    def skids(self, game: Game, start: int, dice: int) -> int:
        rolled = self._state(game, start).get("skids", [])
        index = len(game.seats[start].skids)
        if index >= len(rolled):
            raise RuleBreak(game.turn, start, f"point {index + 1} rolls {dice} dice but the record has no roll")
        return int(rolled[index])

    def hits(self, game: Game, start: int, dice: int) -> int:
        rolled = self._state(game, start).get("hits", [])
        seat = game.seats[start]
        index = len(seat.hits) - 1
        roll = len(seat.hits[-1]) if seat.hits else 0
        try:
            return int(rolled[index][roll])
        except (IndexError, TypeError):
            raise RuleBreak(game.turn, start, f"point {index + 1}: a collision the record does not have") from None

    def finish(self, game: Game, turn: Turn) -> None:
        """After the round: every car drove its recorded points in the recorded order, ends where
        the record says, took the recorded cards, and the scores agree."""
        for p in turn.pieces:
            seat = game.seats.get(p.start)
            if seat is None:
                raise RuleBreak(turn.number, p.start, f"car {p.start} does not play")
            moves = [str(m) for m in p.state.get("moves", [])]
            if int(p.state.get("speed_after", seat.speed)) != seat.speed:
                raise RuleBreak(turn.number, p.start, f"recorded ending at speed {p.state.get('speed_after')}, the rules "
                                f"give {seat.speed}")
            if len(seat.moves) != len(moves):
                raise RuleBreak(turn.number, p.start, f"recorded {len(moves)} points, but the rules end its move after "
                                f"{len(seat.moves)}")
            if int(p.state.get("order", 0)) != seat.order:
                raise RuleBreak(turn.number, p.start, f"recorded moving {p.state.get('order')}th, but the first-player "
                                f"marker passing each round (L541) makes it {seat.order}th")
            self.check_poses(game, p.start)
            if _gap([seat.pose.x, seat.pose.y, seat.pose.heading], p.x, p.y, p.heading):
                raise RuleBreak(turn.number, p.start, f"recorded at ({p.x:.3f}, {p.y:.3f}) heading {p.heading}, but the "
                                f"rules put it at ({seat.pose.x:.3f}, {seat.pose.y:.3f}) heading {seat.pose.heading:g}")
            if bool(p.out) != seat.out:
                raise RuleBreak(turn.number, p.start, f"recorded {'out' if p.out else 'in play'}, the rules say "
                                f"{'out' if seat.out else 'in play'}")
            if [list(a) for a in p.state.get("arrivals", [])] != seat.arrivals:
                raise RuleBreak(turn.number, p.start, f"recorded taking {p.state.get('arrivals')}, the rules give "
                                f"{seat.arrivals}")
        for k, v in turn.scores.items():
            if abs(game.score(k) - v) > 1e-9:
                raise RuleBreak(turn.number, k, f"recorded {v:g} cards, the rules give {game.score(k):g}")


def replay(game: Game, record: GameRecord) -> list[IllegalMove]:
    """The record's refused moves (at most the first: see the module docstring)."""
    dec = Recorded(record)
    try:
        for turn in record.turns:
            game.play_turn(dec)
            dec.finish(game, turn)
            if game.ended is not None and turn is not record.turns[-1]:
                raise RuleBreak(turn.number + 1, record.setup.starts[0], "the record goes on after the game ended "
                                f"({game.ended})")
        if record.ended == "work-limit":  # cut short by the engine's bound: no result to check
            return []
        if record.ended != (game.ended or "turn-limit"):
            raise RuleBreak(len(record.turns), record.setup.starts[0], f"the record says the game ended by "
                            f"{record.ended}, the rules by {game.ended or 'turn-limit'}")
        if tuple(record.winners) != game.winners():
            raise RuleBreak(len(record.turns), record.setup.starts[0], f"the record names winners {record.winners}, "
                            f"the rules {game.winners()}")
    except RuleBreak as exc:
        return [IllegalMove(exc.turn, exc.start, exc.reason)]
    return []
