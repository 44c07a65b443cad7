"""An insider against the ceremony, as audit sees it (docs/ceremony.md, "Verifying"): transcripts that
poolgen's `ceremony new` would never make but an operator can write and sign by hand, and a run whose
seed did not come from the ceremony its manifest records. Each is refused, naming why. The sealed run
is the root conftest's `sealed_run`."""

from __future__ import annotations

import json
import os

from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.files.write import canonical_bytes
from poolgen.run.signing import load_private_key
from tests.support import spec_path
from tests.support.ceremony import ok


def test_a_chosen_seed_dressed_with_a_real_ceremony_is_refused_a_seed_file(sealed_run, tmp_path):
    # The operator generates from a seed it chose, then copies the real sealed ceremony's entry (same
    # spec, code, game, pools and run id) into the manifest and signs it again. The seed file matches
    # the seed commitment; only the ceremony's reveals could show the seed is not the ceremony's.
    chosen = tmp_path / "chosen.seed"
    chosen.write_text("42" * 32 + "\n")
    os.chmod(chosen, 0o600)
    ok("generate", str(spec_path("wild_side")), "--out", str(tmp_path / "runs"), "--pool", "p1",
       "--workers", "1", "--run-id", "r", "--key", str(sealed_run.keys.private), "--seed-file", str(chosen))
    run = tmp_path / "runs" / "r"
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["ceremony"] = json.loads((sealed_run.run / "manifest.json").read_bytes())["ceremony"]
    data = canonical_bytes(doc)
    (run / "manifest.json").write_bytes(data)
    (run / "manifest.sig").write_bytes(load_private_key(sealed_run.keys.private).sign(data))
    result = CliRunner().invoke(audit_app, ["verify", str(run), "--public-key", str(sealed_run.keys.public),
                                            "--spec", str(spec_path("wild_side")), "--seed-file", str(chosen),
                                            "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["failed_steps"] == [7]
    assert report["steps"][6]["reasons"] == [
        "the manifest records seed ceremony 'c1': its seed is checked from the ceremony file (--ceremony), "
        "not a seed file, which cannot show that the ceremony gave it"]
