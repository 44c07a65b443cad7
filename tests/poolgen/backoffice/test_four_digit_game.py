"""The back office of a game numbered 1000..9999 (docs/back-office.md sections 1 and 8): books named
`GGGG-BBBBBBB` or by their bare number, a book of the same number cut to three digits (`029-...`) no
book of the run, a stolen book's ticket refused at the desk and its prizes reported stolen; and one
claims ledger holding games 202 and 2029, whose barcodes share their first three digits, reporting each
game's run alone. The runs are Happy Holidays as game 2029 (tests/support/printed_runs.py) and as game
202, 3,000 tickets in 10 books each."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import polars as pl
import pytest

from poolgen.deliverables.validation import read_validation_key
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer
from tests.support import SEED_A, small_happy_holidays, spec_path
from tests.support.cli import invoke, one_line
from tests.support.printed_runs import make


@pytest.fixture(scope="module")
def g4(tmp_path_factory):
    made = make(tmp_path_factory.mktemp("g4"), "game_2029")
    pool = pl.read_parquet(made.run / "pool-p1.parquet", columns=["ticket", "book", "prize_cents"])
    rows = pl.concat([pl.read_parquet(made.run / "imaging-p1.parquet", columns=["barcode", "virn"]), pool],
                     how="horizontal")
    return made, rows


def _claim(made, ticket, virn, *more):
    return invoke("validate", made.run, ticket, virn, "--validation-key", made.low, "--high-validation-key",
                  made.high, "--public-key", made.public, *more)


def _books(made, command, ledger, *books):
    return invoke("books", command, made.run, *books, "--ledger", ledger, "--public-key", made.public)


def test_a_four_digit_games_books_are_moved_by_name_and_number_and_a_stolen_books_prizes_are_stolen(g4,
                                                                                                   tmp_path):
    made, rows = g4
    books, claims = tmp_path / "books.sqlite", tmp_path / "claims.sqlite"
    prized = rows.filter(pl.col("prize_cents") > 0)
    stolen_book = int(prized["book"][0])
    active = next(int(b) for b in prized["book"].unique(maintain_order=True) if b != stolen_book)
    name = f"2029-{stolen_book:07d}"
    assert _books(made, "activate", books, name, str(active)).exit_code == 0
    one_line(_books(made, "activate", books, f"029-{active:07d}"), "poolgen",
             f"book '029-{active:07d}': not a book of run g4 (not in its pack list)")
    assert _books(made, "stolen", books, name).exit_code == 0
    status = json.loads(_books(made, "status", books, "--json").stdout)
    assert status["states"] == {"activated": 1, "printed": 8, "returned": 0, "settled": 0, "stolen": 1}
    ticket = prized.filter(pl.col("book") == active).row(0, named=True)
    paid = _claim(made, ticket["ticket"], ticket["virn"], "--books", books, "--ledger", claims)
    assert paid.exit_code == 0, paid.output
    assert paid.stdout.startswith(f"{ticket['barcode']} ({ticket['ticket']}): ")
    thief = rows.filter(pl.col("book") == stolen_book).row(0, named=True)
    refused = _claim(made, thief["barcode"], thief["virn"], "--books", books, "--ledger", claims, "--json")
    assert json.loads(refused.stdout.splitlines()[0])["book"] == name
    assert f"book {name} " in json.loads(refused.stdout.splitlines()[0])["text"]
    report = invoke("claims", "report", made.run, "--ledger", claims, "--books", books, "--json")
    assert report.exit_code == 0, report.output
    in_stolen = prized.filter(pl.col("book") == stolen_book).height
    assert in_stolen > 0 and sum(lv["stolen"] for lv in json.loads(report.stdout)["levels"]) == in_stolen


def test_one_claims_ledger_of_games_202_and_2029_reports_each_games_run_alone(g4, tmp_path):
    """Game 202's barcodes begin 202 as game 2029's do: a report of game 202's run must not take the
    other game's payment for one of its own order under a run not given."""
    made, rows = g4
    text = spec_path("happy_holidays").read_text().replace("\nnumber = 465\n", "\nnumber = 202\n")
    signer = Signer.from_file(made.public.parent / "signing-key.pem")
    keys = (read_validation_key(made.low), read_validation_key(made.high))
    request = GenerateRequest(load_spec(small_happy_holidays(tmp_path, 3000, text)), SEED_A,
                              now=datetime(2026, 12, 4, tzinfo=UTC), out=tmp_path / "runs", run_id="g3",
                              validation_keys=keys, signature=signer.manifest_entry())
    other = generate(request, finish=signer.sign_run).folder
    claims = tmp_path / "claims.sqlite"
    winner = rows.filter(pl.col("prize_cents") > 0).row(0, named=True)
    assert _claim(made, winner["barcode"], winner["virn"], "--ledger", claims).exit_code == 0
    theirs = pl.read_parquet(other / "imaging-p1.parquet", columns=["barcode", "virn"]).row(
        rows["ticket"].to_list().index(winner["ticket"]))
    assert theirs[0] == "202" + winner["barcode"][4:-2] + theirs[0][-2:]  # the same ticket of game 202
    paid = invoke("validate", other, theirs[0], theirs[1], "--validation-key", made.low,
                  "--high-validation-key", made.high, "--public-key", made.public, "--ledger", claims)
    assert paid.exit_code == 0, paid.output
    for run in (made.run, other):
        report = invoke("claims", "report", run, "--ledger", claims, "--json")
        assert report.exit_code == 0, report.output
        assert sum(lv["paid"] for lv in json.loads(report.stdout)["levels"]) == 1
