"""Signing keys (poolgen/run/signing.py): files and modes, passphrases, fingerprints, and a clear
error for every bad key."""

from __future__ import annotations

import hashlib
import stat

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key

from poolgen.errors import OutputError, SigningKeyError
from poolgen.run.signing import (
    Signer,
    fingerprint,
    load_private_key,
    load_public_key,
    new_key_pair,
)


def test_new_key_pair_files_and_fingerprint(tmp_path):
    files = new_key_pair(tmp_path / "keys")
    assert stat.S_IMODE(files.private.stat().st_mode) == 0o600
    assert files.private.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert files.public.read_bytes().startswith(b"-----BEGIN PUBLIC KEY-----")
    public = load_public_key(files.public)
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    digits = hashlib.sha256(raw).hexdigest()[:16]
    assert files.fingerprint == fingerprint(public) == ":".join(digits[i:i + 4] for i in range(0, 16, 4))
    assert load_private_key(files.private).public_key() == public
    with pytest.raises(OutputError, match="already exists; not overwriting a key"):
        new_key_pair(tmp_path / "keys")


def test_encrypted_key_needs_its_passphrase(tmp_path):
    files = new_key_pair(tmp_path, b"correct horse")
    assert files.private.read_bytes().startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    key = load_private_key(files.private, lambda: b"correct horse")
    assert fingerprint(key.public_key()) == files.fingerprint
    with pytest.raises(SigningKeyError, match=r"signing-key.pem: wrong passphrase for the private key$"):
        load_private_key(files.private, lambda: b"wrong")
    with pytest.raises(SigningKeyError, match="the private key is encrypted; give its passphrase"):
        load_private_key(files.private)


def test_a_passphrase_for_an_unencrypted_key_is_not_asked(tmp_path):
    files = new_key_pair(tmp_path)
    asked = []
    load_private_key(files.private, lambda: asked.append(1) or b"x")
    assert asked == []


@pytest.mark.parametrize(("content", "message"), [
    (None, "private key file not found"),
    (b"hello", "not a PEM private key"),
    (b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "not a PEM private key"),
])
def test_bad_private_key_files(tmp_path, content, message):
    path = tmp_path / "k.pem"
    if content is not None:
        path.write_bytes(content)
        path.chmod(0o600)  # a private key others may read is refused
    with pytest.raises(SigningKeyError, match=f"^{path}: {message}"):
        load_private_key(path)


def test_wrong_kinds_of_key(tmp_path):
    files = new_key_pair(tmp_path)
    with pytest.raises(SigningKeyError, match="is a public key; signing needs the private key"):
        load_private_key(files.public)
    with pytest.raises(SigningKeyError, match="is a private key; give the public key"):
        load_public_key(files.private)
    ec = tmp_path / "ec.pem"
    ec.write_bytes(generate_private_key(SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    ec.chmod(0o600)
    with pytest.raises(SigningKeyError, match="not an Ed25519 key"):
        load_private_key(ec)
    with pytest.raises(SigningKeyError, match="public key file not found"):
        load_public_key(tmp_path / "nope.pem")


def test_signer_names_its_key(tmp_path):
    files = new_key_pair(tmp_path)
    signer = Signer.from_file(files.private)
    assert signer.manifest_entry() == {"signed": True, "algorithm": "Ed25519",
                                       "key_fingerprint": files.fingerprint, "file": "manifest.sig"}
    signature = signer.sign(b"data")
    assert len(signature) == 64
    load_public_key(files.public).verify(signature, b"data")
