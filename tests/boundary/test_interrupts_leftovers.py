"""What a killed write of one file or folder leaves beside it, and the next write of it clearing that.

A file is written as `.NAME.tmp-XXXXXXXX` and renamed, a folder staged as `.NAME.partial-XXXXXXXX`; each is
locked by its writer. Until 2026-12-04 only `generate`, `keys new` and `seed new` cleared what a SIGKILL
left (poolgen/files/leftovers.py `sweep`); beside a PDF, a key pair, a sealed file, an export or a
bundle it stayed for ever, a private key's bytes included. Now every such write clears its own target's
leftovers first and says so on stderr (`clear_temporaries`). Each command pauses at a named moment
(POOLGEN_TEST_PAUSE), is signalled then, and is run again.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from poolgen.interrupts import PAUSE_ENV

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")


def _signalled_at(argv: list[str], moment: str, sig: int, tmp_path: Path) -> subprocess.CompletedProcess:
    """Run `python -m argv`, send `sig` to it when it first reaches `moment`, and let it end (a later
    pause at the same moment is let through at once)."""
    mark = tmp_path / "mark"
    env = {**os.environ, PAUSE_ENV: f"{moment}:60:{mark}"}
    proc = subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    os.killpg(proc.pid, sig)
    while proc.poll() is None:
        mark.unlink(missing_ok=True)
        time.sleep(0.02)
    stdout, stderr = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, stdout.decode(), stderr.decode())


def _poolgen(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "poolgen", *argv], capture_output=True, text=True,
                          timeout=300)


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_a_pdf_killed_before_its_rename_keeps_the_one_it_replaces_and_the_next_write_clears_its_temporary(
        run, tmp_path):
    argv = ["proof", str(run / "runs" / "r"), "--spec", str(run / "happy_holidays.toml"), "--force"]
    pdf = tmp_path / "proof.pdf"
    pdf.write_bytes(b"the proof before")
    done = _signalled_at(["poolgen", *argv, "--out", str(pdf)], "file-written", signal.SIGKILL, tmp_path)
    assert (done.returncode, done.stderr) == (-9, "")
    assert pdf.read_bytes() == b"the proof before"
    [tmp] = _left(tmp_path)
    assert tmp.startswith(".proof.pdf.tmp-") and len(tmp) == len(".proof.pdf.tmp-") + 8
    assert stat.S_IMODE((tmp_path / tmp).stat().st_mode) == 0o600
    assert (tmp_path / tmp).read_bytes().startswith(b"%PDF-")  # complete, never put in place

    again = _poolgen(*argv, "--out", str(pdf))
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[0] == (f"removed {tmp_path / tmp}: the temporary file of an "
                                            "interrupted command (nothing of it was put in place)")
    assert _left(tmp_path) == []
    assert pdf.read_bytes().startswith(b"%PDF-") and stat.S_IMODE(pdf.stat().st_mode) == 0o600


def test_a_key_pair_killed_before_its_private_key_is_linked_leaves_its_bytes_to_the_next_write(tmp_path):
    keys = tmp_path / "keys"
    done = _signalled_at(["poolgen", "keys", "recipient", str(keys)], "secret-written", signal.SIGKILL,
                         tmp_path)
    assert done.returncode == -9
    [tmp] = _left(keys)
    assert tmp.startswith(".recipient-key.pem.tmp-") and sorted(p.name for p in keys.iterdir()) == [tmp]
    assert stat.S_IMODE((keys / tmp).stat().st_mode) == 0o600
    assert (keys / tmp).read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")

    again = _poolgen("keys", "recipient", str(keys))
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[0] == (f"removed {keys / tmp}: the temporary file of an interrupted "
                                            "command (nothing of it was put in place)")
    assert sorted(p.name for p in keys.iterdir()) == ["recipient-key.pem", "recipient-key.pub.pem"]


def test_a_bundle_killed_before_its_rename_leaves_its_staging_folder_to_the_next_publish(run, tmp_path):
    argv = ["publish", str(run / "runs" / "r"), "--public-key", str(run / "keys" / "signing-key.pub.pem"),
            "--out", str(tmp_path / "bundle")]
    done = _signalled_at(["poolgen", *argv], "before-rename", signal.SIGKILL, tmp_path)
    assert done.returncode == -9
    [staged] = _left(tmp_path)
    assert staged.startswith(".bundle.partial-") and not (tmp_path / "bundle").exists()

    again = _poolgen(*argv)
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[0] == (f"removed {tmp_path / staged}: the staging folder of an "
                                            "interrupted command (nothing of it was put in place)")
    assert _left(tmp_path) == [] and (tmp_path / "bundle" / "SHA256SUMS").is_file()


def test_an_export_of_two_files_interrupted_between_its_renames_puts_both_in_place(printed_run, tmp_path):
    """`imaging export --format fixed` writes the records and their layout: SIGTERM once the first is in
    place waits for the second (before, the records stood alone and the line said nothing was kept)."""
    out = tmp_path / "imaging.txt"
    done = _signalled_at(["poolgen", "imaging", "export", str(printed_run / "runs" / "r"), "--format",
                          "fixed", "--spec", str(printed_run / "happy_holidays.toml"), "--out", str(out)],
                         "kept", signal.SIGTERM, tmp_path)
    layout = tmp_path / "imaging.layout.csv"
    assert (done.returncode, done.stderr.splitlines()[-1]) == (
        143, f"poolgen: error: interrupted by SIGTERM; {out}, {layout} were complete and are kept")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["imaging.layout.csv", "imaging.txt"]
    clean = tmp_path / "clean"
    clean.mkdir()
    made = _poolgen("imaging", "export", str(printed_run / "runs" / "r"), "--format", "fixed",
                    "--spec", str(printed_run / "happy_holidays.toml"), "--out", str(clean / "imaging.txt"))
    assert made.returncode == 0, made.stderr
    for name in ("imaging.txt", "imaging.layout.csv"):  # each whole: the bytes of an uninterrupted export
        assert (tmp_path / name).read_bytes() == (clean / name).read_bytes()
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600


def test_keys_recipient_interrupted_once_its_private_key_is_in_place_writes_the_pair(tmp_path):
    """SIGTERM once recipient-key.pem is in place: before, the command ended there, the public key
    never written, said the private key was kept, and every re-run was refused (the private key exists).
    Now it waits for the pair, as `keys new` does."""
    keys = tmp_path / "keys"
    done = _signalled_at(["poolgen", "keys", "recipient", str(keys)], "kept", signal.SIGTERM, tmp_path)
    private, public = keys / "recipient-key.pem", keys / "recipient-key.pub.pem"
    assert (done.returncode, done.stderr) == (
        143, f"poolgen: error: interrupted by SIGTERM; the key pair {private}, {public} was complete and is "
             "kept\n")
    assert sorted(p.name for p in keys.iterdir()) == ["recipient-key.pem", "recipient-key.pub.pem"]
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
