"""The `match_n` area style (docs/styles/match_n.md): the style (`style`) and how a ticket without a
win in the area is drawn so that one spot says nothing of winning (`decoys`)."""
