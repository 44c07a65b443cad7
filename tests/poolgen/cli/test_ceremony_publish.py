"""`poolgen ceremony publish` before every commitment is in: the bundle it writes shows none of the
missing ones, so step 5 cannot hold it to the run's commitments (docs/ceremony.md, "Verifying"); it was
written without a word, and `publish` never replaces it. It now says so on stderr, in one line; once
every commitment is in, or after an abort (a bundle that must show it whatever was committed), nothing."""

from __future__ import annotations

from tests.support.ceremony import PARTIES, invoke, key, new_args, ok


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


def test_a_sealed_ceremonys_bundle_says_step_5_takes_the_one_published_before_reveals(sealed_run, tmp_path):
    # published after the seal, it holds the round and the seed commitment; step 5 refuses it as the run's
    # own bundle (written once the seed was known), so the operator is told when it writes it
    late = ok("ceremony", "publish", str(sealed_run.file), "--out", str(tmp_path / "late.json"))
    assert late.stderr.splitlines() == [
        "ceremony c1: this bundle holds its round and seed commitment (sealed): verify's step 5 takes as the "
        "run's own only the bundle published before any reveal (docs/ceremony.md)"]


def test_an_aborted_ceremonys_bundle_says_nothing_of_missing_commitments(tmp_path):
    file = tmp_path / "c1.ceremony"
    ok(*new_args(tmp_path, file))
    _commit(file, "vendor")
    ok("ceremony", "abort", str(file), "--party", "auditor", "--key", key(file, "auditor"), "--reason",
       "the lottery's key was lost", "--yes")
    aborted = ok("ceremony", "publish", str(file), "--out", str(tmp_path / "aborted.json"))
    assert aborted.stderr == ""


def test_publish_over_an_existing_bundle_needs_force_as_every_writing_command(tmp_path):
    """`ceremony publish` refused an existing --out with no way round it, where `proof`, `report`,
    `imaging export` and the claims reports take --force: the early bundle could not be replaced by the
    full one under its name. Now it says "(--force replaces it)", and --force does, whole (a rename)."""
    file = tmp_path / "c1.ceremony"
    ok(*new_args(tmp_path, file))
    bundle = tmp_path / "c1.public.json"
    ok("ceremony", "publish", str(file), "--out", str(bundle))
    early = bundle.read_bytes()
    for party in PARTIES:
        _commit(file, party)
    refused = invoke("ceremony", "publish", str(file), "--out", str(bundle))
    assert (refused.exit_code, refused.stderr) == (
        2, f"poolgen: error: {bundle}: already exists; not overwriting it (--force replaces it)\n")
    assert bundle.read_bytes() == early
    full = ok("ceremony", "publish", str(file), "--out", str(bundle), "--force")
    assert full.stderr == "" and full.stdout.startswith(f"wrote {bundle}: ceremony c1")
    assert bundle.read_bytes() != early and b'"commitments"' in bundle.read_bytes()
    assert oct(bundle.stat().st_mode & 0o777) == "0o644"


def test_force_never_publishes_over_the_ceremony_file_nor_a_folder(tmp_path):
    file = tmp_path / "c1.ceremony"
    ok(*new_args(tmp_path, file))
    kept = file.read_bytes()
    over = invoke("ceremony", "publish", str(file), "--out", str(file), "--force")
    assert (over.exit_code, over.stderr) == (
        2, f"poolgen: error: {file}: is the ceremony file itself; give the bundle another name\n")
    assert file.read_bytes() == kept
    folder = tmp_path / "bundle"
    folder.mkdir()
    into = invoke("ceremony", "publish", str(file), "--out", str(folder), "--force")
    assert (into.exit_code, into.stderr) == (
        2, f"poolgen: error: {folder}: is a folder; give the bundle's file name\n")
