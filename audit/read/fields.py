"""The manifest's fields, as docs/manifest.md lists them (every one reviewed as public: the manifest is
published before sale, docs/publish-and-reveal.md), and a manifest's fields outside that list.

A signed manifest holding any other field is refused at step 5, naming the field: whatever it holds
(a top prize's position, a book number) would be published with the manifest, and only the listed
fields have been shown to tell no outcome. `play` is one subtree (a style's parameters and the tiers'
wins, docs/styles/play.md); with --spec step 5 compares it with the spec. Written from docs/manifest.md
alone; tests/agreement/test_manifest.py holds it equal to the list `poolgen publish` refuses by.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from audit.read.codehash import CODE_HASH, CODE_HASH_V1
from audit.read.game_number import barcode_digits, barcode_rule
from audit.read.specs.entry_keys import ENTRY_KEYS, SYMBOL_KEYS

__all__ = ["FIELDS", "SUBTREES", "field_paths", "fixed_values", "play_fields", "unlisted_fields"]

FIELDS = frozenset({
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


DRBG = "HKDF-SHA256 -> ChaCha20 keystream (poolgen/drbg/v1)"  # docs/randomness.md, section 2
BARCODE = barcode_rule(0)  # a game numbered 0..999 (audit/read/game_number.py)
KEYED_BOOKS = ("a permutation of the order's book slots under a book key: slot s is the rank of "
               'HMAC-SHA256(key, "poolgen/books/v1" || lp(rules) || u64(s)) among the slots\' tags')
CREATED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
COMMITMENT = 'SHA-256("poolgen/seed-commitment/v1" || seed)'  # docs/manifest.md, `seed_commitment`
HEX64 = "64 lower-case hex digits"
FILES = "a whole number of files, at least 1"


def _utc_time(value: object) -> bool:
    """`value` is a real UTC time written YYYY-MM-DDTHH:MM:SSZ (not 2026-13-07T99:17:31Z)."""
    if not isinstance(value, str) or not CREATED.fullmatch(value):
        return False
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return False
    return True


def _hex64(value: object) -> object:
    """HEX64 if `value` is 64 lower-case hex digits, else the value (a hash field holds nothing else)."""
    return HEX64 if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) else value


PRINT_SETTINGS = {"print.virn_digits": "a whole number, 9 to 18",  # docs/validation.md, sections 2 and 3
                  "print.high_tier_cents": "a whole number of cents, at least 1",
                  "print.free_ticket_tiers": "ids of prize tiers of the manifest's pools, each once"}


def _whole(value: object, lo: int, hi: int | None = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value \
        and (hi is None or value <= hi)


def _print_settings(printed: dict[str, Any], pools: list[Any]) -> dict[str, object]:
    """PRINT_SETTINGS' texts for the settings that are as they say, else the values (a manifest made
    before free_ticket_tiers was recorded has none: its validation records carry no FREE)."""
    digits, cents = printed.get("virn_digits"), printed.get("high_tier_cents")
    free = printed.get("free_ticket_tiers", [])
    paying = {t.get("id") for p in pools if isinstance(p, dict) for t in p.get("tiers", [])
              if isinstance(t, dict) and t.get("prize_cents") != 0}
    listed = isinstance(free, list) and len(set(map(str, free))) == len(free) \
        and all(isinstance(t, str) and t in paying for t in free)
    texts = list(PRINT_SETTINGS.values())
    return {"print.virn_digits": texts[0] if _whole(digits, 9, 18) else digits,
            "print.high_tier_cents": texts[1] if _whole(cents, 1) else cents,
            "print.free_ticket_tiers": texts[2] if listed else free}


def fixed_values(doc: dict[str, Any]) -> list[str]:
    """Fields whose value the contract fixes but that hold another (a free text there would be published
    with the manifest): `created` a UTC time to the second, the signature's algorithm and file, the
    DRBG, seed-commitment, code-hash (v2, or v1 in an older run) and barcode descriptions, the book
    numbering's, the seed commitment and code hash 64 lower-case hex digits, the code's file count a
    whole number, and `drbg.streams` exactly every label the run used, in the order poolgen lists them
    (docs/randomness.md, section 2)."""
    rules, pools = doc["game"].get("rules"), [p.get("id") for p in doc["pools"]]
    want: dict[str, object] = {"created": "a UTC time YYYY-MM-DDTHH:MM:SSZ", "drbg.algorithm": DRBG}
    created = doc.get("created")
    got: dict[str, object] = {"created": want["created"] if _utc_time(created) else created,
                              "drbg.algorithm": (doc.get("drbg") or {}).get("algorithm")}
    streams = [f"poolgen/v1/{rules}/{p}/{x}" for p in pools for x in ("order", "layout", "salt")]
    printed = doc.get("print")
    if isinstance(printed, dict):
        keyed = "book_key_check" in printed
        streams += ([] if keyed else [f"poolgen/v1/{rules}/order/books"]) + (
            [f"poolgen/v1/{rules}/order/split"] if "split" in printed else []) + [
            f"poolgen/v1/{rules}/{p}/virn" for p in pools]
        books = KEYED_BOOKS if keyed else ("a permutation of the order's book slots from the stream "
                                           f"poolgen/v1/{rules}/order/books")
        number = doc["game"].get("number")
        want |= {"print.barcode": barcode_rule(number), "print.barcode_digits": barcode_digits(number),
                 "print.book_numbers": books}
        got |= {k: printed.get(k.split(".")[1]) for k in ("print.barcode", "print.barcode_digits",
                                                             "print.book_numbers")}
        want, got = want | PRINT_SETTINGS, got | _print_settings(printed, doc["pools"])
    want["drbg.streams"], got["drbg.streams"] = streams, (doc.get("drbg") or {}).get("streams")
    if doc["signature"].get("signed") is True:
        want |= {"signature.algorithm": "Ed25519", "signature.file": "manifest.sig"}
        got |= {k: doc["signature"].get(k.split(".")[1]) for k in ("signature.algorithm", "signature.file")}
    commitment = doc.get("seed_commitment") or {}
    want |= {"seed_commitment.algorithm": COMMITMENT, "seed_commitment.value": HEX64}
    got |= {"seed_commitment.algorithm": commitment.get("algorithm"),
            "seed_commitment.value": _hex64(commitment.get("value"))}
    code = (doc.get("tool") or {}).get("code")
    if isinstance(code, dict):
        files = code.get("files")
        whole = isinstance(files, int) and not isinstance(files, bool) and files >= 1
        algorithm = code.get("algorithm")  # v1 stays good for the runs made with it (docs/provenance.md)
        want |= {"tool.code.algorithm": CODE_HASH, "tool.code.sha256": HEX64, "tool.code.files": FILES}
        got |= {"tool.code.algorithm": CODE_HASH if algorithm == CODE_HASH_V1 else algorithm,
                "tool.code.sha256": _hex64(code.get("sha256")),
                "tool.code.files": FILES if whole else files}
    return [f"{k} {str(got[k])[:80]!r}, not {str(v)[:160]!r}" for k, v in want.items() if got[k] != v]


def play_fields(doc: dict[str, Any]) -> list[str]:
    """Keys of a printed run's `play` entry (a play of areas) that no contract gives it, spec or not:
    beside `max_wins`, `areas` and `tiers`; in an area, beside `id`, `style` and its style's entry keys
    (docs/styles/<style>.md, section 3; a style ENTRY_KEYS does not know is not judged); in a symbol of
    an area's list, beside `code`, `how`, `by` and `cents`; in a tier, beside `id` and `wins`; in a
    win, beside `area`, `how`, `by`, `prize`, `prize_cents` and `shows` (the prizes a win-all win pins,
    docs/styles/key_number_match.md section 2: the spec's). The entry is published with the
    manifest: whatever else it held could tell where prizes are."""
    play = doc.get("play")
    if isinstance(play, dict) and "style" in play:  # an eInstant's style: its contract's parameters
        return _ticket_style_fields(play)
    if not isinstance(play, dict):
        return []
    out = [f"play.{k}" for k in sorted(set(play) - {"max_wins", "areas", "tiers"})]
    for i, area in enumerate(a for a in play.get("areas", []) if isinstance(a, dict)):
        keys = ENTRY_KEYS.get(str(area.get("style")))
        if keys is None:
            continue
        out += [f"play.areas[{i}].{k}" for k in sorted(set(area) - keys - {"id", "style"})]
        for name, items in sorted(area.items()):
            listed = items if isinstance(items, list) else []
            symbols = [s for s in listed if isinstance(s, dict) and "code" in s]
            out += [f"play.areas[{i}].{name}[].{k}" for s in symbols for k in sorted(set(s) - SYMBOL_KEYS)]
    for tier in (t for t in play.get("tiers", []) if isinstance(t, dict)):
        out += [f"play.tiers[].{k}" for k in sorted(set(tier) - {"id", "wins"})]
        for win in (w for w in tier.get("wins", []) if isinstance(w, dict)):
            out += [f"play.tiers[].wins[].{k}" for k in sorted(set(win) - WIN_KEYS)]
    return sorted(set(out))


WIN_KEYS = frozenset({"area", "how", "by", "prize", "prize_cents", "shows"})


# An eInstant style's `play` entry, key by key, as its contract gives it (docs/styles/area_match.md,
# section 1; docs/styles/prize_legend_duel.md, section 2): (the entry's keys, {a key: the keys of its
# object or of each object of its list}). A style not listed has no engine: step 4 says so.
TICKET_STYLE_KEYS: dict[str, tuple[frozenset[str], dict[str, frozenset[str]]]] = {
    "area_match": (frozenset({"style", "spots", "symbols", "wild", "bonus_key", "match_pays", "bonus_games",
                              "amount_multipliers"}),
                   {"match_pays": frozenset({"count", "times"}),
                    "bonus_games": frozenset({"code", "name", "symbol", "chances", "grid"})}),
    "prize_legend_duel": (frozenset({"style", "spots", "losses", "play_symbols", "multiplier_symbol",
                                     "legend", "max_decompositions", "first_spot_loss",
                                     "loser_max_multipliers"}),
                          {"play_symbols": frozenset({"code", "symbol", "beats"}),
                           "multiplier_symbol": frozenset({"code", "symbol"})}),
}


def _ticket_style_fields(play: dict[str, Any]) -> list[str]:
    """Keys of an eInstant style's `play` entry that its contract does not give it, named as
    `play.<key>`, `play.<key>[].<key>` (in a list's objects) or `play.<key>.<key>`."""
    known = TICKET_STYLE_KEYS.get(str(play.get("style")))
    if known is None:
        return []
    keys, inner = known
    out = [f"play.{k}" for k in set(play) - keys]
    for key, allowed in inner.items():
        value = play.get(key)
        items, at = (value, f"play.{key}[]") if isinstance(value, list) else ([value], f"play.{key}")
        out += [f"{at}.{k}" for item in items if isinstance(item, dict) for k in set(item) - allowed]
    return sorted(set(out))
