"""The `area_match` eInstant style (docs/styles/area_match.md): its parameters (`params`), the tables
its drawing uses (`tables`, `decompositions`), and the style itself (`style`: lay out, check)."""
