"""The command line's start-up: what a `poolgen` or `python -m audit` command costs before it does
anything (docs/scaling.md, "The command line's start-up"). Each command line runs N times in a fresh
interpreter; the best wall-clock and the best CPU seconds (user + system, from RUSAGE_CHILDREN) are
printed. Machines are noisy; nothing here is asserted (tests/poolgen/cli/test_startup.py guards what
is imported, not how long it takes).

    python bench/startup.py                 # best of 5
    python bench/startup.py --runs 9 -- poolgen rng bytes --help   # another command line, too
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POOLGEN = [sys.executable, "-c", "import sys; from poolgen.cli import run; sys.argv[0] = 'poolgen'; run()"]
LINES = {
    "poolgen --help": [*POOLGEN, "--help"],
    "poolgen check --help": [*POOLGEN, "check", "--help"],
    "poolgen validate --help": [*POOLGEN, "validate", "--help"],
    "python -m audit --help": [sys.executable, "-m", "audit", "--help"],
    "import poolgen.cli.main": [sys.executable, "-c", "import poolgen.cli.main"],
    # a validate command with every import it needs, then refused at once (no claims file): exit 2
    "poolgen validate (imports, exit 2)": [*POOLGEN, "validate", "no-run", "--batch", "no-claims.csv"],
}


def best(argv: list[str], runs: int) -> tuple[float, float, int]:
    """Best wall-clock and best CPU seconds of `runs` runs of argv, and its exit code."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    walls, cpus, code = [], [], 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        code = subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus), code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command line (default 5)")
    parser.add_argument("extra", nargs="*", help="another poolgen command line, after --")
    args = parser.parse_args()
    lines = dict(LINES)
    if args.extra:
        lines["poolgen " + " ".join(args.extra[1:] if args.extra[0] == "poolgen" else args.extra)] = [
            *POOLGEN, *(args.extra[1:] if args.extra[0] == "poolgen" else args.extra)]
    print(f"best of {args.runs}, wall-clock and CPU (user + system) seconds")
    for name, argv in lines.items():
        wall, cpu, code = best(argv, args.runs)
        print(f"  {name:<32} wall {wall:5.2f} s   CPU {cpu:5.2f} s   exit {code}")


if __name__ == "__main__":
    main()
