"""Nothing half-written, nothing replaced: the file and folder primitives, on a real file system."""

from __future__ import annotations

import pytest

from poolgen.errors import OutputError
from poolgen.files.write import rename_new, staged_folder


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


def test_a_folder_that_appears_during_the_run_is_left_alone(tmp_path):
    final = tmp_path / "run"
    appeared = r"run: appeared while the run was written; not replacing it"
    with pytest.raises(OutputError, match=appeared), staged_folder(final) as folder:
        (folder / "pool.parquet").write_bytes(b"data")
        final.mkdir()  # someone else takes the name, empty, before the run is renamed into place
    assert final.is_dir() and list(final.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # the staged folder is gone too
