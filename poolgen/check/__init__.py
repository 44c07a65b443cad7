"""`poolgen check`: every pool's figures computed from a game's tiers and reconciled with what its
regulation publishes, and every tier proven possible to lay out, before anything is generated.
`check_spec(game)` (poolgen/check/game.py) returns a `GameCheck` (poolgen/check/figures.py)."""
