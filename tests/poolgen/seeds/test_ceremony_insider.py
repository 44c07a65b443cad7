"""An insider against the ceremony, as poolgen's own steps see it (docs/ceremony.md): a ceremony file
whose transcript the operator wrote and hashed by hand, and a party asked to reveal into a copy of the
ceremony whose other commitments were changed. Each is refused, naming why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from poolgen.run.signing import load_private_key
from poolgen.seeds import transcript as tx
from poolgen.seeds.ceremony_file import load, save
from tests.support.ceremony import PARTIES, invoke, key, refused
from tests.support.ceremony import commit as _commit
from tests.support.ceremony import new as _new
from tests.support.ceremony import reveal as _reveal


def _rehashed(tmp_path, change) -> str:
    """Ceremony c1 (from `ceremony new`) with its transcript changed and hashed again, as only a hand
    can: the hash no longer shows the change."""
    file = _new(tmp_path)
    doc = json.loads(file.read_bytes())
    change(doc["transcript"])
    doc["transcript_sha256"] = tx.transcript_hash(doc["transcript"])
    file.write_text(json.dumps(doc))
    return str(file)


def _same_key(t):
    t["parties"][1]["public_key"] = t["parties"][0]["public_key"]


def _late_close(t):
    t["beacon"]["reveals_close"] = "2023-08-23T16:30:00Z"  # round 1000 is out at 15:59:24


def _one_name(t):
    t["parties"][2]["name"] = "vendor"


@pytest.mark.parametrize(("change", "message"), [
    (_same_key, "ceremony c1: parties 'vendor' and 'lottery' have the same key; each party has its own"),
    (_late_close, "ceremony c1: beacon round 1000 is published at 2023-08-23T15:59:24Z, not after reveals "
                  "close (2023-08-23T16:30:00Z)"),
    (_one_name, "ceremony c1: party 'vendor' is named twice"),
], ids=["one-key", "round-before-close", "one-name"])
def test_a_transcript_hashed_again_by_hand_is_held_to_what_new_promises(tmp_path, change, message):
    refused(invoke("ceremony", "status", _rehashed(tmp_path, change)), message)


def test_a_party_reveals_one_contribution_under_one_set_of_commitments(tmp_path):
    # The operator (vendor) keeps the ceremony file. Once the others have revealed, it copies the file
    # with its own commitment replaced (signed with its own key: valid) and the reveals cleared, and
    # asks them to reveal again. With k such copies revealed before the close, it would pick, once the
    # round is out, whichever of k seeds it likes. A party's second reveal under other commitments is
    # refused; under the same commitments (a reveal saved twice) it is not.
    file = _new(tmp_path)
    for p in PARTIES:
        _commit(file, p)
    for p in PARTIES:
        assert _reveal(file, p).exit_code == 0
    assert _reveal(file, "lottery").exit_code == 0  # the same commitments: no harm
    fork = load(file)
    vendor = load_private_key(Path(key(file, "vendor")))
    fork.commitments[0] = None
    fork.commit("vendor", vendor, b"\x07" * 32)
    fork.reveals = [None] * len(PARTIES)
    forked = tmp_path / "fork.ceremony"
    save(forked, fork)
    closed = [load(f).closed() for f in (file, forked)]
    refused(_reveal(forked, "lottery"),
            f"{tmp_path / 'lottery.contribution'}: was revealed under commitments {closed[0][:16]}..., not "
            f"these ({closed[1][:16]}...): one contribution is revealed under one set of commitments (did "
            "a party's commitment change after your reveal? then abort the ceremony)")
    assert load(forked).reveals[1] is None


def test_once_every_party_has_revealed_the_ceremony_is_not_aborted(tmp_path):
    # With every reveal in, whoever holds the file computes the seed the moment the round is out; an
    # abort signed then (and a new ceremony for the same run) would be a choice between pools.
    file = _new(tmp_path)
    for p in PARTIES:
        _commit(file, p)
    for p in PARTIES:
        assert _reveal(file, p).exit_code == 0
    refused(invoke("ceremony", "abort", str(file), "--party", "vendor", "--key", key(file, "vendor"),
                   "--reason", "the pool looks wrong", "--yes", now="2023-08-23T16:00:00Z"),
            "ceremony c1: every party has revealed: round 1000 fixes the seed and nobody can stop it; an "
            "abort now could follow a look at the seed (seal it)")
    assert load(file).abort is None


def test_a_second_commitment_is_refused_and_writes_no_contribution(tmp_path):
    file = _new(tmp_path)
    _commit(file, "vendor")
    before = file.read_bytes()
    again = tmp_path / "vendor-again.contribution"
    refused(invoke("ceremony", "commit", str(file), "--party", "vendor", "--key", key(file, "vendor"),
                   "--contribution", str(again), "--yes"),
            "ceremony c1: party 'vendor' has already committed; a commitment is never replaced")
    assert file.read_bytes() == before and not again.exists()
