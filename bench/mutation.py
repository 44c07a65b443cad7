"""Mutation testing of the core with mutmut: does some test fail when the code is changed?

    nice -n 10 python bench/mutation.py                  # every group (see below for the time)
    nice -n 10 python bench/mutation.py money sampling   # some groups
    python bench/mutation.py --recheck merkle            # survivors again, against tests added since
    nice -n 10 python bench/mutation.py --resume --sample 7 merkle   # an interrupted run, continued
    python bench/mutation.py --report                    # the scores of the last run, again

Too slow for every CI run, so it lives here. Each group mutates a few core modules and runs only a
fast selection of tests for them, in its own copy of the project under bench/.mutation/<group>/
(git-ignored), so groups run and re-run independently and the work tree is never touched. mutmut
runs each mutant against the tests that reached the mutated function (recorded once per group),
stopping at the first failure. The score of a module is killed / (every mutant made in it); a
timeout counts as killed (the mutant hangs a test: an endless redraw loop, say, which a run would also
never finish), a "no tests" mutant as a survivor. A survivor that no test can kill (an equivalent
mutant) is listed with its reason in bench/mutation-survivors.md, with the scores, times and exact
commands of the last measurement (on the shared 2-core machine under load: money 22 s, build 47 s,
drbg 4 min, a tenth of sampling 11 min, merkle 24 min for a third of its 1,451 mutants and a tenth of
the rest; rules, a tenth of its 2,569 mutants 67 min with one mutant at a time; verify, 1,501 mutants
whose tests generate and verify real runs, two hours for most of a tenth). A run stopped by hand is
continued with --resume. The summary is written to bench/.mutation/summary.txt.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "bench" / ".mutation"

# group -> (modules mutated, the fast tests meant to catch their mutants, tests left out as too slow to
# run once per mutant: statistical tests and full-size pools, which the exact tests above make redundant)
GROUPS: dict[str, tuple[list[str], list[str], str]] = {
    "money": (["poolgen/money.py"],
              ["tests/poolgen/test_money.py", "tests/poolgen/check/test_figures.py"], ""),
    "drbg": (["poolgen/rng/drbg.py"],
             ["tests/poolgen/rng/test_drbg.py", "tests/poolgen/rng/test_sampling.py"], "uniform or catches"),
    "sampling": (["poolgen/rng/sampling.py"],
                 ["tests/poolgen/rng/test_drbg.py", "tests/poolgen/rng/test_sampling.py",
                  "tests/poolgen/rng/test_sampling_ties.py", "tests/poolgen/rng/test_sampling_shapes.py"],
                 "uniform or catches"),
    "build": (["poolgen/run/build.py"], ["tests/poolgen/run/test_build.py"], ""),
    "merkle": (["poolgen/run/merkle.py", "audit/merkle/*.py"],
               ["tests/agreement/test_merkle.py", "tests/agreement/test_merkle_edges.py",
                "tests/poolgen/run/test_merkle.py", "tests/poolgen/run/test_prove.py",
                "tests/audit/merkle/test_encoding.py", "tests/audit/merkle/test_table.py",
                "tests/audit/merkle/test_tree.py"], "poolgen_and_audit_agree"),
    "rules": (["audit/styles/*.py"],  # audit's engines, one per style; every module of tests/audit/styles
              ["tests/audit/styles/test_play.py", "tests/audit/styles/test_match_n.py",
               "tests/audit/styles/test_key_number_match.py", "tests/audit/styles/test_bonus_reveal.py",
               "tests/audit/styles/test_prize_legend_duel.py",
               "tests/audit/styles/test_prize_legend_duel_loser_multipliers.py",
               "tests/audit/styles/test_area_match.py",
               "tests/audit/styles/test_area_match_edge_cases.py"], ""),
    "verify": (["audit/verify.py", "audit/checklist.py", "audit/steps/files.py", "audit/steps/identity.py",
                "audit/steps/layouts.py", "audit/steps/figures.py", "audit/steps/merkle_roots.py"],
               ["tests/audit/test_verify.py", "tests/audit/steps/test_files.py",
                "tests/audit/steps/test_identity.py", "tests/audit/steps/test_layouts.py",
                "tests/audit/steps/test_figures.py", "tests/audit/steps/test_figures_einstant.py",
                "tests/boundary/test_damaged_runs.py"], ""),
}
COPIED = ["poolgen", "audit", "tests", "specs", "docs", "pyproject.toml"]
# Groups whose tests use polars: mutmut forks each mutant's process, and a process forked after polars
# has started its thread pool hangs at its next polars call. These fork from a server that has only
# collected the tests (mutmut's "forkserver"), the others straight from mutmut's process (faster).
POLARS = {"build", "merkle", "rules", "verify"}


def _config(modules: list[str], tests: list[str], slow: str, polars: bool) -> str:
    def toml_list(items: list[str]) -> str:
        return "[" + ", ".join(f'"{i}"' for i in items) + "]"
    present = [t for t in tests if (ROOT / t).exists()]
    args = ["-p", "no:cacheprovider", "-q", "-n", "0"] + (["-k", f"not ({slow})"] if slow else [])
    return ("\n[tool.mutmut]\n"
            'source_paths = ["poolgen", "audit"]\n'
            f"only_mutate = {toml_list(modules)}\n"
            'also_copy = ["specs", "docs"]\n'
            f"process_isolation = \"{'forkserver' if polars else 'fork'}\"\n"
            f"pytest_add_cli_args_test_selection = {toml_list(present)}\n"
            f"pytest_add_cli_args = {toml_list(args)}\n"
            "use_git_change_detection = false\n"
            # generous: on a loaded machine a tight timeout would count slow runs as kills
            "timeout_multiplier = 10.0\ntimeout_constant = 20.0\n")


def _prepare(group: str) -> Path:
    modules, tests, slow = GROUPS[group]
    here = WORK / group
    if here.exists():
        shutil.rmtree(here)
    here.mkdir(parents=True)
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, here / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(src, here / name)
    with open(here / "pyproject.toml", "a") as f:
        f.write(_config(modules, tests, slow, group in POLARS))
    return here


def _mutmut(here: Path, *args: str, log: Path | None = None) -> str:
    cmd = [sys.executable, "-m", "mutmut", *args]
    if log is None:
        return subprocess.run(cmd, cwd=here, capture_output=True, text=True, check=True).stdout
    with open(log, "w") as out:
        subprocess.run(cmd, cwd=here, stdout=out, stderr=subprocess.STDOUT, check=False)
    return ""


RECHECK_SECONDS = 300  # a clean run of any group's tests takes well under this, even on a loaded machine
CAUGHT = {"killed", "timeout", "segfault"}  # the mutant made a test fail, hang or crash
_RESULT = re.compile(r"^\s+(\S+): (.+)$")


def _module_of(key: str) -> str:
    """'audit.styles.match_n.x_evaluate__mutmut_12' -> 'audit/styles/match_n.py'."""
    dotted = re.split(r"\.x[_ǁ]", key, maxsplit=1)[0]
    return dotted.replace(".", "/") + ".py"


def _results(here: Path) -> list[tuple[str, str]]:
    out = _mutmut(here, "results", "--all", "true")
    return [(m.group(1), m.group(2)) for m in map(_RESULT.match, out.splitlines()) if m]


def _recheck(group: str, survivors: bool = False, select: str | None = None) -> None:
    """Run mutants once more, each in a plain pytest process, and keep the verdicts (rechecked.json).

    Always the mutants mutmut timed out: a worker forked from a process that has run polars or numpy
    threads can hang after its tests have finished, so a "timeout" may hide a kill or a survivor.
    With `survivors`, also every survivor and every mutant no recorded test reached, against the
    tests as they are now (copied in first): the way to see which survivors a new test kills without
    running the whole group again. `select` (a pytest -k expression) narrows the tests run to the
    new ones meant for the survivors, when a loaded machine cannot afford whole files per mutant."""
    here = WORK / group
    _, tests, slow = GROUPS[group]
    present = [t for t in tests if (here / "mutants" / t).exists()]
    if survivors:  # the tests of the run did not kill them: only a test added or changed since can
        started = (here / "pyproject.toml").stat().st_mtime
        present = [t for t in tests if (ROOT / t).exists() and (ROOT / t).stat().st_mtime > started]
        if not present:
            return
        shutil.copytree(ROOT / "tests", here / "mutants" / "tests", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", *present]
    if select:
        cmd += ["-k", select]
    elif slow:
        cmd += ["-k", f"not ({slow})"]

    def verdict(key: str) -> str:
        env = {**os.environ, "MUTANT_UNDER_TEST": key}
        try:
            done = subprocess.run(cmd, cwd=here / "mutants", env=env, capture_output=True,
                                  timeout=RECHECK_SECONDS)
        except subprocess.TimeoutExpired:
            return "timeout"
        code = done.returncode
        return {0: "survived", 1: "killed", 3: "killed"}.get(code, f"pytest exit {code}")

    path = here / "rechecked.json"
    verdicts = json.loads(path.read_text()) if path.exists() else {}
    wanted = {"timeout", "survived", "no tests"} if survivors else {"timeout"}
    if select:  # a mutant that hung a test the selection leaves out would pass it: keep its verdict
        wanted.discard("timeout")
    todo = [key for key, status in sorted(_results(here), key=lambda r: r[1] != "no tests")
            if status in wanted and verdicts.get(key) != "killed"]  # the unreached first: most likely kills
    with ThreadPoolExecutor(max_workers=2) as pool:
        for key, found in zip(todo, pool.map(verdict, todo), strict=True):
            verdicts[key] = found
            path.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n")


def _resume(group: str, sample: str | None, jobs: int) -> None:
    """Continue an interrupted run of `group` in place, with the tests as they are now (copied in):
    the mutants not run yet (with `sample`, only those whose number ends in it), and every survivor
    so far again. The kills already made stand: tests are only ever added. A test file new to the
    group is not in the run's test selection (changing it would discard every result): add its tests
    to a file the group already runs. The time is added to the group's."""
    here = WORK / group
    for dst in (here / "tests", here / "mutants" / "tests"):
        shutil.copytree(ROOT / "tests", dst, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    names = []
    for meta in sorted((here / "mutants").rglob("*.py.meta")):
        for key, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            if (code is None and (sample is None or key.endswith(sample))) or code == 0:  # 0: survived
                names.append(key)
    start = time.monotonic()
    if names:
        _mutmut(here, "run", "--max-children", str(jobs), *names, log=here / "mutmut-resume.log")
    _recheck(group)
    before = float((here / "seconds").read_text()) if (here / "seconds").exists() else 0.0
    (here / "seconds").write_text(f"{before + time.monotonic() - start:.0f}\n")


def _summary(groups: list[str]) -> str:
    lines, survivors = [], []
    total = Counter()
    for group in groups:
        here = WORK / group
        if not (here / "mutants").exists():
            lines.append(f"{group}: not run")
            continue
        by_module: dict[str, Counter] = defaultdict(Counter)
        rechecked = here / "rechecked.json"
        verdicts = json.loads(rechecked.read_text()) if rechecked.exists() else {}
        unchecked = 0
        for key, status in _results(here):
            status = verdicts.get(key, status)
            status = "killed" if status in CAUGHT else status
            if status == "not checked":  # left out by --sample
                unchecked += 1
                continue
            by_module[_module_of(key)][status] += 1
            if status != "killed":
                survivors.append(f"{key}: {status}")
        seconds = (here / "seconds").read_text().strip() if (here / "seconds").exists() else "?"
        sample = f", a sample ({unchecked} mutants not run)" if unchecked else ""
        lines.append(f"{group} ({seconds} s){sample}:")
        for module, counts in sorted(by_module.items()):
            made = sum(counts.values())
            killed = counts["killed"]
            total["killed"] += killed
            total["made"] += made
            rest = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s != "killed")
            lines.append(f"  {module:40s} {killed:5d} / {made:5d} killed = {100 * killed / made:6.2f}%"
                         + (f"  ({rest})" if rest else ""))
    if total["made"]:
        score = 100 * total["killed"] / total["made"]
        lines.append(f"all: {total['killed']} / {total['made']} = {score:.2f}%")
    lines.append("")
    lines.append("not killed:")
    lines.extend(f"  {s}" for s in survivors)
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", help=f"groups to run (default all): {', '.join(GROUPS)}")
    parser.add_argument("--report", action="store_true", help="print the last run's scores, run nothing")
    parser.add_argument("--recheck", action="store_true",
                        help="re-run the last run's survivors and timeouts against the tests as they are now")
    parser.add_argument("--select", metavar="EXPR", help="with --recheck: only tests -k EXPR picks")
    parser.add_argument("--resume", action="store_true",
                        help="continue an interrupted run in place: mutants not run yet, and its survivors")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument("--sample", metavar="DIGIT", help="run only the mutants whose number ends in DIGIT "
                                                         "(every tenth mutant of every function)")
    args = parser.parse_args()
    groups = args.groups or list(GROUPS)
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; the groups are {', '.join(GROUPS)}")
    if args.recheck:
        for group in groups:
            _recheck(group, survivors=True, select=args.select)
    elif args.resume:
        for group in groups:
            _resume(group, args.sample, args.jobs)
    elif not args.report:
        for group in groups:
            start = time.monotonic()
            here = _prepare(group)
            print(f"{group}: mutating {', '.join(GROUPS[group][0])}", flush=True)
            names = [f"*__mutmut_*{args.sample}"] if args.sample else []
            _mutmut(here, "run", "--max-children", str(args.jobs), *names, log=here / "mutmut.log")
            _recheck(group)
            (here / "seconds").write_text(f"{time.monotonic() - start:.0f}\n")
    text = _summary(groups)
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "summary.txt").write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
