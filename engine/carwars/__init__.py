"""Car Wars sixth edition (``system: car-wars-6e``): movement rules, collision geometry, the
travel planner, sightlines with cover, setup checks and fairness metrics.

Modules: :mod:`~engine.carwars.rules` (speeds, maneuvers, driving-roll dice),
:mod:`~engine.carwars.motion` (the car, the turning key, one movement point),
:mod:`~engine.carwars.geometry` (collisions, terrain and hazard dice),
:mod:`~engine.carwars.planner` / :mod:`~engine.carwars.reach` (travel, heat maps),
:mod:`~engine.carwars.sight` (sightlines, cover, range), :mod:`~engine.carwars.checks` (setup
checks) and :mod:`~engine.carwars.fairness` (fairness metrics).
"""

from engine.carwars.checks import SETUP_CHECKS, setup_checks, start_key, start_keys
from engine.carwars.fairness import fairness_checks, travel_table
from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.issues import Issue
from engine.carwars.motion import Pose
from engine.carwars.planner import Planner, plan, plan_many
from engine.carwars.reach import reach
from engine.carwars.rules import Maneuver, generate_maneuvers, generate_speed_changes
from engine.carwars.sight import line_of_sight
from engine.carwars.travel import Goal, PoseSource, SearchLimits, StartSource, TravelResult

__all__ = [
    "SETUP_CHECKS", "CarWarsGeometry", "Goal", "Issue", "Maneuver", "Planner", "Pose", "PoseSource", "SearchLimits",
    "StartSource", "TravelResult", "fairness_checks", "generate_maneuvers", "generate_speed_changes", "line_of_sight",
    "plan", "plan_many", "reach", "setup_checks", "start_key", "start_keys", "travel_table",
]
