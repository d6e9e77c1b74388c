"""Glider-Pit Gladiators 2.02: rules, movement, setup checks and launch-zone fairness on the hex pit."""
