"""Gravstrike's rules: motion, lengths and rams, the travel planner (frontier and scalar
searches, configuration space, bounds, reach proofs), targeting, scoring and turns."""
