"""A run folder's files as an adversary leaves them, read by both verifiers (`poolgen verify`, `python -m
audit verify`) and by poolgen's own readers of a run (`prove`): a pipe, a device, a symbolic link out of
the folder or in a loop, a file far larger than it can be, a Parquet footer declaring gigabytes, a
column of another type than docs/pool-files.md documents. Each is refused in one line naming the file
(audit/read/runfiles.py), exit 2, no traceback, and never hangs: every command runs under an alarm.

The run is tests/boundary/conftest.py's `printed_run` (one pool of 3,000 tickets, every deliverable).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support.cli import one_line
from tests.support.parquet import declare_decoded_size

POOL, IMAGING, PACKS, LOW = "pool-p1.parquet", "imaging-p1.parquet", "packs.csv", "validation-low.bin"
TICKETS = 3000
LOW_LIMIT = 4096 + 48 * TICKETS  # a validation file's header and 48 bytes a ticket (runfiles.py)
CHUNK_LIMIT = 256 * TICKETS + (1 << 20)  # a column chunk of 3,000 rows, decoded (audit/read/parquet.py)


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail, rather than hang, if the block takes longer than `seconds`."""
    def alarm(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def fifo(name: str) -> Callable[[Path], str]:
    def make(run: Path) -> str:
        (run / name).unlink()
        os.mkfifo(run / name)
        what = {POOL: "a pool", IMAGING: "an imaging", PACKS: "a pack list", LOW: "a validation",
                "manifest.sig": "a signature"}[name]
        return f"{run / name}: is not a regular file (a pipe, device or socket); not {what} file"
    return make


def to_dev_zero(run: Path) -> str:
    (run / LOW).unlink()
    (run / LOW).symlink_to("/dev/zero")
    return f"{run / LOW}: a symbolic link out of the run folder (to /dev/zero); not a validation file"


def loop(run: Path) -> str:
    (run / LOW).unlink()
    (run / LOW).symlink_to("loop")
    (run / "loop").symlink_to(LOW)
    return f"{run / LOW}: a symbolic link in a loop or to nothing; not a validation file"


def pool_out_of_the_folder(run: Path) -> str:
    outside = run.parent / "elsewhere.parquet"
    shutil.move(run / POOL, outside)
    (run / POOL).symlink_to(outside)
    return f"{run / POOL}: a symbolic link out of the run folder (to {outside}); not a pool file"


def packs_a_folder(run: Path) -> str:
    (run / PACKS).unlink()
    (run / PACKS).mkdir()
    return f"{run / PACKS}: is a folder, not a pack list file"


def sparse_validation(run: Path) -> str:
    with open(run / LOW, "r+b") as f:
        f.truncate(100 << 30)  # 100 GiB that take no disk: refused by its size, never read
    return f"{run / LOW}: {100 << 30:,} bytes, larger than {LOW_LIMIT:,}; not a validation file"


def rewrite(column: str, dtype) -> Callable[[Path], str]:
    def make(run: Path) -> str:
        table = pl.read_parquet(run / POOL)
        table.with_columns(pl.col(column).cast(dtype)).write_parquet(run / POOL)
        return (f"{run / POOL}: column {column!r} is {dtype}; the documented type is "
                f"{table.schema[column]}")
    return make


def float_layout(run: Path) -> str:
    pl.read_parquet(run / POOL).with_columns(pl.col("play_spot_0").cast(pl.Float64)).write_parquet(run / POOL)
    return f"{run / POOL}: column 'play_spot_0' is Float64; a run's columns are integers or text"


def three_gigabytes(name: str, column: str) -> Callable[[Path], str]:
    def make(run: Path) -> str:
        declare_decoded_size(run / name, column, 3 << 30)
        what = "pool" if name == POOL else "imaging"
        return (f"{run / name}: not a usable {what} file: column {column} declares {3 << 30:,} bytes decoded "
                f"for {TICKETS:,} rows (at most {CHUNK_LIMIT:,})")
    return make


def cut_short(run: Path) -> str:
    data = (run / POOL).read_bytes()
    (run / POOL).write_bytes(data[:len(data) // 2])
    return f"{run / POOL}: not a usable pool file: does not end with PAR1: not a Parquet file (or cut short)"


CASES: dict[str, Callable[[Path], str]] = {
    "fifo pool": fifo(POOL), "fifo imaging": fifo(IMAGING), "fifo packs": fifo(PACKS),
    "fifo validation": fifo(LOW), "fifo signature": fifo("manifest.sig"),
    "validation -> /dev/zero": to_dev_zero, "symlink loop": loop,
    "pool out of the folder": pool_out_of_the_folder,
    "packs a folder": packs_a_folder, "100 GiB validation file": sparse_validation,
    "position int64": rewrite("position", pl.Int64), "prize_cents int32": rewrite("prize_cents", pl.Int32),
    "ticket_no uint32": rewrite("ticket_no", pl.UInt32), "layout float": float_layout,
    "pool column of 3 GB": three_gigabytes(POOL, "salt"),
    "imaging column of 3 GB": three_gigabytes(IMAGING, "barcode"),
}
PROVE_CASES = {**CASES, "pool cut short": cut_short}
POOL_CASES = ["fifo pool", "pool out of the folder", "position int64", "layout float", "pool column of 3 GB",
              "pool cut short"]


@pytest.fixture
def hostile(printed_run, tmp_path, request) -> tuple[Path, str]:
    run = tmp_path / "r"
    shutil.copytree(printed_run / "runs" / "r", run, symlinks=True)
    return run, PROVE_CASES[request.param](run)


def _prefix(application) -> str:
    """`poolgen verify` speaks as poolgen, `audit verify` as audit."""
    return "poolgen" if application is app else "audit"


def _verify(application, run: Path, root: Path):
    with within(30):
        return CliRunner().invoke(application, [
            "verify", str(run), "--public-key", str(root / "keys" / "signing-key.pub.pem"),
            "--validation-key", str(root / "low.key"), "--high-validation-key", str(root / "high.key"),
            "--workers", "1"])


@pytest.mark.parametrize("hostile", list(CASES), indirect=True)
def test_both_verifiers_refuse_in_one_line(printed_run, hostile):
    run, message = hostile
    for application in (app, audit_app):
        result = _verify(application, run, printed_run)
        prefix = _prefix(application)
        one_line(result, prefix, message)
        assert result.stderr == f"{prefix}: error: {message}\n"


@pytest.mark.parametrize("hostile", POOL_CASES, indirect=True)
def test_prove_refuses_a_hostile_pool_file_in_one_line(hostile):
    run, message = hostile
    with within(30):
        result = CliRunner().invoke(app, ["prove", str(run), "465-0000000-000", "0" * 12])
    one_line(result, "poolgen", f"{run}: cannot read pool p1 ({POOL}): {message}")
    assert result.stderr == f"poolgen: error: {run}: cannot read pool p1 ({POOL}): {message}\n"


def test_a_damaged_pool_file_is_a_failed_step_not_a_refusal(printed_run, tmp_path):
    """A pool file that is not Parquet at all (cut short) is damaged, not hostile: nothing of it is
    read, and the checklist says so (steps 2 and 3 fail, exit 1), as `report` draws it."""
    run = tmp_path / "r"
    shutil.copytree(printed_run / "runs" / "r", run)
    message = cut_short(run)
    result = _verify(audit_app, run, printed_run)
    assert result.exit_code == 1 and result.stderr == "", result.output
    assert "3 completeness  FAIL  pool p1: pool-p1.parquet cannot be read as Parquet: UnusableInput: " \
        f"{message}" in result.stdout


def test_the_untouched_run_verifies(printed_run):
    result = _verify(audit_app, printed_run / "runs" / "r", printed_run)
    assert result.exit_code == 0, result.output
    assert "validation-low.bin: every one of 3,000 tickets validates to exactly its prize" in result.stdout


def test_an_unhashable_area_style_is_refused_by_the_manifest_reader(printed_run, tmp_path):
    """A list where the play entry names a style ended step 8 in a traceback (`columns_needed`)."""
    run = tmp_path / "r"
    shutil.copytree(printed_run / "runs" / "r", run)
    text = (run / "manifest.json").read_text()
    assert text.count('"style":"match_n"') == 1
    (run / "manifest.json").write_text(text.replace('"style":"match_n"', '"style":["match_n"]'))
    result = _verify(audit_app, run, printed_run)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert ("manifest.json is not a valid manifest: play.areas[0].style: ['match_n'] is not text"
            in result.stdout)
    assert "Traceback" not in result.output and "8 statistics    skip  needs a readable manifest.json" in \
        result.stdout


@pytest.mark.parametrize("workers", ["\u0665", "-1", "1_0", "257", "1\n"])
def test_workers_in_ascii_digits_within_bounds(printed_run, workers):
    for application in (app, audit_app):
        result = CliRunner().invoke(application, ["verify", str(printed_run / "runs" / "r"), "--public-key",
                                                  str(printed_run / "keys" / "signing-key.pub.pem"),
                                                  "--workers", workers])
        said = f"{_prefix(application)}: error: --workers {workers!r}: give a whole number from 0 to 256\n"
        assert (result.exit_code, result.stderr) == (2, said)


def test_a_footer_understating_its_pages_is_refused_by_both_verifiers(printed_run, tmp_path):
    """The other lie: a footer declaring 100 bytes for a column whose pages decode to far more."""
    run = tmp_path / "r"
    shutil.copytree(printed_run / "runs" / "r", run)
    declare_decoded_size(run / POOL, "salt", 100)
    for application in (app, audit_app):
        result = _verify(application, run, printed_run)
        prefix = _prefix(application)
        one_line(result, prefix, f"{run / POOL}: not a usable pool file: column salt: its pages decode to ")
        assert re.fullmatch(rf"{prefix}: error: {re.escape(str(run / POOL))}: not a usable pool file: column "
                            r"salt: its pages decode to [\d,]+ bytes in ([\d,]+), the footer declares 100 in "
                            r"\1\n", result.stderr), result.stderr
