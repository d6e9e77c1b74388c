"""Per-game arena models (one module per game; shared shapes live in schema.games.gravstrike.model)."""
