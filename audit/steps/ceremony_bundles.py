"""Step 5's published ceremony bundles (docs/ceremony.md, "Verifying"): every ceremony the auditor found for
the run's game, and the signed manifests of the earlier orders a reorder's ceremony names
(`follows`). audit never imports poolgen.

A bundle of another ceremony that bound this run id or one of its pools is a second seed the operator
could have picked, unless it was aborted (signed by one of its parties), or it is the ceremony of an
earlier order this run's transcript names, whose signed manifest (`--earlier-manifest`) hashes to the
named SHA-256 (so it existed, its seed fixed, before anyone committed to this run's ceremony), or it is
a later order whose own transcript names this run's manifest (so it began after this run's seed was
fixed).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.checklist import Step
from audit.errors import UnusableInput, VerificationError
from audit.read.ceremony import bundle_problem, ceremony_problem
from audit.read.limits import (
    MAX_SIGNATURE_BYTES,
    parse_json,
    read_bounded,
    read_input,
    read_manifest_bytes,
)
from audit.read.manifest import SIGNATURE, Manifest, signature_problem
from audit.steps.ceremony import FORMAT, lp, printed_of, shown, signed, transcript_hash, utc_time


@dataclass(frozen=True)
class Earlier:
    """An earlier order's signed manifest (`--earlier-manifest`): its exact bytes and its signature."""

    path: Path
    data: bytes
    signature: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def regulation_key(text: object) -> str:
    """A regulation as step 5 compares it: its ASCII letters and digits, letters upper-cased, every other
    character dropped (`K.A.R. 111-4-3762` and `KAR 1114 3762.` are one regulation)."""
    return "".join(c for c in text if c.isascii() and c.isalnum()).upper() if isinstance(text, str) else ""


def same_printed(t: dict[str, Any], game: dict[str, Any]) -> bool | None:
    """Whether a v4 transcript binds the printed game a manifest's `game` entry describes: the same game
    number (both have one), or the same regulation (`regulation_key`, not empty). None for a transcript
    made before v4, which binds only the spec's free id."""
    if "printed" not in t:
        return None
    number, key = t["printed"]["number"], regulation_key(t["printed"]["regulation"])
    return (number is not None and number == game.get("number")) or (
        key != "" and key == regulation_key(game.get("regulation")))


def read_bundle(path: Path) -> dict[str, Any]:
    """A published ceremony bundle (`poolgen ceremony publish`): the ceremony file without reveals."""
    doc = parse_json(read_input(path, "ceremony bundle"), str(path), "ceremony bundle")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT \
            or not isinstance(doc.get("transcript"), dict) or not isinstance(doc.get("commitments"), list):
        raise UnusableInput(f"{path}: not a ceremony bundle (format {FORMAT!r}, a transcript and "
                            "commitments)")
    # an aborted ceremony's file may be published with its reveals (it seeds no run): read as that file
    aborted_file = "reveals" in doc and doc.get("abort") is not None
    problem = ceremony_problem(doc) if aborted_file else bundle_problem(doc)
    if problem is not None:
        raise UnusableInput(f"{path}: not a ceremony bundle: {problem}")
    return doc


def read_earlier(path: Path) -> Earlier:
    """An earlier order's manifest.json and the manifest.sig beside it (as `poolgen publish` puts them)."""
    data = read_manifest_bytes(path)
    signature = read_bounded(path.with_name(SIGNATURE), "manifest signature", MAX_SIGNATURE_BYTES)
    return Earlier(path, data, signature)


def read_published(bundles: tuple[Path, ...],
                   earlier: tuple[Path, ...]) -> tuple[list[tuple[Path, dict[str, Any]]], list[Earlier]]:
    """What `verify` is given of other ceremonies: bundles (--ceremony-bundle) and earlier orders' signed
    manifests (--earlier-manifest); unusable input (exit 2) if one cannot be read."""
    if earlier and not bundles:
        raise UnusableInput("--earlier-manifest is read with the ceremony bundles (--ceremony-bundle) it "
                            "answers for")
    return [(b, read_bundle(b)) for b in bundles], [read_earlier(m) for m in earlier]


def _follows(t: dict[str, Any]) -> list[dict[str, str]]:
    follows = t.get("follows", [])
    return [f for f in follows if isinstance(f, dict)] if isinstance(follows, list) else []


def _earlier_order(path: Path, t: dict[str, Any], th: str, named: dict[str, str], bound: str,
                   earlier: list[Earlier], key: Ed25519PublicKey | None) -> str:
    """The bundle's ceremony is the one of an earlier order this run's transcript follows: its signed
    manifest, given, is the one named, signed by the run's key, and seeded by that ceremony."""
    what = (f"bundle {path.name}: ceremony {t['id']} also bound {bound}, the earlier order this run's "
            "ceremony follows")
    found = [e for e in earlier if e.sha256 == named["manifest_sha256"]]
    if not found:
        raise VerificationError(Step.FIGURES, f"{what}: give that order's signed manifest "
                                f"(--earlier-manifest, SHA-256 {named['manifest_sha256'][:16]}...) to show "
                                "its seed was fixed before this run's ceremony began")
    e = found[0]
    if key is None:
        raise VerificationError(Step.FIGURES, f"{what}: its manifest's signature is checked with the run's "
                                "public key (--public-key)")
    problem = signature_problem(e.data, e.signature, key)
    if problem is not None:
        raise VerificationError(Step.FIGURES, f"{what}: --earlier-manifest {e.path}: {problem}")
    doc = parse_json(e.data, str(e.path), "manifest")
    entry = doc.get("ceremony") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or not isinstance(entry, dict) or entry.get("transcript_sha256") != th \
            or doc.get("run_id") != named["run_id"] or t["run_id"] != named["run_id"]:
        raise VerificationError(Step.FIGURES, f"{what}: --earlier-manifest {e.path} is not run "
                                f"{named['run_id']} seeded by ceremony {t['id']} (transcript {th[:16]}...)")
    return (f"{path.name}: ceremony {t['id']} of run {named['run_id']}, the earlier order this run's "
            f"ceremony follows (its signed manifest {e.sha256[:16]}...)")


def _revealed_before_the_close(path: Path, t: dict[str, Any], th: str, doc: dict[str, Any]) -> bool:
    """Whether an aborted ceremony's file (published with its reveals) shows every party's reveal, each
    signed by its listed key over the closed commitments, matching its commitment and made before reveals
    closed: then the abort came once the seed was fixed, when poolgen refuses one. A reveal not signed by
    its party's key is refused; one that does not open its commitment, or whose revealed_at is no time
    written with every digit (its party's own doing: `seal` refuses both), is as missing."""
    reveals, commitments = doc.get("reveals"), doc["commitments"]
    if not isinstance(reveals, list) or None in reveals or None in commitments:
        return False
    close = t["beacon"]["reveals_close"]
    if not all(isinstance(close, str) and utc_time(r["revealed_at"]) and r["revealed_at"] < close
               for r in reveals):  # text order is time order for times with every digit only
        return False  # a reveal at or after the close, or at no time: the others' abort is the rule
    closed = hashlib.sha256(b"poolgen/ceremony/commitments/v2" + bytes.fromhex(th) + b"".join(
        lp(c["name"].encode()) + bytes.fromhex(c["commitment"]) for c in commitments)).digest()
    opened = True
    for p, c, r in zip(t["parties"], commitments, reveals, strict=True):
        name, value = p["name"], bytes.fromhex(r["value"])
        if c["name"] != name or r["name"] != name:
            raise VerificationError(Step.FIGURES, f"bundle {path.name}: its commitments or reveals are not "
                                    f"in the parties' order at {shown(name)!r}")
        try:
            signed(name, p["public_key"], "reveal", r["signature"], b"poolgen/ceremony/reveal/v2" + closed
                   + lp(name.encode()) + lp(value) + lp(r["revealed_at"].encode()), Step.FIGURES)
        except VerificationError as error:
            raise VerificationError(Step.FIGURES, f"bundle {path.name}: {error.reason}") from None
        if hashlib.sha256(b"poolgen/ceremony/commitment/v2" + bytes.fromhex(th) + lp(name.encode())
                          + lp(value)).hexdigest() != c["commitment"]:
            opened = False  # its party signed a reveal that cannot enter the seed: poolgen aborts then
    return opened


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def check_bundles(manifest: Manifest, bundles: list[tuple[Path, dict[str, Any]]],
                  earlier: list[Earlier] | None = None, key: Ed25519PublicKey | None = None,
                  manifest_data: bytes | None = None) -> str:
    """(5) the published bundles of every ceremony the auditor found for this run's game: the run's own
    shows the manifest's commitments (so they were not changed after it was published); any other
    binding this run id or one of its pools was aborted, signed by one of its parties, or is an earlier
    order this run's transcript follows (its signed manifest given), or a later order whose transcript
    follows this run (`manifest_data`: this manifest.json's bytes). A ceremony for the run's pools that
    was none of these is a second seed the operator could have picked, whatever run id it names (a run
    id is the operator's free choice). One binding only other pools of the game (another run of it) is
    listed, not refused. With no bundle given, it says what is not looked for."""
    entry = manifest.doc.get("ceremony")
    if not isinstance(entry, dict):
        raise VerificationError(Step.FIGURES, "ceremony bundles given, but the manifest records no ceremony")
    if not bundles:  # said, not failed: an auditor collects them where they were published
        return ("no ceremony bundle given (--ceremony-bundle): another ceremony for this run's pools, a "
                "second seed the operator could have used instead, is not looked for")
    run_id, game, told = manifest.doc.get("run_id"), manifest.doc["game"].get("rules"), []
    pools, own = [p.id for p in manifest.pools], False
    mine_t = entry.get("transcript")
    manifest_sha256 = hashlib.sha256(manifest_data).hexdigest() if manifest_data is not None else None
    followed = {f.get("transcript_sha256"): f for f in _follows(mine_t if isinstance(mine_t, dict) else {})}
    own_name = next((p.name for p, d in bundles if d["transcript_sha256"] == entry.get("transcript_sha256")),
                    None)
    g = manifest.doc["game"]
    for path, doc in bundles:
        t = doc["transcript"]
        try:
            th = transcript_hash(t)
        except (TypeError, KeyError, ValueError, AttributeError, OverflowError):  # u64 of a negative
            th = None
        if th is None or th != doc.get("transcript_sha256"):
            raise VerificationError(Step.FIGURES, f"bundle {path.name}: its transcript does not hash to its "
                                    "transcript_sha256")
        same = same_printed(t, g)  # v4: the printed game, whatever id the spec gave it; None before v4
        if same is None and t["game"] != game:
            raise VerificationError(Step.FIGURES, f"bundle {path.name}: ceremony {t['id']} binds game "
                                    f"{t['game']}, not this run's ({game})")
        if same is False:
            told.append(f"{path.name}: ceremony {t['id']} of another printed game "
                        f"({printed_of(t['printed']['number'], t['printed']['regulation'])}), not "
                        f"this run's ({printed_of(g.get('number'), g.get('regulation'))})")
            continue
        renamed = "" if t["game"] == game else (
            f" (under game id {t['game']}: this run's printed game, "
            f"{printed_of(g.get('number'), g.get('regulation'))})")
        if th == entry.get("transcript_sha256"):
            mine = entry.get("commitments") or []
            if doc.get("abort") is not None or doc["commitments"] != mine:
                raise VerificationError(Step.FIGURES, f"bundle {path.name}: the commitments published for "
                                        f"ceremony {t['id']} are not the manifest's (or it was aborted)")
            late = [field for field in ("round", "seed_commitment", "run") if doc.get(field) is not None]
            if late:  # set by seal and generate: written once the seed was known, not before any reveal
                raise VerificationError(Step.FIGURES, f"bundle {path.name}: this run's ceremony {t['id']} "
                                        f"published with its {_and(late)}, set once every party had revealed "
                                        "and the round was out: it does not show the commitments published "
                                        "before any reveal (give the bundle published before the reveals)")
            told.append(f"{path.name}: this run's ceremony {t['id']}, the manifest's commitments")
            own = True
            continue
        shared = [p for p in t["pools"] if p in pools]
        if t["run_id"] != run_id and not shared:
            told.append(f"{path.name}: ceremony {t['id']}{renamed} for run {t['run_id']}, other pools of "
                        f"game {game} ({', '.join(t['pools'])})")
            continue
        abort, keys = doc.get("abort"), {p["name"]: p["public_key"] for p in t["parties"]}
        bound = f"run {run_id}" if t["run_id"] == run_id else \
            f"pool{'s' if len(shared) > 1 else ''} {', '.join(shared)} of this run (as run {t['run_id']})"
        if not isinstance(abort, dict) or abort.get("name") not in keys:
            if t["run_id"] != run_id and th in followed:
                told.append(_earlier_order(path, t, th, followed[th], bound, earlier or [], key))
                continue
            if t["run_id"] != run_id and manifest_sha256 is not None and any(
                    f.get("manifest_sha256") == manifest_sha256
                    and f.get("transcript_sha256") == entry.get("transcript_sha256") for f in _follows(t)):
                told.append(f"{path.name}: ceremony {t['id']} for run {t['run_id']}, a later order: its "
                            "transcript names this run's manifest, so it began after this run's seed was "
                            "fixed")
                continue
            beside = "" if not renamed or own_name is None else \
                f" (this run's ceremony {mine_t.get('id')} is bundle {own_name})"  # type: ignore[union-attr]
            raise VerificationError(Step.FIGURES, f"bundle {path.name}: ceremony {t['id']}{renamed} also "
                                    f"bound {bound} and was not aborted: its seed was one more to choose from"
                                    f"{beside}")
        name, reason = abort["name"], str(abort.get("reason"))
        try:  # which bundle: an auditor gives several
            signed(name, keys[name], "abort", str(abort.get("signature")), b"poolgen/ceremony/abort/v2"
                   + bytes.fromhex(th) + lp(name.encode()) + lp(reason.encode()), Step.FIGURES)
        except VerificationError as error:
            raise VerificationError(Step.FIGURES, f"bundle {path.name}: {error.reason}") from None
        if any(doc.get(field) is not None for field in ("round", "seed_commitment", "run")):
            number = doc["round"].get("round") if isinstance(doc.get("round"), dict) else None
            raise VerificationError(Step.FIGURES, f"bundle {path.name}: ceremony {t['id']} was aborted by "
                                    f"{shown(name)} after its seed was sealed (round {number}): poolgen "
                                    "aborts only while a reveal is missing, so this abort followed a look at "
                                    "the seed, one more to choose from")
        if _revealed_before_the_close(path, t, th, doc):
            raise VerificationError(Step.FIGURES, f"bundle {path.name}: ceremony {t['id']} was aborted "
                                    f"by {shown(name)} after every party had revealed before the close (its "
                                    "file shows each reveal signed by its listed key): poolgen aborts only "
                                    "while a reveal is missing, so this abort followed a look at the seed, "
                                    "one more to choose from")
        told.append(f"{path.name}: ceremony {t['id']} for this run, aborted by {shown(name)} "
                    f"({shown(reason)})")
    if not own:
        t = entry.get("transcript")
        raise VerificationError(Step.FIGURES, "no bundle given is of this run's ceremony "
                                f"{t.get('id') if isinstance(t, dict) else None}: its commitments are not "
                                "shown published before any reveal (ceremony publish)")
    named = {f.get("manifest_sha256") for f in followed.values()}
    unused = [e for e in earlier or [] if e.sha256 not in named]
    if unused:
        raise VerificationError(Step.FIGURES, f"--earlier-manifest {unused[0].path}: no earlier order this "
                                f"run's ceremony follows has its SHA-256 ({unused[0].sha256[:16]}...)")
    return "ceremony bundles: " + "; ".join(told)
