"""The `lines` area style (docs/styles/lines.md): the style (`style`) and the placements of the
line-making symbols it draws from (`placements`)."""
