"""One order's generate and verify commands on a timeline: when each process starts, when each of its
pools starts and ends, and what the command does before the first pool and after the last.

    python bench/timeline.py                                   # Primetime Payout's order, --workers 2
    python bench/timeline.py --game happy_holidays --workers 2
    python bench/timeline.py --profile 25                      # and where each kind of process's CPU goes

Each command runs as an operator runs it (`python -m poolgen ...`), with a sitecustomize module put
first on its path (and so in every worker process it spawns) that notes, in a log file, each process's
start and end and the start and end of a few functions (a pool built or checked, the run files, the
manifest, the signature), with the wall clock and the process's CPU seconds. Printed: the timeline,
then per process its start-up (start to its first pool), the time it waited between pools, and the
tail (how long it was idle at the end while another process still had a pool). With `--profile N`
the hook also runs cProfile in every process, the command's and each worker's (TIMELINE_PROFILE, set
here only), and prints the N functions of most own time of the commands and of the workers, summed over
the processes of each kind (cProfile slows per-row Python loops, the Merkle hashing most: read its
figures as proportions, not seconds). Nothing is asserted; the log and the profiles are deleted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = bytes(range(32))

HOOK = '''
import atexit, functools, importlib.machinery, os, sys, time
LOG = os.environ["TIMELINE_LOG"]
def note(what):
    with open(LOG, "a") as f:
        f.write(f"{time.time():.3f} {os.getpid()} {time.process_time():.3f} {what}\\n")
note("start")
atexit.register(note, "end")
if os.environ.get("TIMELINE_PROFILE"):
    import cProfile
    _profile = cProfile.Profile()
    atexit.register(lambda: (_profile.disable(), _profile.dump_stats(
        os.path.join(os.environ["TIMELINE_PROFILE"], f"{os.getpid()}.prof"))))
    _profile.enable()
WATCH = {"poolgen.run.generate": ("make_pool_parts", "write_run_files", "manifest_document", "_in_parallel"),
         "audit.verify": ("verify_run", "_pool_checks", "statistics_lines", "check_deliverables",
                          "_pool_results"),
         "audit.interrupts": ("Early",)}  # workers started as the command starts (issue 28; absent before)
POOL = {"make_pool_parts": 1, "_pool_checks": 1}  # which argument names the pool
def wrap(module):
    for name in WATCH[module.__name__]:
        fn = getattr(module, name, None)
        if fn is None:
            continue
        def watched(*a, _fn=fn, _name=name, **k):
            at = POOL.get(_name)
            tag = "" if at is None else " " + str(getattr(a[at], "id", a[at]))
            note("> " + _name + tag)
            try:
                return _fn(*a, **k)
            finally:
                note("< " + _name + tag)
        setattr(module, name, functools.wraps(fn)(watched))
class Finder:
    def find_spec(self, name, path, target=None):
        if name not in WATCH:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            wrap(module)
        spec.loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, Finder())
'''


def run(args: list[str], hook: Path, log: Path, profiles: Path | None = None) -> None:
    env = {**os.environ, "TIMELINE_LOG": str(log),
           **({"TIMELINE_PROFILE": str(profiles)} if profiles else {}),
           "PYTHONPATH": os.pathsep.join([str(hook), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-m", "poolgen", *args], check=True, env=env, stdout=subprocess.DEVNULL)


def report(title: str, log: Path) -> None:
    rows = [line.split(None, 3) for line in log.read_text().splitlines()]
    t0 = float(rows[0][0])
    names: dict[str, str] = {}
    spans: dict[str, list[tuple[float, float]]] = {}
    opened: dict[tuple[str, str], float] = {}
    life: dict[str, list[float]] = {}
    print(f"{title}")
    for t, pid, cpu, what in rows:
        name = names.setdefault(pid, "command" if not names else f"process {len(names)}")
        at = float(t) - t0
        life.setdefault(name, []).append(at)
        if what.startswith(("> make_pool_parts", "> _pool_checks")):
            opened[(name, what[2:])] = at
        elif what.startswith(("< make_pool_parts", "< _pool_checks")):
            spans.setdefault(name, []).append((opened.pop((name, what[2:])), at))
        print(f"  {at:7.2f} s  {name:<10} cpu {float(cpu):6.2f} s  {what}")
    last = max(end for s in spans.values() for _, end in s)
    for name, times in life.items():
        pools = sorted(spans.get(name, []))
        if not pools:
            continue  # multiprocessing's resource tracker
        waits = sum(b[0] - a[1] for a, b in zip(pools, pools[1:], strict=False))
        print(f"  {name:<10} start-up {pools[0][0] - times[0]:5.2f} s, {len(pools)} pool(s), waited "
              f"{waits:5.2f} s between them, idle at the end {last - pools[-1][1]:5.2f} s")
    print(f"  after the last pool: {max(max(t) for t in life.values()) - last:5.2f} s")


def profiles(title: str, log: Path, folder: Path, top: int) -> None:
    """The `top` functions of most own time, of the command and of its workers (summed), from cProfile."""
    import pstats

    pids = list(dict.fromkeys(line.split()[1] for line in log.read_text().splitlines()))
    kinds = {"command": pids[:1], "workers": pids[1:]}
    for kind, members in kinds.items():
        files = [str(folder / f"{pid}.prof") for pid in members if (folder / f"{pid}.prof").exists()]
        if not files:
            continue
        print(f"{title}: the {kind} ({len(files)} process(es)), by own time")
        stats = pstats.Stats(*files)
        stats.sort_stats("tottime").print_stats(top)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="primetime_payout")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="also profile every process (cProfile) and print the N top functions")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-timeline-") as tmp:
        t = Path(tmp)
        (t / "hook").mkdir()
        (t / "hook" / "sitecustomize.py").write_text(HOOK)
        fd = os.open(t / "order.seed", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(SEED.hex() + "\n")
        subprocess.run([sys.executable, "-m", "poolgen", "keys", "new", str(t / "keys")], check=True,
                       stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
        print(f"{args.game}, --workers {args.workers}, load average {os.getloadavg()[0]:.1f}")
        for name in ("generate", "verify") if args.profile else ():
            (t / name).mkdir()
        run(["generate", str(ROOT / "specs" / f"{args.game}.toml"), "--out", str(t / "out"), "--run-id", "r",
             "--seed-file", str(t / "order.seed"), "--workers", str(args.workers),
             "--key", str(t / "keys" / "signing-key.pem")], t / "hook", t / "generate.log",
            t / "generate" if args.profile else None)
        report("generate", t / "generate.log")
        run(["verify", str(t / "out" / "r"), "--public-key", str(t / "keys" / "signing-key.pub.pem"),
             "--workers", str(args.workers)], t / "hook", t / "verify.log",
            t / "verify" if args.profile else None)
        report("verify", t / "verify.log")
        for name in ("generate", "verify") if args.profile else ():
            profiles(name, t / f"{name}.log", t / name, args.profile)


if __name__ == "__main__":
    main()
