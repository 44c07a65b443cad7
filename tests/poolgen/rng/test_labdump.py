"""A dump into a non-blocking pipe (O_NONBLOCK set by whoever made the pipe, which the dumping process
shares): a full pipe says EAGAIN, and the dump waits for its reader (poll) instead of spinning on the
CPU or ending with a traceback and bytes lost. Real pipes, a real `poolgen rng bytes` process."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from poolgen.rng import derive_stream
from poolgen.rng.labdump import copy_to_fd, keystream_chunks
from tests.support import SEED_A

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pipe semantics")


def _non_blocking_pipe() -> tuple[int, int]:
    read, write = os.pipe()
    fcntl.fcntl(write, fcntl.F_SETFL, fcntl.fcntl(write, fcntl.F_GETFL) | os.O_NONBLOCK)
    return read, write


def _read_all(fd: int) -> bytes:
    parts = []
    while part := os.read(fd, 1 << 16):
        parts.append(part)
    return b"".join(parts)


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "python -u"])
def test_a_dump_into_a_non_blocking_pipe_waits_for_a_slow_reader_and_writes_every_byte(tmp_path, unbuffered):
    seed = tmp_path / "lab.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    read, write = _non_blocking_pipe()
    cmd = [sys.executable, *(["-u"] if unbuffered else []), "-m", "poolgen", "rng", "bytes", "--count", "1M",
           "--seed-file", str(seed), "--label", "poolgen/v1/t/x"]
    p = subprocess.Popen(cmd, stdout=write, stderr=subprocess.PIPE, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(write)
    time.sleep(1.0)  # the reader stalls: 1 MiB fills the 64 KiB pipe and the writer meets EAGAIN
    try:
        got = _read_all(read)
    finally:
        os.close(read)
    assert p.stderr is not None
    err = p.stderr.read().decode()
    p.stderr.close()
    said = "wrote 1,048,576 bytes (raw keystream) of stream poolgen/v1/t/x to standard output\n"
    assert (p.wait(timeout=120), err) == (0, said)
    assert got == derive_stream(SEED_A, "poolgen/v1", "t", "x").read(1 << 20)


def test_a_full_non_blocking_pipe_is_waited_on_not_spun_on():
    read, write = _non_blocking_pipe()
    got: list[bytes] = []

    def slow_reader() -> None:
        time.sleep(1.0)
        got.append(_read_all(read))

    reader = threading.Thread(target=slow_reader)
    reader.start()
    cpu = time.process_time()
    try:
        written = copy_to_fd(keystream_chunks(derive_stream(SEED_A, "poolgen/v1", "t", "x"), 1 << 20), write)
    finally:
        os.close(write)
    spent = time.process_time() - cpu  # this process's CPU over the reader's second of sleep
    reader.join()
    os.close(read)
    assert (written, len(got[0])) == (1 << 20, 1 << 20)
    assert spent < 0.4, f"{spent:.2f} s of CPU while the pipe was full: a busy loop"
