"""`poolgen ceremony publish` before every commitment is in: the bundle it writes shows none of the
missing ones, so step 5 cannot hold it to the run's commitments (docs/ceremony.md, "Verifying"); it was
written without a word, and `publish` never replaces it. It now says so on stderr, in one line; once
every commitment is in, or after an abort (a bundle that must show it whatever was committed), nothing."""

from __future__ import annotations

from tests.support.ceremony import PARTIES, key, new_args, ok


def _commit(file, party: str) -> None:
    ok("ceremony", "commit", str(file), "--party", party, "--key", key(file, party), "--contribution",
       str(file.parent / f"{party}.contribution"), "--yes")


def test_a_bundle_published_before_every_commitment_is_in_says_which_are_missing(tmp_path):
    file = tmp_path / "c1.ceremony"
    ok(*new_args(tmp_path, file))
    early = ok("ceremony", "publish", str(file), "--out", str(tmp_path / "early.json"))
    assert early.stderr.splitlines() == [
        "ceremony c1: this bundle lacks the commitments of vendor, lottery, auditor; publish one to a new "
        "file once they are all in: verify's step 5 needs it (docs/ceremony.md)"]
    _commit(file, "vendor")
    partial = ok("ceremony", "publish", str(file), "--out", str(tmp_path / "partial.json"))
    assert partial.stderr.splitlines() == [
        "ceremony c1: this bundle lacks the commitments of lottery, auditor; publish one to a new file once "
        "they are all in: verify's step 5 needs it (docs/ceremony.md)"]
    for party in PARTIES[1:]:
        _commit(file, party)
    full = ok("ceremony", "publish", str(file), "--out", str(tmp_path / "full.json"))
    assert full.stderr == "" and full.stdout.startswith(f"wrote {tmp_path / 'full.json'}: ceremony c1")


def test_an_aborted_ceremonys_bundle_says_nothing_of_missing_commitments(tmp_path):
    file = tmp_path / "c1.ceremony"
    ok(*new_args(tmp_path, file))
    _commit(file, "vendor")
    ok("ceremony", "abort", str(file), "--party", "auditor", "--key", key(file, "auditor"), "--reason",
       "the lottery's key was lost", "--yes")
    aborted = ok("ceremony", "publish", str(file), "--out", str(tmp_path / "aborted.json"))
    assert aborted.stderr == ""
