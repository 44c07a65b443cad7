"""Step 8 as a whole (audit/stats/step.py): Holm's step-down rule and the run's level split over its
pools, then real signed runs: honest full pools of every game pass, and deliberately biased pools fail
it, each by the test made for that bias, naming the test and its p-value.

Each biased pool is a real pool file rewritten as an insider holding the signing key would: rows
reordered (positions, ticket ids, books and serials recomputed from the new order as
docs/pool-files.md defines them) or symbols moved within a row (legal layouts still paying their
prize), then the manifest's file hash and Merkle root restated and the manifest signed again, so
that steps 1 to 6 pass and only step 8 fails."""

from __future__ import annotations

import json
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from audit.stats.step import holm
from audit.stats.tests import (
    Finding,
    split_mask,
)
from poolgen.cli.main import app
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.build import identity_columns
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.merkle import root as merkle_root
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_einstant, small_wild_side, spec_path
from tests.support.pdf import pages


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), min_size=1, max_size=30),
       st.sampled_from([0.01, 0.05, 0.0025]))
def test_holm_is_the_step_down_rule(ps, alpha):
    judged = holm([Finding(str(i), "", "", p) for i, p in enumerate(ps)], alpha)
    m = len(ps)
    ordered = sorted(ps)
    k = 0
    while k < m and ordered[k] <= alpha / (m - k):
        k += 1
    assert sum(j.rejected for j in judged) == k
    assert any(j.rejected for j in judged) == (min(ps) <= alpha / m)  # a pool fails as Bonferroni says
    assert all(j.finding.p <= j.threshold for j in judged if j.rejected)


def test_the_runs_level_is_split_over_its_pools_and_an_unknown_game_gets_no_layout_tests():
    """pool_statistics at 4 pools holds a pool to 0.05% (0.2% over the pools: a run of two or more pools
    gives 0.2% to its pools' tests combined, docs/statistics.md 1d), Holm's thresholds from
    there; a game with no layout contract tests says so instead of inventing any."""
    import polars as pl

    from audit.read.manifest import Tier
    from audit.stats.step import pool_lines, pool_statistics

    n = 20_000
    prize = np.where(split_mask(n, 1) & split_mask(n, 1 << 40), 100, 0)  # about a quarter win
    prize[np.flatnonzero(prize)[::40]] = 5_000

    class Entry:
        id, file_sha256 = "d1.00", "0" * 64
        tiers = (Tier("lose", 0, 0), Tier("m1", 100, 0), Tier("m50", 5_000, 0))

    s = pool_statistics(pl.DataFrame({"prize_cents": prize}), Entry, rules="no_such_game", kind="einstant",
                        per_book=None, pools=4)
    assert s.alpha == pytest.approx(0.0005) and not s.failed  # 0.2% for the pools (0.6% top tiers, 0.2% both)
    m = len(s.judged)
    assert sorted(j.threshold for j in s.judged) == pytest.approx(sorted(0.0005 / k for k in range(1, m + 1)))
    assert "layout no-information tests: no contract tests for game rules 'no_such_game'" in s.not_tested
    lines = [line for _, line in pool_lines(s)]
    assert lines[0].startswith(f"{m} tests, none significant at family-wise 0.05% for this pool (0.2% over "
                               "the run's 4 pool(s)), Holm across the pool's tests")
    assert any(line.startswith("winners per block of 1,000 shares: dispersion") for line in lines)


POOLS = {"happy_holidays": "p1", "wild_side": "p1", "hand_to_hand_tactics": "d1.00",
         "primetime_payout": "d1.00x1"}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stats")
    keys = new_key_pair(tmp / "keys")
    return {"tmp": tmp, "keys": keys, "signer": Signer.from_file(keys.private), "runs": {},
            "reports": {}}


# The eInstants' biased cases: their pools cut to 200,000 shares (small_einstant: every count a fifth).
# Each bias moves a feature onto every winner of the pool, found at p < 1e-10 in a pool of that size as
# in a full one; the honest full pools are verified above. (A full pool's verify took most of each case.)
CUT = 200_000


def spec_of(base, rules: str, cut: bool = False) -> Path:
    if not cut:
        return spec_path(rules)
    folder = base["tmp"] / "cut" / rules
    if not folder.exists():
        folder.mkdir(parents=True)
        small_einstant(folder, rules, CUT)
    return folder / f"{rules}.toml"


def honest(base, rules: str, cut: bool = False) -> Path:
    """The signed one-pool run of the game (`cut`: of its spec cut to CUT shares), generated on first
    use."""
    name = f"{rules}-cut" if cut else rules
    if name not in base["runs"]:
        signer = base["signer"]
        run = generate(GenerateRequest(load_spec(spec_of(base, rules, cut)), SEED_A,
                                       now=datetime(2026, 1, 2, tzinfo=UTC), out=base["tmp"] / "runs",
                                       run_id=name, pool_ids=[POOLS[rules]],
                                       signature=signer.manifest_entry()), finish=signer.sign_run)
        base["runs"][name] = run.folder
    return base["runs"][name]


def copy_of(base, rules: str, tmp_path: Path, cut: bool = False) -> Path:
    run = tmp_path / rules
    shutil.copytree(honest(base, rules, cut), run)
    return run


def verify(base, run: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public), "--json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def honest_report(base, rules: str) -> tuple[int, dict]:
    """verify --json of the game's honest run (`honest`), made on first use: the tests read it."""
    if rules not in base["reports"]:
        base["reports"][rules] = verify(base, honest(base, rules))
    return base["reports"][rules]


def step8(report: dict) -> dict:
    step = report["steps"][7]
    assert step["step"] == 8 and step["title"] == "statistics"
    return step


def pool_path(run: Path) -> Path:
    return next(run.glob("pool-*.parquet"))


def rewrite(base, run: Path, rules: str, change, cut: bool = False) -> None:
    """Change the pool's table, recompute its identity columns from the row order, restate the file
    hash and Merkle root in the manifest and sign it again."""
    spec = load_spec(spec_of(base, rules, cut))
    path = pool_path(run)
    table = change(pl.read_parquet(path))
    table = table.with_columns(list(identity_columns(spec, spec.pool(POOLS[rules]), SEED_A).values()))
    table.write_parquet(path, compression="zstd", compression_level=1, statistics=False)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["pools"][0]["file"] = file_entry(path)
    doc["pools"][0]["merkle"]["root"] = merkle_root(table).hex()
    for f in doc.pop("deliverables", []):  # step 8's cases: the printer's files would tell too (step 9)
        if f["role"] != "pool":
            (run / f["name"]).unlink()
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    base["signer"].sign_run(run)


def swap_rows(table: pl.DataFrame, a: np.ndarray, b: np.ndarray) -> pl.DataFrame:
    """The table with rows a[i] and b[i] exchanged."""
    order = np.arange(table.height)
    order[a], order[b] = b, a
    return table[order]


def only_step_8_fails(base, run: Path, *, neighbours_too: bool = False) -> str:
    """Step 8's reasons, when it is the only step failing (with `neighbours_too`, step 4 may fail too,
    only for the neighbour rule the tampering broke: moved tickets can land beside an identical one)."""
    code, report = verify(base, run)
    failed = report["failed_steps"]
    if neighbours_too and failed == [4, 8]:
        why = report["steps"][3]["reasons"]
        assert why and all("identical play data (packs.neighbours)" in r or  # an eInstant's: blocks.
                           "identical play data (blocks.neighbours)" in r for r in why), why
        failed = [8]
    assert code == 1 and failed == [8], report["failed_steps"]
    statuses = [s["status"] for s in report["steps"]][:8]
    if report["failed_steps"] == [4, 8]:
        statuses[3] = "pass"  # the neighbour rule's, checked above
    assert statuses == ["pass"] * 6 + ["skip", "fail"]
    assert report["steps"][8]["status"] in ("pass", "skip")  # eInstants pass; printed: deliverables removed
    return " | ".join(step8(report)["reasons"])


def p_of(reasons: str, test: str) -> float:
    """The p-value a failure reason gives for the named test."""
    found = re.search(re.escape(test) + r"[^|]*?, p = ([0-9.e+-]+) <= Holm threshold", reasons)
    assert found, (test, reasons)
    return float(found.group(1))


# ---- honest pools --------------------------------------------------------------------------------

RUN_TESTS = {"happy_holidays": 4, "wild_side": 16, "hand_to_hand_tactics": 12,  # of the top tiers
             "primetime_payout": 18}


@pytest.mark.parametrize("rules", list(POOLS))
def test_an_honest_full_pool_passes_step_8(base, rules):
    code, report = honest_report(base, rules)
    assert code == 0 and report["failed_steps"] == []
    step = step8(report)
    assert step["status"] == "pass" and step["reasons"] == []
    details = step["details"]
    pool = POOLS[rules]
    assert re.fullmatch(rf"pool {re.escape(pool)}: \d+ tests, none significant at family-wise 0.4% for this "
                        r"pool \(0.4% over the run's 1 pool\(s\)\), Holm across the pool's tests \(smallest "
                        r"p = [0-9.e+-]+\)", details[0]), details[0]
    tests = [d for d in details[1:] if "not tested" not in d and d.startswith("pool ")]
    run = [d for d in details if d.startswith("run: ")]
    assert re.fullmatch(r"run: \d+ tests of the top tiers, pools combined, 0 significant at family-wise "
                        r"0.6% for the run's top tiers, weighted Holm \(smallest p = [0-9.e+-]+\)",
                        run[0]), run[0]
    assert int(run[0].split()[1]) == len(run) - 1 == RUN_TESTS[rules]
    assert int(details[0].split(": ")[1].split()[0]) == len(tests)
    assert all(re.search(r", p = [0-9.e+-]+$", d) for d in tests)
    kinds = ("winner positions by tenth of the pool (chi-square test of independence, 2 x 10): X2 = ",
             "top prizes (", "runs of winners and losers in print order (Wald-Wolfowitz",
             "winners per book of " if rules in ("happy_holidays", "wild_side") else
             "winners per block of 1,000 shares: dispersion", "win/lose predicted from ")
    for kind in kinds:
        assert any(d.startswith(f"pool {pool}: {kind}") for d in tests), kind


def test_the_text_report_lists_step_8(base):
    result = CliRunner().invoke(app, ["verify", str(honest(base, "happy_holidays")), "--public-key",
                                      str(base["keys"].public)])
    assert result.exit_code == 0
    assert "  8 statistics    pass  pool p1: 91 tests, none significant at family-wise 0.4%" in result.stdout


# ---- biased pools --------------------------------------------------------------------------------

def test_winners_concentrated_early_fail_the_position_tests(base, tmp_path):
    run = copy_of(base, "happy_holidays", tmp_path)

    def early(t: pl.DataFrame) -> pl.DataFrame:
        win = (t["prize_cents"] > 0).to_numpy()
        half = t.height // 2
        late_winners = np.flatnonzero(win[half:])[:3000] + half
        early_losers = np.flatnonzero(~win[:half])[:3000]
        return swap_rows(t, late_winners, early_losers)

    rewrite(base, run, "happy_holidays", early)
    reasons = only_step_8_fails(base, run)
    assert p_of(reasons, "pool p1: winner positions by tenth of the pool (chi-square test of "
                         "independence, 2 x 10): X2 = ") < 1e-10


def test_top_prizes_kept_out_of_the_first_fifth_fail_the_exact_test(base, tmp_path):
    """The 2016 Chicago Tribune case: no top prize in the first fifth of the pool."""
    run = copy_of(base, "happy_holidays", tmp_path)
    fifth = 300_000 // 5

    def kept_out(t: pl.DataFrame) -> pl.DataFrame:
        tier = t["tier"].to_numpy()
        early_top = np.flatnonzero(tier[:fifth] == "100")
        later_losers = np.flatnonzero(tier[fifth:] == "lose") + fifth
        return swap_rows(t, early_top, later_losers[:: len(later_losers) // len(early_top)][: len(early_top)])

    rewrite(base, run, "happy_holidays", kept_out)
    reasons = only_step_8_fails(base, run)
    test = ("pool p1: top prizes ($100; 450 tickets): smallest position (exact: P(min >= x) = "
            "C(N-x, t)/C(N, t))")
    assert p_of(reasons, test) < 0.8 ** 450 * 1.01
    assert re.search(r"smallest of 450 at position 6\d,\d{3} \(2\d\.\d% into the pool\)", reasons)


def test_winners_clustered_per_book_fail_the_dispersion_test(base, tmp_path):
    run = copy_of(base, "happy_holidays", tmp_path)

    def clustered(t: pl.DataFrame) -> pl.DataFrame:
        win = (t["prize_cents"] > 0).to_numpy().reshape(500, 2, 300)  # pairs of books of 300
        move = win[:, 1, :] & ~win[:, 0, :] & (np.arange(300) % 3 == 0)  # a winner to the even book
        pair, ticket = np.nonzero(move)
        return swap_rows(t, pair * 600 + 300 + ticket, pair * 600 + ticket)

    rewrite(base, run, "happy_holidays", clustered)
    reasons = only_step_8_fails(base, run, neighbours_too=True)
    assert p_of(reasons, "pool p1: winners per book of 300: dispersion (index of dispersion") < 1e-10


def test_a_leaky_first_spot_fails_the_independence_and_classifier_tests(base, tmp_path):
    """Primetime Payout's a0_s0 made to show a Coin on winners whenever their area holds one: still
    legal layouts paying their prize (an area's win depends on its four symbols, not their order)."""
    run = copy_of(base, "primetime_payout", tmp_path, cut=True)

    def leak(t: pl.DataFrame) -> pl.DataFrame:
        spots = np.stack([t[f"a0_s{j}"].to_numpy() for j in range(4)], axis=1)
        win = (t["prize_cents"] > 0).to_numpy()
        for j in (1, 2, 3):
            move = win & (spots[:, j] == 12) & (spots[:, 0] != 12)
            spots[move, 0], spots[move, j] = spots[move, j], spots[move, 0]
        return t.with_columns(*(pl.Series(f"a0_s{j}", spots[:, j], dtype=pl.UInt8) for j in range(4)))

    rewrite(base, run, "primetime_payout", leak, cut=True)
    reasons = only_step_8_fails(base, run, neighbours_too=True)
    assert p_of(reasons, "pool d1.00x1: a0_s0 (the first spot shown) against win/lose (chi-square test "
                         "of independence, 2 x 13): X2 = ") < 1e-10
    assert p_of(reasons, "pool d1.00x1: win/lose predicted from a0_s0 (logistic regression (13 one-hot "
                         "features)") < 1e-10
    auc = float(re.search(r"predicted from a0_s0 [^|]*AUC = ([0-9.]+)", reasons).group(1))
    assert auc > 0.55


def test_a_printed_game_whose_first_spot_shows_the_win_fails(base, tmp_path):
    """Happy Holidays with each winner's tripled symbol moved into play_spot_0 (match_n's feature, keyed by
    the style from the manifest's play entry)."""
    run = copy_of(base, "happy_holidays", tmp_path)

    def leak(t: pl.DataFrame) -> pl.DataFrame:
        spots = np.stack([t[f"play_spot_{j}"].to_numpy() for j in range(6)], axis=1)
        counts = np.stack([(spots == s).sum(axis=1) for s in range(6)], axis=1)
        triple = counts.argmax(axis=1)
        win = (t["prize_cents"] > 0).to_numpy()
        for j in range(1, 6):
            move = win & (spots[:, j] == triple) & (spots[:, 0] != triple)
            spots[move, 0], spots[move, j] = spots[move, j], spots[move, 0]
        return t.with_columns(*(pl.Series(f"play_spot_{j}", spots[:, j], dtype=pl.UInt8) for j in range(6)))

    rewrite(base, run, "happy_holidays", leak)
    reasons = only_step_8_fails(base, run, neighbours_too=True)
    assert p_of(reasons, "pool p1: play_spot_0 (one scratched spot) against win/lose") < 1e-10
    assert p_of(reasons, "pool p1: win/lose predicted from play_spot_0") < 1e-10


# ---- the report's page ---------------------------------------------------------------------------

@pytest.mark.parametrize("biased", [False, True])
def test_the_report_shows_step_8s_figures_on_a_page_of_its_own(base, tmp_path, biased):
    run = copy_of(base, "happy_holidays", tmp_path)
    if biased:
        rewrite(base, run, "happy_holidays", lambda t: t.sort("prize_cents", descending=True,
                                                               maintain_order=True))
    # the honest copy's verify is the honest run's (the same files)
    _, report = verify(base, run) if biased else honest_report(base, "happy_holidays")
    step = step8(report)
    out = tmp_path / "report.pdf"
    # The page is the report's own computation with or without the key; the biased run's report runs
    # the checklist (exit 1: it fails), the honest one's is drawn without it (its checklist, step 8
    # included, is the verify just above; a passing report's exit 0 is the end-to-end tests').
    key = ["--public-key", str(base["keys"].public)] if biased else []
    result = CliRunner().invoke(app, ["report", str(run), "--out", str(out), "--internal", *key])
    assert result.exit_code == (1 if biased else 0), result.output
    assert ("VERIFICATION FAILS" if biased else "verification not run") in result.stdout
    texts = pages(out)
    first = next(i for i, p in enumerate(texts) if "Pool p1: statistics (verify step 8)" in p)
    page = " ".join(texts[first:first + 8])  # the table may go on over the next seven pages
    assert ("FAIL: " if biased else "PASS: no test significant (91 tests)") in page
    mine = [line for line in step["reasons"] + step["details"][1:] if line.startswith("pool p1: ")]
    figures = [re.search(r"^.*\): (.*), p = ([0-9.e+-]+)", line) for line in mine
               if "not tested" not in line]
    # the pool's (the run-level tests are verify's only); sorted, no loser is followed by a winner and every
    # book holding a loser but one holds no winner: 1j's and 1k's six tests each (and 1l's seven counts in
    # each) are not made
    assert len(figures) == (65 if biased else 91)
    for f in figures:
        assert f"{f.group(1)} {f.group(2)} " in page, f.group(0)
    failed = [line for line in step["reasons"] if line.startswith("pool p1: ")]
    assert page.count(" FAIL") == (len(failed) + 1 if biased else 0)  # and the verdict


def test_a_leaky_first_reveal_of_a_duel_fails_its_style_tests(base, tmp_path):
    """Hand to Hand Tactics (prize_legend_duel style): every winner whose spot 0 is not a loss has its
    first loss moved to spot 0 (the spots swapped, amounts with them): still legal layouts paying their
    prize (the last loss, and so the spots played, are unchanged), but spot 0 now tells winners apart.
    Step 8 finds it by the feature the style states, with the rule read from the manifest's play."""
    run = copy_of(base, "hand_to_hand_tactics", tmp_path, cut=True)

    def leak(t: pl.DataFrame) -> pl.DataFrame:
        codes = np.stack([t[f"spot_{j}"].to_numpy() for j in range(15)], axis=1)
        amts = np.stack([t[f"amt_{j}"].to_numpy() for j in range(15)], axis=1)
        rows = np.flatnonzero((t["prize_cents"] > 0).to_numpy() & (codes[:, 0] != 1))
        first = np.argmax(codes[rows] == 1, axis=1)  # the first of its three losses: never the last
        for arr in (codes, amts):
            arr[rows, 0], arr[rows, first] = arr[rows, first], arr[rows, 0].copy()
        return t.with_columns(*(pl.Series(f"spot_{j}", codes[:, j], dtype=pl.UInt8) for j in range(15)),
                              *(pl.Series(f"amt_{j}", amts[:, j], dtype=pl.Int64) for j in range(15)))

    rewrite(base, run, "hand_to_hand_tactics", leak, cut=True)
    reasons = only_step_8_fails(base, run, neighbours_too=True)
    assert p_of(reasons, "pool d1.00: first reveal (spot_0) a loss (drawn 1/4 for every share), against "
                         "win/lose (chi-square test of independence, 2 x 2): X2 = ") < 1e-10
    assert p_of(reasons, "pool d1.00: win/lose predicted from whether spot_0 is a loss") < 1e-10


def test_step_8_in_the_verify_workers_says_what_it_says_serially(base):
    """Each pool's part of step 8 runs in the verify worker that read the pool (issue 28); the lines
    are the serial check_statistics' exactly, run-level tests included. A run of two pools (Wild Side
    cut to pools of 3,000): verify takes a worker process for a second pool only (a one-pool run is
    checked in this process, whatever --workers says)."""
    from audit.read.manifest import Manifest
    from audit.stats.step import check_statistics
    from audit.verify import VerifyRequest, verify_run

    folder = base["tmp"] / "two-pools"
    folder.mkdir()
    signer = base["signer"]
    run = generate(GenerateRequest(load_spec(small_wild_side(folder)), SEED_A,
                                   now=datetime(2026, 1, 2, tzinfo=UTC), out=folder, run_id="r",
                                   pool_ids=["p1", "p2"], signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    manifest = Manifest.parse((run / "manifest.json").read_bytes())
    assert [p.id for p in manifest.pools] == ["p1", "p2"]
    serial = [f"{where}: {line}" for status, line, where in check_statistics(run, manifest)
              if status == "pass"]
    report = verify_run(VerifyRequest(run=run, public_key=base["keys"].public, workers=2))
    step = next(s for s in report.steps if s.title == "statistics")
    assert step.status == "pass" and step.details == serial
    # each pool's tests (p1 209: 150, 1j's and 1l's; p2 211: 1l's near misses of YOUR NUMBERS on the books'
    # first and last losers, made only where both classes are large enough, docs/statistics.md 1l), its
    # summary, 5 not tested; and the run's: 30 tests of the top tiers pooled (six groups: four each, and the
    # same book of print order in the most pools), the 209 made in both pools combined (Fisher: a run of two
    # or more pools only), their summaries
    assert [sum(line.startswith(f"pool {p}: ") for line in serial) for p in ("p1", "p2")] == [215, 217]
    assert sum(line.startswith("run: ") for line in serial) == 30 + 209 + 2
