"""Sealing a deliverable to its recipient (docs/validation.md, section 4): HPKE (RFC 9180) in base
mode, DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, single shot, from `cryptography`.

A sealed file is the line "poolgen-sealed/1 NAME\\n" followed by HPKE's encapsulated key and
ciphertext; `info` is "poolgen/seal/v1" || 0x00 || NAME, so a file cannot be passed off under another
name. Only the holder of the recipient's private key can open it; a wrong key fails (InvalidTag).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.hpke import AEAD, KDF, KEM, Suite

from audit.read.limits import pem_problem
from poolgen.errors import PoolgenError
from poolgen.files.read import printable, read_input, read_secret
from poolgen.limits import MAX_KEY_FILE_BYTES

SUITE = Suite(KEM.X25519, KDF.HKDF_SHA256, AEAD.AES_256_GCM)
MAGIC = b"poolgen-sealed/1 "
MAX_NAME_BYTES = 255  # a file name (NAME_MAX of Linux file systems)


class SealError(PoolgenError):
    """A file that cannot be sealed or opened."""


def new_recipient_key(folder: Path) -> tuple[Path, Path]:
    """recipient-key.pem (private, 0600) and recipient-key.pub.pem in `folder`: the pair or nothing,
    neither written over (as `keys new`, poolgen.run.signing.new_key_pair)."""
    from poolgen.files.write import write_key_pair  # noqa: PLC0415

    key = X25519PrivateKey.generate()
    private, public = Path(folder) / "recipient-key.pem", Path(folder) / "recipient-key.pub.pem"
    write_key_pair(private, key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()),
                   public, key.public_key().public_bytes(serialization.Encoding.PEM,
                                                         serialization.PublicFormat.SubjectPublicKeyInfo),
                   kind="recipient")
    return private, public


def _info(name: str) -> bytes:
    return b"poolgen/seal/v1\x00" + name.encode("utf-8")


def plain_name(name: str) -> bool:
    """A name a sealed file can carry: printable UTF-8 of at most MAX_NAME_BYTES, no path."""
    return (0 < len(name.encode("utf-8", "surrogatepass")) <= MAX_NAME_BYTES and name.isprintable()
            and "/" not in name and name not in (".", ".."))


def seal(data: bytes, name: str, recipient: X25519PublicKey) -> bytes:
    """The sealed file of `data` under `name`; SealError if `name` is not a plain_name."""
    if not plain_name(name):
        raise SealError(f"its name goes into the sealed file and must be printable UTF-8 of at most "
                        f"{MAX_NAME_BYTES} bytes")
    return MAGIC + name.encode("utf-8") + b"\n" + SUITE.encrypt(data, recipient, info=_info(name))


def unseal(sealed: bytes, key: X25519PrivateKey, source: Path | str = "sealed file") -> tuple[str, bytes]:
    """(name, data); SealError naming `source` if the file is not sealed or not to this key, or was
    changed."""
    end = sealed.find(b"\n", 0, len(MAGIC) + MAX_NAME_BYTES + 1)
    if not sealed.startswith(MAGIC) or end < 0:
        raise SealError(f"{source}: not a poolgen-sealed/1 file")
    try:
        name = sealed[len(MAGIC):end].decode("utf-8")
    except UnicodeDecodeError:
        name = ""
    if not plain_name(name):
        raise SealError(f"{source}: not a poolgen-sealed/1 file (its name is not a plain file name)")
    try:
        return name, SUITE.decrypt(sealed[end + 1:], key, info=_info(name))
    except (InvalidTag, ValueError):
        raise SealError(f"{source}: {name}: cannot be opened with this key (another recipient's, or the file "
                        "was changed)") from None


def recipient_fingerprint(key: X25519PublicKey) -> str:
    """First 16 hex digits of SHA-256(raw public key), in groups of four joined by colons (as a
    signing key's): read it to the recipient over another channel before sending."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    digits = hashlib.sha256(raw).hexdigest()[:16]
    return ":".join(digits[i:i + 4] for i in range(0, 16, 4))


def load_public(path: Path) -> X25519PublicKey:
    data = read_input(Path(path), "public key", SealError)
    if (problem := pem_problem(data)) is not None:
        raise SealError(f"{printable(path)}: not a PEM public key: {problem}")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, UnsupportedAlgorithm):
        raise SealError(f"{printable(path)}: not a PEM public key") from None
    if not isinstance(key, X25519PublicKey):
        raise SealError(f"{printable(path)}: not an X25519 public key")
    return key


def load_private(path: Path, allow_readable: bool = False) -> X25519PrivateKey:
    """The recipient's private key (a secret: refused if others may read it, as every key is, unless
    `allow_readable`)."""
    data = read_secret(Path(path), "private key", SealError, MAX_KEY_FILE_BYTES, allow_readable)
    if (problem := pem_problem(data)) is not None:
        raise SealError(f"{printable(path)}: not a PEM private key: {problem}")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise SealError(f"{printable(path)}: the private key is encrypted; a recipient key is kept "
                        "unencrypted") from None
    except (ValueError, UnsupportedAlgorithm):
        raise SealError(f"{printable(path)}: not a PEM private key") from None
    if not isinstance(key, X25519PrivateKey):
        raise SealError(f"{printable(path)}: not an X25519 private key")
    return key
