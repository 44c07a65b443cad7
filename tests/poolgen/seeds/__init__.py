"""poolgen/seeds: seed files and the commit-reveal ceremony."""
