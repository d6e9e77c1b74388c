"""Gravstrike's season scoring (the book's "Season Records" to "The Season's End"): placement
points 5/4/3/2/1 from each event's victory points at its end, tied players sharing a place and
the trailing places eliminated, times the event's (championship) multiplier; players ranked by
placement points, ties broken by the season's victory points.

Where the book is silent (docs/rules-decisions.md, "Gravstrike season play"), the season file's
``scoring`` options decide: ``first_place_tie`` (``share``: tied leaders all take first place;
``refuse``: such results are refused, since the first to 12 VP ends the game and wins) and
``absent_points`` (what a player who missed an event scores for it: 0 unless given).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from validators.season import Finding, Placing, ScoringRefusal, Season, SeasonScoring

#: "Place / Placement Points: First 5, Second 4, Third 3, Fourth 2, Fifth or Worse 1".
PLACEMENT_POINTS = (5, 4, 3, 2)
WORSE_POINTS = 1
#: The book's deck-evolution formats ("Deck Evolution in Season Play").
DECK_FORMATS = ("strict", "unlimited")


def placement_points(place: int) -> int:
    """Placement points of a place (1 = first).

    >>> [placement_points(p) for p in range(1, 7)]
    [5, 4, 3, 2, 1, 1]
    """
    return PLACEMENT_POINTS[place - 1] if place <= len(PLACEMENT_POINTS) else WORSE_POINTS


class GravstrikeSeason(SeasonScoring):
    """The book's season records."""

    options_schema: Mapping[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "first_place_tie": {"enum": ["share", "refuse"], "default": "share",
                                "description": "Players tied on the most VP: all take first place (share) or "
                                               "the results are refused (refuse)."},
            "absent_points": {"type": "integer", "minimum": 0, "maximum": 5, "default": 0,
                              "description": "Placement points of a player who did not play an event."},
        },
    }

    def place(self, results: Mapping[str, int], players: Sequence[str],
              options: Mapping[str, Any]) -> dict[str, Placing]:
        """Places by victory points, ties sharing the better place: "if players tie for a given
        place ..., all tied players score that many points and trailing placements are
        eliminated accordingly" (a tie for second in four: 5, 4, 4, 2)."""
        best = max(results.values())
        leaders = [p for p, vp in results.items() if vp == best]
        if len(leaders) > 1 and options.get("first_place_tie") == "refuse":
            raise ScoringRefusal(f"{', '.join(leaders)} tie for first place with {best} VP; the first to reach the "
                                 "VP to win ends the game, so one of them won it: correct the results, or set "
                                 "scoring: {first_place_tie: share}")
        out = {}
        for player in players:
            if player in results:
                place = 1 + sum(vp > results[player] for vp in results.values())
                out[player] = Placing(place, placement_points(place))
            else:
                out[player] = Placing(None, int(options.get("absent_points", 0)))
        return out

    def rank_key(self, standing: Any) -> tuple[int, ...]:
        """"Ranked by placement points totals ... Ties are broken by the total number of victory
        points accumulated over the course of the season." """
        return (standing.placement_points, standing.victory_points)

    def advice(self, season: Season) -> list[Finding]:
        out = []
        if season.deck_evolution is None:
            out.append(Finding("info", season.problem("", "no deck_evolution given: the book's formats are strict "
                                                          "and unlimited")))
        elif season.deck_evolution not in DECK_FORMATS:
            out.append(Finding("warning", season.problem("/deck_evolution", f"{season.deck_evolution!r} is not one of "
                                                                            "the book's formats, strict and unlimited")))
        if len(season.events) > 1 and all(e.multiplier == 1 for e in season.events):
            last = season.events[-1]
            out.append(Finding("warning", season.problem(last.pointer, "no championship: the book makes the final "
                                                                       "event the championship, with its placement "
                                                                       "points doubled (multiplier: 2)")))
        return out


SCORING = GravstrikeSeason()
