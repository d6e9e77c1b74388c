"""The Mothership card game: the book's figures and the grid rules as small functions (the seed
text is the designer's informal rules; "L" = its line).

>>> fire_range((0, 0), (1, 1)), line_of_fire((0, 0), (1, 1)), line_of_fire((0, 0), (0, 3))
(2, [], [(0, 1), (0, 2)])
"""

from __future__ import annotations

from engine.grids import Square, square_distance, square_line, square_neighbours

#: "The Battlefield (or BF) is 3 x 5 squares." (L1)
BATTLEFIELD_SIZE = (3, 5)
#: "The 3 squares of the Mothership share a common of 5 HP." (L7)
MOTHERSHIP_SQUARES = 3
MOTHERSHIP_HP = 5
#: "Your own Units will be constructed only in the three squares near your own Mothership." (L14)
BUILD_SQUARES = 3
#: "Player has at his disposal 3 construction points" (L13)
CONSTRUCTION_POINTS = 3
#: "Every player has at his disposal in his round 6 APs (Action Point), of which a maximum of 5
#: are utilizable by 1 single Unit." (L53)
AP_PER_ROUND = 6
AP_PER_UNIT = 5
#: "For every square in which the Units move, they spend 1 AP." (L56)
AP_PER_SQUARE = 1
#: "They can move through ally Units, but if they are on the same plane those must sidestep
#: paying 1 AP" (L62)
SIDESTEP_AP = 1
#: "two ally Units (even teamed Units) can exchange their mutual positions paying a total of 2
#: AP" (L63)
SWITCH_AP = 2
#: "Maximum Units teaming value for a square is, as seen, 3." (L49)
MAX_TEAM_VALUE = 3
#: Two players: "your Mothership" and the "enemy Mothership" on the two short sides (L6, L8).
PLAYERS = (1, 2)


def move_neighbours(s: Square) -> tuple[Square, ...]:
    """Squares a Unit moves to for 1 AP: the orthogonal neighbours.  The book never allows a
    diagonal step and counts "Diagonal lines of fire ... 2 squares away" (L84)."""
    return square_neighbours(s)


def near(a: Square, b: Square) -> bool:
    """A "near square" (CC and FT attacks, L79, L83): orthogonally adjacent."""
    return square_distance(a, b) == 1


def fire_range(a: Square, b: Square) -> int:
    """Range of a ranged attack: squares counted orthogonally, "Diagonal lines of fire are
    considered 2 squares away." (L84)"""
    return square_distance(a, b)


def line_of_fire(a: Square, b: Square) -> list[Square]:
    """Squares that can obstruct a ranged attack from ``a`` to ``b``: "The center of the square
    with the Unit who attacks must connect with the center of the square with the Unit attacked
    without any obstructions. Example: a diagonal R2 won't have any obstructions." (L86) — so
    squares the line only touches at a corner do not obstruct."""
    return square_line(a, b)[1:-1]
