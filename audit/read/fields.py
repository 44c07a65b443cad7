"""The manifest's fields, as docs/manifest.md lists them (every one reviewed as public: the manifest is
published before sale, docs/publish-and-reveal.md), and a manifest's fields outside that list.

A signed manifest holding any other field is refused at step 5, naming the field: whatever it holds
(a top prize's position, a book number) would be published with the manifest, and only the listed
fields have been shown to tell no outcome. `play` is one subtree (a style's parameters and the tiers'
wins, docs/styles/play.md); with --spec step 5 compares it with the spec. Written from docs/manifest.md
alone; tests/agreement/test_manifest.py holds it equal to the list `poolgen publish` refuses by.
"""

from __future__ import annotations

__all__ = ["FIELDS", "SUBTREES", "field_paths", "unlisted_fields"]

FIELDS = frozenset({
    "format", "created", "run_id",
    "tool.name", "tool.version", "tool.numpy", "tool.polars", "tool.cryptography",
    "tool.code.algorithm", "tool.code.sha256", "tool.code.files",
    "spec.file", "spec.sha256",
    "game.name", "game.number", "game.regulation", "game.rules", "game.kind", "game.tickets_per_book",
    "game.style",
    "drbg.algorithm", "drbg.streams[]",
    "seed_commitment.algorithm", "seed_commitment.value",
    # the seed ceremony (docs/ceremony.md): what it binds, the parties' public keys, hashes of their
    # contributions and signatures over them, and the drand round, published by drand itself
    "ceremony.format", "ceremony.algorithm", "ceremony.transcript_sha256", "ceremony.commitments_sha256",
    "ceremony.transcript.id", "ceremony.transcript.spec_sha256", "ceremony.transcript.code_sha256",
    "ceremony.transcript.game", "ceremony.transcript.pools[]", "ceremony.transcript.run_id",
    "ceremony.transcript.parties[].name", "ceremony.transcript.parties[].public_key",
    "ceremony.transcript.beacon.chain", "ceremony.transcript.beacon.round",
    "ceremony.transcript.beacon.reveals_close", "ceremony.transcript.book_key_check",
    "ceremony.commitments[].name", "ceremony.commitments[].commitment", "ceremony.commitments[].signature",
    "ceremony.round.round", "ceremony.round.signature", "ceremony.round.randomness",
    "pools[].id", "pools[].price_cents", "pools[].tickets", "pools[].winners", "pools[].prize_cost_cents",
    "pools[].odds_1_in", "pools[].payout_pct", "pools[].denomination_cents", "pools[].play_areas",
    "pools[].first_book", "pools[].books", "pools[].columns[]",
    "pools[].tiers[].id", "pools[].tiers[].prize_cents", "pools[].tiers[].count",
    "pools[].file.name", "pools[].file.bytes", "pools[].file.sha256",
    "pools[].merkle.algorithm", "pools[].merkle.root",
    "totals.pools", "totals.tickets", "totals.winners", "totals.prize_cost_cents", "totals.sales_cents",
    "totals.odds_1_in", "totals.payout_pct",
    "signature.signed", "signature.algorithm", "signature.key_fingerprint", "signature.file",
    # print-run deliverables (docs/validation.md): names, roles and hashes of files whose contents are
    # secret (an imaging or validation file's hash covers 80+ random bits a ticket), the key check values
    # of 256-bit validation keys, and the print settings
    "deliverables[].role", "deliverables[].pool", "deliverables[].name", "deliverables[].bytes",
    "deliverables[].sha256", "deliverables[].tier", "deliverables[].key_check",
    "print.barcode", "print.barcode_digits", "print.virn_digits", "print.high_tier_cents",
    "print.book_numbers", "print.book_key_check", "print.book_slots",
    "print.free_ticket_tiers[]",  # which tiers pay a free ticket: the spec's
    "print.art[].spots", "print.art[].symbols[].code", "print.art[].symbols[].art",  # the spec's art files
    # the game's pack parameters (docs/new-game.md section 2b): rules of the game, as the spec states them
    "print.packs.neighbours", "print.packs.min_winners", "print.packs.max_winners",
    "print.packs.min_prize_cents",
    "print.packs.caps[].tiers[]", "print.packs.caps[].at_most",
    "print.packs.spacing[].tiers[]", "print.packs.spacing[].min_distance",
    # an eInstant's block parameters (docs/new-game.md section 2b), as the spec states them
    "blocks.shares", "blocks.neighbours", "blocks.min_winners", "blocks.max_winners",
    "blocks.min_prize_times", "blocks.caps[].tiers[]", "blocks.caps[].at_most",
    "blocks.spacing[].tiers[]", "blocks.spacing[].min_distance",
})
SUBTREES = ("play.",)  # the published rules of play and prize structure: docs/styles/play.md


def field_paths(value: object, at: str = "") -> set[str]:
    """Every leaf's path in a JSON value: keys joined by '.', list items as '[]' (an empty list: 'x[]')."""
    if isinstance(value, dict):
        out: set[str] = set()
        for key, item in value.items():
            out |= field_paths(item, f"{at}.{key}" if at else str(key))
        return out
    if isinstance(value, list):
        return set().union(*(field_paths(item, f"{at}[]") for item in value)) if value else {at + "[]"}
    return {at}


def unlisted_fields(doc: dict[str, object]) -> list[str]:
    """The manifest's field paths that docs/manifest.md does not list, sorted."""
    return sorted(f for f in field_paths(doc) - FIELDS if not f.startswith(SUBTREES))
