"""Sealed deliverables (`poolgen seal` / `unseal`, poolgen/deliverables/seal.py, HPKE): a file
sealed to a recipient opens with its key only, and a changed byte never opens."""

from __future__ import annotations

import json

from tests.support.cli import invoke


def test_hpke_round_trip_and_a_wrong_private_key_fails(run, tmp_path):
    assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
    assert invoke("keys", "recipient", tmp_path / "other").exit_code == 0
    src = run["folder"] / "imaging-p1.parquet"
    sealed = tmp_path / "imaging-p1.sealed"
    assert (
        invoke("seal", src, "--to", tmp_path / "printer" / "recipient-key.pub.pem", "--out", sealed).exit_code
        == 0
    )
    assert src.read_bytes() not in sealed.read_bytes()
    opened = invoke(
        "unseal", sealed, "--key", tmp_path / "printer" / "recipient-key.pem", "--out", tmp_path / "o"
    )
    assert opened.exit_code == 0 and (tmp_path / "o").read_bytes() == src.read_bytes()
    wrong = invoke(
        "unseal", sealed, "--key", tmp_path / "other" / "recipient-key.pem", "--out", tmp_path / "w"
    )
    assert wrong.exit_code == 2 and not (tmp_path / "w").exists()
    assert "imaging-p1.parquet: cannot be opened with this key" in wrong.output
    data = bytearray(sealed.read_bytes())
    data[-1] ^= 1
    (tmp_path / "changed").write_bytes(bytes(data))
    changed = invoke(
        "unseal",
        tmp_path / "changed",
        "--key",
        tmp_path / "printer" / "recipient-key.pem",
        "--out",
        tmp_path / "c",
    )
    assert changed.exit_code == 2 and not (tmp_path / "c").exists()


def test_keys_recipient_prints_its_fingerprint_for_scripts(tmp_path):
    """The fingerprint is what the sender reads to the recipient before sealing: on stdout, and as JSON."""
    made = invoke("keys", "recipient", tmp_path / "printer")
    assert made.exit_code == 0, made.output
    fingerprint = made.stderr.split("fingerprint ")[1].strip()
    assert made.stdout == f"recipient key fingerprint: {fingerprint}\n"
    sealed = invoke("seal", tmp_path / "printer" / "recipient-key.pub.pem", "--to",
                    tmp_path / "printer" / "recipient-key.pub.pem", "--out", tmp_path / "x.sealed", "--json")
    assert json.loads(sealed.stdout)["recipient_fingerprint"] == fingerprint
    as_json = invoke("keys", "recipient", tmp_path / "lab", "--json")
    assert as_json.exit_code == 0, as_json.output
    doc = json.loads(as_json.stdout)
    assert doc == {"private_key": str(tmp_path / "lab" / "recipient-key.pem"),
                   "public_key": str(tmp_path / "lab" / "recipient-key.pub.pem"),
                   "fingerprint": as_json.stderr.split("fingerprint ")[1].strip()}


def test_keys_recipient_never_replaces_a_public_key_left_in_its_folder(tmp_path):
    """A folder holding recipient-key.pub.pem alone: a new pair's public key replaced it (write_atomic),
    the file a sender may already have read back. Now refused before anything is written."""
    folder = tmp_path / "printer"
    folder.mkdir()
    (folder / "recipient-key.pub.pem").write_bytes(b"the key senders hold")
    made = invoke("keys", "recipient", folder)
    assert (made.exit_code, made.stderr) == (
        2, f"poolgen: error: {folder / 'recipient-key.pub.pem'}: recipient public key already exists; not "
           "overwriting it\n")
    assert sorted(p.name for p in folder.iterdir()) == ["recipient-key.pub.pem"]
    assert (folder / "recipient-key.pub.pem").read_bytes() == b"the key senders hold"


def test_sealing_a_run_whose_imaging_file_was_swapped_for_its_pool_file_seals_nothing(run, tmp_path):
    """`seal RUN` sealed whatever file had the imaging file's name: a pool file in its place (every
    ticket's tier, prize and salt) went to the printer, caught only by its `unseal --manifest`. It now
    seals only the files the manifest lists, by size and SHA-256, or none."""
    import shutil  # noqa: PLC0415

    copy = tmp_path / "ws"
    shutil.copytree(run["folder"], copy)
    (copy / "pool-p1.parquet").rename(copy / "t")
    (copy / "imaging-p1.parquet").rename(copy / "pool-p1.parquet")
    (copy / "t").rename(copy / "imaging-p1.parquet")
    assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
    result = invoke("seal", copy, "--to", tmp_path / "printer" / "recipient-key.pub.pem", "--out",
                    tmp_path / "sealed")
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"poolgen: error: {copy / 'imaging-p1.parquet'}: not the file the manifest "
                             "lists as imaging-p1.parquet (its size or SHA-256 differs: a changed or swapped "
                             "file); nothing sealed\n")
    assert not (tmp_path / "sealed").exists() and list(tmp_path.glob(".sealed*")) == []
