"""poolgen/run: building pools, generating and signing runs, Merkle roots, proofs, publishing."""
