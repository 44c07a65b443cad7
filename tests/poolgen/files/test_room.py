"""poolgen/files/room.py: a write refused for want of room named as precisely as the system names it. SQLite
says SQLITE_FULL for a full disk alone; a quota exceeded (EDQUOT) was a bare "disk I/O error" behind a
generic line while a full disk had a precise one."""

from __future__ import annotations

import errno
import resource
import subprocess
import sys

import pytest

from poolgen.files.room import no_room, probe


@pytest.mark.parametrize(("code", "said"), [
    (errno.ENOSPC, "the disk is full"),
    (errno.EDQUOT, "the disk quota is exceeded (its owner's files fill the quota set for them)"),
    (errno.EFBIG, "a file size limit (ulimit -f) stops it, as a full disk would"),
    (errno.EACCES, None), (errno.EIO, None), (None, None),
])
def test_each_errno_of_no_room_has_its_own_words_and_no_other_has_any(code, said):
    assert no_room(code) == said


def test_a_folder_with_room_passes_the_probe_and_keeps_no_file(tmp_path):
    assert probe(tmp_path) is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux file size limits")
def test_the_probe_under_a_file_size_limit_names_the_limit_and_keeps_no_file(tmp_path):
    """A real process under RLIMIT_FSIZE (Python ignores SIGXFSZ, so the write fails with EFBIG): the
    probe's 32 KiB write is cut short, then refused, and its file removed."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))

    code = ("import sys; from pathlib import Path; from poolgen.files.room import probe; "
            "print(probe(Path(sys.argv[1])))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          preexec_fn=limit, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "a file size limit (ulimit -f) stops it, as a full disk would\n", "")
    assert list(tmp_path.iterdir()) == []


def test_the_probe_of_a_folder_it_cannot_write_is_not_a_want_of_room(tmp_path):
    """A refusal that is not for room (no such folder) is not said to be one: the caller's own line stands."""
    assert probe(tmp_path / "missing") is None
