"""audit/styles: each style's engine, on real pools of a game of the style and on play entries and
rows written by hand from its contract (docs/styles/<style>.md)."""
