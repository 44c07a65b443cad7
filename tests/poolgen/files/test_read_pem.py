"""The one-PEM-block rule (audit/read/limits.py's pem_problem, which poolgen uses), at every key poolgen
reads (signing keys, public keys, a recipient's keys): a key file is one PEM block and nothing else.
cryptography's loaders skip whatever comes before or after the block, so a byte-order mark, or a line
of text, before `-----BEGIN` was accepted; now refused in one line naming the file (exit 2)."""

from __future__ import annotations

import pytest

from audit.read.limits import pem_problem  # the rule poolgen's key loaders apply
from poolgen.deliverables.seal import SealError, load_private, load_public, new_recipient_key
from poolgen.errors import SigningKeyError
from poolgen.run.signing import load_private_key, load_public_key, new_key_pair
from tests.support import SEED_A, small_happy_holidays
from tests.support.cli import invoke, one_line

BOM = "a byte-order mark before -----BEGIN (the file must be one PEM block and nothing else)"
BEFORE = "text before -----BEGIN (the file must be one PEM block and nothing else)"
AFTER = "text after -----END (the file must be one PEM block and nothing else)"

WRAPPED = [
    ("a byte-order mark", lambda pem: b"\xef\xbb\xbf" + pem, BOM),
    ("a line before", lambda pem: b"key for the lottery\n" + pem, BEFORE),
    ("a blank line before", lambda pem: b"\n" + pem, BEFORE),
    ("a line after", lambda pem: pem + b"paid in full\n", AFTER),
    ("two blocks", lambda pem: pem + pem, AFTER),
    ("a space in the base64", lambda pem: pem.replace(b"\n", b" \n", 2), "not one PEM block (-----BEGIN, "
     "base64 lines, the same -----END, nothing else)"),
]


@pytest.mark.parametrize(("wrap", "why"), [(w, y) for _, w, y in WRAPPED], ids=[n for n, _, _ in WRAPPED])
def test_a_signing_key_with_anything_around_its_pem_block_is_refused(tmp_path, wrap, why):
    files = new_key_pair(tmp_path / "keys")
    for path, load, what in ((files.private, load_private_key, "private"),
                             (files.public, load_public_key, "public")):
        path.write_bytes(wrap(path.read_bytes()))
        with pytest.raises(SigningKeyError) as raised:
            load(path)
        assert str(raised.value) == f"{path}: not a PEM {what} key: {why}"


def test_a_recipient_key_with_a_byte_order_mark_is_refused(tmp_path):
    private, public = new_recipient_key(tmp_path / "printer")
    for path, load, what in ((private, load_private, "private"), (public, load_public, "public")):
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
        with pytest.raises(SealError) as raised:
            load(path)
        assert str(raised.value) == f"{path}: not a PEM {what} key: {BOM}"


def test_generate_with_a_signing_key_behind_a_byte_order_mark_exits_2_and_writes_nothing(tmp_path):
    files = new_key_pair(tmp_path / "keys")
    files.private.write_bytes(b"\xef\xbb\xbf" + files.private.read_bytes())
    seed = tmp_path / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    spec = small_happy_holidays(tmp_path, 3000)
    result = invoke("generate", spec, "--out", tmp_path / "runs", "--seed-file", seed, "--key", files.private)
    one_line(result, "poolgen", f"{files.private}: not a PEM private key: {BOM}")
    assert not (tmp_path / "runs").exists() or list((tmp_path / "runs").iterdir()) == []


def test_the_files_poolgen_writes_and_crlf_lines_and_a_trailing_blank_line_pass(tmp_path):
    files = new_key_pair(tmp_path / "keys")
    pem = files.public.read_bytes()
    assert pem_problem(pem) is None and pem_problem(files.private.read_bytes()) is None
    assert pem_problem(pem.replace(b"\n", b"\r\n")) is None and pem_problem(pem + b"\n\n") is None
    assert pem_problem(b"hello") is None  # no block at all: cryptography says "not a PEM ... key"
