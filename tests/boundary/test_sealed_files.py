"""Sealed files and their keys as an adversary hands them to `poolgen seal` / `unseal`: every refusal is
one line naming the file (exit 2), the advice it gives names only options the command has, and a
sealed file changed in any way never opens (hypothesis); nothing is written under --out."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from poolgen.deliverables.seal import MAGIC
from tests.support.cli import invoke, one_line


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, Path]:
    """A recipient's key pair, a signing key pair (Ed25519: not a recipient's), a small deliverable
    and the file sealed to the recipient."""
    root = tmp_path_factory.mktemp("sealed")
    assert invoke("keys", "recipient", root / "printer").exit_code == 0
    assert invoke("keys", "new", root / "signing").exit_code == 0
    (root / "imaging-p1.parquet").write_bytes(b"PAR1" + bytes(range(256)) * 8 + b"PAR1")
    sealed = root / "imaging-p1.sealed"
    made = invoke("seal", root / "imaging-p1.parquet", "--to", root / "printer" / "recipient-key.pub.pem",
                  "--out", sealed)
    assert made.exit_code == 0, made.output
    return {"root": root, "private": root / "printer" / "recipient-key.pem",
            "public": root / "printer" / "recipient-key.pub.pem", "sealed": sealed,
            "ed25519": root / "signing" / "signing-key.pem",
            "ed25519_pub": root / "signing" / "signing-key.pub.pem"}


def unseal(keys, path: Path, out: Path, *extra):
    return invoke("unseal", path, "--key", keys["private"], "--out", out, *extra)


def test_the_sealed_file_opens(keys, tmp_path):
    result = unseal(keys, keys["sealed"], tmp_path / "o")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o").read_bytes() == (keys["root"] / "imaging-p1.parquet").read_bytes()


def test_unseal_json_says_what_was_opened_and_that_no_manifest_checked_it(keys, tmp_path):
    result = unseal(keys, keys["sealed"], tmp_path / "o", "--json")
    assert result.exit_code == 0, result.output
    data = (keys["root"] / "imaging-p1.parquet").read_bytes()
    assert json.loads(result.stdout) == {"file": str(keys["sealed"]), "name": "imaging-p1.parquet",
                                         "out": str(tmp_path / "o"), "bytes": len(data),
                                         "sha256": hashlib.sha256(data).hexdigest(), "manifest": None,
                                         "run_id": None}


SEALED = {  # name: (the sealed file's bytes given the real ones, the refusal after "FILE: ")
    "empty": (lambda s: b"", "not a poolgen-sealed/1 file"),
    "random bytes": (lambda s: bytes(range(256)), "not a poolgen-sealed/1 file"),
    "no newline": (lambda s: MAGIC + b"imaging-p1.parquet", "not a poolgen-sealed/1 file"),
    "a name of 300 bytes": (lambda s: MAGIC + b"x" * 300 + b"\n" + s[s.index(b"\n") + 1:],
                            "not a poolgen-sealed/1 file"),
    "a name with an escape": (lambda s: MAGIC + b"\x1b[2Jx\n" + s[s.index(b"\n") + 1:],
                              "not a poolgen-sealed/1 file (its name is not a plain file name)"),
    "a name with a path": (lambda s: MAGIC + b"../x\n" + s[s.index(b"\n") + 1:],
                           "not a poolgen-sealed/1 file (its name is not a plain file name)"),
    "a name not UTF-8": (lambda s: MAGIC + b"\xff\n" + s[s.index(b"\n") + 1:],
                         "not a poolgen-sealed/1 file (its name is not a plain file name)"),
    "another name": (lambda s: s.replace(b"imaging-p1", b"imaging-p2", 1),
                     "imaging-p2.parquet: cannot be opened with this key (another recipient's, or the file "
                     "was changed)"),
    "cut to its header": (lambda s: s[:s.index(b"\n") + 1],
                          "imaging-p1.parquet: cannot be opened with this key (another recipient's, or the "
                          "file was changed)"),
    "cut short": (lambda s: s[:-20], "imaging-p1.parquet: cannot be opened with this key (another "
                                     "recipient's, or the file was changed)"),
}


@pytest.mark.parametrize("case", list(SEALED))
def test_hostile_sealed_files(keys, tmp_path, case):
    make, why = SEALED[case]
    path = tmp_path / "x.sealed"
    path.write_bytes(make(keys["sealed"].read_bytes()))
    result = unseal(keys, path, tmp_path / "o")
    one_line(result, "poolgen", f"{path}: {why}")
    assert result.stderr == f"poolgen: error: {path}: {why}\n" and not (tmp_path / "o").exists()


def test_special_files_and_a_file_too_large_are_refused_unread(keys, tmp_path):
    fifo = tmp_path / "fifo.sealed"
    os.mkfifo(fifo)
    big = tmp_path / "big.sealed"
    with open(big, "wb") as f:
        f.truncate(3 << 30)  # sparse: refused by its size, never read
    special = "is not a regular file (a pipe, device or socket); give a sealed file"
    for path, why in [(fifo, special), (Path("/dev/zero"), special),
                      (tmp_path, "is a folder, not a sealed file"),
                      (big, f"{3 << 30:,} bytes, larger than {1 << 31:,}; not a sealed file"),
                      (tmp_path / "none", "sealed file not found")]:
        result = unseal(keys, path, tmp_path / "o")
        assert (result.exit_code, result.stderr) == (2, f"poolgen: error: {path}: {why}\n")
        result = invoke("seal", path, "--to", keys["public"], "--out", tmp_path / "s")
        why = why.replace("sealed", "deliverable")
        if path == tmp_path:  # a folder given to seal is a run folder: every imaging file of it
            why = "no manifest.json; not a poolgen run folder"
        assert (result.exit_code, result.stderr) == (2, f"poolgen: error: {path}: {why}\n")
    assert not (tmp_path / "o").exists() and not (tmp_path / "s").exists()


def test_keys_that_are_not_the_recipients(keys, tmp_path):
    cases = [("unseal", keys["public"], "not a PEM private key"),
             ("unseal", keys["ed25519"], "not an X25519 private key"),
             ("seal", keys["ed25519_pub"], "not an X25519 public key"),
             ("seal", keys["sealed"], "not a PEM public key")]
    for command, key, why in cases:
        if command == "unseal":  # (a public key is mode 0644: the secret's mode is not what is tested)
            result = unseal({**keys, "private": key}, keys["sealed"], tmp_path / "o",
                            "--allow-readable-secret")
        else:
            result = invoke("seal", keys["root"] / "imaging-p1.parquet", "--to", key, "--out", tmp_path / "s")
        assert (result.exit_code, result.stderr) == (2, f"poolgen: error: {key}: {why}\n"), command


def test_a_readable_private_key_names_the_option_unseal_has(keys, tmp_path):
    readable = tmp_path / "recipient-key.pem"
    shutil.copy(keys["private"], readable)
    readable.chmod(0o644)
    result = unseal({**keys, "private": readable}, keys["sealed"], tmp_path / "o")
    assert (result.exit_code, result.stderr) == (2, f"poolgen: error: {readable}: the private key file is "
                                                    "mode 0644: others may read it; make it private (chmod "
                                                    "600) or give --allow-readable-secret\n")
    allowed = unseal({**keys, "private": readable}, keys["sealed"], tmp_path / "o", "--allow-readable-secret")
    assert allowed.exit_code == 0, allowed.output


def test_a_file_name_that_would_break_the_header_or_the_line_is_refused(keys, tmp_path):
    odd = tmp_path / "a\nb.parquet"
    odd.write_bytes(b"data")
    result = invoke("seal", odd, "--to", keys["public"], "--out", tmp_path / "s")
    assert (result.exit_code, result.stderr) == (2, f"poolgen: error: {tmp_path}/a\\nb.parquet: cannot be "
                                                    "sealed: its name goes into the sealed file and must be "
                                                    "printable UTF-8 of at most 255 bytes\n")
    assert not (tmp_path / "s").exists()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_sealed_file_changed_anywhere_never_opens(keys, tmp_path, data):
    original = keys["sealed"].read_bytes()
    whole = bytearray(original)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(whole) - 1))
        whole[at] ^= data.draw(st.integers(1, 255))
    assume(bytes(whole) != original)  # two changes of one byte may undo each other
    path, out = tmp_path / "changed.sealed", tmp_path / "opened"
    path.write_bytes(bytes(whole))
    result = unseal(keys, path, out)
    one_line(result, "poolgen", f"{path}: ")
    assert not out.exists()
