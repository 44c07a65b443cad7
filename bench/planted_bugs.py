"""Plant twelve realistic bugs one at a time and show that the test named for each one fails.

    nice -n 10 python bench/planted_bugs.py            # all twelve, about 3 min on 2 cores
    python bench/planted_bugs.py float-money ties-not-redrawn   # some of them
    nice -n 10 python bench/planted_bugs.py --first    # also: the whole suite with -x, per bug

Each bug is a one-place edit of the source, made in a scratch copy of the project under
bench/.planted/ (git-ignored; the work tree is never touched). For each bug the named tests are run
first on the clean copy (they must pass) and then with the bug in place (each must fail). A bug that
a named test does not catch is a hole in the suite: the script exits 1 and says which. With --first
the whole suite is also run with -x (it runs bottom layer first, tests/conftest.py) and the first test
to fail is printed: ideally the named one, not a test that pins a hash further up.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "bench" / ".planted"
COPIED = ["poolgen", "audit", "tests", "specs", "docs", "pyproject.toml"]

# name -> (file, exact text, the bug in its place, the tests named for it)
BUGS: dict[str, tuple[str, str, str, list[str]]] = {
    "drbg-label": (
        "poolgen/rng/drbg.py", 'out += len(raw).to_bytes(4, "big") + raw', "out += raw",
        ["tests/poolgen/rng/test_drbg.py::test_labels_are_domain_separated",
         "tests/poolgen/rng/test_drbg.py::test_drbg_known_answers"]),
    "modulo-bias": (
        "poolgen/rng/sampling.py", "    out = _words(stream, count, wide) & mask\n",
        "    out = _words(stream, count, wide) % bound\n",
        ["tests/poolgen/rng/test_sampling.py::test_integers_is_mask_and_reject_of_the_keystream"]),
    "ties-not-redrawn": (
        "poolgen/rng/sampling.py", "    return _sort_keys(stream, (n,)).astype(np.int64)",
        '    return np.argsort(stream.words(n) >> np.uint64(32), kind="stable").astype(np.int64)',
        ["tests/poolgen/rng/test_sampling_ties.py::test_permutation_sorts_full_width_keys_and_redraws_ties_not_a_"
         "stable_sort_of_the_top_32_bits"]),
    "tier-count-off-by-one": (
        "poolgen/run/build.py", "    counts = [t.count for t in pool.tiers]\n",
        "    counts = [t.count for t in pool.tiers]\n"
        "    counts[0], counts[-1] = counts[0] + 1, counts[-1] - 1\n",
        ["tests/poolgen/run/test_build.py::test_tier_base_holds_exactly_each_tiers_count_in_tier_order"]),
    "decoy-equals-lucky": (
        "poolgen/styles/key_number_match.py", "numbers[:, w_count + j - len(wins)]",
        "numbers[:, w_count - 1 + j - len(wins)]",
        ["tests/poolgen/styles/test_key_number_match_decoys.py::test_ws_decoys_never_show_a_lucky_number"]),
    "audit-accepts-over-paying-layout": (
        "audit/styles/play.py", "other = ~unknown & (expected != keys).any(axis=1) if keys.shape[1]",
        "other = np.zeros(n, dtype=bool) if keys.shape[1]",
        ["tests/audit/styles/test_key_number_match.py::test_loser_your_number_matches_a_lucky_number"]),
    "merkle-leaf-prefix-dropped": (
        "poolgen/run/merkle.py", "start_state = hashlib.sha256(LEAF + _header(",
        "start_state = hashlib.sha256(_header(",
        ["tests/agreement/test_merkle.py::test_known_answer_messages_and_leaves"]),
    "audit-merkle-drops-a-last-row": (
        "audit/merkle/tree.py", "        if len(rest) == 1:\n            up.append(rest.tobytes())\n",
        "        if len(rest) == 1:\n            pass\n",
        ["tests/agreement/test_merkle.py::test_a_group_of_one_moves_up_unchanged"]),
    "missing-signature-accepted": (
        "audit/steps/files.py", '        raise VerificationError(Step.SIGNATURE, "manifest.sig is missing")',
        '        return "manifest.sig is missing"',
        ["tests/audit/test_verify.py::test_a_missing_signature_and_an_unsigned_run"]),
    "float-money": (
        "poolgen/money.py", "    return int(cents), well_formed",
        "    return int(float(value) * 100), well_formed",
        ["tests/poolgen/test_money.py::test_parse_printed_is_exact_for_amounts_not_exact_in_binary"]),
    "odds-floored": (
        "poolgen/money.py", "rounding=ROUND_HALF_UP)", "rounding=\"ROUND_FLOOR\")",
        ["tests/poolgen/test_money.py::test_odds_are_rounded_half_up_not_floored"]),
    "staging-left-on-ctrl-c": (
        "poolgen/files/write.py",
        "    finally:\n        if tmp.exists():\n            shutil.rmtree(tmp, ignore_errors=True)",
        "    except Exception:\n        if tmp.exists():\n"
        "            shutil.rmtree(tmp, ignore_errors=True)\n        raise",
        ["tests/poolgen/cli/test_generate.py::test_interrupted_run_leaves_no_run_folder"]),
}


def _copy() -> Path:
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, WORK / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(src, WORK / name)
    return WORK


def _failed(here: Path, tests: list[str]) -> set[str]:
    """The named tests that fail (a parametrized test fails when any of its cases does)."""
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-rf",
                          *tests], cwd=here, capture_output=True, text=True)
    failed = {line.split()[1].split("[")[0] for line in out.stdout.splitlines() if line.startswith("FAILED ")}
    if out.returncode not in (0, 1):
        sys.exit(f"pytest could not run {tests}:\n{out.stdout}{out.stderr}")
    return failed


def _first_failure(here: Path) -> str:
    out = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider",
                          "-rf"], cwd=here, capture_output=True, text=True)
    failed = [line.split()[1] for line in out.stdout.splitlines() if line.startswith("FAILED ")]
    return failed[0] if failed else "nothing fails"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bugs", nargs="*", help=f"bugs to plant (default all): {', '.join(BUGS)}")
    parser.add_argument("--first", action="store_true", help="also run the whole suite with -x per bug")
    args = parser.parse_args()
    names = args.bugs or list(BUGS)
    unknown = [b for b in names if b not in BUGS]
    if unknown:
        parser.error(f"unknown bug(s) {', '.join(unknown)}")
    here = _copy()
    clean = _failed(here, [t for b in names for t in BUGS[b][3]])
    if clean:
        sys.exit(f"named tests fail on the clean code: {', '.join(sorted(clean))}")
    holes = []
    for name in names:
        path, old, new, tests = BUGS[name]
        file = here / path
        text = file.read_text()
        if text.count(old) != 1:
            sys.exit(f"{name}: the text to change is not found exactly once in {path}")
        file.write_text(text.replace(old, new))
        try:
            failed = _failed(here, tests)
            first = _first_failure(here) if args.first else None
        finally:
            file.write_text(text)
        for test in tests:
            caught = test in failed
            print(f"{name:34s} {'caught by' if caught else 'MISSED by'} {test}", flush=True)
            if not caught:
                holes.append(f"{name}: {test}")
        if first is not None:
            print(f"{name:34s} first to fail in the whole suite: {first}", flush=True)
    if holes:
        sys.exit("not caught: " + "; ".join(holes))


if __name__ == "__main__":
    main()
