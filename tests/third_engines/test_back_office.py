"""The third back office (back_office.py, back_office_sales.py: docs/back-office.md alone) against
`poolgen claims report|close|reconcile --json` and `poolgen sales report [--closing]|reconcile --json`
on real runs whose claims and sales the real commands recorded: free tickets, second claims refused,
wrong validation numbers, a claim after the closing report, a ticket paid at two desks; sales voided,
a voided share's claim and a second claim refused, a claim after `sales close`, a sale after it refused.
Every figure (counts and cents per level, paid, remaining, unclaimed, voided, never sold, totals,
payouts, heads) is the engine's."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, spec_path
from tests.support.cli import invoke
from tests.support.split_run import cut, split_run, ticket_rows
from tests.third_engines import back_office, back_office_sales, back_office_upgrade


def _agree(got: dict, mine: dict) -> None:
    """Every figure the engine computes is poolgen's, key for key."""
    assert {k: got[k] for k in mine} == mine


@pytest.fixture(scope="module")
def claims(printed_run, tmp_path_factory) -> dict:
    """Happy Holidays (3,000 tickets, signed), claimed at desk d1 into one ledger: two tickets of every
    level (free tickets and $1 cash prizes both $1.00), two losers, a second claim of a paid ticket
    refused (twice), a wrong validation number, then `claims close`, then one more payment (a claim after
    the closing report); and a $100 ticket paid again at desk d2 into a second ledger of its own."""
    made = printed_run("happy_holidays")
    tmp = tmp_path_factory.mktemp("claims3")
    rows = pl.concat([pl.read_parquet(made.run / "imaging-p1.parquet", columns=["barcode", "virn"]),
                      pl.read_parquet(made.run / "pool-p1.parquet", columns=["ticket", "tier"])],
                     how="horizontal")
    one, two = tmp / "d1.sqlite", tmp / "d2.sqlite"
    keys = ["--validation-key", made.low, "--high-validation-key", made.high, "--public-key", made.public,
            "--index-dir", tmp / "index", "--json", "--clerk", "c1"]

    def claim(ledger: Path, ticket: str, virn: str, desk: str = "d1") -> dict:
        done = invoke("validate", made.run, ticket, virn, *keys, "--ledger", ledger, "--desk", desk)
        return json.loads(done.stdout)

    picks = [r for tier in ("free", "1", "2", "5", "20", "100")
             for r in rows.filter(pl.col("tier") == tier).head(3).rows(named=True)]
    losers = rows.filter(pl.col("tier") == "lose").head(2).rows(named=True)
    answers = [claim(one, r["barcode"], r["virn"]) for i, r in enumerate(picks) if i % 3 != 2]
    answers += [claim(one, r["barcode"], r["virn"]) for r in losers]
    answers.append(claim(one, picks[0]["barcode"], picks[0]["virn"]))  # a free ticket again
    answers.append(claim(one, picks[3]["ticket"], picks[3]["virn"]))  # a $1 prize again, by its ticket id
    answers.append(claim(one, picks[6]["barcode"], "0" * 12))
    closed = invoke("claims", "close", made.run, "--ledger", one, "--json", "--public-key", made.public)
    answers.append(claim(one, picks[2]["barcode"], picks[2]["virn"]))  # after the closing report
    answers.append(claim(two, picks[15]["barcode"], picks[15]["virn"], desk="d2"))  # $100 at another desk
    return {"made": made, "one": one, "two": two, "answers": answers, "closed": json.loads(closed.stdout)}


def test_the_claims_were_recorded_as_the_test_means(claims):
    outcomes = [a["outcome"] for a in claims["answers"]]
    assert outcomes == ["prize"] * 12 + ["not a winner"] * 2 + ["already paid"] * 2 + [
        "wrong validation number", "prize", "prize"]
    assert [a["free_ticket"] for a in claims["answers"][:3]] == [True, True, False]


def test_prizes_remaining_and_the_closing_report_are_the_engines(claims):
    run, one = claims["made"].run, claims["one"]
    # the closing report made before the claim after it counted the 12 payments made by then
    assert claims["closed"]["paid_cents"] == 25800
    for ledgers in ([one], [one, claims["two"]]):
        args = [a for ledger in ledgers for a in ("--ledger", ledger)]
        report = json.loads(invoke("claims", "report", run, *args, "--json").stdout)
        _agree(report, back_office.prizes_remaining([run], ledgers))
        closing = json.loads(invoke("claims", "close", run, *args, "--json").stdout)
        _agree(closing, back_office.closing([run], ledgers))
    mine = back_office.closing([run], [one, claims["two"]])
    assert (mine["paid_cents"], mine["actual_payout_pct"], mine["designed_payout_pct"]) == (25900, "8.6333",
                                                                                             "58.9333")
    free, cash = (next(v for v in mine["levels"] if v["prize_cents"] == 100 and v["free_ticket"] is f)
                  for f in (True, False))
    assert (free["paid"], free["remaining"], cash["paid"], cash["remaining"]) == (3, 197, 2, 391)
    top = mine["levels"][0]
    assert (top["prize"], top["total"], top["paid"], top["unclaimed_cents"]) == ("$100.00", 4, 2, 20000)


def test_reconciliation_figures_and_heads_are_the_engines(claims):
    made, one, two = claims["made"], claims["one"], claims["two"]
    keys = ["--validation-key", made.low, "--high-validation-key", made.high, "--public-key", made.public]
    alone = invoke("claims", "reconcile", made.run, "--ledger", one, *keys, "--json")
    assert alone.exit_code == 0, alone.output
    _agree(json.loads(alone.stdout), back_office.reconcile(made.run, [one]))
    assert back_office.claims_problems(made.run, one) == set()
    both = invoke("claims", "reconcile", made.run, "--ledger", one, "--ledger", two, *keys, "--json")
    got = json.loads(both.stdout)
    _agree(got, back_office.reconcile(made.run, [one, two]))
    assert both.exit_code == 1 and got["payments_checked"] == 14 and len(got["problems"]) == 1
    assert "paid twice" in got["problems"][0]
    heads = back_office.reconcile(made.run, [one, two])["heads"]
    assert heads[str(one)].startswith("18:") and heads[str(two)].startswith("1:")
    assert [a["head"] for a in claims["answers"][-2:]] == [heads[str(one)], heads[str(two)]]


def test_an_attempt_row_holds_what_section_4_says_it_holds(claims):
    """A payment's attempt is `paid` with an empty reason (its facts are its `paid` row's), a second
    claim's reason names the first payment, any other refusal's reason is its answer's text without the
    claim number; so the chain an auditor recomputes from section 4 is the stored one."""
    with sqlite3.connect(f"file:{claims['one']}?mode=ro", uri=True) as db:
        rows = list(db.execute("SELECT claim_no, outcome, reason FROM attempts ORDER BY claim_no"))
        first = db.execute("SELECT at, desk, clerk FROM paid WHERE claim_no = 1").fetchone()
    answers = claims["answers"]
    assert [(o, r) for _, o, r in rows[:12]] == [("paid", "")] * 12
    assert rows[14] == (15, "already paid", f"paid by claim no. 1 at {first[0]}, desk d1, clerk c1")
    assert rows[12][2] == answers[12]["text"].removesuffix(" (claim no. 13, recorded)")
    assert rows[16][2] == answers[16]["text"].removesuffix(" (claim no. 17, recorded)")
    assert back_office.claims_head(claims["one"]) == (answers[-2]["head"], None)


@pytest.fixture(scope="module")
def sales(tmp_path_factory) -> dict:
    """Hand to Hand Tactics in pounds (GBP), pools d1.00 and d2.00 of 400 shares (counts / 2,500, at
    least 1), signed; 40 shares of d1.00 and 5 of d2.00 sold, d1.00's first winner voided (its claim
    refused), its next three winners paid (the first twice: refused), d1.00 closed (a sale refused), its
    fifth winner paid after the close."""
    root = tmp_path_factory.mktemp("sales3")
    text = spec_path("hand_to_hand_tactics").read_text().replace("$", "\u00a3")  # a game in pounds
    text = text.replace("[game]\n", '[game]\ncurrency = "GBP"\n', 1)
    text = text.replace("pool_shares = 1000000", "pool_shares = 400").replace(
        "order_shares = 6000000", "order_shares = 2400")
    (root / "small.toml").write_text(
        re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m[1]) // 2500)}", text, flags=re.M))
    pair = new_key_pair(root / "keys", None)
    signer = Signer.from_file(pair.private)
    run = generate(GenerateRequest(load_spec(root / "small.toml"), SEED_A,
                                   now=datetime(2026, 12, 1, tzinfo=UTC), out=root / "runs", run_id="eh",
                                   pool_ids=["d1.00", "d2.00"],
                                   signature=signer.manifest_entry()), finish=signer.sign_run).folder
    prizes = pl.read_parquet(run / "pool-d1.00.parquet", columns=["prize_cents"])["prize_cents"].to_list()
    win = [f"d1.00-{i + 1:07d}" for i, p in enumerate(prizes[:40]) if p]
    ledger, key = root / "sales.sqlite", ["--public-key", pair.public, "--json"]

    def do(*args: object) -> int:
        return invoke("sales", *args, "--ledger", ledger, *key).exit_code

    codes = [do("sell", run, "--pool", "d1.00", "--channel", "web", "--player", f"p{i}") for i in range(40)]
    codes += [do("sell", run, "--pool", "d2.00", "--channel", "shop", "--player", f"q{i}") for i in range(5)]
    codes += [do("void", run, win[0], "--reason", "refund"), do("claim", run, win[0])]
    codes += [do("claim", run, share) for share in win[1:4]] + [do("claim", run, win[1])]
    codes += [do("close", run, "--pool", "d1.00"), do("sell", run, "--pool", "d1.00", "--channel", "web",
                                                      "--player", "late")]
    codes += [do("claim", run, win[4])]
    return {"run": run, "ledger": ledger, "codes": codes, "public": pair.public, "root": root}


def test_the_sales_were_recorded_as_the_test_means(sales):
    assert sales["codes"] == [0] * 45 + [0, 1, 0, 0, 0, 1, 0, 1, 0]


def test_eInstant_prizes_remaining_closing_and_heads_are_the_engines(sales):
    run, ledger = sales["run"], sales["ledger"]
    report = json.loads(invoke("sales", "report", run, "--ledger", ledger, "--json").stdout)
    _agree(report, back_office_sales.prizes_remaining([run], ledger))
    closing = json.loads(invoke("sales", "report", run, "--ledger", ledger, "--closing", "--json").stdout)
    mine = back_office_sales.closing([run], ledger)
    _agree(closing, mine)
    assert (mine["sales_cents"], mine["paid_cents"], mine["actual_payout_pct"]) == (4900, 80300, "1638.7755")
    assert sum(v["voided"] for v in mine["levels"]) == 1 and mine["levels"][0]["prize"] == "\u00a35,000.00"
    assert all(v["total"] == v["paid"] + v["unclaimed"] + v["voided"] + v["never_sold"]
               for v in mine["levels"])
    done = invoke("sales", "reconcile", run, "--ledger", ledger, "--json", "--public-key", sales["public"])
    assert done.exit_code == 0, done.output
    _agree(json.loads(done.stdout), back_office_sales.reconcile(run, ledger))
    assert [h.split(":")[0] for h in back_office_sales.heads(ledger).values()] == ["45", "1", "1", "4", "0"]


def test_an_eInstant_closing_with_every_sale_voided_has_no_actual_payout(sales, tmp_path):
    """No sale stands: the actual payout (paid over sales) is n/a, as section 6 writes it."""
    ledger, key = tmp_path / "v.sqlite", ["--public-key", sales["public"]]
    assert invoke("sales", "sell", sales["run"], "--ledger", ledger, "--pool", "d2.00", "--channel", "web",
                  "--player", "a", *key).exit_code == 0
    assert invoke("sales", "void", sales["run"], "d2.00-0000001", "--ledger", ledger, "--reason", "r",
                  *key).exit_code == 0
    got = json.loads(invoke("sales", "report", sales["run"], "--ledger", ledger, "--closing",
                            "--json").stdout)
    mine = back_office_sales.closing([sales["run"]], ledger)
    assert got["actual_payout_pct"] == "n/a" and mine.pop("actual_payout_pct") is None
    _agree(got, mine)


def test_prizes_in_returned_and_stolen_books_are_counted_apart_as_the_engine_counts_them(claims, tmp_path):
    """Books 0, 4 and 7 activated (the payments are from them), 7 then stolen, 2 stolen unsold, 1
    returned: a ticket paid stays paid whatever its book's state, the others of those books' winners are
    counted `stolen` or `returned` at their levels, never remaining or unclaimed."""
    made, one, books = claims["made"], claims["one"], tmp_path / "books.sqlite"
    for move, names in (("activate", ["0", "4", "7"]), ("stolen", ["7", "2"]), ("return", ["1"])):
        done = invoke("books", move, made.run, *names, "--ledger", books, "--public-key", made.public)
        assert done.exit_code == 0, done.output
    given = ("--ledger", one, "--books", books, "--json")
    mine = back_office.prizes_remaining([made.run], [one], books)
    _agree(json.loads(invoke("claims", "report", made.run, *given).stdout), mine)
    _agree(json.loads(invoke("claims", "close", made.run, *given).stdout),
           back_office.closing([made.run], [one], books))
    totals = mine["totals"]
    assert totals["paid"] == 13 and totals["returned"] > 0 and totals["stolen"] > 0
    assert all(v["total"] == v["paid"] + v["returned"] + v["stolen"] + v["remaining"] for v in mine["levels"])
    assert totals["total_cents"] == (totals["paid_cents"] + totals["returned_cents"] + totals["stolen_cents"]
                                     + totals["remaining_cents"])


def test_an_order_in_two_cuts_is_reported_as_the_engine_reports_the_union(tmp_path):
    """The split order (tests/support/split_run.py) made as two cuts, cut-a (p1 to p3) and cut-b (p4 to
    p6), one ticket of every winning tier claimed at each into one ledger, a book of each cut moved (one
    stolen, one returned): prizes remaining and the closing report over both runs are the engine's."""
    a = split_run(tmp_path, pools=["p1", "p2", "p3"], run_id="cut-a")
    b = cut(a, ["p4", "p5", "p6"], "cut-b")
    ledger, books = tmp_path / "claims.sqlite", tmp_path / "books.sqlite"
    for made in (a, b):
        rows = ticket_rows(made)
        for tier in ("free", "1", "2", "6"):
            r = rows.filter(pl.col("tier") == tier).row(0, named=True)
            done = invoke("validate", made.folder, r["barcode"], r["virn"], "--validation-key", made.low,
                          "--high-validation-key", made.high, "--public-key", made.public,
                          "--index-dir", tmp_path / "index", "--ledger", ledger)
            assert done.exit_code == 0, done.output
    for made, move, pool in ((a, "stolen", "p1"), (b, "return", "p5")):
        book = pl.read_parquet(made.folder / f"pool-{pool}.parquet", columns=["book"])["book"][0]
        done = invoke("books", move, made.folder, book, "--ledger", books, "--public-key", a.public)
        assert done.exit_code == 0, done.output
    for extra in ([], ["--books", books]):
        given = [books] if extra else [None]
        report = invoke("claims", "report", a.folder, b.folder, "--ledger", ledger, *extra, "--json")
        mine = back_office.prizes_remaining([a.folder, b.folder], [ledger], *given)
        _agree(json.loads(report.stdout), mine)
        closing = invoke("claims", "close", a.folder, b.folder, "--ledger", ledger, *extra, "--json")
        _agree(json.loads(closing.stdout), back_office.closing([a.folder, b.folder], [ledger], *given))
        assert (mine["totals"]["paid"], mine["totals"]["paid_cents"]) == (8, 2000)


def test_the_reports_json_holds_the_fields_section_6_lists_in_its_order(claims, sales):
    """docs/back-office.md section 6, 'The reports' JSON': each level's fields, in order."""
    run, one, erun, ledger = claims["made"].run, claims["one"], sales["run"], sales["ledger"]
    level = ["prize", "prize_cents", "free_ticket", "total"]
    for args, fields in (
            (["claims", "report", run, "--ledger", one], ["paid", "remaining"]),
            (["claims", "close", run, "--ledger", one],
             ["paid", "remaining", "unclaimed", "unclaimed_cents"]),
            (["sales", "report", erun, "--ledger", ledger], ["sold", "remaining"]),
            (["sales", "report", erun, "--ledger", ledger, "--closing"],
             ["sold", "remaining", "paid", "unclaimed", "unclaimed_cents", "voided", "voided_cents",
              "never_sold", "never_sold_cents"])):
        got = json.loads(invoke(*args, "--json").stdout)
        first = ["pool"] if args[0] == "sales" else []
        assert {tuple(v) for v in got["levels"]} == {tuple(first + level + fields)}
    done = json.loads(invoke("sales", "reconcile", erun, "--ledger", ledger, "--json").stdout)
    assert list(done) == ["ok", "payments_checked", "paid_cents", "paid", "problems", "heads",
                          "signature_checked", "sales_chained", "sales_heads", "converted"]
    printed = json.loads(invoke("claims", "reconcile", run, "--ledger", one, "--validation-key",
                                claims["made"].low, "--json").stdout)
    assert list(printed) == ["ok", "payments_checked", "paid_cents", "paid", "problems", "levels", "heads",
                             "signature_checked"]


def _version_3(sales: dict, ledger: Path) -> None:
    """A version 3 ledger of the sales run that reconciles: d1.00 shares 1 to 8 and d2.00 1 to 3 sold, three
    voids (two at one time, so sale numbers order them), the first winner not voided paid, both pools
    closed at one time (so run id and pool order them)."""
    from poolgen.backoffice.owned import APPLICATION_ID  # noqa: PLC0415  # only this helper builds one
    from poolgen.backoffice.sales_schema import SALES_3  # noqa: PLC0415

    prizes = pl.read_parquet(sales["run"] / "pool-d1.00.parquet", columns=["prize_cents"])["prize_cents"]
    t = "2026-12-02T00:00:{:02d}.000Z".format
    voids = {("d1.00", 5): (t(50), "r5"), ("d2.00", 2): (t(40), "r2"), ("d1.00", 3): (t(50), "r3")}
    paid = next(s for s in range(1, 9) if prizes[s - 1] and ("d1.00", s) not in voids)
    db = sqlite3.connect(ledger)
    for sql in SALES_3.schema:
        db.execute(sql)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    db.execute("INSERT INTO pools VALUES ('eh', 'd1.00', 400, 100, 9, ?), ('eh', 'd2.00', 400, 200, 4, ?)",
               (t(55), t(55)))
    shares = [("d1.00", s) for s in range(1, 9)] + [("d2.00", s) for s in (1, 2, 3)]
    for no, (pool, serial) in enumerate(shares, start=1):
        claim = (t(52), prizes[serial - 1]) if (pool, serial) == ("d1.00", paid) else (None, None)
        db.execute("INSERT INTO sales VALUES ('eh', ?, ?, ?, ?, 'web', ?, ?, ?, ?, ?)",
                   (pool, serial, no, t(no), f"p{no}", *voids.get((pool, serial), (None, None)), *claim))
    row = (1, "eh", "d1.00", paid, t(52), prizes[paid - 1])
    db.execute("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?)",
               (*row, back_office.link(back_office.ZERO, row)))
    db.commit()
    db.close()
    ledger.chmod(0o600)


def test_a_version_3_ledger_converted_holds_the_rows_section_5_derives_from_it(sales, tmp_path):
    """`sales upgrade` of a version 3 ledger: NEW's sales, voids, closings, payments and conversion rows,
    chains included, are the ones the engine derives from OLD's rows and bytes alone, its printed heads
    are NEW's recomputed, and NEW reconciles."""
    old, new = tmp_path / "v3.sqlite", tmp_path / "v5.sqlite"
    _version_3(sales, old)
    before = old.read_bytes()
    done = invoke("sales", "upgrade", old, new, "--run", sales["run"], "--public-key", sales["public"],
                  "--json")
    assert done.exit_code == 0, done.output
    said = json.loads(done.stdout)
    assert old.read_bytes() == before
    expected = back_office_upgrade.from_version_3(old, said["at"])
    assert back_office_upgrade.held(new) == expected
    assert [(r[2], r[3]) for r in expected["voids"]] == [("d2.00", 2), ("d1.00", 3), ("d1.00", 5)]
    assert said["heads"] == back_office_sales.heads(new)
    check = invoke("sales", "reconcile", sales["run"], "--ledger", new, "--json")
    assert check.exit_code == 0, check.output
    _agree(json.loads(check.stdout), back_office_sales.reconcile(sales["run"], new))


def test_payments_made_while_their_book_was_out_of_play_are_the_problems_the_engine_names(claims, tmp_path):
    """A desk without --books pays three winners of one book: before any move (printed), once activated,
    and after it was reported stolen; a fourth of another book returned unsold. `claims reconcile --books`
    names exactly the engine's lines (section 8's wording), the activated book's payment not among them."""
    made = claims["made"]
    ledger, books = tmp_path / "claims.sqlite", tmp_path / "books.sqlite"
    rows = pl.concat([pl.read_parquet(made.run / "imaging-p1.parquet", columns=["barcode", "virn"]),
                      pl.read_parquet(made.run / "pool-p1.parquet", columns=["ticket", "prize_cents"])],
                     how="horizontal").filter(pl.col("prize_cents") > 0)
    seven = rows.filter(pl.col("ticket").str.starts_with("465-0000007-")).head(3).rows(named=True)
    three = rows.filter(pl.col("ticket").str.starts_with("465-0000003-")).row(0, named=True)
    keys = ["--validation-key", made.low, "--high-validation-key", made.high, "--public-key", made.public]

    def pay(r: dict) -> None:
        done = invoke("validate", made.run, r["barcode"], r["virn"], *keys, "--index-dir", tmp_path / "index",
                      "--ledger", ledger)
        assert done.exit_code == 0, done.output

    def move(what: str, book: str) -> None:
        done = invoke("books", what, made.run, book, "--ledger", books, "--public-key", made.public)
        assert done.exit_code == 0, done.output

    pay(seven[0])
    move("activate", "7")
    pay(seven[1])
    move("stolen", "7")
    move("return", "3")
    pay(seven[2])
    pay(three)
    done = invoke("claims", "reconcile", made.run, "--ledger", ledger, "--books", books, *keys, "--json")
    mine = back_office.paid_out_of_play(made.run, ledger, books)
    assert (done.exit_code, json.loads(done.stdout)["problems"]) == (1, mine)
    assert [line.split(" while ")[1].split(" (")[0] for line in mine] == [
        "its book 465-0000007 was printed", "its book 465-0000007 was stolen",
        "its book 465-0000003 was returned"]


@pytest.mark.parametrize(("edits", "count"), [
    (["DELETE FROM paid WHERE claim_no IN (2, 3, 6)", "DELETE FROM attempts WHERE claim_no IN (2, 3, 6)"], 2),
    (["DELETE FROM paid WHERE claim_no = 5", "DELETE FROM attempts WHERE claim_no = 5"], 2),
    (["UPDATE paid SET desk = 'dX' WHERE claim_no = 2",
      "UPDATE paid SET at = '2026-01-01T00:00:00.000Z', clerk = 'z' WHERE claim_no = 5",
      "UPDATE attempts SET outcome = 'not a winner' WHERE claim_no = 7"], 4),
], ids=["claims_removed", "one_claim_removed", "rows_edited"])
def test_a_ledger_edited_by_hand_has_the_problems_the_engine_names_in_section_6s_words(
        claims, tmp_path, edits, count):
    """Rows removed (numbers missing, as `2 to 3, 6` or one `number 5`), payment rows edited (the fields
    that differ named), an attempt marked other than paid: `claims reconcile` names exactly the engine's
    problems, and prizes remaining refuses the ledger naming one of them."""
    made, ledger = claims["made"], tmp_path / "edited.sqlite"
    _copy(claims["one"], ledger, edits)
    done = invoke("claims", "reconcile", made.run, "--ledger", ledger, "--validation-key", made.low,
                  "--high-validation-key", made.high, "--json")
    mine = back_office.claims_problems(made.run, ledger)
    assert (done.exit_code, set(json.loads(done.stdout)["problems"]), len(mine)) == (1, mine, count)
    report = invoke("claims", "report", made.run, "--ledger", ledger)
    assert report.exit_code == 2 and report.stderr.split("; the ledgers do not")[0].removeprefix(
        "poolgen: error: ") in mine


def _copy(ledger: Path, to: Path, edits: list[str]) -> None:
    """A copy of `ledger` (its -wal file's rows with it, as section 4 says to copy one) edited by hand,
    0600."""
    src, db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True), sqlite3.connect(to)
    src.backup(db)
    src.close()
    to.chmod(0o600)
    for sql in edits:
        db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize("edits", [
    ["UPDATE sales SET claimed_at = NULL, prize_cents = NULL WHERE serial = (SELECT serial FROM payments "
     "WHERE pay_no = 2) AND pool = 'd1.00'"],
    ["DELETE FROM payments WHERE pay_no = 4"],
    ["DELETE FROM payments WHERE pay_no = 2"],
    ["UPDATE sales SET claimed_at = '2026-01-01T00:00:00.000Z' WHERE serial = (SELECT serial FROM payments "
     "WHERE pay_no = 2) AND pool = 'd1.00'"],
    ["UPDATE sales SET prize_cents = 777 WHERE serial = (SELECT serial FROM payments WHERE pay_no = 4) "
     "AND pool = 'd1.00'", "UPDATE payments SET prize_cents = 777 WHERE pay_no = 4"],
    ["INSERT INTO payments SELECT 5, run_id, pool, serial, at, prize_cents, chain FROM payments "
     "WHERE pay_no = 4"],
], ids=["claim_cleared", "last_payment_removed", "a_payment_removed", "claim_time_moved", "amount_edited",
        "paid_twice"])
def test_a_sales_ledger_edited_by_hand_has_the_payment_problems_the_engine_names(sales, tmp_path, edits):
    """Payments and claims edited by hand: `sales reconcile` names exactly the engine's problems (section
    5's words), and the closing report refuses the ledger naming one of them."""
    ledger = tmp_path / "edited.sqlite"
    _copy(sales["ledger"], ledger, edits)
    done = invoke("sales", "reconcile", sales["run"], "--ledger", ledger, "--json")
    mine = back_office_sales.payment_problems(sales["run"], ledger)
    assert (done.exit_code, set(json.loads(done.stdout)["problems"])) == (1, mine)
    closing = invoke("sales", "report", sales["run"], "--ledger", ledger, "--closing")
    first = closing.stderr.removeprefix("poolgen: error: ").split("; the ")[0]
    assert closing.exit_code == 2, closing.output
    assert first in mine or first.removeprefix(f"{ledger}: ") in mine, closing.stderr
