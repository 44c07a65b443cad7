"""audit/read/limits.py's pem_problem, at the auditor's trusted key (--public-key): one PEM block and
nothing else. cryptography's loader skips what surrounds the block, so a key behind a byte-order mark
or a line of text was trusted; now refused in one line naming the file (exit 2)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from audit.errors import UnusableInput
from audit.read.limits import pem_problem
from audit.read.manifest import load_public_key
from poolgen.run.signing import new_key_pair

WRAPPED = [
    ("a byte-order mark", lambda pem: b"\xef\xbb\xbf" + pem,
     "a byte-order mark before -----BEGIN (the file must be one PEM block and nothing else)"),
    ("a line before", lambda pem: b"signing key\n" + pem,
     "text before -----BEGIN (the file must be one PEM block and nothing else)"),
    ("a line after", lambda pem: pem + b"trust me\n",
     "text after -----END (the file must be one PEM block and nothing else)"),
    ("the END of another kind", lambda pem: pem.replace(b"END PUBLIC", b"END CERTIFICATE"),
     "not one PEM block (-----BEGIN, base64 lines, the same -----END, nothing else)"),
]


@pytest.mark.parametrize(("wrap", "why"), [(w, y) for _, w, y in WRAPPED], ids=[n for n, _, _ in WRAPPED])
def test_a_trusted_key_with_anything_around_its_pem_block_is_unusable_input(tmp_path, wrap, why):
    public = new_key_pair(tmp_path / "keys").public
    public.write_bytes(wrap(public.read_bytes()))
    with pytest.raises(UnusableInput) as raised:
        load_public_key(public)
    assert str(raised.value) == f"{public}: not a PEM public key: {why}"


def test_verify_with_a_key_behind_a_byte_order_mark_exits_2_in_one_line(tmp_path):
    public = new_key_pair(tmp_path / "keys").public
    public.write_bytes(b"\xef\xbb\xbf" + public.read_bytes())
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "manifest.json").write_text("{}")
    result = CliRunner().invoke(audit_app, ["verify", str(tmp_path / "run"), "--public-key", str(public)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"audit: error: {public}: not a PEM public key: a byte-order mark before "
                             "-----BEGIN (the file must be one PEM block and nothing else)\n")


def test_the_key_poolgen_writes_passes_and_a_file_without_a_block_is_left_to_cryptography(tmp_path):
    public = new_key_pair(tmp_path / "keys").public
    assert pem_problem(public.read_bytes()) is None
    assert pem_problem(public.read_bytes().replace(b"\n", b"\r\n") + b"\r\n") is None
    assert pem_problem(b"not a key") is None
    public.write_bytes(b"not a key")
    with pytest.raises(UnusableInput, match=r": not a PEM public key$"):
        load_public_key(public)
