"""Clearing what a killed write of one target left (`clear_temporaries`): only that target's, only what no
living writer holds, said in one line each. The SIGKILL of a real command:
tests/boundary/test_interrupts_leftovers.py."""

from __future__ import annotations

import fcntl
import os
import stat

from poolgen.files.leftovers import clear_temporaries
from poolgen.files.write import staged_folder, write_atomic, write_secret


def _line(path, what: str = "temporary file") -> str:
    return f"removed {path}: the {what} of an interrupted command (nothing of it was put in place)"


def test_only_the_targets_own_abandoned_temporaries_and_staging_folders_are_removed(tmp_path):
    target = tmp_path / "proof.pdf"
    abandoned = tmp_path / ".proof.pdf.tmp-0123abcd"
    abandoned.write_bytes(b"half")
    staged = tmp_path / ".proof.pdf.partial-89abcdef"
    staged.mkdir()
    (staged / "f").write_bytes(b"x")
    others = [".report.pdf.tmp-0123abcd", ".proof.pdf.tmp-0123abc", ".proof.pdf.tmp-0123ABCD",
              "proof.pdf.tmp-0123abcd", ".xproof.pdf.tmp-0123abcd"]
    for name in others:
        (tmp_path / name).write_bytes(b"not ours")
    (tmp_path / ".proof.pdf.tmp-ffffffff").symlink_to(tmp_path / others[0])

    assert clear_temporaries(target) == [_line(staged, "staging folder"), _line(abandoned)]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*others, ".proof.pdf.tmp-ffffffff"])
    assert clear_temporaries(target) == []


def test_a_temporary_its_writer_still_holds_is_left_alone(tmp_path):
    held = tmp_path / ".k.pem.tmp-00000001"
    held.write_bytes(b"being written")
    fd = os.open(held, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as a living writer holds it (a lock per open file)
        assert clear_temporaries(tmp_path / "k.pem") == []
        assert held.read_bytes() == b"being written"
    finally:
        os.close(fd)
    assert clear_temporaries(tmp_path / "k.pem") == [_line(held)]


def test_no_folder_means_nothing_to_clear(tmp_path):
    assert clear_temporaries(tmp_path / "absent" / "f.pdf") == []


def test_writing_a_file_clears_its_own_leftovers_first_and_says_so(tmp_path, capsys):
    for name, write in (("a.json", lambda p: write_atomic(p, b"{}", mode=0o600)),
                        ("k.key", lambda p: write_secret(p, b"secret\n", what="key"))):
        left = tmp_path / f".{name}.tmp-deadbeef"
        left.write_bytes(b"from a killed write")
        write(tmp_path / name)
        assert capsys.readouterr().err == _line(left) + "\n"
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(name)) == [name]
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600


def test_staging_a_folder_clears_what_a_killed_staging_of_it_left_and_says_so(tmp_path, capsys):
    left = tmp_path / ".bundle.partial-0badc0de"
    left.mkdir()
    (left / "manifest.json").write_bytes(b"{}")  # as a killed publish left it
    other = tmp_path / ".ship.partial-0badc0de"
    other.mkdir()
    with staged_folder(tmp_path / "bundle", mode=0o755) as staged:
        (staged / "f").write_bytes(b"x")
    assert capsys.readouterr().err == _line(left, "staging folder") + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".ship.partial-0badc0de", "bundle"]
