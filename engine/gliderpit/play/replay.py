"""Replaying a Glider-Pit record through the rules (not the policies): every recorded decision
is played again by :class:`engine.gliderpit.play.game.Game`, which rolls the same dice from the
setup's seed, and what the rules make of it is compared with what the record says.

Checked: each launch in a hex of the glider's own zone, facing away from the wall, diving 0-3
levels (L55-L59); each Movement Phase's maneuvers legal one after another at the glider's speed
and altitude (:func:`engine.gliderpit.rules.maneuvers`: costs, Turn conditions, no Climb to
LEDGE, nothing to FLOOR) and spending the allowance exactly (L107); each dive after no climb,
through no other glider's level (L133); each air current marker on a row carrying its roll,
two of each kind (L195-L199); then every glider's hex, facing, speed, altitude and whether it is
out where the rules put them (walls, Spins, deceleration, stacking, currents as rolled) and the
scores.  The replay stops at the first move the rules refuse and names its turn and seat.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.gliderpit.play.game import Game, RuleBreak
from engine.gliderpit.rules import PhaseState
from engine.grids import Axial
from engine.play import GameRecord, IllegalMove, PieceState, Turn


class Recorded:
    """The record's decisions, played as :class:`engine.gliderpit.play.game.Decisions`."""

    def __init__(self, record: GameRecord) -> None:
        self.turns = {t.number: t for t in record.turns}
        self.placed: dict[int, int] = {}

    def piece(self, game: Game, start: int) -> PieceState:
        turn = self.turns.get(game.turn)
        if turn is None:
            raise RuleBreak(game.turn, start, f"the record has no turn {game.turn}")
        for p in turn.pieces:
            if p.start == start:
                return p
        raise RuleBreak(game.turn, start, f"turn {game.turn} of the record has no glider {start}")

    def _state(self, game: Game, start: int) -> Mapping[str, Any]:
        return self.piece(game, start).state

    def launch(self, game: Game, start: int) -> tuple[Axial, int, int]:
        got = self._state(game, start).get("launch")
        if not isinstance(got, list) or len(got) != 4:
            raise RuleBreak(game.turn, start, "the record has no launch for this glider (L53)")
        q, r, facing, dive = (int(v) for v in got)
        return (q, r), facing, dive

    def maneuver(self, game: Game, start: int, state: PhaseState) -> str:
        moves = [str(m) for m in self._state(game, start).get("moves", [])]
        i = len(game.gliders[start].moves)
        if i >= len(moves):
            raise RuleBreak(game.turn, start, f"recorded {len(moves)} maneuvers, but {state.mp} of the allowance "
                            f"{state.start_speed} are left: it is spent by exact count (L107)")
        return moves[i]

    def glide(self, game: Game, start: int) -> int:
        got = self._state(game, start).get("glide")
        if got is None:
            raise RuleBreak(game.turn, start, "the record skips a Glide Phase the rules play (L131)")
        return int(got)

    def place(self, game: Game, start: int, total: int, left: Mapping[str, int]) -> tuple[str | None, str]:
        placed = self._state(game, start).get("currents", [])
        i = self.placed.get(game.turn, 0)
        self.placed[game.turn] = i + 1
        if i >= len(placed):
            raise RuleBreak(game.turn, start, f"the record places {len(placed)} air current markers, the rules roll 4 (L195-L199)")
        rec_total, row, kind = placed[i]
        if int(rec_total) != total:
            raise RuleBreak(game.turn, start, f"air current roll {i + 1} is recorded as {rec_total}, the dice show {total}")
        return (None if row is None else str(row)), str(kind)


def _check(game: Game, turn: Turn) -> None:
    for p in turn.pieces:
        g = game.gliders.get(p.start)
        if g is None:
            raise RuleBreak(turn.number, p.start, f"glider {p.start} does not play")
        st = p.state
        mine = (list(g.hex), g.facing, g.speed, g.altitude, g.out)
        theirs = ([st.get("q"), st.get("r")], st.get("facing"), st.get("speed"), st.get("altitude"), p.out)
        if mine != theirs:
            raise RuleBreak(turn.number, p.start, f"recorded at hex {theirs[0]} facing {theirs[1]}, speed {theirs[2]}, "
                            f"altitude {theirs[3]}{' (out)' if p.out else ''}, but the rules put it at hex {mine[0]} facing "
                            f"{mine[1]}, speed {mine[2]}, altitude {mine[3]}{' (out)' if g.out else ''}")
        if list(g.moves) != [str(m) for m in st.get("moves", [])]:
            raise RuleBreak(turn.number, p.start, f"recorded maneuvers {st.get('moves')}, the rules stop after {g.moves}")
        if list(g.rolls) != list(st.get("rolls", [])):
            raise RuleBreak(turn.number, p.start, f"recorded dice {st.get('rolls')}, the seed rolls {g.rolls}")
    scores = game.scores()
    for k, v in turn.scores.items():
        if abs(scores[k] - v) > 1e-9:
            raise RuleBreak(turn.number, k, f"recorded score {v:g}, the rules give {scores[k]:g}")


def replay(game: Game, record: GameRecord) -> list[IllegalMove]:
    """The record's refused moves (at most the first: see the module docstring)."""
    dec = Recorded(record)
    try:
        for turn in record.turns:
            if game.ended is not None:
                raise RuleBreak(turn.number, record.setup.starts[0], f"the record goes on after the game ended ({game.ended})")
            game.play_turn(dec)
            _check(game, turn)
    except RuleBreak as exc:
        return [IllegalMove(exc.turn, exc.start, exc.reason)]
    return []
