"""Glider-Pit Gladiators' rule for naming images in symmetry mode (Qt-free; the pit's editor's
:meth:`~editor.game.EditorGame.symmetry_rules`).

A row of the pit carries a 2d6 total (book: "The 19 rows of hexes on the mapsheet are
identified by number", a row is chosen by rolling 2d6).  When an operation carries a row onto
another line (a half turn, a mirror across the horizontal axis), the image row carries
**14 minus the total**: 2d6 is symmetric about 7, so the image total is exactly as likely as the
total, and the two rows split the totals between the halves of the pit as the new pit's rows
do (:data:`schema.games.gliderpit.DEFAULT_LABELS`).  A row an operation keeps on its own line
(a mirror across the vertical axis) keeps its total.  Launch zones keep their own Airspeed
Track; a new image zone takes the next free track (:func:`editor.games.grid_model.assign_zone`).

>>> RULES.label_image(3), RULES.label_image(7)
(11, 7)
"""

from __future__ import annotations

from editor.games.symmetry_rules import Rules

#: 2d6 totals run 2..12: ``SUM - total`` is as likely as ``total``.
SUM = 14


class PitRules(Rules):
    def label_image(self, label: int) -> int:
        return SUM - label


#: Declared by the Glider-Pit Gladiators ruleset (:attr:`schema.ruleset.Ruleset.symmetry`).
RULES = PitRules()
