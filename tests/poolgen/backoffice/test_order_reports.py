"""Reports over an order made in several runs (docs/back-office.md, section 6, "An order in several runs"):
the split order of tests/support/split_run.py made as one run and again as two cuts (p1 to p3, p4 to
p6) from its seed, the same claims paid under the whole run into one ledger and under the cuts into
another. Prizes remaining and the closing report over both cuts are the one run's, level for level and
cent for cent; each cut alone covered its own pools only. Runs of other orders, overlapping pools and
a run given twice are refused in one line before any ledger is read. The same for an eInstant order
(two denominations as one run and as two cuts) and its one sales ledger."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from poolgen.backoffice.sales import SalesLedger
from poolgen.backoffice.vouched import open_signed
from poolgen.loader import load_spec
from poolgen.money import fmt_cents
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, SEED_B, spec_path
from tests.support.cli import invoke, one_line
from tests.support.pdf import pages
from tests.support.reseal import resign
from tests.support.split_run import SplitRun, cut, split_run, ticket_rows

ORDER = {"$6.00": 4, "$2.00": 50, "free ticket ($1.00)": 100, "$1.00": 100}  # the order's counts
PAID = {"cut-a": {"6": 1, "2": 2, "free": 2, "1": 1}, "cut-b": {"6": 1, "2": 1, "1": 3}}  # claims per cut
PAID_CENTS = 2 * 600 + 3 * 200 + 2 * 100 + 4 * 100  # $24.00: the claims above, free tickets at $1.00


def _claim(root: Path, run: SplitRun, ledger: Path, barcode: str, virn: str) -> None:
    result = invoke("validate", run.folder, barcode, virn, "--validation-key", run.low,
                    "--high-validation-key", run.high, "--public-key", run.public,
                    "--index-dir", root / "index", "--ledger", ledger)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def order(tmp_path_factory) -> dict:
    """The order as one run (`whole`) and as cuts `a` and `b`; `cuts.sqlite` holds the claims of PAID
    paid under the cut holding each ticket, `whole.sqlite` the same tickets paid under the whole run."""
    root = tmp_path_factory.mktemp("order-reports")
    whole = split_run(root)
    made = {"whole": whole, "a": cut(whole, ["p1", "p2", "p3"], "cut-a"),
            "b": cut(whole, ["p4", "p5", "p6"], "cut-b")}
    (root / "index").mkdir()
    for part in ("a", "b"):
        rows = ticket_rows(made[part])
        for tier, n in PAID[made[part].folder.name].items():
            for b, v, _ in rows.filter(pl.col("tier") == tier).head(n).iter_rows():
                _claim(root, made[part], root / "cuts.sqlite", b, v)
                _claim(root, whole, root / "whole.sqlite", b, v)
    return {"root": root, **made, "cuts": root / "cuts.sqlite", "ledger_whole": root / "whole.sqlite"}


def _json(*args: object) -> dict:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _sha(run: SplitRun) -> str:
    return hashlib.sha256((run.folder / "manifest.json").read_bytes()).hexdigest()


def test_prizes_remaining_over_two_cuts_are_the_one_runs(order):
    """Given both cuts (one as RUN, one as --run), the table is the whole run's, level for level, with
    the order's counts as totals; each cut alone shows its own pools' prizes and claims only."""
    a, b = order["a"], order["b"]
    over = _json("claims", "report", a.folder, "--run", b.folder, "--ledger", order["cuts"])
    one = _json("claims", "report", order["whole"].folder, "--ledger", order["ledger_whole"])
    assert over["levels"] == one["levels"]
    assert {lv["prize"]: lv["total"] for lv in over["levels"]} == ORDER
    assert over["totals"] == one["totals"] == {
        "total": 254, "paid": 11, "remaining": 243, "total_cents": 32_400, "paid_cents": PAID_CENTS,
        "remaining_cents": 32_400 - PAID_CENTS}
    assert "run_id" not in over and one["run_id"] == "split"
    assert over["runs"] == [
        {"run_id": "cut-a", "manifest_sha256": _sha(a), "pools": ["p1", "p2", "p3"], "tickets": 6_000,
         "sales_cents": 600_000, "prize_cost_cents": over["runs"][0]["prize_cost_cents"]},
        {"run_id": "cut-b", "manifest_sha256": _sha(b), "pools": ["p4", "p5", "p6"], "tickets": 6_000,
         "sales_cents": 600_000, "prize_cost_cents": 32_400 - over["runs"][0]["prize_cost_cents"]}]
    assert over["order"] == one["order"] == {"tickets": 12_000, "sales_cents": 1_200_000,
                                             "prize_cost_cents": 32_400, "order_tickets": 12_000}
    for command in ("report", "close"):  # one cut alone counted its own payments only, cut-b's as unclaimed
        one_line(invoke("claims", command, a.folder, "--ledger", order["cuts"]), "poolgen",
                 f"{order['cuts']}: 5 payment(s) of game 7 under run(s) cut-b, not given: a ledger holds one "
                 "order per game number, so the order's tables need every run of it (RUN ... or --run RUN)")
    text = invoke("claims", "report", a.folder, b.folder, "--ledger", order["cuts"])
    whole = invoke("claims", "report", order["whole"].folder, "--ledger", order["ledger_whole"])
    assert text.exit_code == 0, text.output
    heading = text.stdout.splitlines()[0]
    assert re.fullmatch(r"Test Game \(7\): prizes remaining at .* \(runs cut-a, cut-b\)", heading), heading
    assert text.stdout.splitlines()[1:] == whole.stdout.splitlines()[1:]


def test_the_closing_report_over_two_cuts_is_the_one_runs(order, tmp_path):
    """Every figure of the closing report over both cuts is the whole run's; sales and designed prizes
    are the two manifests' totals summed; the PDF page names both runs."""
    a, b = order["a"], order["b"]
    over = _json("claims", "close", "--run", a.folder, "--run", b.folder, "--ledger", order["cuts"])
    one = _json("claims", "close", order["whole"].folder, "--ledger", order["ledger_whole"])
    same = ("sales_cents", "sales", "designed_prizes_cents", "paid_cents", "unclaimed_cents",
            "designed_payout_pct", "actual_payout_pct", "levels", "order")
    assert {k: over[k] for k in same} == {k: one[k] for k in same}
    manifests = [json.loads((r.folder / "manifest.json").read_bytes())["totals"] for r in (a, b)]
    assert over["sales_cents"] == sum(m["sales_cents"] for m in manifests) == 1_200_000
    assert over["designed_prizes_cents"] == sum(m["prize_cost_cents"] for m in manifests) == 32_400
    assert (over["paid_cents"], over["unclaimed_cents"]) == (PAID_CENTS, 32_400 - PAID_CENTS)
    assert (over["designed_payout_pct"], over["actual_payout_pct"]) == ("2.7000", "0.2000")
    assert [r["manifest_sha256"] for r in over["runs"]] == [_sha(a), _sha(b)]
    pdf = tmp_path / "close.pdf"
    made = invoke("claims", "close", a.folder, b.folder, "--ledger", order["cuts"], "--pdf", pdf)
    assert made.exit_code == 0, made.output
    assert pdf.stat().st_mode & 0o777 == 0o600
    assert "Runs cut-a, cut-b." in pages(pdf)[0]


@pytest.fixture(scope="module")
def strangers(order) -> dict:
    """Cuts of p4 to p6 that are not of the order: one from another seed, one from a spec with other
    bytes (a comment added; the same game), one from its seed and spec signed with another key."""
    root, whole = order["root"], order["whole"]
    signer = Signer.from_file(whole.private)

    def made(spec: Path, seed: bytes, run_id: str, by: Signer = signer) -> Path:
        request = GenerateRequest(load_spec(spec), seed, now=datetime(2026, 12, 3, tzinfo=UTC),
                                  out=root / "runs", run_id=run_id, pool_ids=["p4", "p5", "p6"],
                                  signature=by.manifest_entry())
        return generate(request, finish=by.sign_run).folder

    other_spec = root / "other" / whole.spec.name
    other_spec.parent.mkdir()
    other_spec.write_text(whole.spec.read_text() + "# another spec file\n")
    other_key = Signer.from_file(new_key_pair(root / "other-key", None).private)
    return {"seed": made(whole.spec, SEED_B, "other-seed"), "spec": made(other_spec, SEED_A, "other-spec"),
            "key": made(whole.spec, SEED_A, "other-key", other_key)}


@pytest.mark.parametrize("case", ["seed", "spec", "key", "overlap", "twice", "einstant"])
def test_runs_of_another_order_are_refused_before_any_ledger_is_read(order, strangers, einstant, case,
                                                                      tmp_path):
    a = order["a"].folder
    second, message = {
        "seed": (strangers["seed"], f"{strangers['seed']}: seed_commitment is not {a}'s: not a run of the "
                                    "same order"),
        "spec": (strangers["spec"], f"{strangers['spec']}: spec.sha256 is not {a}'s: not a run of the same "
                                    "order"),
        "key": (strangers["key"], f"{strangers['key']}: signature is not {a}'s: not a run of the same "
                                  "order"),  # without --public-key: each manifest names its key
        "overlap": (order["whole"].folder, f"{order['whole'].folder}: pool p1 is also in {a}: the runs "
                                           "overlap; give each pool of the order once"),
        "twice": (a, f"{a}: run id cut-a again (also {a}); give each run of the order once"),
        "einstant": (einstant["folder"], f"{einstant['folder']}: game is not {a}'s: not a run of the same "
                                         "order"),
    }[case]
    missing = tmp_path / "no-such-ledger.sqlite"  # never opened: the runs are refused first
    for command in (("claims", "report"), ("claims", "close")):
        result = invoke(*command, a, "--run", second, "--ledger", missing)
        one_line(result, "poolgen", message)
        assert result.stdout == ""
    result = invoke("sales", "report", second, "--run", a, "--ledger", missing)
    assert result.exit_code == 2 and result.stdout == "", result.output


def test_a_manifest_whose_prize_cost_is_not_its_levels_is_refused(order, tmp_path):
    """An insider's copy of cut-b whose totals.prize_cost_cents says $1.00 more than its pools' tiers,
    signed again: the order's tables would not add up to the manifests' figures, so neither is drawn."""
    copy = tmp_path / "insider" / "cut-b"
    shutil.copytree(order["b"].folder, copy)
    signer = Signer.from_file(order["whole"].private)
    resign(copy, lambda doc: doc["totals"].update(prize_cost_cents=doc["totals"]["prize_cost_cents"] + 100),
           signer)
    for command in ("report", "close"):
        one_line(invoke("claims", command, order["a"].folder, copy, "--ledger", order["cuts"], "--public-key",
                        order["whole"].public), "poolgen",
                 "the runs' levels hold $324.00 of prizes, their manifests' totals $325.00: the figures "
                 "would not add up")


def test_a_report_without_a_run_is_refused_in_one_line(order):
    one_line(invoke("claims", "report", "--ledger", order["cuts"]), "poolgen",
             "give the run folder: RUN, or every run of the order (RUN ... or --run RUN, repeated)")


def _einstant_spec(root: Path) -> Path:
    """Hand to Hand Tactics cut to pools of 2,000 shares (counts / 500, at least 1), as the conftest's
    `einstant`."""
    text = spec_path("hand_to_hand_tactics").read_text()
    text = text.replace("pool_shares = 1000000", "pool_shares = 2000").replace(
        "order_shares = 6000000", "order_shares = 12000")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // 500)}", text, flags=re.M)
    (root / "small.toml").write_text(text)
    return root / "small.toml"


@pytest.fixture(scope="module")
def shares(order) -> dict:
    """Pools d1.00 and d2.00 of the small eInstant as one run `ew` and as two cuts `ea`, `eb`; the same
    sales, voids and claims recorded under the cuts in `cuts.sqlite` and under the whole run in
    `whole.sqlite` (sales ledgers)."""
    root = order["root"] / "einstant"
    root.mkdir()
    game = load_spec(_einstant_spec(root))
    signer = Signer.from_file(order["whole"].private)
    folders = {}
    for run_id, pools in (("ew", ["d1.00", "d2.00"]), ("ea", ["d1.00"]), ("eb", ["d2.00"])):
        request = GenerateRequest(game, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=root / "runs",
                                  run_id=run_id, pool_ids=pools, signature=signer.manifest_entry())
        folders[run_id] = generate(request, finish=signer.sign_run).folder
    for ledger, runs in (("whole", {"d1.00": "ew", "d2.00": "ew"}), ("cuts", {"d1.00": "ea", "d2.00": "eb"})):
        for pool, run_id in runs.items():
            prizes = pl.read_parquet(folders[run_id] / f"pool-{pool}.parquet")["prize_cents"].to_list()
            winners = [i for i, p in enumerate(prizes, start=1) if p > 0][:4]
            signed = open_signed(folders[run_id], order["whole"].public, "sell")
            book = SalesLedger(root / f"{ledger}.sqlite", signed)
            try:
                for _ in range(winners[3] + 5):
                    book.sell(pool, "web", "p1")
                book.claim(pool, winners[0])
                book.claim(pool, winners[1])
                book.void(pool, winners[2], "R1")
            finally:
                book.close()
    return {"root": root, **folders, "public": order["whole"].public}


def test_the_einstant_reports_over_two_cuts_are_the_one_runs(shares):
    cuts = (shares["ea"], "--run", shares["eb"], "--ledger", shares["root"] / "cuts.sqlite")
    whole = (shares["ew"], "--ledger", shares["root"] / "whole.sqlite")
    over, one = _json("sales", "report", *cuts), _json("sales", "report", *whole)
    assert (over["levels"], over["totals"], over["sales_cents"]) == (one["levels"], one["totals"],
                                                                      one["sales_cents"])
    assert [lv["pool"] for lv in over["levels"]][:1] == ["d1.00"] and over["levels"][-1]["pool"] == "d2.00"
    assert [r["run_id"] for r in over["runs"]] == ["ea", "eb"]
    close = _json("sales", "report", *cuts, "--closing", "--public-key", shares["public"])
    whole_close = _json("sales", "report", *whole, "--closing")
    keys = ("sales_cents", "designed_sales_cents", "designed_prizes_cents", "paid_cents", "unclaimed_cents",
            "voided_cents", "never_sold_cents", "designed_payout_pct", "actual_payout_pct", "levels", "order")
    assert {k: close[k] for k in keys} == {k: whole_close[k] for k in keys}
    assert close["designed_sales_cents"] == 2_000 * 100 + 2_000 * 200
    assert close["designed_prizes_cents"] == sum(r["prize_cost_cents"] for r in close["runs"])
    assert sum(lv["paid"] for lv in close["levels"]) == 4 and sum(lv["voided"] for lv in close["levels"]) == 2
    for lv in close["levels"]:
        assert lv["total"] == lv["paid"] + lv["unclaimed"] + lv["voided"] + lv["never_sold"], lv
    assert close["designed_prizes_cents"] == sum(close[k] for k in ("paid_cents", "unclaimed_cents",
                                                                    "voided_cents", "never_sold_cents"))
    assert close["runs"][1]["manifest_sha256"] == hashlib.sha256((shares["eb"] / "manifest.json")
                                                                 .read_bytes()).hexdigest()


def test_an_einstant_cut_reported_alone_is_refused_as_a_printed_one_is(shares):
    """Section 6: a printed cut's tables are refused while its ledger holds payments under a run of the
    order not given; `sales report` of cut ea alone drew d1.00's table from the one sales ledger that also
    sells cut eb, as if the order were ea's. Now it is refused the same way, with and without --closing."""
    ledger = shares["root"] / "cuts.sqlite"
    with closing(sqlite3.connect(ledger)) as db:
        sold = db.execute("SELECT COUNT(*) FROM sales WHERE run_id = 'eb'").fetchone()[0]
    assert sold > 5
    for also in ([], ["--closing"]):
        one_line(invoke("sales", "report", shares["ea"], "--ledger", ledger, *also), "poolgen",
                 f"{ledger}: {sold:,} sale(s) under run(s) eb, not given: a sales ledger holds one order, so "
                 "the order's tables need every run of it (RUN ... or --run RUN)")


def test_an_einstant_manifest_whose_prize_cost_is_not_its_levels_is_refused(order, shares, tmp_path):
    """Section 6: prizes remaining and the closing report, printed or eInstant, are refused when the levels'
    prizes are not the manifests' prize_cost_cents summed: an insider's copy of cut eb saying $1.00 more,
    signed again, is refused by `sales report` with and without --closing (prizes remaining drew it)."""
    copy = tmp_path / "insider" / "eb"
    shutil.copytree(shares["eb"], copy)
    signer = Signer.from_file(order["whole"].private)
    before = json.loads((copy / "manifest.json").read_bytes())["totals"]["prize_cost_cents"]
    resign(copy, lambda doc: doc["totals"].update(prize_cost_cents=doc["totals"]["prize_cost_cents"] + 100),
           signer)
    designed = before + json.loads((shares["ea"] / "manifest.json").read_bytes())["totals"][
        "prize_cost_cents"]
    for also in ([], ["--closing"]):
        one_line(invoke("sales", "report", shares["ea"], copy, "--ledger", shares["root"] / "cuts.sqlite",
                        "--public-key", shares["public"], *also), "poolgen",
                 f"the runs' levels hold {fmt_cents(designed)} of prizes, their manifests' totals "
                 f"{fmt_cents(designed + 100)}: the figures would not add up")


def test_a_pool_sold_under_one_run_of_the_order_is_not_sold_again_under_another(shares, tmp_path):
    """The order's d1.00 is in run ew and in cut ea: the same shares, serial for serial. One sales ledger
    (section 6) sold share 1 under ew, then share 1 again under ea, to another player (its `pools` row is
    keyed by run id; `sales reconcile` of either run passed). Now the second run's sale is refused in
    one line, exit 2, and nothing is recorded; a pool sold under no other run id sells as before."""
    ledger = tmp_path / "sales.sqlite"

    def sell(run: str, pool: str):
        return invoke("sales", "sell", shares[run], "--pool", pool, "--ledger", ledger, "--channel", "web",
                      "--player", f"p-{run}", "--public-key", shares["public"])

    assert sell("ew", "d1.00").exit_code == 0
    one_line(sell("ea", "d1.00"), "poolgen",
             f"{ledger}: pool d1.00 is sold in this ledger under run ew, which holds the same shares (a "
             "ledger holds one order): selling it under run ea too would sell each share twice")
    assert sell("eb", "d2.00").exit_code == 0
    with closing(sqlite3.connect(ledger)) as db:
        assert db.execute("SELECT run_id, pool, serial, player FROM sales ORDER BY sale_no").fetchall() == [
            ("ew", "d1.00", 1, "p-ew"), ("eb", "d2.00", 1, "p-eb")]
        assert db.execute("SELECT run_id, pool FROM pools ORDER BY run_id").fetchall() == [
            ("eb", "d2.00"), ("ew", "d1.00")]


def test_a_ledger_that_sold_a_pool_under_two_runs_of_the_order_does_not_reconcile(shares, tmp_path):
    """A ledger written before `sell` refused it: d1.00's share 1 sold under ew and again under ea (the
    second row put in as that version did). `sales reconcile` of either run names the pool."""
    ledger = tmp_path / "sales.sqlite"
    assert invoke("sales", "sell", shares["ew"], "--pool", "d1.00", "--ledger", ledger, "--channel", "web",
                  "--player", "p-ew", "--public-key", shares["public"]).exit_code == 0
    with closing(sqlite3.connect(ledger)) as db, db:
        db.execute("INSERT INTO pools SELECT 'ea', pool, shares, price_cents, next_serial, closed_at "
                   "FROM pools")
        db.execute("INSERT INTO sales (run_id, pool, serial, sale_no, at, channel, player, chain) SELECT "
                   "'ea', pool, serial, 2, at, channel, 'p-ea', chain FROM sales")  # not re-chained
    for run, other in (("ew", "ea"), ("ea", "ew")):
        result = invoke("sales", "reconcile", shares[run], "--ledger", ledger)
        assert result.exit_code == 1, result.output
        assert (f"pool d1.00: also sold in this ledger under run {other}, which holds the same shares (each "
                "share sold twice)") in result.stdout, result.stdout


def test_prizes_in_returned_and_stolen_books_over_two_cuts_are_the_one_runs(order, tmp_path):
    """A books ledger (docs/back-office.md, section 8) with a book of each cut out of play: the tables over
    both cuts count the same prizes returned and stolen as the whole run's, level for level."""
    a, b = order["a"], order["b"]
    books = tmp_path / "books.sqlite"
    for run, command in ((a, "stolen"), (b, "return")):
        # the last $2: not among those paid
        barcode = ticket_rows(run).filter(pl.col("tier") == "2")["barcode"][-1]
        moved = invoke("books", command, run.folder, f"{barcode[:3]}-{barcode[3:10]}", "--ledger", books,
                       "--public-key", run.public)
        assert moved.exit_code == 0, moved.output
    for command in ("report", "close"):
        over = _json("claims", command, a.folder, "--run", b.folder, "--ledger", order["cuts"], "--books",
                     books)
        one = _json("claims", command, order["whole"].folder, "--ledger", order["ledger_whole"], "--books",
                    books)
        assert over["levels"] == one["levels"]
        assert sum(lv["returned"] for lv in over["levels"]) >= 1
        assert sum(lv["stolen"] for lv in over["levels"]) >= 1
        assert all(lv["total"] == lv["paid"] + lv["returned"] + lv["stolen"] + lv["remaining"]
                   for lv in over["levels"])
