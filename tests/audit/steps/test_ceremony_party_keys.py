"""audit/steps/ceremony.py's check_bound, given the parties' keys (`verify --party-key NAME=FILE`) for a run
seeded from a seed file: the auditor expects a ceremony the manifest does not record, so step 5 fails.
The keys were read and never used: every step passed and the auditor was told `verified`. A
`--party-key NAME=` without a file was read as the current folder (`.: is a folder`)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from audit.checklist import Step
from audit.cli import app as audit_app
from audit.read.manifest import Manifest, load_public_key
from audit.steps.ceremony import check_bound
from audit.verify import attempt
from poolgen.run.signing import new_key_pair
from tests.support.reseal import signed_small_run


def test_party_keys_for_a_run_with_no_ceremony_fail_step_5(tmp_path):
    made = signed_small_run(tmp_path)
    party = new_key_pair(tmp_path / "vendor").public
    manifest = Manifest.parse((made["run"] / "manifest.json").read_bytes())
    assert attempt(Step.FIGURES, check_bound, manifest, None, {"vendor": load_public_key(party)}) == (
        "fail", "the auditor expects a ceremony's parties (--party-key), but the manifest records no "
                "ceremony: the run's seed was chosen by no ceremony")
    result = CliRunner().invoke(audit_app, ["verify", str(made["run"]), "--public-key", str(made["public"]),
                                            "--party-key", f"vendor={party}", "--json"])
    assert result.exit_code == 1, result.output
    steps = json.loads(result.stdout)["steps"]
    assert [(s["step"], s["reasons"]) for s in steps if s["status"] == "fail"] == [
        (5, ["the auditor expects a ceremony's parties (--party-key), but the manifest records no ceremony: "
             "the run's seed was chosen by no ceremony"])]


def test_a_party_key_without_its_file_is_unusable_input(tmp_path):
    result = CliRunner().invoke(audit_app, ["verify", str(tmp_path), "--public-key", str(tmp_path / "k.pem"),
                                            "--party-key", "vendor="])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "audit: error: --party-key 'vendor=': write NAME=FILE\n"
