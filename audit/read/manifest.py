"""Reading what a run claims: manifest.json (checked for shape when parsed), its signature, the key.

The manifest's canonical form: JSON with keys sorted, UTF-8, separators "," and ":", no floats.
The signature (manifest.sig) is the raw 64-byte Ed25519 signature over manifest.json's exact bytes,
so `openssl pkeyutl -verify -pubin -inkey KEY.pub -rawin -in manifest.json -sigfile manifest.sig`
checks it too.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.errors import UnusableInput
from audit.read.currency import SIGNS
from audit.read.limits import MAX_POOL_TICKETS, MAX_POOLS, MAX_TIERS, pem_problem, read_input

FORMAT = "poolgen-manifest/1"
MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
SIGNATURE_BYTES = 64

T = TypeVar("T")


class ManifestError(ValueError):
    """manifest.json is not a manifest this verifier understands (the reason says where)."""


def canonical(doc: object) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def load_public_key(path: Path) -> Ed25519PublicKey:
    """The auditor's trusted key: an Ed25519 public key in PEM (SubjectPublicKeyInfo)."""
    data = read_input(path, "public key")
    if b"PRIVATE KEY" in data:
        raise UnusableInput(f"{path}: is a private key; give the public key") from None
    if (problem := pem_problem(data)) is not None:
        raise UnusableInput(f"{path}: not a PEM public key: {problem}")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, UnsupportedAlgorithm):
        raise UnusableInput(f"{path}: not a PEM public key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise UnusableInput(f"{path}: not an Ed25519 public key")
    return key


def fingerprint(key: Ed25519PublicKey) -> str:
    """First 16 hex digits of SHA-256 over the raw 32-byte key, in groups of four."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    digits = hashlib.sha256(raw).hexdigest()[:16]
    return ":".join(digits[i:i + 4] for i in range(0, 16, 4))


def signature_problem(data: bytes, signature: bytes, key: Ed25519PublicKey) -> str | None:
    """None if `signature` is a valid Ed25519 signature of `data` by `key`, else why not."""
    if len(signature) != SIGNATURE_BYTES:
        return f"manifest.sig is {len(signature)} bytes; an Ed25519 signature is {SIGNATURE_BYTES}"
    try:
        key.verify(signature, data)
    except InvalidSignature:
        return f"the signature does not verify with the given public key ({fingerprint(key)})"
    return None


def _need(table: object, key: str, kind: type[T], where: str) -> T:
    if not isinstance(table, dict) or key not in table:
        raise ManifestError(f"{where}.{key}: missing")
    value = table[key]
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise ManifestError(f"{where}.{key}: {value!r} is not of the expected type")
    return value


def _hex(value: str, digits: int, where: str) -> str:
    if len(value) != digits or any(c not in "0123456789abcdef" for c in value):
        raise ManifestError(f"{where}: not {digits} lower-case hex digits")
    return value


@dataclass(frozen=True)
class Tier:
    id: str
    prize_cents: int
    count: int


@dataclass(frozen=True)
class PoolEntry:
    """One pool as the manifest states it; `raw` is the entry as written."""

    id: str
    price_cents: int
    tickets: int
    tiers: tuple[Tier, ...]
    winners: int
    prize_cost_cents: int
    odds_1_in: str | None
    payout_pct: str
    file: str
    file_bytes: int
    file_sha256: str
    columns: tuple[str, ...]
    merkle_algorithm: str
    merkle_root: str
    raw: dict[str, Any]


@dataclass(frozen=True)
class Manifest:
    """A parsed manifest; constructing one checks every field the verifier relies on."""

    data: bytes
    doc: dict[str, Any]
    rules: str
    kind: str
    tickets_per_book: int | None
    pools: tuple[PoolEntry, ...]
    style: str | None = None  # an eInstant of a generic style: its `play` entry names it too
    currency: str = "USD"  # `game.currency`, recorded for a game not in USD (docs/manifest.md)

    @property
    def sign(self) -> str:
        """The sign every amount of the game is printed with ('$', '£', ...)."""
        return SIGNS[self.currency]

    @classmethod
    def parse(cls, data: bytes) -> Manifest:
        try:
            doc = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise ManifestError(f"not JSON: {str(exc)[:100] or type(exc).__name__}") from None
        if not isinstance(doc, dict):
            raise ManifestError("not a JSON object")
        if doc.get("format") != FORMAT:
            raise ManifestError(f"format {doc.get('format')!r} is not {FORMAT!r}")
        game = _need(doc, "game", dict, "manifest")
        rules = _need(game, "rules", str, "game")
        kind = _need(game, "kind", str, "game")
        if kind not in ("printed", "einstant"):
            raise ManifestError(f"game.kind: {kind!r} is neither printed nor einstant")
        per_book = _need(game, "tickets_per_book", int, "game") if kind == "printed" else None
        if per_book is not None and per_book < 1:
            raise ManifestError("game.tickets_per_book: must be at least 1")
        for key, kind_ in (("spec", dict), ("seed_commitment", dict), ("totals", dict),
                           ("signature", dict)):
            _need(doc, key, kind_, "manifest")
        _hex(_need(doc["spec"], "sha256", str, "spec"), 64, "spec.sha256")
        _need(doc["signature"], "signed", bool, "signature")
        raw_pools = _need(doc, "pools", list, "manifest")
        if not raw_pools or len(raw_pools) > MAX_POOLS:
            raise ManifestError(f"pools: {len(raw_pools)} pools; a run has 1 to {MAX_POOLS}")
        pools = tuple(_pool(p, i, kind) for i, p in enumerate(raw_pools))
        if len({p.id for p in pools}) != len(pools):
            raise ManifestError("pools: a pool id appears twice")
        if len({p.file for p in pools}) != len(pools):
            raise ManifestError("pools: a file name appears twice")
        style = _style(doc, game, kind)
        _names_are_text(doc)
        if "print" in doc and not isinstance(doc["print"], dict):  # a printed run's settings, read by steps
            raise ManifestError("manifest.print: not an object")
        currency = game.get("currency", "USD")
        if currency not in SIGNS or currency == "USD" and "currency" in game:
            raise ManifestError(f"game.currency: {str(currency)[:60]!r} is not one of "
                                f"{', '.join(c for c in SIGNS if c != 'USD')} (USD: left out)")
        return cls(data, doc, rules, kind, per_book, pools, style, currency)


def _text_if_there(table: object, keys: tuple[str, ...], where: str) -> None:
    if isinstance(table, dict):
        for key in keys:
            if key in table and not isinstance(table[key], str):
                raise ManifestError(f"{where}.{key}: {str(table[key])[:60]} is not text")


def _names_are_text(doc: dict[str, Any]) -> None:
    """The names the steps look things up by are text, where the manifest has them: the play
    entry's style, its areas' styles and ids, its tiers' ids, and a deliverable's role, pool and tier
    (a list there would otherwise end step 4, 8 or 9 in a traceback)."""
    play = doc.get("play")
    if play is None:
        return _deliverable_names(doc)
    if not isinstance(play, dict):
        raise ManifestError("manifest.play: not an object")
    _text_if_there(play, ("style",), "play")
    for key in ("areas", "tiers"):
        items = play.get(key, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise ManifestError(f"play.{key}: not a list of objects")
        for i, item in enumerate(items):
            _text_if_there(item, ("style", "id") if key == "areas" else ("id",), f"play.{key}[{i}]")
    return _deliverable_names(doc)


def _deliverable_names(doc: dict[str, Any]) -> None:
    files = doc.get("deliverables")
    if isinstance(files, list):
        for i, f in enumerate(files):
            _text_if_there(f, ("role", "pool", "tier"), f"deliverables[{i}]")


def _style(doc: dict[str, Any], game: dict[str, Any], kind: str) -> str | None:
    """game.style, when the run is an eInstant of a generic style: then `play` is that style's
    parameters and names the same style (docs/manifest.md)."""
    if "style" not in game:
        return None
    style = _need(game, "style", str, "game")
    if kind != "einstant":
        raise ManifestError(f"game.style: {style!r} on a {kind} game; eInstant styles are eInstants")
    play = _need(doc, "play", dict, "manifest")
    if play.get("style") != style:
        raise ManifestError(f"play.style: {play.get('style')!r} is not game.style {style!r}")
    return style


def _pool(p: object, i: int, kind: str) -> PoolEntry:
    where = f"pools[{i}]"
    tickets = _need(p, "tickets", int, where)
    if not 1 <= tickets <= MAX_POOL_TICKETS:
        raise ManifestError(f"{where}.tickets: {tickets} is not 1 to {MAX_POOL_TICKETS:,}")
    if len(_need(p, "tiers", list, where)) > MAX_TIERS + 1:  # the spec's tiers and the losing one
        raise ManifestError(f"{where}.tiers: more than {MAX_TIERS} prize tiers and the losing tier")
    tiers = []
    for j, t in enumerate(_need(p, "tiers", list, where)):
        tw = f"{where}.tiers[{j}]"
        tiers.append(Tier(_need(t, "id", str, tw), _need(t, "prize_cents", int, tw),
                          _need(t, "count", int, tw)))
    f = _need(p, "file", dict, where)
    name = _need(f, "name", str, f"{where}.file")
    if name != Path(name).name or name.startswith(".") or name in (MANIFEST, SIGNATURE) or "\\" in name:
        raise ManifestError(f"{where}.file.name: {name!r} is not a plain file name in the run folder")
    merkle = _need(p, "merkle", dict, where)
    odds = p.get("odds_1_in") if isinstance(p, dict) else None
    if odds is not None and not isinstance(odds, str):
        raise ManifestError(f"{where}.odds_1_in: {odds!r} is not a string or null")
    if kind == "printed":
        _need(p, "first_book", int, where)
        _need(p, "books", int, where)
    else:
        _need(p, "denomination_cents", int, where)
        _need(p, "play_areas", int, where)
    columns = _need(p, "columns", list, where)
    if not all(isinstance(c, str) for c in columns):
        raise ManifestError(f"{where}.columns: not a list of names")
    return PoolEntry(
        id=_need(p, "id", str, where),
        price_cents=_need(p, "price_cents", int, where),
        tickets=tickets,
        tiers=tuple(tiers),
        winners=_need(p, "winners", int, where),
        prize_cost_cents=_need(p, "prize_cost_cents", int, where),
        odds_1_in=odds,
        payout_pct=_need(p, "payout_pct", str, where),
        file=name,
        file_bytes=_need(f, "bytes", int, f"{where}.file"),
        file_sha256=_hex(_need(f, "sha256", str, f"{where}.file"), 64, f"{where}.file.sha256"),
        columns=tuple(columns),
        merkle_algorithm=_need(merkle, "algorithm", str, f"{where}.merkle"),
        merkle_root=_hex(_need(merkle, "root", str, f"{where}.merkle"), 64, f"{where}.merkle.root"),
        raw=cast(dict[str, Any], p),  # a dict: _need(p, ...) refused anything else
    )
