"""A run: pools built from a game and a seed (`build`), written with their manifest into a run folder
(`generate`), with Merkle roots (`merkle`), the code hash (`provenance`), ticket proofs (`prove`),
regeneration for verify's step 7 (`reproduce`), the public bundle (`publish`), and a run folder read
back (`folder`)."""
