"""Per-game arena models (one module per game)."""
