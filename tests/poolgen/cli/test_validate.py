"""poolgen/cli/validate.py: `validate --batch` reads a bounded CSV of claims (poolgen/limits.py:
MAX_BATCH_BYTES, MAX_BATCH_CLAIMS), refused in one line naming the file before any claim is parsed or the
run is opened. The byte bound lived in the command alone, beside no other bound; the claims had none:
64 MiB of short lines is 2.3 million claims, held at about 470 bytes each (a gigabyte) before the first
was answered."""

from __future__ import annotations

import os

from poolgen.limits import MAX_BATCH_BYTES, MAX_BATCH_CLAIMS
from tests.support.cli import invoke, one_line

CLAIM = "465-0000000-000,000000000000\n"


def test_a_batch_file_over_the_byte_bound_is_refused_unread(tmp_path):
    batch = tmp_path / "claims.csv"
    with open(batch, "wb") as f:
        f.truncate(MAX_BATCH_BYTES + 1)  # sparse: no disk used
    result = invoke("validate", tmp_path / "no-run", "--public-key", tmp_path / "no.pem", "--batch", batch)
    one_line(result, "poolgen", f"{batch}: 67,108,865 bytes, larger than 67,108,864; not a claims file")


def test_a_batch_of_more_claims_than_the_bound_is_refused_before_one_is_parsed(tmp_path):
    batch = tmp_path / "claims.csv"
    batch.write_text("ticket,virn\n" + CLAIM * (MAX_BATCH_CLAIMS + 1))
    assert os.path.getsize(batch) < MAX_BATCH_BYTES
    result = invoke("validate", tmp_path / "no-run", "--public-key", tmp_path / "no.pem", "--batch", batch)
    one_line(result, "poolgen", f"{batch}: more than 1,000,000 claims; give them in batches of at most that "
                                "many")


def test_a_batch_of_exactly_the_bound_passes_the_count_and_goes_on_to_the_run(tmp_path):
    batch = tmp_path / "claims.csv"
    batch.write_text("ticket,virn\n" + CLAIM * MAX_BATCH_CLAIMS)
    result = invoke("validate", tmp_path / "no-run", "--public-key", tmp_path / "no.pem", "--batch", batch,
                    "--ledger", tmp_path / "l.sqlite")
    assert result.exit_code == 2 and "claims" not in result.stderr, result.stderr


def test_a_batch_behind_a_byte_order_mark_says_so(tmp_path):
    """A spreadsheet's "CSV UTF-8" begins with a byte-order mark: its header looked right and was refused
    as `its first line must be the header ticket,virn`."""
    batch = tmp_path / "claims.csv"
    batch.write_bytes(b"\xef\xbb\xbfticket,virn\n" + CLAIM.encode())
    result = invoke("validate", tmp_path / "no-run", "--public-key", tmp_path / "no.pem", "--batch", batch)
    one_line(result, "poolgen", f"{batch}: its first line must be the header ticket,virn (it begins with a "
                                "byte-order mark: save it as UTF-8 without one)")
