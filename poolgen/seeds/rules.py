"""What every ceremony transcript keeps (docs/ceremony.md, "Refusals"), checked at `ceremony new`, which
makes one here, and again whenever a ceremony file is loaded: an operator can write a transcript by hand
and hash it again."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from poolgen.seeds import transcript as tx
from poolgen.seeds.beacon import CHAINS, chain
from poolgen.seeds.ceremony import (
    ID,
    MAX_PARTIES,
    MIN_GAP,
    MIN_SECRET,
    NAME,
    Binding,
    Ceremony,
    CeremonyError,
    parse_time,
    raw_key,
    utc_text,
)


def check_rules(t: dict[str, Any], *, gap: bool = True) -> None:
    """What every transcript keeps, checked at `new` and again whenever a ceremony file is loaded (an
    operator can write one by hand and hash it): names and keys, 2 to 16 parties, each named once
    with its own key, a pinned chain, and a round published 600 s or more after reveals close. `gap`
    False: the round only after the close, as before the 600 s rule (for abort and publish)."""
    where = f"ceremony {t['id']}"
    names = [p["name"] for p in t["parties"]]
    for name in names:
        if not NAME.match(name):
            raise CeremonyError(f"{where}: party name {name!r}: use letters, digits, '.', '_' and '-' only, "
                                "starting with a letter or digit (at most 64)")
        if names.count(name) > 1:
            raise CeremonyError(f"{where}: party {name!r} is named twice")
    if not MIN_SECRET <= len(names) <= MAX_PARTIES:
        raise CeremonyError(f"{where}: needs at least {MIN_SECRET} secret parties besides the beacon "
                            f"(at most {MAX_PARTIES})")
    keys = [p["public_key"] for p in t["parties"]]
    for i, k in enumerate(keys):
        if keys.index(k) != i:
            raise CeremonyError(f"{where}: parties {names[keys.index(k)]!r} and {names[i]!r} have the same "
                                "key; each party has its own")
    beacon = t["beacon"]
    c = chain(beacon["chain"], where)
    if not 1 <= beacon["round"] < 2**63:
        raise CeremonyError(f"{where}: beacon round {beacon['round']}: a positive integer")
    if beacon["round"] > c.last_round():
        raise CeremonyError(f"{where}: beacon round {beacon['round']} is published after "
                            "9999-12-31T23:59:59Z, the last time a ceremony can name")
    due, close = c.round_time(beacon["round"]), parse_time(beacon["reveals_close"], where)
    if due <= close:
        raise CeremonyError(f"{where}: beacon round {beacon['round']} is published at {utc_text(due)}, "
                            f"not after reveals close ({utc_text(close)})")
    seconds = int((due - close).total_seconds())
    if gap and seconds < MIN_GAP:  # a reveal arriving after the round, signed before the close, must be seen
        raise CeremonyError(f"{where}: beacon round {beacon['round']} is published at {utc_text(due)}, "
                            f"{seconds} s after reveals close ({utc_text(close)}), not the {MIN_GAP} s "
                            "(10 minutes) a party needs to see a reveal arrive after the close")
    follows = t.get("follows", [{}])  # absent, or 1 or more: `new` writes no empty list
    if not follows:
        raise CeremonyError(f"{where}: follows no earlier order; leave `follows` out")
    for i, f in enumerate(t.get("follows", [])):
        if f["run_id"] == t["run_id"]:
            raise CeremonyError(f"{where}: follows run {f['run_id']}, its own run id; a reorder is a new run "
                                "(--run-id)")
        if any(f["manifest_sha256"] == g["manifest_sha256"] for g in t["follows"][:i]):
            raise CeremonyError(f"{where}: follows run {f['run_id']}'s manifest twice")


def new_ceremony(ceremony_id: str, binding: Binding, parties: list[tuple[str, Ed25519PublicKey]],
                 chain_hash: str, round_number: int, reveals_close: datetime, now: datetime) -> Ceremony:
    """A ceremony that binds `binding`, lists `parties` (name, public key) and names a beacon round."""
    if not ID.match(ceremony_id):
        raise CeremonyError(f"ceremony id {ceremony_id!r}: use letters, digits, '.', '_' and '-' only, "
                            "starting with a letter or digit (at most 128)")
    if reveals_close <= now:
        raise CeremonyError(f"ceremony {ceremony_id}: reveals close at {utc_text(reveals_close)}, which is "
                            f"not after now ({utc_text(now)})")
    t = {"id": ceremony_id, "spec_sha256": binding.spec_sha256, "code_sha256": binding.code_sha256,
         "game": binding.game, "pools": list(binding.pools), "run_id": binding.run_id,
         "parties": [{"name": n, "public_key": raw_key(k)} for n, k in parties],
         "beacon": {"chain": chain_hash, "round": round_number, "reveals_close": utc_text(reveals_close)}}
    if binding.book_key_check is not None:
        t["book_key_check"] = binding.book_key_check
    if binding.follows:  # earlier orders this reorder follows (docs/ceremony.md)
        t["follows"] = [dict(f) for f in binding.follows]
    if binding.printed is not None:  # the printed game: the transcript hashes as v4
        t["printed"] = {"number": binding.printed[0], "regulation": binding.printed[1]}
    try:
        check_rules(t)
    except CeremonyError as exc:  # a round too early: name the first one `new` takes
        if (c := CHAINS.get(chain_hash)) is None or f"round {round_number} is published at" not in str(exc):
            raise
        first = c.first_round_from(int(reveals_close.timestamp()) + MIN_GAP)
        if first > c.last_round():  # a close within MIN_GAP of 9999-12-31T23:59:59Z: no round to name
            raise CeremonyError(f"{exc}; no round is due {MIN_GAP} s or more after reveals close by "
                                "9999-12-31T23:59:59Z, the last time a ceremony can name") from None
        raise CeremonyError(f"{exc}; the first round due {MIN_GAP} s or more after reveals close is {first} "
                            f"({utc_text(c.round_time(first))})") from None
    return Ceremony(t, tx.transcript_hash(t), [None] * len(parties), [None] * len(parties))
