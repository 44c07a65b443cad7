"""What a run and a spec claim, read at the audit's input boundary: bounded readers (limits), the
manifest and its signature, and the game's spec."""
