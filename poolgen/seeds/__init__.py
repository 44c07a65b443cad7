"""Where a run's seed comes from: a fresh seed file (`seed`), or a commit-reveal ceremony in which
no party chooses it (`ceremony`, docs/ceremony.md)."""
