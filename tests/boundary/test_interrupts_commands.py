"""Interrupts outside a command's own handling: while the CLI loads, and once the command has ended.

`poolgen` and `python -m audit` install `exit_at_once` first (poolgen/interrupts.py, audit's copy): a
SIGTERM while numpy and polars load used to kill the process without a word (exit -15), and a Ctrl-C
then could be swallowed by Python as "Exception ignored" with a traceback, the command running on.
Once the command has ended, Python's own shutdown restored the default handlers, so a signal then
killed the process (exit -2 / -15) with nothing said; `finish` now ends the process itself. Each run
pauses at a named moment (POOLGEN_TEST_PAUSE) and is signalled then.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import audit.interrupts as audit_interrupts
import poolgen.interrupts as poolgen_interrupts
from poolgen.interrupts import PAUSE_ENV
from tests.support import small_happy_holidays

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")


def _signalled_at(argv: list[str], moment: str, sig: int, tmp_path: Path) -> subprocess.CompletedProcess:
    mark = tmp_path / "mark"
    env = {**os.environ, PAUSE_ENV: f"{moment}:60:{mark}"}
    proc = subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    deadline = time.monotonic() + 120
    while not mark.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    os.killpg(proc.pid, sig)
    mark.unlink()
    stdout, stderr = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, stdout.decode(), stderr.decode())


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_poolgen_loads_is_one_line_and_nothing_is_done(tmp_path, sig):
    done = _signalled_at(["poolgen", "seed", "new", str(tmp_path / "seed")], "loading", sig, tmp_path)
    assert (done.returncode, done.stderr, done.stdout) == (
        128 + sig, f"poolgen: error: interrupted by {sig.name}; nothing was done\n", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_signal_as_poolgen_ends_says_the_command_had_finished(tmp_path):
    """SIGTERM while the process ends, after `seed new` wrote its seed and printed its commitment: that
    output stands, and the one line says the command had finished (before: exit -15, nothing said)."""
    seed = tmp_path / "seed"
    done = _signalled_at(["poolgen", "seed", "new", str(seed)], "ending", signal.SIGTERM, tmp_path)
    assert done.returncode == 143
    assert done.stderr == (f"wrote seed file {seed} (mode 0600)\n"
                           "poolgen: error: interrupted by SIGTERM as it ended (it had finished, exit 0); "
                           "everything it wrote is complete\n")
    assert done.stdout.startswith("seed commitment: ") and len(done.stdout) == len("seed commitment: ") + 65
    assert len(seed.read_text().strip()) == 64


@pytest.mark.parametrize("moment", ["loading", "ending"])
def test_audit_check_proof_signalled_while_it_loads_or_ends_says_one_line(tmp_path, moment):
    """check-proof has no handling of its own: a SIGINT made click print "Aborted!" and exit 1, a SIGTERM
    killed it silently. An unusable proof (exit 2) keeps the test free of a run to build."""
    (tmp_path / "proof.json").write_text("{}")
    done = _signalled_at(["audit", "check-proof", str(tmp_path / "proof.json"), str(tmp_path / "m.json"),
                          "--public-key", str(tmp_path / "k.pem")], moment, signal.SIGINT, tmp_path)
    assert done.returncode == 130
    said = done.stderr.splitlines()
    if moment == "loading":
        assert said == ["audit: error: interrupted by SIGINT; nothing was verified"]
    else:
        assert len(said) == 2 and said[0].startswith("audit: error: ")
        assert said[1] == ("audit: error: interrupted by SIGINT as it ended (it had finished, exit 2); its "
                           "output was printed in full")


@pytest.fixture(scope="module")
def recipient(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("recipient")
    subprocess.run([sys.executable, "-m", "poolgen", "keys", "recipient", str(folder / "rk")], check=True,
                   capture_output=True, timeout=120)
    (folder / "deliverable.bin").write_bytes(bytes(range(256)) * 4096)
    return folder


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_seal_interrupted_before_its_file_is_complete_leaves_nothing(recipient, tmp_path, sig):
    """seal wrote straight to --out: an interrupt (or a full disk) left part of the sealed file under its
    final name. Now it is written under a temporary name and linked when complete."""
    out = tmp_path / "out"
    out.mkdir()
    done = _signalled_at(["poolgen", "seal", str(recipient / "deliverable.bin"), "--to",
                          str(recipient / "rk" / "recipient-key.pub.pem"), "--out", str(out / "d.sealed")],
                         "secret-written", sig, tmp_path)
    assert (done.returncode, done.stderr) == (
        128 + sig, f"poolgen: error: interrupted by {sig.name}; nothing was left under a final name\n")
    assert sorted(p.name for p in out.iterdir()) == []


def test_an_interrupt_after_a_file_is_in_place_says_it_was_kept(recipient, tmp_path):
    """`unseal` interrupted once its file is linked, before the command ends: the line names the file
    kept (it said "nothing was left under a final name"), and the file is whole."""
    sealed = tmp_path / "d.sealed"
    subprocess.run([sys.executable, "-m", "poolgen", "seal", str(recipient / "deliverable.bin"), "--to",
                    str(recipient / "rk" / "recipient-key.pub.pem"), "--out", str(sealed)], check=True,
                   capture_output=True, timeout=120)
    opened = tmp_path / "opened.bin"
    key = recipient / "rk" / "recipient-key.pem"
    done = _signalled_at(["poolgen", "unseal", str(sealed), "--key", str(key), "--out", str(opened)], "kept",
                         signal.SIGINT, tmp_path)
    assert (done.returncode, done.stderr) == (
        130, f"poolgen: error: interrupted by SIGINT; {opened} was complete and is kept\n")
    assert opened.read_bytes() == (recipient / "deliverable.bin").read_bytes()


@pytest.mark.parametrize("side", [poolgen_interrupts, audit_interrupts], ids=["poolgen", "audit"])
def test_a_signal_another_thread_takes_while_workers_start_is_raised_as_the_block_ends(side):
    """A signal to the process while the main thread starts workers (its signals blocked) goes to another
    thread; raised at once in the main thread, it stopped a worker's start half-way (the worker printed
    "EOFError: Ran out of input"). It is raised when the block ends, not lost."""
    go = threading.Event()

    def takes_it() -> None:  # started before the block: this thread has both signals unblocked
        go.wait(10)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)

    other = threading.Thread(target=takes_it)
    other.start()
    previous = side.install()
    reached = []
    try:
        with pytest.raises(side.Interrupted) as caught, side.starting_workers():
            go.set()
            other.join()
            for _ in range(20):  # Python code: a handler that raises at once does so here
                time.sleep(0.01)
            reached.append("the end of the block")
        assert caught.value.exit_code == 143 and reached == ["the end of the block"]
    finally:
        side.restore(previous)


def test_the_signal_handling_loads_before_anything_slow():
    """`exit_at_once` is in force only once its module is loaded: that module must not load
    multiprocessing, numpy or polars first (audit's did, and a Ctrl-C then was a traceback)."""
    slow = ["multiprocessing", "concurrent.futures.process", "numpy", "polars", "typer"]
    for module in ("poolgen.interrupts", "audit.interrupts"):
        found = subprocess.run([sys.executable, "-c", f"import sys, {module}; "
                                f"print([m for m in {slow!r} if m in sys.modules])"],
                               capture_output=True, text=True, timeout=60, check=True).stdout
        assert found == "[]\n", (module, found)


@pytest.fixture(scope="module")
def tiny_spec(tmp_path_factory) -> Path:
    """Happy Holidays cut to two pools of 3,000 tickets, as in tests/boundary/test_interrupts.py."""
    return small_happy_holidays(tmp_path_factory.mktemp("spec"), 6000)


@pytest.mark.parametrize("moment", ["staged", "verify-started"])
def test_demo_interrupted_in_a_step_says_one_line_and_leaves_no_demo_folder(tiny_spec, tmp_path, moment):
    """An interrupt inside a step of `demo` (its generate, its verify): one line, no "demo stopped: ...
    exited 130". The demo folder held its key pair (and run and seed) as the interrupt left them; it is
    now written in a staging folder renamed whole at the end, so nothing is left and nothing is kept."""
    out = tmp_path / "out"
    done = _signalled_at(["poolgen", "demo", "--out", str(out), "--spec", str(tiny_spec), "--pool", "p1"],
                         moment, signal.SIGINT, tmp_path)
    assert done.returncode == 130
    assert list(out.iterdir()) == []
    errors = [line for line in done.stderr.splitlines() if "error" in line or "stopped" in line]
    if moment == "staged":  # the demo's own staging folder, just made: the demo's own line
        assert len(errors) == 1 and re.fullmatch(
            rf"poolgen: error: interrupted by SIGINT; nothing was kept: the demo folder "
            rf"{re.escape(str(out))}/demo-[0-9TZ]{{16}} was not finished", errors[0]), errors
    else:  # inside the verify step: its line (the run in the staging folder was never kept)
        assert errors == ["poolgen: error: interrupted by SIGINT; nothing was verified"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_imaging_sequence_interrupted_leaves_no_half_written_folder(printed_run, tmp_path, sig):
    """imaging sequence made DIR, then wrote its five files one by one: an interrupt left DIR with some
    (no SHA256SUMS), and a second try was refused as DIR existed. Now DIR appears whole or not at all."""
    out = tmp_path / "ship"
    argv = ["poolgen", "imaging", "sequence", str(printed_run / "runs" / "r"), "--out", str(out)]
    done = _signalled_at(argv, "before-rename", sig, tmp_path)
    assert (done.returncode, done.stderr) == (
        128 + sig, f"poolgen: error: interrupted by {sig.name}; nothing was left under a final name\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    again = subprocess.run([sys.executable, "-m", *argv], capture_output=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["print-sequence.csv", "cartons.csv", "pallets.csv", "shipment.csv", "SHA256SUMS"])


def test_seal_of_a_run_interrupted_leaves_no_half_filled_folder(printed_run, recipient, tmp_path):
    """seal RUN --out DIR made DIR, then sealed the imaging files into it one by one: an interrupt left
    DIR with some of them. Now DIR appears with every sealed file or not at all."""
    out = tmp_path / "sealed"
    argv = ["poolgen", "seal", str(printed_run / "runs" / "r"), "--to",
            str(recipient / "rk" / "recipient-key.pub.pem"), "--out", str(out)]
    done = _signalled_at(argv, "before-rename", signal.SIGTERM, tmp_path)
    assert (done.returncode, done.stderr) == (
        128 + signal.SIGTERM, "poolgen: error: interrupted by SIGTERM; nothing was left under a final name\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
