"""Ed25519 signing keys: creating a key pair, loading keys, signing a run's manifest.

Files: `signing-key.pem` (PKCS#8 private key, mode 0600, optionally encrypted with a passphrase)
and `signing-key.pub.pem` (SubjectPublicKeyInfo). A key is named by its fingerprint: the first 16
hex digits of SHA-256 over the 32 raw public key bytes, shown in groups of four
("1f0c:9ab2:...").

The caller supplies the passphrase (the CLI reads it from POOLGEN_KEY_PASSPHRASE or a prompt);
nothing here reads the environment or the terminal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from audit.read.limits import pem_problem
from poolgen.errors import OutputError, SigningKeyError
from poolgen.files.read import PASSPHRASE_ENV, read_input, read_with_mode, refuse_readable
from poolgen.files.write import make_folders, present, refuse_run_folder, write_atomic, write_key_pair
from poolgen.limits import MAX_KEY_FILE_BYTES
from poolgen.run.manifest import MANIFEST, SIGNATURE

PRIVATE_FILE = "signing-key.pem"
PUBLIC_FILE = "signing-key.pub.pem"
SIGNATURE_ALGORITHM = "Ed25519"

__all__ = ["PASSPHRASE_ENV", "KeyPairFiles", "Signer", "fingerprint", "load_private_key",
           "load_public_key", "new_key_pair", "unsigned_entry"]


def fingerprint(public_key: Ed25519PublicKey) -> str:
    """First 16 hex digits of SHA-256(raw public key), in groups of four joined by colons."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    digits = hashlib.sha256(raw).hexdigest()[:16]
    return ":".join(digits[i:i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True)
class KeyPairFiles:
    private: Path
    public: Path
    fingerprint: str
    encrypted: bool


def new_key_pair(folder: Path, passphrase: bytes | None = None) -> KeyPairFiles:
    """Create a fresh key pair in `folder`; existing key files are never overwritten."""
    folder = Path(folder)
    if passphrase is not None and not 0 < len(passphrase) <= 1023:
        raise SigningKeyError("a passphrase is 1 to 1023 bytes long")
    refuse_run_folder(folder, "signing key")
    try:
        make_folders(folder, 0o700)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot create key folder: {exc.strerror or exc}") from None
    private_path, public_path = folder / PRIVATE_FILE, folder / PUBLIC_FILE
    for path in (private_path, public_path):
        if present(path):
            raise OutputError(f"{path}: already exists; not overwriting a key")
    key = Ed25519PrivateKey.generate()
    encryption = (serialization.BestAvailableEncryption(passphrase) if passphrase
                  else serialization.NoEncryption())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    public = key.public_key()
    spki = serialization.PublicFormat.SubjectPublicKeyInfo
    write_key_pair(private_path, pem, public_path, public.public_bytes(serialization.Encoding.PEM, spki))
    return KeyPairFiles(private_path, public_path, fingerprint(public), passphrase is not None)


def load_private_key(path: Path, passphrase: Callable[[], bytes] | None = None,
                     allow_readable: bool = False) -> Ed25519PrivateKey:
    """Load an Ed25519 private key. `passphrase()` is asked for only if the key is encrypted. A key
    file others may read is refused unless `allow_readable`."""
    data, mode = read_with_mode(path, "private key", SigningKeyError, MAX_KEY_FILE_BYTES)
    if b"PUBLIC KEY-----" in data:
        raise SigningKeyError(f"{path}: is a public key; signing needs the private key "
                              f"({PRIVATE_FILE})")
    refuse_readable(path, "private key", mode, SigningKeyError, allow_readable)
    if (problem := pem_problem(data)) is not None:
        raise SigningKeyError(f"{path}: not a PEM private key: {problem}")
    encrypted = b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in data
    password = None
    if encrypted:
        if passphrase is None:
            raise SigningKeyError(f"{path}: the private key is encrypted; give its passphrase "
                                  f"(--passphrase or {PASSPHRASE_ENV})")
        password = passphrase()
    try:
        key = serialization.load_pem_private_key(data, password=password)
    except ValueError:
        if encrypted:
            raise SigningKeyError(f"{path}: wrong passphrase for the private key") from None
        raise SigningKeyError(f"{path}: not a PEM private key") from None
    except (TypeError, UnsupportedAlgorithm):
        raise SigningKeyError(f"{path}: not a PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{path}: not an Ed25519 key (found {type(key).__name__})")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    """Load an Ed25519 public key (PEM SubjectPublicKeyInfo)."""
    data = read_input(path, "public key", SigningKeyError)
    if b"PRIVATE KEY-----" in data:
        raise SigningKeyError(f"{path}: is a private key; give the public key ({PUBLIC_FILE})")
    if (problem := pem_problem(data)) is not None:
        raise SigningKeyError(f"{path}: not a PEM public key: {problem}")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, UnsupportedAlgorithm):
        raise SigningKeyError(f"{path}: not a PEM public key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise SigningKeyError(f"{path}: not an Ed25519 key (found {type(key).__name__})")
    return key


def unsigned_entry() -> dict[str, Any]:
    """The manifest's `signature` entry of a run made with --unsigned."""
    return {"signed": False}


@dataclass(frozen=True)
class Signer:
    """Signs a run: the manifest names the key, and manifest.sig holds the detached signature."""

    key: Ed25519PrivateKey

    @classmethod
    def from_file(cls, path: Path, passphrase: Callable[[], bytes] | None = None,
                  allow_readable: bool = False) -> Signer:
        return cls(load_private_key(path, passphrase, allow_readable))

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key.public_key())

    def manifest_entry(self) -> dict[str, Any]:
        """The manifest's `signature` entry: what signs it and where the signature is."""
        return {"signed": True, "algorithm": SIGNATURE_ALGORITHM, "key_fingerprint": self.fingerprint,
                "file": SIGNATURE}

    def sign(self, data: bytes) -> bytes:
        return self.key.sign(data)

    def sign_run(self, folder: Path, manifest: dict[str, Any] | None = None) -> None:
        """Write manifest.sig over the exact bytes of folder/manifest.json, and check it."""
        data = (Path(folder) / MANIFEST).read_bytes()
        signature = self.sign(data)
        try:
            self.key.public_key().verify(signature, data)
        except InvalidSignature:  # pragma: no cover - a broken backend, not a user error
            raise SigningKeyError("the signature just made does not verify") from None
        write_atomic(Path(folder) / SIGNATURE, signature)
