"""Run folders fuzzed: a run file with bytes changed, cut short or grown, read by both verifiers. Each
run ends in a verdict (exit 1: a step fails) or a one-line refusal (exit 2), never a traceback, never
a hang (an alarm), never "verified". The run is tests/boundary/conftest.py's `printed_run`."""

from __future__ import annotations

import shutil
import signal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app

FILES = ["pool-p1.parquet", "imaging-p1.parquet", "packs.csv", "validation-low.bin", "validation-high.bin",
         "manifest.sig"]


def _alarm(signum, frame):
    raise TimeoutError("verify still running after 60 s")


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(FILES), verifier=st.sampled_from(["poolgen", "audit"]), how=st.sampled_from(
    ["flip", "cut", "grow"]), data=st.data())
def test_a_changed_run_file_is_a_verdict_or_one_line(printed_run, tmp_path_factory, name, verifier, how,
                                                      data):
    run = tmp_path_factory.mktemp("fuzz") / "r"
    shutil.copytree(printed_run / "runs" / "r", run)
    whole = bytearray((run / name).read_bytes())
    if how == "flip":
        for _ in range(data.draw(st.integers(1, 8), label="flips")):
            at = data.draw(st.sampled_from([0, 1, 2, 3, len(whole) - 1]) | st.integers(0, len(whole) - 1))
            whole[at] ^= data.draw(st.integers(1, 255))
    elif how == "cut":
        whole = whole[:data.draw(st.integers(0, len(whole) - 1), label="length")]
    else:
        whole += data.draw(st.binary(min_size=1, max_size=64), label="tail")
    (run / name).write_bytes(bytes(whole))
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    try:
        result = CliRunner().invoke(app if verifier == "poolgen" else audit_app, [
            "verify", str(run), "--public-key", str(printed_run / "keys" / "signing-key.pub.pem"),
            "--validation-key", str(printed_run / "low.key"),
            "--high-validation-key", str(printed_run / "high.key"), "--workers", "1"])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert result.exit_code in (1, 2), (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("audit: error: ") and result.stdout == "", lines
    else:
        assert "NOT verified" in result.stdout
