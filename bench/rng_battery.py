"""Run dieharder's battery on a large raw dump of one DRBG stream (docs/lab-testing.md).

    python bench/rng_battery.py --bytes 1G                  # the whole battery (dieharder -a)
    python bench/rng_battery.py --bytes 1G --test 0 --test 15 --time-limit 1800

A fresh test seed is made in a private temporary folder (never printed, removed afterwards), the
stream poolgen/v1/wild_side/p1/order (a label the generator uses) is dumped with `poolgen rng bytes`,
and dieharder reads the file (`-g 201`, file_input_raw). dieharder rewinds a file it has read to the
end and starts again from its first byte, so a test that needs more than the dump sees some bytes
twice; the rewind count is printed with the results, and it is honest to read a test that rewound
many times with that in mind. With --time-limit the battery is stopped after that many seconds and
the tests completed so far are counted. The summary line is

    dieharder on N bytes: T tests, P passed, W weak, F failed (R rewinds, S seconds)
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LABEL = "poolgen/v1/wild_side/p1/order"
RESULT = re.compile(r"^\s*(\S+)\|\s*(\d+)\|\s*(\d+)\|\s*(\d+)\|\s*([0-9.]+)\|\s*(PASSED|WEAK|FAILED)\s*$")
REWOUND = re.compile(r"rewound (\d+) times")


def poolgen_command() -> list[str]:
    exe = Path(sys.executable).with_name("poolgen")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "poolgen"]


def make_dump(folder: Path, size: str) -> Path:
    seed, dump = folder / "test.seed", folder / "dump.bin"
    subprocess.run([*poolgen_command(), "seed", "new", str(seed)], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([*poolgen_command(), "rng", "bytes", "--seed-file", str(seed), "--label", LABEL,
                    "--count", size, "--out", str(dump)], check=True)
    return dump


def run_battery(dump: Path, tests: list[str], time_limit: float | None, log: Path | None) -> dict:
    base = ["nice", "-n", "10", "dieharder", "-g", "201", "-f", str(dump)]
    commands = [base + ["-a"]] if not tests else [base + ["-d", t] for t in tests]
    rows, rewinds, lines = [], 0, []
    started = time.monotonic()
    stopped = False
    for command in commands:
        print("$ " + " ".join(command), file=sys.stderr)
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        rewound = 0  # each dieharder process counts its own rewinds
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            sys.stderr.write(line)
            if m := RESULT.match(line):
                rows.append((m.group(1), int(m.group(2)), float(m.group(5)), m.group(6)))
            if m := REWOUND.search(line):
                rewound = int(m.group(1))
            if time_limit is not None and time.monotonic() - started > time_limit:
                proc.terminate()
                stopped = True
                break
        proc.wait()
        rewinds += rewound
        if stopped:
            break
    if log is not None:
        log.write_text("".join(lines))
    counts = {v: sum(1 for r in rows if r[3] == v) for v in ("PASSED", "WEAK", "FAILED")}
    return {"rows": rows, "counts": counts, "rewinds": rewinds, "stopped": stopped,
            "seconds": time.monotonic() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bytes", default="1G", help="dump size (poolgen rng --count), e.g. 256M, 1G")
    parser.add_argument("--test", action="append", default=[], help="a dieharder test number (-d); "
                        "repeatable; default: the whole battery (-a)")
    parser.add_argument("--time-limit", type=float, default=None, help="stop after this many seconds")
    parser.add_argument("--log", type=Path, default=None, help="keep dieharder's full output here")
    parser.add_argument("--keep", type=Path, default=None, help="work in this folder and keep the dump")
    args = parser.parse_args()
    if shutil.which("dieharder") is None:
        sys.exit("dieharder is not installed (Debian: apt-get install -y dieharder)")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="poolgen-battery-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.monotonic()
        dump = make_dump(folder, args.bytes)
        print(f"dump: {dump.stat().st_size:,} bytes in {time.monotonic() - t0:.1f} s", file=sys.stderr)
        result = run_battery(dump, args.test, args.time_limit, args.log)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    c = result["counts"]
    note = " (stopped at the time limit)" if result["stopped"] else ""
    print(f"dieharder on {args.bytes} bytes: {len(result['rows'])} tests, {c['PASSED']} passed, "
          f"{c['WEAK']} weak, {c['FAILED']} failed ({result['rewinds']} rewinds, "
          f"{result['seconds']:.0f} seconds){note}")
    for name, ntup, p, verdict in result["rows"]:
        if verdict != "PASSED":
            print(f"  {verdict}: {name} (ntup {ntup}) p = {p}")


if __name__ == "__main__":
    main()
