"""The reveal and the desk: a printed ticket's validation number is drawn from the run's seed (its pool's
"virn" stream, docs/validation.md section 2), so the revealed seed, with the revealed pool files (which
name every ticket and its prize), gives every unclaimed winner's barcode and validation number, and the
desk pays them to whoever types them in. The seed is therefore revealed only after the last day to
claim, not at the game's close (docs/publish-and-reveal.md); this test is why, and fails if the
validation numbers ever stop following from the seed. The run is the conftest's `office`."""

from __future__ import annotations

import json

import polars as pl

from poolgen.deliverables.identity import check_digits
from poolgen.seeds.seed import write_seed_file
from tests.support import SEED_A
from tests.support.cli import invoke


def test_the_revealed_seed_and_pool_files_give_every_winners_validation_number(office, tmp_path):
    seed = tmp_path / "revealed.seed"
    write_seed_file(seed, SEED_A)  # what the reveal publishes
    folder = office["folder"]
    doc = json.loads((folder / "manifest.json").read_bytes())
    label = next(s for s in doc["drbg"]["streams"] if s.endswith("/p1/virn"))
    pool = pl.read_parquet(folder / "pool-p1.parquet", columns=["ticket", "prize_cents"])  # revealed too
    position = next(i for i, p in enumerate(pool["prize_cents"].to_list()) if p >= 2000)  # high tier
    digits = doc["print"]["virn_digits"]
    drawn = invoke("rng", "integers", "--seed-file", seed, "--label", label, "--high", str(10 ** digits),
                   "--count", str(position + 1))
    assert drawn.exit_code == 0, drawn.output
    virn = f"{int(drawn.stdout.split()[position]):0{digits}d}"
    ticket = pool["ticket"][position]
    barcode = ticket.replace("-", "") + check_digits(ticket.replace("-", ""))
    printed = pl.read_parquet(folder / "imaging-p1.parquet", columns=["barcode", "virn"]).row(position)
    assert (str(printed[0]), str(printed[1]).zfill(digits)) == (barcode, virn)  # the latex hides nothing
    paid = invoke("validate", folder,
                  "--public-key", office["public"], barcode, virn, "--high-validation-key",
                  office["root"] / "high.key",
                  "--index-dir", office["index"])
    assert paid.exit_code == 0 and paid.output.startswith(f"{barcode} ({ticket}): prize $")
