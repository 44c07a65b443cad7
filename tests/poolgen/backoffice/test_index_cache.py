"""The desk's index folder as a cache shared by desks (poolgen/backoffice/index.py): an index another
desk's pruning removes just as this desk opens it is built again, never an error for the clerk; and the
number of indexes a folder keeps is set by $POOLGEN_DESK_INDEXES (docs/back-office.md, section 2)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from poolgen.backoffice.index import KEEP_ENV
from poolgen.interrupts import PAUSE_ENV
from tests.support.cli import UNRECORDED, invoke


def _claim(office, index: Path):
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)
    return invoke("validate", office["folder"], b, v, "--public-key", office["public"],
                  "--validation-key", office["root"] / "low.key", "--index-dir", index)


def _waited(mark: Path, done: threading.Event) -> bool:
    """Whether the desk waits at its pause (True) rather than having finished (False)."""
    end = time.monotonic() + 60
    while not mark.exists() and not done.is_set() and time.monotonic() < end:
        time.sleep(0.02)
    return mark.exists()


def test_an_index_removed_between_its_check_and_its_open_is_built_again(office, tmp_path, monkeypatch):
    """Another desk's build prunes the folder's indexes opened least recently; one it removed after this
    desk saw it and before this desk opened it was an error for the clerk (`no such desk index`, exit 2).
    Now the desk builds it again and answers the claim."""
    index = tmp_path / "index"
    assert _claim(office, index).exit_code == 0
    [built] = index.glob("*.sqlite")
    mark = tmp_path / "opening"
    monkeypatch.setenv(PAUSE_ENV, f"index-opening:60:{mark}")
    done, pauses = threading.Event(), []

    def other_desk() -> None:
        while _waited(mark, done):
            pauses.append(built.exists())
            if len(pauses) == 1:  # the first open: its index pruned by another desk just then
                for name in (built.name, f"{built.name}-wal", f"{built.name}-shm"):
                    (index / name).unlink(missing_ok=True)
            mark.unlink()

    thread = threading.Thread(target=other_desk)
    thread.start()
    try:
        result = _claim(office, index)
    finally:
        done.set()
        thread.join()
    assert (result.exit_code, result.stderr) == (0, UNRECORDED), (result.output, result.exception)
    assert result.stdout.endswith(": prize $5.00 (low tier)\n"), result.stdout
    assert pauses == [True, True]  # seen, removed before the open; built again and opened
    assert sorted(p.name for p in index.iterdir()) == [built.name]


def _fakes(folder: Path, n: int) -> list[Path]:
    """`n` files named as indexes of other runs, opened long ago (the first least recently)."""
    folder.mkdir(parents=True, exist_ok=True)
    fakes = [folder / f"old-{i:02d}.low.{i:016x}.sqlite" for i in range(n)]
    for i, fake in enumerate(fakes):
        fake.write_bytes(b"")
        os.utime(fake, ns=(1_000 + i, 1_000 + i))
    return fakes


def test_the_number_of_indexes_kept_is_set_by_the_environment(office, tmp_path, monkeypatch):
    """KEEP_INDEXES (64) was fixed: a desk serving many runs at once rebuilt indexes it still needed. Now
    $POOLGEN_DESK_INDEXES sets it: kept 2, a build keeps its own and the one other opened most recently."""
    index = tmp_path / "index"
    fakes = _fakes(index, 3)
    monkeypatch.setenv(KEEP_ENV, "2")
    result = _claim(office, index)
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.stderr.splitlines() == [
        f"removed {index / f.name}: a desk index opened least recently, beyond the 2 kept (rebuilt when "
        "needed)" for f in fakes[:2]] + [UNRECORDED.strip()]
    [built] = index.glob("hh.low.*.sqlite")
    assert sorted(p.name for p in index.iterdir()) == sorted([built.name, fakes[2].name])


@pytest.mark.parametrize("told", ["0", "-1", "x", "2.5", " 3", "1000001", "٣"])
def test_a_number_of_indexes_that_is_not_a_whole_number_is_refused_in_one_line(office, tmp_path, monkeypatch,
                                                                                told):
    index = tmp_path / "index"
    fakes = _fakes(index, 2)
    monkeypatch.setenv(KEEP_ENV, told)
    result = _claim(office, index)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"poolgen: error: {KEEP_ENV}: {ascii(told)} is not a whole number of indexes to "
                             "keep, 1 to 1,000,000\n")
    assert sorted(index.iterdir()) == fakes  # nothing built, nothing removed
