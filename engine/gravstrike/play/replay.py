"""Replaying a game record through the rules (not the policies): every recorded decision is
played again by :class:`engine.gravstrike.play.game.Game` and what the rules make of it is
compared with what the record says.

Checked: each speed within the Speed Delta and the top speed; the initiative order by absolute
speed; each length's maneuver a legal one, paid from the turn's icon budget; as many lengths
as the speed (less what rams took); every recorded pose where the motion model (the length, the
rams and disentangling, the fields' pushes) puts it - so a turbine never ends a length inside a
wall nor jumps; every shot at a standing target in sight; the scores.  The replay stops at the
first move the rules refuse (what follows it depends on it) and names its turn and seat.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.gravstrike.length import TurnState
from engine.gravstrike.motion import IllegalManeuver, Maneuver, Pose
from engine.gravstrike.play.game import POSE_TOLERANCE, Game, RuleBreak
from engine.play import GameRecord, IllegalMove, PieceState, Turn


def _pose_gap(a: Pose, x: float, y: float, heading: float | None) -> bool:
    dh = 0.0 if heading is None else abs((a.heading - heading + 180.0) % 360.0 - 180.0)
    return abs(a.x - x) > POSE_TOLERANCE or abs(a.y - y) > POSE_TOLERANCE or dh > 1e-6


class Recorded:
    """The record's decisions, played as :class:`engine.gravstrike.play.game.Decisions`."""

    def __init__(self, record: GameRecord) -> None:
        self.turns = {t.number: t for t in record.turns}

    def piece(self, game: Game, start: int) -> PieceState:
        turn = self.turns.get(game.turn)
        if turn is None:
            raise RuleBreak(game.turn, start, f"the record has no turn {game.turn}")
        for p in turn.pieces:
            if p.start == start:
                return p
        raise RuleBreak(game.turn, start, f"turn {game.turn} of the record has no turbine {start}")

    def _state(self, game: Game, start: int) -> Mapping[str, Any]:
        return self.piece(game, start).state

    def speed(self, game: Game, start: int) -> int:
        return int(self._state(game, start).get("speed", 0))

    def initiative(self, game: Game, speeds: Mapping[int, int]) -> tuple[int, ...]:
        tokens = {k: int(self._state(game, k).get("initiative", 0)) for k in speeds}
        order = tuple(sorted(speeds, key=lambda k: tokens[k]))
        if sorted(tokens.values()) != list(range(1, len(speeds) + 1)):
            raise RuleBreak(game.turn, order[0], f"initiative tokens {sorted(tokens.values())} are not 1..{len(speeds)}")
        for a, b in zip(order, order[1:]):
            if abs(speeds[a]) < abs(speeds[b]):
                raise RuleBreak(game.turn, a, f"took initiative token {tokens[a]} at speed {speeds[a]} before "
                                f"speed {speeds[b]} (\"Distributing Initiative Tokens\": highest absolute speed first)")
        return order

    def _moves(self, game: Game, start: int) -> list[str]:
        return [str(m) for m in self._state(game, start).get("moves", [])]

    def _check_poses(self, game: Game, start: int) -> None:
        """The pose after every length moved so far is the recorded one."""
        seat = game.seats[start]
        recorded = self._state(game, start).get("poses", [])
        for i, (mine, theirs) in enumerate(zip(seat.poses, recorded), start=1):
            if _pose_gap(Pose(*mine), float(theirs[0]), float(theirs[1]), float(theirs[2])):
                raise RuleBreak(game.turn, start, f"length {i} is recorded ending at ({theirs[0]:.3f}, {theirs[1]:.3f}) "
                                f"heading {theirs[2]:g}, but the motion model puts it at ({mine[0]:.3f}, {mine[1]:.3f}) "
                                f"heading {mine[2]:g}")

    def pivot(self, game: Game, start: int, state: TurnState) -> tuple[int, float] | None:
        moves = self._moves(game, start)
        if moves and moves[0].startswith("pivot"):
            words = moves[0].split()
            try:
                return int(words[4]), float(words[1])
            except (IndexError, ValueError):
                raise RuleBreak(game.turn, start, f"not a pivot: {moves[0]!r}") from None
        if moves:
            raise RuleBreak(game.turn, start, f"moved {len(moves)} lengths at speed 0")
        return None

    def length(self, game: Game, start: int, state: TurnState) -> Maneuver:
        self._check_poses(game, start)
        moves = self._moves(game, start)
        index = len(game.seats[start].moves)
        if index >= len(moves):
            raise RuleBreak(game.turn, start, f"recorded {len(moves)} lengths, but at speed {state.speed} with "
                            f"{state.lengths_left} left it must move {index + state.lengths_left} (\"The Maneuver Phase\")")
        try:
            return Maneuver.parse(moves[index])
        except IllegalManeuver as exc:
            raise RuleBreak(game.turn, start, f"length {index + 1}: {exc}") from None

    def shot(self, game: Game, start: int) -> str | None:
        turn = self.turns[game.turn]
        for e in turn.events:
            if e.kind == "shot" and e.start == start:
                return e.other
        return None

    def hit(self, game: Game, start: int, target: str, tn: int) -> bool:
        turn = self.turns[game.turn]
        return any(e.kind == "shot" and e.start == start and e.detail.startswith("hit") for e in turn.events)

    def finish(self, game: Game, turn: Turn) -> None:
        """After the turn: every turbine moved all its recorded lengths, ends where the record
        says, and the scores agree."""
        for p in turn.pieces:
            seat = game.seats.get(p.start)
            if seat is None:
                raise RuleBreak(turn.number, p.start, f"turbine {p.start} does not play")
            moves = [str(m) for m in p.state.get("moves", [])]
            if len(seat.moves) < len(moves):
                raise RuleBreak(turn.number, p.start, f"recorded {len(moves)} lengths, but the rules end its move "
                                f"after {len(seat.moves)}")
            self._check_poses(game, p.start)
            if _pose_gap(seat.pose, p.x, p.y, p.heading):
                raise RuleBreak(turn.number, p.start, f"recorded at ({p.x:.3f}, {p.y:.3f}) heading {p.heading}, but the "
                                f"rules put it at ({seat.pose.x:.3f}, {seat.pose.y:.3f}) heading {seat.pose.heading:g}")
        for k, v in turn.scores.items():
            mine = game.score.pilot(k).vp
            if abs(mine - v) > 1e-9:
                raise RuleBreak(turn.number, k, f"recorded {v:g} VP, the rules give {mine}")


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
    except RuleBreak as exc:
        return [IllegalMove(exc.turn, exc.start, exc.reason)]
    return []
