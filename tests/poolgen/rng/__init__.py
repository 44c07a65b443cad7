"""poolgen/rng: the DRBG (drbg.py) and the sampling on it (sampling.py), pinned by tests/vectors."""
