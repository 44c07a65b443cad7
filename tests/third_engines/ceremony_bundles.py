"""Step 5's published ceremony bundles (`--ceremony-bundle`), from docs/ceremony.md "Verifying" alone: the
third engine's reading (tests/third_engines/ceremony.py), importing neither poolgen nor audit. A reorder's
earlier orders (`follows`, `--earlier-manifest`) are not read here: a bundle the run's transcript follows is
refused as unread."""

from __future__ import annotations

from tests.third_engines.ceremony import Refused, check_abort, transcript_hash

FIELDS = {"format", "transcript", "transcript_sha256", "commitments", "round", "seed_commitment", "run",
          "abort"}


def check_shape(name: str, doc: object) -> dict:
    """A bundle is the ceremony file less `reveals`: every field and no other."""
    if not isinstance(doc, dict) or doc.get("format") != "poolgen-ceremony/2" \
            or not isinstance(doc.get("transcript"), dict) or not isinstance(doc.get("commitments"), list):
        raise Refused(f"{name}: not a ceremony bundle")
    if set(doc) != FIELDS:
        field = sorted(set(doc) ^ FIELDS)[0]
        raise Refused(f"{name}: not a ceremony bundle: {field} is ...")
    return doc


def check_bundles(manifest: dict, bundles: list[tuple[str, dict]]) -> str:
    """Every bundle given, in order; the pass line, or `Refused` with the first failure."""
    entry = manifest["ceremony"]
    own = entry["transcript_sha256"]
    t_run = entry["transcript"]
    game, run_id = manifest["game"]["rules"], manifest["run_id"]
    pools = [p["id"] for p in manifest["pools"]]
    followed = {f["transcript_sha256"] for f in t_run.get("follows", [])}
    lines, seen_own = [], False
    for name, raw in bundles:
        doc = check_shape(name, raw)
        t, cid = doc["transcript"], doc["transcript"]["id"]
        if transcript_hash(t) != doc["transcript_sha256"]:
            raise Refused(f"bundle {name}: its transcript does not hash to its transcript_sha256")
        if t["game"] != game:
            raise Refused(f"bundle {name}: ceremony {cid} binds game {t['game']}, not this run's ({game})")
        if doc["transcript_sha256"] == own:
            if doc["commitments"] != entry["commitments"] or doc["abort"] is not None:
                raise Refused(f"bundle {name}: the commitments published for ceremony {cid} are not the "
                              "manifest's (or it was aborted)")
            seen_own = True
            lines.append(f"{name}: this run's ceremony {cid}, the manifest's commitments")
            continue
        shared = [p for p in t["pools"] if p in pools]
        if t["run_id"] != run_id and not shared:
            lines.append(f"{name}: ceremony {cid} for run {t['run_id']}, other pools of game {game} "
                         f"({', '.join(t['pools'])})")
            continue
        listed = {party["name"] for party in t["parties"]}
        abort = doc["abort"]
        if abort is not None and abort["name"] in listed:  # an abort by no listed party is none
            try:
                aborted = check_abort(t, doc["transcript_sha256"], abort)
            except Refused as refused:
                raise Refused(f"bundle {name}: {refused}") from None
            if any(doc[field] is not None for field in ("round", "seed_commitment", "run")):
                number = (doc["round"] or {}).get("round")
                raise Refused(f"bundle {name}: ceremony {cid} was aborted by {aborted} after its seed was "
                              f"sealed (round {number}): poolgen aborts only while a reveal is missing, so "
                              "this abort followed a look at the seed, one more to choose from")
            lines.append(f"{name}: ceremony {cid} for this run, aborted by {aborted} ({abort['reason']})")
            continue
        if t["run_id"] == run_id:
            raise Refused(f"bundle {name}: ceremony {cid} also bound run {run_id} and was not aborted: its "
                          "seed was one more to choose from")
        if doc["transcript_sha256"] in followed:
            raise Refused(f"bundle {name}: an earlier order (not read by this engine)")
        which = f"pool {shared[0]}" if len(shared) == 1 else f"pools {', '.join(shared)}"
        raise Refused(f"bundle {name}: ceremony {cid} also bound {which} of this run (as run "
                      f"{t['run_id']}) and was not aborted: its seed was one more to choose from")
    if not seen_own:
        raise Refused(f"no bundle given is of this run's ceremony {t_run['id']}: its commitments are not "
                      "shown published before any reveal (ceremony publish)")
    return "ceremony bundles: " + "; ".join(lines)
