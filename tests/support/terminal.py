"""A command run on a real (pseudo-)terminal, answering its prompts as a person would: what the prompt
tests need now that poolgen asks nothing of a standard input that is not a terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _its_terminal() -> None:
    """In the child: a session of its own, whose controlling terminal is its standard input (getpass
    opens /dev/tty)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def on_a_terminal(args: list[str], answers: list[tuple[str, str]], env: dict[str, str] | None = None,
                  hidden: tuple[str, ...] = (), timeout: float = 120) -> tuple[int, str]:
    """`poolgen ARGS...` with a pseudo-terminal as standard input, output and error; each time the next
    prompt of `answers` shows, its answer is typed: give each prompt with the ": " it ends with (the space
    is written as the read starts; typed before it, the answer's echo would come first), and at a prompt
    of `hidden` the answer waits until echo is off (getpass discards what was typed before). The exit
    code, and everything the terminal showed (typed answers echoed, line ends as \\r\\n)."""
    master, slave = pty.openpty()
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "poolgen", *args], stdin=slave, stdout=slave,
                            stderr=slave, cwd=ROOT, env=environment,
                            preexec_fn=_its_terminal)  # noqa: PLW1509 - a terminal for the child only
    os.close(slave)
    shown, seen, todo = b"", 0, list(answers)
    deadline = time.monotonic() + timeout
    try:
        while True:
            assert time.monotonic() < deadline, (shown.decode(errors="replace"), todo)
            if todo and todo[0][0].encode() in shown[seen:]:
                prompt, answer = todo.pop(0)
                seen = shown.index(prompt.encode(), seen) + len(prompt)
                while prompt in hidden and termios.tcgetattr(master)[3] & termios.ECHO:
                    assert time.monotonic() < deadline, shown.decode(errors="replace")
                    time.sleep(0.02)
                os.write(master, answer.encode() + b"\n")
            if select.select([master], [], [], 0.1)[0]:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # EIO: every copy of the terminal's other end is closed
                    break
                if not chunk:
                    break
                shown += chunk
    finally:
        os.close(master)
    return proc.wait(timeout=timeout), shown.decode(errors="replace")
