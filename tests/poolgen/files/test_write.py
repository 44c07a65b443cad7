"""Nothing half-written, nothing replaced: the file and folder primitives, on a real file system."""

from __future__ import annotations

import threading
import time

import pytest

from poolgen.errors import OutputError
from poolgen.files.leftovers import clear_temporaries
from poolgen.files.write import rename_new, staged_folder
from poolgen.interrupts import PAUSE_ENV


def test_rename_new_moves_a_folder_to_a_free_name(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f").write_bytes(b"x")
    rename_new(tmp_path / "a", tmp_path / "b")
    assert (tmp_path / "b" / "f").read_bytes() == b"x" and not (tmp_path / "a").exists()


@pytest.mark.parametrize("taken", ["empty folder", "folder", "file"])
def test_rename_new_never_replaces_anything(tmp_path, taken):
    (tmp_path / "a").mkdir()
    dst = tmp_path / "b"
    if taken == "file":
        dst.write_bytes(b"keep")
    else:
        dst.mkdir()
        if taken == "folder":
            (dst / "f").write_bytes(b"keep")
    with pytest.raises(FileExistsError):
        rename_new(tmp_path / "a", dst)
    assert (tmp_path / "a").is_dir()  # plain rename(2) would have replaced the empty folder


def test_a_folder_that_appears_while_it_is_written_is_left_alone(tmp_path):
    """The message names no run: a publish bundle, a ship or sealed folder is staged the same way."""
    final = tmp_path / "run"
    appeared = r"run: appeared while this folder was being written; not replacing it"
    with pytest.raises(OutputError, match=appeared), staged_folder(final) as folder:
        (folder / "pool.parquet").write_bytes(b"data")
        final.mkdir()  # someone else takes the name, empty, before the run is renamed into place
    assert final.is_dir() and list(final.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # the staged folder is gone too


def test_a_staging_folder_another_write_clears_before_it_is_locked_is_made_again(tmp_path, monkeypatch):
    """Between making its staging folder and locking it, a write's folder looks abandoned to another
    write of the same folder clearing what killed writes left, which removed it; the result of the lock
    was ignored, so the write went on into a folder that no longer existed (a traceback) or that nothing
    held. Now it sees its folder gone and makes another under a new name."""
    final = tmp_path / "bundle"
    mark = tmp_path / "mark"
    monkeypatch.setenv(PAUSE_ENV, f"staging-made:60:{mark}")
    done, seen, cleared = threading.Event(), [], []

    def other_write() -> None:
        end = time.monotonic() + 60
        while not done.is_set() and time.monotonic() < end:
            if mark.exists():
                [staging] = [p.name for p in tmp_path.iterdir() if ".partial-" in p.name]
                seen.append(staging)
                if len(seen) == 1:  # the first: cleared as another write of `final` clears
                    cleared.extend(clear_temporaries(final))
                mark.unlink()
            time.sleep(0.02)

    thread = threading.Thread(target=other_write)
    thread.start()
    try:
        with staged_folder(final) as folder:
            (folder / "f").write_bytes(b"x")
            assert folder.name == seen[-1]
    finally:
        done.set()
        thread.join()
    assert len(seen) == 2 and seen[0] != seen[1]
    assert cleared == [f"removed {tmp_path / seen[0]}: the staging folder of an interrupted command "
                       "(nothing of it was put in place)"]
    assert (final / "f").read_bytes() == b"x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bundle"]
