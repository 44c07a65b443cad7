"""poolgen and audit held to one definition and to each other: the Merkle tree of docs/merkle.md,
the manifest of docs/manifest.md, the code hash of docs/provenance.md."""
