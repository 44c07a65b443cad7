"""audit/merkle: the auditor's Merkle tree alone (both sides against docs/merkle.md: tests/agreement)."""
