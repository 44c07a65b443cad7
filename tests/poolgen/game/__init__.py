"""poolgen/game: what the game model says of its areas (their spots)."""
