"""poolgen/styles: each style's layouts, held against an evaluator written from its contract
(docs/styles/<style>.md) on a real game of the style."""
