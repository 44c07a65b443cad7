"""What the desk opens (poolgen/backoffice/vouched.py, index.py): a validation file that is not a regular
file, an index that is not the one the manifest vouches for, a run without validation files, an
eInstant run; and the signed run opened with its public key. The runs are the conftest's."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import polars as pl

from tests.support.cli import UNRECORDED, invoke


def _claim(office, run, index, *more):
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)
    return invoke("validate", run, b, v,
                  "--public-key", office["public"], "--validation-key", office["root"] / "low.key",
                  "--index-dir", index,
                  *more)


def _refused(result, line):
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stderr == f"poolgen: error: {line}\n" and result.stdout == ""


def test_the_signed_run_opens_with_its_public_key(office, tmp_path):
    result = _claim(office, office["folder"], tmp_path / "index", "--public-key", office["public"])
    assert result.exit_code == 0 and "prize $5.00 (low tier)" in result.output
    index = next((tmp_path / "index").iterdir())
    assert index.name.startswith("hh.low.") and index.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "index").stat().st_mode & 0o777 == 0o700


def test_a_validation_file_that_is_a_pipe_or_a_link_is_refused_without_waiting(office, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(office["folder"], run)
    path = run / "validation-low.bin"
    path.unlink()
    os.mkfifo(path)
    _refused(_claim(office, run, tmp_path / "i1"),
             f"{path}: not a regular file (a link, pipe or device); refusing it")
    path.unlink()
    path.symlink_to("/dev/zero")
    _refused(_claim(office, run, tmp_path / "i2"),
             f"{path}: not a regular file (a link, pipe or device); refusing it")
    path.unlink()
    _refused(_claim(office, run, tmp_path / "i3"), f"{path}: missing from the run folder")


def test_the_wrong_validation_key_is_named_as_such_once_the_index_exists(office, tmp_path):
    """The high-tier key given as --validation-key (or any other key) was refused as the key it is only
    while no index was built: once one was, the message blamed the index ("remove it to rebuild it"),
    and removing it rebuilt nothing. Now the key is checked against the manifest first, either way."""
    index = tmp_path / "index"
    assert _claim(office, office["folder"], index).exit_code == 0
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)
    wrong = invoke("validate", office["folder"], b, v, "--public-key", office["public"],
                   "--validation-key", office["root"] / "high.key", "--index-dir", index)
    _refused(wrong, f"{office['folder'] / 'validation-low.bin'}: the key given as --validation-key is the "
                    f"run's high-tier key (key check {_check(office, 'high')}): "
                    "give it as --high-validation-key")


def test_an_index_not_built_from_the_vouched_file_is_refused(office, tmp_path):
    index = tmp_path / "index"
    assert _claim(office, office["folder"], index).exit_code == 0
    path = next(index.iterdir())
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = ? WHERE name = 'sha256'", ("0" * 64,))
    db.commit()
    db.close()
    _refused(_claim(office, office["folder"], index),
             f"{path}: not an index of the validation file the manifest vouches for (another run, tier, key "
             "or file); remove it to rebuild it")
    path.write_bytes(os.urandom(8192))
    _refused(_claim(office, office["folder"], index),
             f"{path}: not a poolgen desk index (not an SQLite database: file is not a database)")
    inside = office["folder"] / "idx"
    _refused(_claim(office, office["folder"], inside),
             f"{inside / path.name}: inside the run folder {office['folder']}; keep the desk index "
             "outside it")
    assert not inside.exists()


def test_a_changed_index_row_fails_its_tag_and_pays_nothing(office, tmp_path):
    index = tmp_path / "index"
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)
    assert _claim(office, office["folder"], index).exit_code == 0
    path = next(index.iterdir())
    db = sqlite3.connect(path)
    db.execute("UPDATE records SET body = zeroblob(16)")
    db.commit()
    db.close()
    result = _claim(office, office["folder"], index)
    assert result.exit_code == 1 and result.output.endswith(": wrong validation number\n")


def test_an_einstant_run_has_no_desk(office, einstant, tmp_path):
    _refused(invoke("validate", einstant["folder"],
                    "--public-key", einstant["public"], "465-0000001-001", "1", "--validation-key",
                    office["root"] / "low.key", "--index-dir", tmp_path),
             f"{einstant['folder']}: an eInstant run has no validation files; its claims are answered by the "
             "sales ledger (`poolgen sales claim`)")


def _check(office, tier):
    files = json.loads((office["folder"] / "manifest.json").read_bytes())["deliverables"]
    return next(f for f in files if f["name"] == f"validation-{tier}.bin")["key_check"]


def test_a_key_that_is_not_the_files_is_refused(office, tmp_path):
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)
    other = tmp_path / "other.key"
    assert invoke("keys", "validation", "new", other).exit_code == 0
    index = tmp_path / "index"
    result = invoke("validate", office["folder"],
                    "--public-key", office["public"], b, v, "--validation-key", other, "--index-dir", index)
    _refused(result, f"{office['folder'] / 'validation-low.bin'}: the low-tier key given is not this file's "
                     f"key (the manifest names key check {_check(office, 'low')})")
    assert not index.exists()  # no index was built


def test_a_key_given_for_the_other_tier_names_the_option_it_belongs_to(office, tmp_path):
    """The claim centre's clerk who gave the high-tier key as --validation-key (the option every desk
    example shows) was told only that it was not the low-tier file's key, not which option takes it."""
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)
    low = invoke("validate", office["folder"], "--public-key", office["public"], b, v,
                 "--high-validation-key", office["root"] / "low.key", "--index-dir", tmp_path)
    _refused(low, f"{office['folder'] / 'validation-high.bin'}: the key given as --high-validation-key is "
                  f"the run's low-tier key (key check {_check(office, 'low')}): give it as --validation-key")
    assert not any(tmp_path.iterdir())  # no index was built


def test_what_a_killed_index_build_left_is_cleared_never_reused(office, tmp_path):
    """A build killed after its commit and before its rename leaves a complete temporary index. Named
    by the builder's process id, it was reopened by the next build that got the same id (a container's
    desk always runs as the same pid) and that build died on a traceback (UNIQUE constraint failed:
    meta.name); leftovers were never removed either."""
    index = tmp_path / "index"
    assert _claim(office, office["folder"], index).exit_code == 0
    [built] = index.glob("*.sqlite")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    for suffix in (str(os.getpid()), "0123abcd"):  # the old and the new temporary names
        shutil.copy(built, fresh / f".{built.name}.tmp-{suffix}")
    (fresh / f".{built.name}.tmp-0123abcd-wal").write_bytes(b"")
    result = _claim(office, office["folder"], fresh)
    assert result.exit_code == 0, (result.output, result.exception)
    assert "prize $5.00 (low tier)" in result.stdout
    assert sorted(p.name for p in fresh.iterdir()) == [built.name]
    assert result.stderr.splitlines() == [
        f"removed {fresh}/.{built.name}.tmp-{s}: a temporary desk index of an interrupted build"
        for s in sorted([str(os.getpid()), "0123abcd", "0123abcd-wal"])] + [UNRECORDED.strip()]


def test_a_living_builds_temporary_index_is_left_alone(office, tmp_path):
    import fcntl  # noqa: PLC0415  # only this test holds a build's lock

    index = tmp_path / "index"
    assert _claim(office, office["folder"], index).exit_code == 0
    [built] = index.glob("*.sqlite")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    living = fresh / f".{built.name}.tmp-89abcdef"
    shutil.copy(built, living)
    fd = os.open(living, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a build in another process holds its own
        result = _claim(office, office["folder"], fresh)
        assert result.exit_code == 0 and result.stderr == UNRECORDED
        assert sorted(p.name for p in fresh.iterdir()) == sorted([built.name, living.name])
    finally:
        os.close(fd)


def test_a_build_whose_new_file_a_concurrent_clear_took_builds_under_a_locked_name(office, tmp_path):
    """Between making its temporary file and locking it, a build's file looks abandoned to another build's
    clear, which removed it; the build then locked the removed file and built into a new one at the same
    path that nothing held, which a third clear could remove mid-build. Now the build sees its file gone
    and makes another under a new name; a clear while it builds finds nothing to remove."""
    import subprocess  # noqa: PLC0415  # only this test runs a build in another process
    import sys  # noqa: PLC0415
    import time  # noqa: PLC0415

    from poolgen.backoffice.index import _clear  # noqa: PLC0415  # what a concurrent build runs first

    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)
    index = tmp_path / "index"

    def build(moment: str) -> tuple[subprocess.Popen, Path]:
        mark = tmp_path / moment
        proc = subprocess.Popen(
            [sys.executable, "-m", "poolgen", "validate", str(office["folder"]), b, v, "--public-key",
             str(office["public"]), "--validation-key", str(office["root"] / "low.key"), "--index-dir",
             str(index)],
            env={**os.environ, "POOLGEN_TEST_PAUSE": f"{moment}:60:{mark}"}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        return proc, mark

    def paused(proc: subprocess.Popen, mark: Path) -> Path | None:
        """The build's temporary file once it waits at its moment; None if it ended instead."""
        end = time.monotonic() + 60
        while not mark.exists() and proc.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
        if not mark.exists():
            return None
        [tmp] = [p for p in index.iterdir() if ".tmp-" in p.name and not p.name.endswith(("-wal", "-shm"))]
        return tmp

    def finished(proc: subprocess.Popen) -> None:
        out, err = proc.communicate(timeout=60)
        assert (proc.returncode, "prize $5.00 (low tier)" in out, err) == (0, True, UNRECORDED)
        [built] = list(index.iterdir())
        assert not built.name.startswith(".")
        built.unlink()  # the next build starts afresh

    proc, mark = build("index-made")
    first = paused(proc, mark)
    assert first is not None
    name = first.name.split(".tmp-")[0][1:]
    assert _clear(index, name) == [f"removed {first}: a temporary desk index of an interrupted build"]
    mark.unlink()
    second = paused(proc, mark)  # the build found its file gone and made another
    assert second is not None and second != first
    mark.unlink()
    finished(proc)

    proc, mark = build("index-building")
    assert paused(proc, mark) is not None
    assert _clear(index, name) == []  # locked: left alone
    mark.unlink()
    finished(proc)


def test_the_default_index_folder_keeps_the_indexes_opened_most_recently(office, tmp_path, monkeypatch):
    """~/.cache/poolgen/desk/ grew by an index per run and tier for ever. A build now removes the indexes
    opened least recently beyond KEEP_INDEXES (every open touches its index), with their -wal files, and
    says so; an index reopened is kept, and a file not named as an index is never touched."""
    from poolgen.backoffice.index import KEEP_INDEXES  # noqa: PLC0415  # only this test reads the bound

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = tmp_path / "cache" / "poolgen" / "desk"
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)

    def claim(tier: str):
        return invoke("validate", office["folder"], b, v, "--public-key", office["public"],
                      f"--{'' if tier == 'low' else 'high-'}validation-key", office["root"] / f"{tier}.key")

    assert claim("low").exit_code == 0
    [low] = folder.iterdir()
    os.utime(low, ns=(1_000, 1_000))
    fakes = [folder / f"old-{i:02d}.low.{i:016x}.sqlite" for i in range(KEEP_INDEXES)]
    for i, fake in enumerate(fakes):
        fake.write_bytes(b"")
        os.utime(fake, ns=(2_000 + i, 2_000 + i))
    (folder / f"{fakes[0].name}-wal").write_bytes(b"")
    (folder / "notes.txt").write_bytes(b"kept")
    os.utime(folder / "notes.txt", ns=(0, 0))
    again = claim("low")  # opened, not built: it is touched, nothing is removed
    assert (again.exit_code, again.stderr) == (0, UNRECORDED)
    assert low.stat().st_mtime_ns > 2_000 + KEEP_INDEXES
    high = claim("high")  # built: 2 indexes over the bound, the 2 opened least recently removed
    assert high.exit_code == 1 and high.stdout.endswith(
        ": a low-tier prize: claim at a retailer or the low-tier desk (this desk holds only the high-tier "
        "key)\n"), high.output
    assert high.stderr.splitlines() == [
        f"removed {folder / n}: a desk index opened least recently, beyond the {KEEP_INDEXES} kept (rebuilt "
        "when needed)" for n in sorted([fakes[0].name, f"{fakes[0].name}-wal", fakes[1].name])]
    [built] = [p.name for p in folder.glob("hh.high.*.sqlite")]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [low.name, built, "notes.txt", *(f.name for f in fakes[2:])])


def test_a_relative_xdg_cache_home_is_ignored_for_the_home_cache(office, tmp_path, monkeypatch):
    """The XDG base directory specification: a relative path in XDG_CACHE_HOME is invalid and ignored. It
    was used as given, so a desk started in a run's or a shared folder built its index there."""
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(0)
    result = invoke("validate", office["folder"], b, v, "--public-key", office["public"], "--validation-key",
                    office["root"] / "low.key")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "relative").exists()
    assert [p.name.split(".")[1] for p in (tmp_path / "home" / ".cache" / "poolgen" / "desk").iterdir()] == [
        "low"]
