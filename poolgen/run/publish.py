"""The public commitment bundle of a run: what is published before sale (docs/publish-and-reveal.md).

    BUNDLE/manifest.json        the run's signed manifest, byte for byte
    BUNDLE/manifest.sig         its Ed25519 signature
    BUNDLE/signing-key.pub.pem  the public key it verifies with (when given)
    BUNDLE/commitments.txt      the same commitments, for people: seed commitment, ceremony
                                commitments and transcript, spec and code hashes, pool roots
    BUNDLE/SHA256SUMS           SHA-256 of every other file (`sha256sum -c SHA256SUMS`)

Nothing in a bundle tells an outcome: the manifest is checked field by field against PUBLIC_FIELDS
(every field a manifest may hold, each reviewed: prize structure figures, hashes, roots, names,
versions), and a manifest holding any other field is refused rather than published. Pool files,
seeds and ceremony reveals are never copied.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from audit.errors import UnusableInput
from audit.read.limits import MAX_SIGNATURE_BYTES
from audit.read.manifest import signature_problem
from audit.read.runfiles import hash_run_file, read_run_bytes
from poolgen.errors import RunError
from poolgen.files.read import file_sha256, read_input
from poolgen.files.write import present, resolved, staged_folder, write_atomic
from poolgen.run.folder import RunFolder, open_run
from poolgen.run.manifest import MANIFEST, SIGNATURE
from poolgen.run.signing import PUBLIC_FILE, fingerprint, load_public_key

T = TypeVar("T")

# Every field path a manifest may hold ("[]" for any list item). Each is public: the published prize
# structure (per-pool counts are the order's counts divided evenly, spec.py), hashes and salted Merkle
# roots (nothing invertible), stream labels, names and versions.
PUBLIC_FIELDS = frozenset({
    "format", "created", "run_id",
    "tool.name", "tool.version", "tool.numpy", "tool.polars", "tool.cryptography",
    "tool.code.algorithm", "tool.code.sha256", "tool.code.files",
    "spec.file", "spec.sha256",
    "game.name", "game.number", "game.regulation", "game.rules", "game.kind", "game.tickets_per_book",
    "game.style", "game.currency",
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
    "ceremony.transcript.follows[].run_id", "ceremony.transcript.follows[].manifest_sha256",
    "ceremony.transcript.follows[].transcript_sha256", "ceremony.transcript.printed.number",
    "ceremony.transcript.printed.regulation",
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
    "print.split.rule", "print.split.order_tickets", "print.split.pool_tickets",  # docs/randomness.md 4b
    "print.split.tiers[].id", "print.split.tiers[].count",
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
# Whole subtrees reviewed as public: `play` (style-based runs, docs/styles/play.md) is the spec's areas
# and tier wins as the spec states them, the published prize structure and rules of play.
PUBLIC_SUBTREES = ("play.",)


def unreviewed_fields(doc: dict[str, Any]) -> list[str]:
    """The field paths of a manifest that are neither in PUBLIC_FIELDS nor under PUBLIC_SUBTREES."""
    return sorted(f for f in field_paths(doc) - PUBLIC_FIELDS if not f.startswith(PUBLIC_SUBTREES))


def field_paths(value: object, at: str = "") -> set[str]:
    """Every leaf's path in a JSON value: keys joined by '.', list items as '[]'."""
    if isinstance(value, dict):
        out: set[str] = set()
        for key, item in value.items():
            out |= field_paths(item, f"{at}.{key}" if at else str(key))
        return out
    if isinstance(value, list):
        return set().union(*(field_paths(item, f"{at}[]") for item in value)) if value else {at + "[]"}
    return {at}



def _checked(what: Callable[[], T]) -> T:
    """`what()`, its refusal at the run-file boundary (audit/read/runfiles.py) a RunError."""
    try:
        return what()
    except UnusableInput as exc:
        raise RunError(str(exc)) from None


def _summary(doc: dict[str, Any], key_fp: str | None) -> str:
    g, seed = doc["game"], doc["seed_commitment"]
    lines = [f"Public commitment of run {doc['run_id']} (created {doc['created']})",
             f"game: {g['name']} ({g['regulation']}), rules {g['rules']}",
             f"spec: {doc['spec']['file']} SHA-256 {doc['spec']['sha256']}"]
    code = doc.get("tool", {}).get("code")
    if isinstance(code, dict):
        lines.append(f"generator: poolgen {doc['tool'].get('version')}, code SHA-256 {code.get('sha256')}")
    lines.append(f"signed by key {doc['signature'].get('key_fingerprint')}"
                 + (" (signing-key.pub.pem)" if key_fp else ""))
    lines.append(f"seed commitment: {seed['value']}  ({seed['algorithm']})")
    ceremony = doc.get("ceremony")
    if isinstance(ceremony, dict):
        t = ceremony["transcript"]
        lines.append(f"seed ceremony {t['id']}: transcript SHA-256 {ceremony['transcript_sha256']}, drand "
                     f"round {ceremony['round']['round']} of chain {t['beacon']['chain']}")
        for p in ceremony["commitments"]:
            lines.append(f"  {p['name']}: commitment {p['commitment']}")
    for p in doc["pools"]:
        lines.append(f"pool {p['id']}: {p['tickets']:,} tickets, {p['winners']:,} winners, "
                     f"Merkle root {p['merkle']['root']}, file {p['file']['name']} "
                     f"SHA-256 {p['file']['sha256']}")
    t = doc["totals"]
    lines.append(f"totals: {t['pools']} pool(s), {t['tickets']:,} tickets, {t['winners']:,} winners, "
                 f"prize cost {t['prize_cost_cents']:,} cents, payout {t['payout_pct']}%")
    seed_option = "--ceremony FILE" if isinstance(ceremony, dict) else "--seed-file FILE"
    book_key = " --book-key FILE" if doc.get("print", {}).get("book_key_check") else ""
    lines.append("Once claims close: docs/publish-and-reveal.md (poolgen verify REVEAL --reveal --public-key "
                 f"signing-key.pub.pem --spec SPEC {seed_option}{book_key}).")
    return "\n".join(lines) + "\n"


def signer(run: Path, data: bytes, doc: dict[str, Any], public_key: Path, refusal: str) -> tuple[str, bytes]:
    """The fingerprint of `public_key` and the signature, once the signature of run folder `run` (its
    manifest `data`, parsed `doc`) verifies with the key and the manifest names it; else a RunError
    ending in `refusal`."""
    key = load_public_key(public_key)
    signature = _checked(lambda: read_run_bytes(run, SIGNATURE, "signature", MAX_SIGNATURE_BYTES))
    problem = signature_problem(data, signature, key)
    key_fp = fingerprint(key)
    if problem or key_fp != doc["signature"].get("key_fingerprint"):
        raise RunError(f"{run / SIGNATURE}: {problem or 'the manifest names another signer key'}; {refusal}")
    return key_fp, signature


def signed_by(folder: RunFolder, public_key: Path, refusal: str) -> str:
    """The signer key's fingerprint, once run folder `folder` is signed and its manifest's signature
    verifies with `public_key`, the key the manifest names (`signer`); else a RunError ending in
    `refusal`. The check of `imaging export --public-key` and `seal RUN --public-key`."""
    if folder.manifest["signature"].get("signed") is not True:
        raise RunError(f"{folder.path}: the run is unsigned: no key vouches for its manifest; {refusal}")
    return signer(folder.path, folder.manifest_bytes, folder.manifest, public_key, refusal)[0]


def publish(run: Path, out: Path, public_key: Path | None = None) -> list[str]:
    """Write the bundle of the run folder `run` into the new folder `out`; the names written.

    The run's signature is checked with `public_key` first: a run folder records only the signer's
    fingerprint, so without the key nothing is published."""
    run, out = Path(run), Path(out)
    folder = open_run(run)  # audit's boundary and parser: one line naming the manifest if not a run
    data, doc = folder.manifest_bytes, folder.manifest
    if doc["signature"].get("signed") is not True or not os.path.lexists(run / SIGNATURE):
        raise RunError(f"{run}: the run is unsigned; only a signed run can be published")
    if public_key is None:
        raise RunError(f"{run / SIGNATURE}: not checked: give the signer's public key with --public-key "
                       "(a run folder records only its fingerprint); not publishing")
    unknown = unreviewed_fields(doc)
    if unknown:
        raise RunError(f"{run / MANIFEST}: field {unknown[0]} is not known to be public; not publishing")
    key_fp, signature = signer(run, data, doc, public_key, "not publishing")
    key_pem = read_input(public_key, "public key", RunError)
    for pool in folder.parsed.pools:
        if not os.path.lexists(run / pool.file) or \
                _checked(lambda: hash_run_file(run, pool.file, "pool"))[1] != pool.file_sha256:  # noqa: B023
            raise RunError(f"{run / pool.file}: does not match the manifest; not publishing")
    if resolved(out).is_relative_to(run.resolve()):
        raise RunError(f"{out}: the bundle cannot go inside the run folder")
    if present(out):  # before staged_folder, whose refusal speaks of a run folder
        raise RunError(f"{out}: already exists; a bundle is never written over (give a new folder)")
    try:
        summary = _summary(doc, key_fp).encode("utf-8")
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise RunError(f"{run / MANIFEST}: not a manifest poolgen can summarise ({type(exc).__name__}: "
                       f"{str(exc)[:80]}); not publishing") from None
    names = [MANIFEST, SIGNATURE, PUBLIC_FILE]
    with staged_folder(out, mode=0o755) as staged:  # public, as everything in it
        write_atomic(staged / MANIFEST, data)
        write_atomic(staged / SIGNATURE, signature)
        write_atomic(staged / PUBLIC_FILE, key_pem)
        write_atomic(staged / "commitments.txt", summary)
        names.append("commitments.txt")
        sums = "".join(f"{file_sha256(staged / n)}  {n}\n" for n in names)
        write_atomic(staged / "SHA256SUMS", sums.encode("ascii"))
    return [*names, "SHA256SUMS"]
