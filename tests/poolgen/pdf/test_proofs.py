"""`poolgen proof` (poolgen/pdf/proofs.py, selection.py, symbols/): ticket proofs of real runs,
read back with pypdf: the default selection, tickets asked for, symbols drawn, byte-identical output,
and one-line refusals. The runs are tests/poolgen/pdf/conftest.py's `runs`."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.money import fmt_cents
from poolgen.pdf.proofs import INDEX_ROWS
from poolgen.pdf.symbols import has_drawing
from poolgen.rng import derive_stream, integers
from tests.support import spec_path
from tests.support.cli import invoke
from tests.support.pdf import GAMES, manifest, pages


def pool_table(run: Path, pool_id: str) -> pl.DataFrame:
    return pl.read_parquet(run / f"pool-{pool_id}.parquet", columns=["position", "ticket", "tier",
                                                                      "prize_cents"])


def expected_selection(run: Path, pool_id: str, per_tier: int) -> list[str]:
    """The default selection, written again from the rule in poolgen/pdf/selection.py's docstring."""
    raw = (run / "manifest.json").read_bytes()
    seed = hashlib.sha256(b"poolgen/proof-selection/v1" + raw).digest()
    stream = derive_stream(seed, "poolgen/v1", "proof", pool_id)
    table = pool_table(run, pool_id)
    out = []
    for tier in json.loads(raw)["pools"][0]["tiers"]:
        rows = table.filter(pl.col("tier") == tier["id"]).sort("position")["ticket"].to_list()
        n, k = len(rows), min(per_tier, len(rows))
        chosen: set[int] = set()
        for j in range(n - k, n):
            t = int(integers(stream, j + 1, size=1)[0])
            chosen.add(j if t in chosen else t)
        out += [rows[i] for i in sorted(chosen)]
    return out


def proof_pages(tickets: int) -> int:
    return 1 + -(-tickets // INDEX_ROWS) + tickets


def assert_ticket_pages(texts: list[str], run: Path, pool_id: str, ids: list[str]) -> None:
    """The last len(ids) pages prove these tickets, in order, each with its recorded prize."""
    prize = dict(pool_table(run, pool_id).filter(pl.col("ticket").is_in(ids))
                 .select("ticket", "prize_cents").iter_rows())
    ticket_pages = texts[len(texts) - len(ids):]
    for text, ticket in zip(ticket_pages, ids, strict=True):
        paid = fmt_cents(prize[ticket])
        assert ticket in text
        assert f"THIS LAYOUT PAYS {paid}" in text
        assert f"prize {paid} - agrees" in text
        assert "DOES NOT AGREE" not in text and "ILLEGAL" not in text


@pytest.mark.parametrize("rules", list(GAMES))
def test_real_proof_shows_a_ticket_of_every_tier(runs, rules, tmp_path):
    run, pool_id = runs(rules), GAMES[rules]
    out = tmp_path / "proof.pdf"
    result = invoke("proof", run, "--real", "--out", out)
    assert result.exit_code == 0, result.output
    ids = expected_selection(run, pool_id, 1)
    tiers = [t for t in manifest(run)["pools"][0]["tiers"] if t["count"]]
    assert len(ids) == len(tiers)
    texts = pages(out)
    assert len(texts) == proof_pages(len(ids))
    assert_ticket_pages(texts, run, pool_id, ids)
    for text, tier in zip(texts[len(texts) - len(ids):], tiers, strict=True):
        assert ("losing tier" if tier["id"] == "lose" else f"tier {tier['id']}") in text
    assert result.stdout == (f"proof {out}: {len(ids)} ticket(s) of the pool: an OUTCOME file, for those "
                             f"trusted with outcomes only (mode 0600)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proof.pdf"]  # no temporary file left


def test_per_tier_and_one_pool(runs, tmp_path):
    run = runs("happy_holidays")
    out = tmp_path / "p.pdf"
    assert invoke("proof", run, "--real", "--per-tier", 2, "--pool", "p1", "--out", out).exit_code == 0
    ids = expected_selection(run, "p1", 2)
    assert len(ids) == 14
    texts = pages(out)
    assert len(texts) == proof_pages(14) == 16
    assert_ticket_pages(texts, run, "p1", ids)
    assert "Ticket proofs" in texts[0] and "2 ticket(s) of every tier of pool(s) p1" in texts[0]


@pytest.mark.parametrize("rules", ["wild_side", "primetime_payout"])
def test_requested_tickets_in_the_order_asked(runs, rules, tmp_path):
    run, pool_id = runs(rules), GAMES[rules]
    table = pool_table(run, pool_id)
    top = table.sort("prize_cents", descending=True)["ticket"][0]
    loser = table.filter(pl.col("prize_cents") == 0)["ticket"][17]
    middle = table.filter(pl.col("prize_cents") > 0)["ticket"][1000]
    out = tmp_path / "asked.pdf"
    result = invoke("proof", run, "--tickets", top, "--tickets", f"{loser},{middle}", "--tickets",
                    top, "--out", out)
    assert result.exit_code == 0, result.output
    texts = pages(out)
    assert len(texts) == 1 + 1 + 3
    assert_ticket_pages(texts, run, pool_id, [top, loser, middle])
    assert f"requested ticket(s): {top}, {loser}, {middle}" in texts[0]


def test_symbols_are_drawn_not_written(runs):
    """Every picture symbol of every game has a drawing; amounts and numbers are text."""
    for rules in GAMES:
        spec = load_spec(spec_path(rules))
        pictures = [s for s in spec.symbols if s.symbol.startswith("Symbol of")]
        assert all(has_drawing(s.code) for s in pictures), rules
        assert not any(has_drawing(s.code) for s in spec.symbols_in("number"))
    texts = pages(invoke_ok_proof(runs("hand_to_hand_tactics")))
    assert all(name in texts[0] for name in ("Rock", "Paper", "Scissors", "Multiplier"))


def invoke_ok_proof(run: Path) -> bytes:
    out = run.parent.parent / f"{run.name}-proof.pdf"
    result = invoke("proof", run, "--out", out)
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def test_the_same_run_gives_byte_identical_pdfs(runs, tmp_path):
    run = runs("happy_holidays")
    a, b, c, d = (tmp_path / n for n in ("a.pdf", "b.pdf", "c.pdf", "d.pdf"))
    assert invoke("proof", run, "--out", a).exit_code == 0
    assert invoke("proof", run, "--out", b).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
    assert invoke("report", run, "--out", c).exit_code == 0
    assert invoke("report", run, "--out", d).exit_code == 0
    assert c.read_bytes() == d.read_bytes()
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)  # the folder's name and place do not matter, only its files
    assert invoke("proof", copy, "--out", tmp_path / "e.pdf").exit_code == 0
    assert (tmp_path / "e.pdf").read_bytes() == a.read_bytes()


def one_line_error(result, message: str) -> None:
    assert result.exit_code == 2
    assert result.stderr == f"poolgen: error: {message}\n"


def test_bad_input_is_one_line(runs, tmp_path):
    run = runs("happy_holidays")
    out = tmp_path / "x.pdf"
    one_line_error(invoke("proof", run, "--tickets", "465-9999999-000", "--out", out),
                   f"{run}: no ticket '465-9999999-000' in any pool")
    empty = tmp_path / "empty"
    empty.mkdir()
    for command in ("proof", "report"):
        one_line_error(invoke(command, empty, "--out", out),
                       f"{empty}: no manifest.json; not a poolgen run folder")
        one_line_error(invoke(command, tmp_path / "nowhere", "--out", out),
                       f"{tmp_path / 'nowhere'}: no such run folder")
    one_line_error(invoke("proof", run, "--pool", "p9", "--out", out),
                   f"{run}: no pool 'p9' in this run (pools: p1)")
    edited = tmp_path / "happy_holidays.toml"
    edited.write_bytes(spec_path("happy_holidays").read_bytes() + b"\n# edited\n")
    one_line_error(invoke("proof", run, "--spec", edited, "--out", out),
                   f"{edited}: SHA-256 differs from that of the spec the run was made from "
                   f"(happy_holidays.toml); give the original with --spec")
    one_line_error(invoke("proof", run, "--spec", spec_path("wild_side"), "--out", out),
                   f"{spec_path('wild_side')}: a wild_side spec, but the run is a happy_holidays "
                   f"run")
    assert not out.exists()
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "manifest.json").write_text("{not json")
    result = invoke("report", bad, "--out", out)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "manifest.json: not valid JSON" in result.stderr
