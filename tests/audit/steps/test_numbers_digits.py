"""Step 7 of audit alone re-derives validation numbers with the manifest's print.virn_digits, which
step 5 holds to 9..18 but step 7 read as given: a run whose manifest says 1,000,000,000 digits made
`python -m audit verify --seed-file` compute 10^(10^9) and never answer (a hostile manifest needs no
valid signature: every step runs). Out of that range step 7 re-derives nothing and step 5 says why."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support import ROOT, SEED_A
from tests.support.reseal import resign, signed_small_run


@pytest.mark.parametrize("digits", [10**9, 19])
def test_virn_digits_out_of_range_fail_step_5_and_leave_step_7_alone(tmp_path, digits):
    signed = signed_small_run(tmp_path, 3000)
    seed = tmp_path / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    resign(signed["run"], lambda doc: doc["print"].update(virn_digits=digits), signed["signer"])
    done = subprocess.run([sys.executable, "-m", "audit", "verify", str(signed["run"]), "--public-key",
                           str(signed["public"]), "--seed-file", str(seed), "--json"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    steps = {s["step"]: s for s in json.loads(done.stdout)["steps"]}
    assert done.returncode == 1, done.stderr
    assert steps[5]["status"] == "fail"
    assert f"print.virn_digits '{digits}', not 'a whole number, 9 to 18'" in steps[5]["reasons"][0]
    assert (steps[7]["status"], steps[7]["details"]) == (  # no spec: no book slots either, and it says so
        "skip", ["seed matches the commitment; the salts and tier order of 1 pool(s) re-derived from the "
                 "seed; book numbers not re-derived: give --spec (the order's book slots are the spec's)"])
