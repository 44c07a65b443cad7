"""The style-based example specs (specs/examples/) end to end, from the command line as an operator
runs them: check, generate a full pool (signed), verify every step with the spec and the seed, prove
a ticket and check the proof with audit alone, draw the proof PDF and write the report. And the
audit refuses layouts that show what a player could take for a win not paid."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from pypdf import PdfReader

from audit.cli import app as audit_app
from audit.verify import VerifyRequest, verify_run
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes
from poolgen.run.merkle import root as merkle_root
from tests.support import ROOT, SEED_A, small_example
from tests.support.cli import invoke
from tests.support.virns import virn_of

EXAMPLES = ROOT / "specs" / "examples"
# (spec, pool generated, its tickets, its winners, a ticket id in it)
GAMES = {"hit_50": ("p1", 300_000, 88_330, 17),  # the position of the ticket proved
         "cash_explosion": ("p8", 120_000, 35_289, 5),
         "double_take": ("p1", 300_000, 95_168, 17),  # two styles on one ticket
         "money_bag_match": ("p1", 30_000, 6_523, 17)}  # a win-all symbol (MONEYBAG: all 10 prizes)
COLUMNS = {"hit_50": 12, "cash_explosion": 9, "double_take": 21, "money_bag_match": 22}  # layout columns
STYLES = {"hit_50": "key_number_match", "cash_explosion": "match_n",
          "double_take": "key_number_match, match_n", "money_bag_match": "key_number_match"}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("styles")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)  # a seed file others may read is refused
    assert invoke("keys", "new", root / "keys").exit_code == 0
    runs = {}
    for game, (pool, *_rest) in GAMES.items():
        made = invoke("generate", EXAMPLES / f"{game}.toml", "--out", root / "runs", "--seed-file",
                      root / "run.seed", "--pool", pool, "--run-id", game, "--workers", "1",
                      "--key", root / "keys" / "signing-key.pem")
        assert made.exit_code == 0, made.output
        runs[game] = root / "runs" / game
    return {"root": root, "runs": runs, "public": root / "keys" / "signing-key.pub.pem"}


def test_examples_stay_out_of_the_default_check():
    result = invoke("check", "--json")
    assert result.exit_code == 0, result.output
    names = {g["spec"] for g in json.loads(result.stdout)["games"]}
    assert names.isdisjoint({f"{game}.toml" for game in GAMES})


def test_check_computes_the_order_and_reconciles_the_published_rows():
    result = invoke("check", EXAMPLES / "hit_50.toml", EXAMPLES / "cash_explosion.toml", "--json")
    assert result.exit_code == 0, result.output
    games = {g["spec"]: g for g in json.loads(result.stdout)["games"]}
    hit, cash = games["hit_50.toml"], games["cash_explosion.toml"]
    assert [p["id"] for p in hit["pools"]] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert (hit["order"]["tickets"], hit["order"]["winners"], hit["order"]["prize_cost_cents"]) == \
        (1_800_000, 529_980, 98_100_000)
    # 1,800,000 = 7.5 pools of 240,000: seven whole pools and a half pool of exactly half of each tier
    assert [(p["id"], p["tickets"], p["winners"]) for p in cash["pools"]][-2:] == \
        [("p7", 240_000, 70_578), ("p8", 120_000, 35_289)]
    assert cash["order"]["winners"] == 529_335
    assert cash["problems"] == [] and hit["problems"] == []
    assert any("partly designed" in n for n in cash["notes"])


def test_a_wrong_published_row_is_a_problem(tmp_path):
    text = (EXAMPLES / "cash_explosion.toml").read_text().replace('published_cost = "$96,000"\nwins = [ { '
                                                                   'area = "play", prize = "4"',
                                                                   'published_cost = "$69,000"\nwins = [ { '
                                                                   'area = "play", prize = "4"')
    (tmp_path / "c.toml").write_text(text)
    result = invoke("check", tmp_path / "c.toml", "--json")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["games"][0]["problems"]
    assert problems == ["Ca$h Explosion: (i): row 3 (3-$4's) prize cost: published $69,000.00, computed "
                        "24,000 x $4.00 = $96,000.00"]


@pytest.mark.parametrize("game", GAMES)
def test_verify_every_step_with_signature_spec_and_seed(base, game):
    pool, tickets, winners, _ = GAMES[game]
    result = invoke("verify", base["runs"][game], "--public-key", base["public"], "--spec",
                    EXAMPLES / f"{game}.toml", "--seed-file", base["root"] / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [s["status"] for s in report["steps"]] == ["pass"] * 9  # with steps 8 and 9
    assert report["steps"][3]["details"] == [
        f"pool {pool}: {tickets:,} layouts evaluated by audit.styles ({STYLES[game]}): each pays its stored "
        f"prize ({winners:,} winners), none illegal",
        f"pool {pool}: no two consecutive tickets of a pack show identical play data ({COLUMNS[game]} layout "
        "columns compared)"]


@pytest.mark.parametrize("game", GAMES)
def test_prove_and_check_proof_with_audit_alone(base, game, tmp_path):
    pool, _, _, position = GAMES[game]
    table = pl.read_parquet(base["runs"][game] / f"pool-{pool}.parquet", columns=["ticket"])
    ticket = table["ticket"][position]
    proved = invoke("prove", base["runs"][game], ticket, virn_of(base["runs"][game], ticket), "--json")
    assert proved.exit_code == 0, proved.output
    (tmp_path / "claim.json").write_text(proved.stdout)
    checked = invoke("check-proof", tmp_path / "claim.json", base["runs"][game] / "manifest.json",
                     "--public-key", base["public"], application=audit_app)
    assert checked.exit_code == 0, checked.output
    assert f"valid proof: ticket {ticket}" in checked.stdout


@pytest.mark.parametrize("game", GAMES)
def test_proof_and_report(base, game, tmp_path):
    spec = EXAMPLES / f"{game}.toml"
    made = invoke("proof", base["runs"][game], "--spec", spec, "--out", tmp_path / "proof.pdf")
    assert made.exit_code == 0, made.output
    pages = PdfReader(io.BytesIO((tmp_path / "proof.pdf").read_bytes())).pages
    tiers = 1 + len(json.loads((base["runs"][game] / "manifest.json").read_text())["play"]["tiers"][1:])
    assert len(pages) == 2 + tiers  # cover, one index page, one ticket of every tier
    text = [p.extract_text() for p in pages[2:]]
    assert all("- agrees" in t for t in text) and not any("ILLEGAL" in t for t in text)
    assert sum("No area shows a win: no prize." in t for t in text) == 1  # the losing tier's ticket
    # The smallest example's report runs the checklist; the others' ran it again on runs whose every step
    # test_verify_every_step_with_signature_spec_and_seed passes (with the seed): drawn without the key,
    # their pages, charts and statistics (the report's own) are the same.
    key = ["--public-key", base["public"]] if game == "money_bag_match" else []
    report = invoke("report", base["runs"][game], "--spec", spec, *key, "--out", tmp_path / "report.pdf")
    assert report.exit_code == 0, report.output
    said = "verification passes" if key else "verification not run"
    assert f"report {tmp_path / 'report.pdf'}: 1 pool(s), {said}, public edition (mode 0600)" in report.stdout


# What step 9 alone reads (step 2 then names them missing): the copies judged by steps 4 and 5 below leave
# them out, as checking a full pool's imaging file took most of each verify's time.
PRINTERS = shutil.ignore_patterns("imaging-*.parquet", "packs.csv")


def _one_pool(folder: Path, game: str) -> Path:
    """specs/examples/<game>.toml cut to an order of one pool of 3,000 tickets (small_example), its
    counts per pool (the order's share of each, at least 1): the example's areas, symbols and tiers."""
    folder.mkdir()
    path = small_example(folder, game, 3000)
    text = path.read_text().replace('counts_per = "order"', 'counts_per = "pool"')
    pools = int(re.search(r"^order_tickets = (\d+)", text, flags=re.M).group(1)) / 3000
    text = re.sub(r"^order_tickets = \d+", "order_tickets = 3000", text, flags=re.M)
    text = re.sub(r"^last_pool = .*\n", "", text, flags=re.M)
    path.write_text(re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(int(m.group(1)) / pools))}",
                           text, flags=re.M))
    return path


@pytest.fixture(scope="module")
def cut(base, tmp_path_factory) -> dict:
    """hit_50 and cash_explosion cut to one pool of 3,000 tickets, signed with the base's key: what the
    tampering below changes is one row's layout, which steps 4 and 5 judge alike in a pool of any size
    (the full pools of `base` verify every step above)."""
    root = tmp_path_factory.mktemp("cut")
    runs, specs = {}, {}
    for game in ("hit_50", "cash_explosion"):
        specs[game] = _one_pool(root / game, game)
        made = invoke("generate", specs[game], "--out", root / "runs", "--seed-file",
                      base["root"] / "run.seed", "--run-id", game, "--workers", "1",
                      "--key", base["root"] / "keys" / "signing-key.pem")
        assert made.exit_code == 0, made.output
        runs[game] = root / "runs" / game
    return {"runs": runs, "specs": specs}


def _reseal(run: Path, table: pl.DataFrame, pool: str) -> None:
    """Write a changed table back with its manifest entry and root updated: steps 2, 3, 5 and 6 pass,
    and step 4 alone judges the layouts (the signature, now stale, is not checked here)."""
    path = run / f"pool-{pool}.parquet"
    table.write_parquet(path, compression="zstd", statistics=False)
    manifest = json.loads((run / "manifest.json").read_text())
    entry = next(p for p in manifest["pools"] if p["id"] == pool)
    entry["file"] = file_entry(path)
    entry["merkle"]["root"] = merkle_root(table).hex()
    (run / "manifest.json").write_bytes(canonical_bytes(manifest))


def _step4(run: Path) -> tuple[str, str]:
    step = verify_run(VerifyRequest(run=run)).to_json()["steps"][3]
    return step["status"], " | ".join(step["reasons"])


def _tampered(cut, game: str, tmp_path: Path, change) -> tuple[str, str]:
    run = tmp_path / game
    shutil.copytree(cut["runs"][game], run, ignore=PRINTERS)
    pool = "p1"
    table = pl.read_parquet(run / f"pool-{pool}.parquet")
    row = int(np.flatnonzero(table["tier"].to_numpy() == "lose")[0])
    _reseal(run, change(table, row), pool)
    return _step4(run)


def _set(table: pl.DataFrame, row: int, column: str, value: int) -> pl.DataFrame:
    values = table[column].to_numpy().copy()
    values[row] = value
    return table.with_columns(pl.Series(column, values, dtype=table.schema[column]))


def test_a_losing_key_number_equal_to_a_winning_number_is_refused(cut, tmp_path):
    status, why = _tampered(cut, "hit_50", tmp_path,
                            lambda t, r: _set(t, r, "play_your_0", int(t["play_win_0"][r])))
    assert status == "fail"
    assert "do not pay the stored prize" in why and "its wins are not its tier 'lose''s (1 win(s)" in why


def test_a_moneybag_on_a_losing_ticket_is_refused(cut, tmp_path):
    status, why = _tampered(cut, "hit_50", tmp_path, lambda t, r: _set(t, r, "play_your_2", 21))
    assert status == "fail" and "its wins are not its tier 'lose''s (1 win(s)" in why


def test_three_like_amounts_on_a_losing_match_three_ticket_are_refused(cut, tmp_path):
    def three(t: pl.DataFrame, r: int) -> pl.DataFrame:
        for j, code in enumerate([1, 1, 1, 2, 3, 4, 5, 6, 7]):  # three $2.00 and six single amounts
            t = _set(t, r, f"play_spot_{j}", code)
        return t
    status, why = _tampered(cut, "cash_explosion", tmp_path, three)
    assert status == "fail"
    assert "pays 200 cents, stores 0" in why
    assert "its wins are not its tier 'lose''s (1 win(s) paying 200" in why


def test_a_win_all_ticket_whose_prizes_do_not_add_up_to_its_tier_fails_step_4(base, tmp_path):
    """A MONEYBAG $30 ticket with one $2.00 prize shown as $4.00 (codes 0 and 1 of the example's
    prizes): its ten prizes add up to $32.00, not its tier's win-all sum."""
    run = tmp_path / "bag"
    shutil.copytree(base["runs"]["money_bag_match"], run)
    table = pl.read_parquet(run / "pool-p1.parquet")
    row = int(np.flatnonzero(table["tier"].to_numpy() == "bag30")[0])
    spot = next(j for j in range(10) if int(table[f"play_prize_{j}"][row]) == 0)  # bag30 shows a $2
    _reseal(run, _set(table, row, f"play_prize_{spot}", 1), "p1")
    status, why = _step4(run)
    assert status == "fail"
    assert "pays 3200 cents, stores 3000" in why
    assert "its wins are not its tier 'bag30''s (1 win(s) paying 3200 cents)" in why


def test_a_winner_won_another_way_than_its_tier_is_refused(cut, tmp_path):
    """Same prize, other wins: a $5 tier shown as a moneybag where the tier is a match."""
    run = tmp_path / "hit"
    shutil.copytree(cut["runs"]["hit_50"], run, ignore=PRINTERS)
    table = pl.read_parquet(run / "pool-p1.parquet")
    row = int(np.flatnonzero(table["tier"].to_numpy() == "5")[0])
    your = [int(table[f"play_your_{j}"][row]) for j in range(5)]
    wins = {int(table["play_win_0"][row]), int(table["play_win_1"][row])}
    spot = next(j for j in range(5) if your[j] in wins)
    _reseal(run, _set(table, row, f"play_your_{spot}", 21), "p1")
    status, why = _step4(run)
    assert status == "fail" and "its wins are not its tier '5''s (1 win(s) paying 500 cents)" in why
    assert "do not pay the stored prize" not in why


def test_an_area_matching_another_areas_winning_numbers_end_to_end(base, tmp_path):
    """A YOUR WILD NUMBERS-like area (winning_from, match_by = 5): generated, then verified with the
    spec (step 5 ties the manifest's areas to it) and the seed (step 7 regenerates it)."""
    from tests.support.spec_docs import dumps, kn_doc

    doc = kn_doc()
    doc["areas"].append({"id": "wild", "style": "key_number_match", "spots": 4, "winning_from": "play",
                         "yours": 2, "numbers": "number", "prizes": "prize", "match_by": 5})
    doc["tiers"].append({"id": "w5", "prize": "5.00", "count": 10,
                         "wins": [{"area": "wild", "prize": "1", "how": "match"}]})
    spec = tmp_path / "wild.toml"
    spec.write_text(dumps(doc))
    made = invoke("generate", spec, "--out", tmp_path / "runs", "--seed-file", base["root"] / "run.seed",
                  "--run-id", "w", "--key", base["root"] / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    result = invoke("verify", tmp_path / "runs" / "w", "--public-key", base["public"], "--spec", spec,
                    "--seed-file", base["root"] / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["pass"] * 9  # steps 8 and 9
    table = pl.read_parquet(tmp_path / "runs" / "w" / "pool-p1.parquet")
    assert "wild_win_0" not in table.columns
    wild = table.filter(pl.col("tier") == "w5")
    assert wild.height == 10 and set(wild["prize_cents"].to_list()) == {500}


def test_step_5_ties_the_play_entry_to_the_spec(cut, tmp_path):
    """A run whose manifest states other wins for a tier than the spec (the signature aside) fails step 5
    with --spec, naming what differs; step 4 refuses the rows that no longer pay their tier."""
    run = tmp_path / "hit"
    shutil.copytree(cut["runs"]["hit_50"], run, ignore=PRINTERS)
    manifest = json.loads((run / "manifest.json").read_text())
    tier = next(t for t in manifest["play"]["tiers"] if t["id"] == "bag5")
    tier["wins"][0]["how"] = "match"
    manifest["play"]["areas"][0]["numbers"][0] = "99"
    (run / "manifest.json").write_bytes(canonical_bytes(manifest))
    steps = verify_run(VerifyRequest(run=run, spec=cut["specs"]["hit_50"])).to_json()["steps"]
    assert steps[4]["status"] == "fail"
    assert steps[4]["reasons"] == [
        "area play: numbers ['99', '4', '5', '6', '7', '8', '9', '10', '11', '13', '14', '15', '16', '17', "
        "'18', '19', '30', '31', '33', '34', '35'], spec ['3', '4', '5', '6', '7', '8', '9', '10', '11', "
        "'13', '14', '15', '16', '17', '18', '19', '30', '31', '33', '34', '35']; the play entry's tier wins "
        "are not the spec's"]
    assert steps[3]["status"] == "fail" and "its wins are not its tier 'bag5''s" in steps[3]["reasons"][0]


def test_the_pack_example_verifies_every_step_without_its_spec(base, tmp_path):
    """The example with every pack parameter, its full pool of 1,000 books: plain `verify` (no --spec)
    holds every book to the manifest's `print.packs` and step 8 tests winners per book against the
    constrained distribution, not the hypergeometric one a run without pack parameters follows (which
    fails this honest run at p < 1e-25, measured before manifests recorded the packs)."""
    made = invoke("generate", EXAMPLES / "happy_holidays_packs.toml", "--out", tmp_path / "runs",
                  "--seed-file", base["root"] / "run.seed", "--run-id", "packs", "--workers", "1",
                  "--key", base["root"] / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    result = invoke("verify", tmp_path / "runs" / "packs", "--public-key", base["public"], "--json")
    assert result.exit_code == 0, result.output
    steps = json.loads(result.stdout)["steps"]
    assert [s["status"] for s in steps] == ["pass"] * 6 + ["skip", "pass", "pass"]
    assert any(d.startswith("pool p1: every one of 1,000 packs meets the manifest's pack parameters")
               for d in steps[4]["details"])
    assert ("pool p1: not tested: winners per book: the game's pack parameters (a prize-value floor, two "
            "spacing rules, three caps, two caps 5.9 does not take, or a cap beside a spacing rule other "
            "than as 5.8 or 5.9 take it) are drawn by the chain of "
            "docs/randomness.md 5.3: no closed-form law of the packs to test their histograms against, "
            "only their spread over the books and each tier given the rest of its pair of books "
            "(audit/stats/packs.py)") in steps[7]["details"]
