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

from validators.season import Event, Finding, Placing, ScoringRefusal, Season, SeasonScoring

#: "Place / Placement Points: First 5, Second 4, Third 3, Fourth 2, Fifth or Worse 1".
PLACEMENT_POINTS = (5, 4, 3, 2)
WORSE_POINTS = 1
#: The book's deck-evolution formats ("Deck Evolution in Season Play").
DECK_FORMATS = ("strict", "unlimited")
#: Strict format: "From one event to the next, only one tactic veteran card and one turbine
#: veteran card can be swapped into the deck." - a deck gains at most two veteran cards.
STRICT_VETERANS_IN = 2
#: "... only two non-veteran tactic cards and two non-veteran turbine cards can be swapped into
#: the deck." - a deck sheds at most four veteran cards.
STRICT_NON_VETERANS_IN = 4
#: "A player's fixtures can't be changed during a series at all." - of a deck's three fixtures
#: ("three fixtures, 20 tactic cards, and 20 turbine cards"), those that are veteran cards stay.
FIXTURES = 3


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

    def event_advice(self, season: Season, played: Sequence[tuple[Event, Any]]) -> list[Finding]:
        """The events' veteran-card limits ("Event parameters include ... the limit on veteran
        cards"; "If no limit is specified, players should assume that no veteran cards are
        allowed.") as played: under the strict format, consecutive events' limits weighed against
        what a deck may change between them (:func:`strict_veteran_problems`); under the
        unlimited one each event's limit stands alone ("as long as that event's restrictions
        (e.g., how many veteran cards are permitted) are observed")."""
        if season.deck_evolution != "strict":
            return []
        limits = [(event, int(arena.scenario.veteran_limit)) for event, arena in played]
        out = []
        for event, message in strict_veteran_problems(limits):
            ptr = (f"{event.pointer}/scenario/veteran_limit" if "veteran_limit" in event.scenario
                   else f"{event.pointer}/arena")
            out.append(Finding("warning", season.problem(ptr, message)))
        return out


def strict_veteran_problems(limits: Sequence[tuple[Event, int]]) -> list[tuple[Event, str]]:
    """Events whose veteran-card limit the strict deck evolution format cannot meet, by the
    book's "Deck Evolution in Season Play": between events a deck swaps in at most one tactic
    and one turbine veteran card (:data:`STRICT_VETERANS_IN`) and at most four non-veteran
    cards (:data:`STRICT_NON_VETERANS_IN`), and never changes its fixtures.  A deck that used
    every allowance (the most veteran cards, the first event's fixtures among them) is followed:

    * a limit above what such a deck can reach (its previous count + 2): the rest goes unused;
    * a limit below what it can shed to (its previous count - 4, never below the veteran
      fixtures it began with): a deck legal at the previous event cannot be made legal.
    """
    out: list[tuple[Event, str]] = []
    if not limits:
        return out
    first, held = limits[0]
    fixtures = min(FIXTURES, held)
    previous = first
    for event, limit in limits[1:]:
        reach = held + STRICT_VETERANS_IN
        floor = max(fixtures, held - STRICT_NON_VETERANS_IN)
        if limit > reach:
            out.append((event, f"event {event.name!r} allows {limit} veteran cards, but under the strict format a "
                               f"deck that held {held} at {previous.name!r} can swap in only one tactic and one "
                               f"turbine veteran card (\"From one event to the next, only one tactic veteran card "
                               f"and one turbine veteran card can be swapped into the deck.\"): at most {reach}, so "
                               f"{limit - reach} of the limit cannot be used"))
        elif limit < floor:
            why = (f"its {fixtures} veteran fixture(s) never change (\"A player's fixtures can't be changed during a "
                   "series at all.\")" if floor == fixtures else
                   "\"only two non-veteran tactic cards and two non-veteran turbine cards can be swapped into the "
                   "deck\"")
            out.append((event, f"event {event.name!r} allows {limit} veteran card(s), but under the strict format a "
                               f"deck that held {held} at {previous.name!r} can get down to {floor} at the fewest: "
                               f"{why}"))
        held = min(limit, reach)
        previous = event
    return out


SCORING = GravstrikeSeason()
