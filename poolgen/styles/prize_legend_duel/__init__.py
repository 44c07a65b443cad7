"""The `prize_legend_duel` eInstant style (docs/styles/prize_legend_duel.md): its parameters
(`params`) and the style itself (`style`: decompositions of a prize, lay out, check)."""
