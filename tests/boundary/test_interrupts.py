"""Interrupts at named moments of a parallel generate and of `keys new`: SIGINT, SIGTERM, SIGKILL.

Each run pauses at one moment (POOLGEN_TEST_PAUSE, poolgen/interrupts.py) and says so by creating a
mark file; the signal is sent then. Invariants: the run folder is complete or absent; once it exists
its seed exists too (under its final name, or recovered by the next run); no process of the run
outlives it; the command exits 128 + signal with one line and no traceback; the next run in the same
folder reports and clears what a killed run left, and creates every file and folder with explicit
modes even under umask 000.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import stat
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import suppress
from pathlib import Path

import pytest

import audit.interrupts as audit_interrupts
import poolgen.interrupts as poolgen_interrupts
from poolgen.interrupts import PAUSE_ENV
from tests.support import small_happy_holidays

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """Happy Holidays cut to two pools of 3,000 tickets (counts per pool), so a run takes seconds."""
    return small_happy_holidays(tmp_path_factory.mktemp("spec"), 6000)


def _command(spec: Path, out: Path, run_id: str) -> list[str]:
    return [sys.executable, "-m", "poolgen", "generate", str(spec), "--out", str(out), "--run-id", run_id,
            "--workers", "2", "--unsigned"]


def _start(spec: Path, out: Path, moment: str, mark: Path, run_id: str = "r") -> subprocess.Popen:
    env = {**os.environ, PAUSE_ENV: f"{moment}:60:{mark}", "COLUMNS": "200"}
    proc = subprocess.Popen(_command(spec, out, run_id), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"the run never reached {moment}"
        time.sleep(0.02)
    return proc


def _children() -> dict[int, int]:
    """pid -> parent pid of every process."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat_line = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat_line[stat_line.rindex(")") + 2:].split()
            if fields[0] != "Z":  # a zombie is dead, only not yet reaped
                out[int(entry)] = int(fields[1])
    return out


def _descendants(pid: int) -> set[int]:
    parents = _children()
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _gone(pids: set[int], timeout: float = 15) -> set[int]:
    """Those of `pids` still alive after waiting up to `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        alive = pids & set(_children())
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def _complete_or_absent(out: Path, run_id: str) -> bool:
    """True if the run folder is in place (and complete, with its seed); False if absent (with nothing
    of it left under a final name)."""
    run = out / run_id
    if not run.exists():
        assert not (out / f"{run_id}.seed").exists()
        return False
    manifest = json.loads((run / "manifest.json").read_text())
    for pool in manifest["pools"]:
        assert (run / pool["file"]["name"]).stat().st_size == pool["file"]["bytes"]
    return True


MOMENTS = [  # (moment, signal, run in place afterwards)
    ("staged", signal.SIGINT, False),
    ("worker-start", signal.SIGINT, False),  # a worker process started, not yet ignoring signals
    ("worker-start", signal.SIGTERM, False),
    ("pool-written", signal.SIGINT, False),  # workers alive (paused), the parent waiting for them
    ("pool-written", signal.SIGTERM, False),
    ("before-rename", signal.SIGTERM, False),
    ("renamed", signal.SIGINT, True),  # just after the rename, before the seed has its final name
    ("renamed", signal.SIGTERM, True),
    ("committed", signal.SIGINT, True),  # everything in place, the command not yet finished
]


@pytest.mark.parametrize(("moment", "sig", "placed"), MOMENTS,
                         ids=[f"{m}-{s.name}" for m, s, _ in MOMENTS])
def test_sigint_and_sigterm_at_every_moment(tiny, tmp_path, moment, sig, placed):
    out = tmp_path / "out"
    proc = _start(tiny, out, moment, tmp_path / "mark")
    family = _descendants(proc.pid)
    os.killpg(proc.pid, sig)  # as Ctrl-C does: the whole process group
    (tmp_path / "mark").unlink()  # ends the pause (a signal held back meanwhile is raised after it)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig
    lines = stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"poolgen: error: interrupted by {sig.name}; "), lines
    assert b"Traceback" not in stderr + stdout
    assert _gone(family) == set()
    assert _complete_or_absent(out, "r") is placed
    if placed:
        assert lines[0].endswith(f"run {out / 'r'} was complete and is kept, with its seed {out / 'r.seed'}")
        assert stat.S_IMODE((out / "r.seed").stat().st_mode) == 0o600
    else:
        assert lines[0].endswith("nothing was left under a final name")
    # the workers start as the command starts (audit.interrupts.Early): at "worker-start" the command may
    # not have made OUT yet
    left = sorted(p.name for p in out.iterdir()) if moment != "worker-start" or out.exists() else []
    assert left == (["r", "r.seed"] if placed else [])


KILLED = [("staged", False), ("pool-written", False), ("renamed", True)]


@pytest.mark.parametrize(("moment", "placed"), KILLED, ids=[m for m, _ in KILLED])
def test_sigkill_leaves_no_process_and_the_next_run_clears_up(tiny, tmp_path, moment, placed):
    out = tmp_path / "out"
    proc = _start(tiny, out, moment, tmp_path / "mark")
    family = _descendants(proc.pid)
    if moment == "pool-written":
        assert len(family) >= 2  # the workers (and multiprocessing's resource tracker)
    proc.kill()  # the main process only: its workers must not outlive it
    proc.communicate(timeout=60)
    assert _gone(family) == set(), "processes of the killed run are still running"
    assert (out / "r").exists() is placed
    left = sorted(p.name for p in out.iterdir() if p.name.startswith("."))
    assert any(n.startswith(".r.partial-") for n in left) is not placed
    assert ".r.seed.pending" in left  # the seed waits under its provisional name

    # The next run in the same folder, under umask 000: reports what it clears, never reuses it.
    nxt = subprocess.run(_command(tiny, out, "r2"), capture_output=True, timeout=300,
                         preexec_fn=lambda: os.umask(0))  # noqa: PLW1509 - a umask for the child only
    assert nxt.returncode == 0, nxt.stderr
    said = nxt.stderr.decode()
    if placed:
        assert f"recovered {out / 'r.seed'}: the seed of run {out / 'r'}, which was complete" in said
        assert (out / "r.seed").read_bytes().strip() and _complete_or_absent(out, "r")
    else:
        assert "the staging folder of an interrupted run (no run was made)" in said
        assert f"removed {out / '.r.seed.pending'}: the seed of a run that was never completed" in said
    assert sorted(p.name for p in out.iterdir()) == (["r", "r.seed"] if placed else []) + ["r2", "r2.seed"]
    mode = {p.name: stat.S_IMODE(p.stat().st_mode) for p in [out / "r2", out / "r2.seed",
                                                          *(out / "r2").iterdir()]}
    assert mode == {"r2": 0o700, "r2.seed": 0o600, "manifest.json": 0o644,
                    "pool-p1.parquet": 0o600, "pool-p2.parquet": 0o600,
                    "imaging-p1.parquet": 0o600, "imaging-p2.parquet": 0o600, "packs.csv": 0o644}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_keys_new_interrupted_between_its_two_files_writes_the_pair(tmp_path, sig):
    mark = tmp_path / "mark"
    env = {**os.environ, PAUSE_ENV: f"private-key-written:60:{mark}"}
    proc = subprocess.Popen([sys.executable, "-m", "poolgen", "keys", "new", str(tmp_path / "k")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(sig)
    mark.unlink()
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig
    assert stderr.decode() == (f"poolgen: error: interrupted by {sig.name}; the key pair {tmp_path / 'k'}/"
                               f"signing-key.pem, {tmp_path / 'k'}/signing-key.pub.pem was complete and "
                               "is kept\n")
    assert sorted(p.name for p in (tmp_path / "k").iterdir()) == ["signing-key.pem", "signing-key.pub.pem"]


BOTH = pytest.mark.parametrize("side", [poolgen_interrupts, audit_interrupts], ids=["poolgen", "audit"])


@BOTH
def test_a_worker_starts_with_both_signals_blocked_and_the_parent_gets_them_back(side):
    """`starting_workers`: a spawned child inherits the block (so a Ctrl-C to the group cannot reach it
    before `worker_init`), the parent's mask is as before once the block ends, and without the block
    the child starts with neither signal blocked."""
    ctx = mp.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        with side.starting_workers():
            blocked = pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, [])
        assert not set(side.SIGNALS) & signal.pthread_sigmask(signal.SIG_BLOCK, [])
        assert set(side.SIGNALS) <= blocked.result(timeout=120)
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        assert not set(side.SIGNALS) & pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, []).result(120)


@BOTH
def test_worker_init_ignores_both_signals_and_unblocks_them(side):
    ctx = mp.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=side.worker_init) as pool:
        with side.starting_workers():
            handlers = [pool.submit(signal.getsignal, s) for s in side.SIGNALS]
        mask = pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, []).result(timeout=120)
        assert [h.result() for h in handlers] == [signal.SIG_IGN, signal.SIG_IGN]
        assert not set(side.SIGNALS) & mask


@BOTH
def test_a_signal_sent_while_workers_start_is_not_lost(side):
    previous = side.install()
    try:
        with pytest.raises(side.Interrupted) as caught, side.starting_workers():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # another thread of this process may take it now: held back or not, not lost
        assert caught.value.exit_code == 143
    finally:
        side.restore(previous)


@pytest.fixture(scope="module")
def tiny_run(tiny, tmp_path_factory) -> Path:
    """A signed run of the two-pool spec, to verify."""
    folder = tmp_path_factory.mktemp("verify")
    subprocess.run([sys.executable, "-m", "poolgen", "keys", "new", str(folder / "k")], check=True,
                   capture_output=True, timeout=120)
    key = folder / "k" / "signing-key.pem"
    subprocess.run([*_command(tiny, folder / "out", "r")[:-1], "--key", str(key)], check=True,
                   capture_output=True, timeout=300)
    return folder


def _workers_of(pid: int) -> set[int]:
    found = set()
    for child in _descendants(pid):
        with suppress(OSError):
            if b"multiprocessing.spawn" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
    return found


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_verify_interrupted_while_its_workers_start_says_one_line(tiny_run, sig):
    """`audit verify --workers 2`, signalled (the whole group) as soon as its worker exists (the
    command checks pools itself too: one worker process for two at once), while it is still importing:
    exit 128 + signal, one line, no traceback, no process left."""
    proc = subprocess.Popen([sys.executable, "-m", "audit", "verify", str(tiny_run / "out" / "r"),
                             "--public-key", str(tiny_run / "k" / "signing-key.pub.pem"), "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while len(workers := _workers_of(proc.pid)) < 1:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    os.killpg(proc.pid, sig)
    stdout, stderr = proc.communicate(timeout=60)
    assert (proc.returncode, stderr.decode(), stdout) == (
        128 + sig, f"audit: error: interrupted by {sig.name}; nothing was verified\n", b"")
    assert _gone(workers) == set()


def _session(sid: int, timeout: float = 15) -> set[int]:
    """The processes of session `sid` (a command started with start_new_session: its pid) still alive
    after waiting up to `timeout` seconds for them to end."""
    deadline = time.monotonic() + timeout
    while True:
        alive = set()
        for entry in os.listdir("/proc"):
            with suppress(OSError, ValueError):
                line = Path(f"/proc/{entry}/stat").read_text() if entry.isdigit() else ""
                fields = line[line.rindex(")") + 2:].split()
                if fields[0] != "Z" and int(fields[3]) == sid:
                    alive.add(int(entry))
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


@pytest.mark.parametrize("program", ["poolgen generate", "audit verify"])
def test_a_refusal_while_the_workers_start_exits_2_with_one_line_and_leaves_no_process(
        tiny, tiny_run, tmp_path, program):
    """The workers start as the command starts (audit.interrupts.Early), before it reads its inputs: an
    input refused while they are still starting (each held at "worker-start", before it ignores signals,
    for longer than the test waits) ends them and the command exits 2 with its one line, without waiting
    for them, and leaves no process and no folder."""
    missing = tmp_path / "missing"
    if program == "poolgen generate":
        args = ["-m", "poolgen", "generate", str(tiny), "--out", str(tmp_path / "out"), "--run-id", "r",
                "--workers", "2", "--unsigned", "--seed-file", str(missing)]
        said = f"poolgen: error: {missing}: seed file not found\n"
    else:
        args = ["-m", "audit", "verify", str(tiny_run / "out" / "r"), "--public-key", str(missing),
                "--workers", "2"]
        said = f"audit: error: {missing}: public key file not found\n"
    env = {**os.environ, PAUSE_ENV: f"worker-start:600:{tmp_path / 'mark'}", "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            start_new_session=True)
    stdout, stderr = proc.communicate(timeout=120)  # the workers' pause is 600 s: ended, not waited for
    assert (proc.returncode, stderr.decode(), stdout) == (2, said, b"")
    assert _session(proc.pid) == set()
    assert [p.name for p in tmp_path.iterdir() if p.name != "mark"] == []  # no OUT made
