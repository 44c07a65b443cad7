"""Who may receive each file of a run (poolgen/deliverables/roles.py), as `poolgen generate` says
it; both validation keys or neither."""

from __future__ import annotations

from poolgen.deliverables.roles import who_gets_what
from tests.support import SEED_A, spec_path
from tests.support.cli import invoke


def test_generate_says_who_may_receive_each_file(tmp_path):
    (tmp_path / "s").write_text(SEED_A.hex() + "\n")
    (tmp_path / "s").chmod(0o600)  # a seed file others may read is refused
    for t in ("low", "high"):
        assert invoke("keys", "validation", "new", tmp_path / f"{t}.key").exit_code == 0
    result = invoke(
        "generate",
        spec_path("wild_side"),
        "--pool",
        "p2",
        "--out",
        tmp_path / "runs",
        "--run-id",
        "r",
        "--seed-file",
        tmp_path / "s",
        "--unsigned",
        "--validation-key",
        tmp_path / "low.key",
        "--high-validation-key",
        tmp_path / "high.key",
    )
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "may leave the building" in line]
    assert [line.split(":")[0] for line in lines] == [
        "pool-*.parquet",
        "imaging-*.parquet",
        "validation-low.bin",
        "validation-high.bin",
        "packs.csv",
        "manifest.json",  # --unsigned: no manifest.sig is written, so none is named
    ]
    later = [line for line in result.output.splitlines() if line.startswith("later, ")]
    assert [line.split(": ")[0] for line in later] == [  # every file the other commands write, too
        "later, RUN.seed (a fresh seed), contribution files",
        "later, `proof` PDF (specimens), `report` PDF, `publish` bundle",
        "later, `proof --real` PDF, `report --internal` PDF",
        "later, `imaging export` CSV or fixed-width records, `seal` output",
    ]
    one = invoke(
        "generate",
        spec_path("wild_side"),
        "--pool",
        "p2",
        "--out",
        tmp_path / "runs",
        "--run-id",
        "r2",
        "--seed-file",
        tmp_path / "s",
        "--unsigned",
        "--validation-key",
        tmp_path / "low.key",
    )
    assert one.exit_code == 2
    assert "give both --validation-key and --high-validation-key, or neither" in one.output


def test_a_signed_run_names_its_signature_beside_the_manifest():
    assert who_gets_what(set(), later=False) == [
        "manifest.json, manifest.sig: holds no outcome; may leave the building to anyone"]
    assert who_gets_what(set(), later=False, signed=False) == [
        "manifest.json: holds no outcome; may leave the building to anyone"]


def test_a_run_without_imaging_files_is_not_told_of_imaging_export_or_seal():
    # an eInstant run's deliverables are its pool files alone: `imaging export` and `seal` refuse it
    later = [line.split(": ")[0] for line in who_gets_what({"pool"}) if line.startswith("later, ")]
    assert later == [
        "later, RUN.seed (a fresh seed), contribution files",
        "later, `proof` PDF (specimens), `report` PDF, `publish` bundle",
        "later, `proof --real` PDF, `report --internal` PDF",
    ]
    printed = [line for line in who_gets_what({"pool", "imaging", "packs"}) if line.startswith("later, ")]
    assert printed[-1] == ("later, `imaging export` CSV or fixed-width records, `seal` output: "
                           "hold outcomes, mode 0600: the printer only (sealed)")
