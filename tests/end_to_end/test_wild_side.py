"""Wild Side as a spec of play styles, end to end from the command line: check, generate a full pool
(signed), verify every step with the spec and the seed, prove a ticket and check the proof with audit
alone, draw the proof PDF (faces from the spec's areas and symbols, with captions) and write the
report. And the probes of issue 13: a new tier and a changed way to win are one [[tiers]] row each,
check reconciles them, and they generate and verify (on the game cut to pools of 3,000); what a
style cannot lay out is refused by check with one line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest
from pypdf import PdfReader

from audit.cli import app as audit_app
from tests.support import ROOT, SEED_A, small_wild_side
from tests.support.cli import invoke
from tests.support.virns import virn_of

SPEC = ROOT / "specs" / "wild_side.toml"
TEXT = SPEC.read_text()
T21 = ('id = "t21"\nget = "$50 + $50"\nprize = "$100"\ncount = 150\npublished_cost = "$15,000"\n'
       'wins = [ { area = "numbers", prize = "50", how = "match" },\n'
       '         { area = "numbers", prize = "50", how = "match" } ]')
# a NEW tier: $5 (5X) + $50 + WIN$25 = $100, 50 per order (10 a pool) taken from the losers
NEW_TIER = ('\n\n[[tiers]]\nid = "t35"\nget = "$5 (5X) + $50 | $25"\nprize = "$100"\ncount = 50\n'
            'wins = [ { area = "wild", prize = "5", how = "match", by = 5 },\n'
            '         { area = "numbers", prize = "50", how = "match" },\n'
            '         { area = "bonus", prize = "WIN25", how = "reveal" } ]\n')
# a CHANGED tier: t21 still pays $100 to 150 winners, now as $10 (5X) and a WIN$50
CHANGED = T21.replace('wins = [ { area = "numbers", prize = "50", how = "match" },\n'
                      '         { area = "numbers", prize = "50", how = "match" } ]',
                      'wins = [ { area = "wild", prize = "10", how = "match", by = 5 },\n'
                      '         { area = "bonus", prize = "WIN50", how = "reveal" } ]')
SPECS = {"wild_side": TEXT,
         "new_tier": TEXT.replace("\n# Symbols of (b)", NEW_TIER + "\n# Symbols of (b)"),
         "changed_wins": TEXT.replace(T21, CHANGED)}
# The probes generate and verify on Wild Side cut to pools of 3,000 (small_wild_side: counts per pool),
# the probe tier with as many tickets as in a full pool (10 of t35, 30 of t21); the game as it is runs
# at full size.
PROBES = {"new_tier": TEXT.replace("\n# Symbols of (b)", NEW_TIER.replace("count = 50\n", "count = 2500\n")
                                   + "\n# Symbols of (b)"),
          "changed_wins": TEXT.replace(T21, CHANGED.replace("count = 150\n", "count = 7500\n"))}
WINNERS = {"wild_side": 49_212, "new_tier": 998, "changed_wins": 1_017}  # pool p1
TICKETS = {"wild_side": 150_000, "new_tier": 3_000, "changed_wins": 3_000}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    assert T21 in TEXT and "\n# Symbols of (b)" in TEXT
    root = tmp_path_factory.mktemp("wild_side")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    runs, specs, checked = {}, {}, {}
    for name, text in SPECS.items():
        checked[name] = root / name / "wild_side.toml"
        checked[name].parent.mkdir()
        checked[name].write_text(text)
        specs[name] = checked[name]
        if name in PROBES:
            (root / name / "cut").mkdir()
            specs[name] = small_wild_side(root / name / "cut", PROBES[name])
        made = invoke("generate", specs[name], "--out", root / "runs", "--seed-file", root / "run.seed",
                      "--pool", "p1", "--run-id", name, "--workers", "1",
                      "--key", root / "keys" / "signing-key.pem")
        assert made.exit_code == 0, made.output
        runs[name] = root / "runs" / name
    return {"root": root, "runs": runs, "specs": specs, "checked": checked,
            "public": root / "keys" / "signing-key.pub.pem"}


def test_check_reconciles_every_published_figure():
    result = invoke("check", SPEC, "--json")
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    assert (game["problems"], game["notes"]) == ([], [])
    order = game["order"]
    assert (order["tickets"], order["winners"], order["prize_cost_cents"]) == (750_000, 246_060, 251_262_500)
    assert [p["id"] for p in game["pools"]] == ["p1", "p2", "p3", "p4", "p5"]


def test_a_new_tier_checks_and_reports_the_totals_it_changes(base):
    """The new row lays out (no structure problem); the regulation's totals now differ, and check says
    by how much, figure by figure."""
    result = invoke("check", base["checked"]["new_tier"], "--json")
    assert result.exit_code == 1
    game = json.loads(result.stdout)["games"][0]
    assert game["problems"] == [
        "Wild Side: (i): total winners: published 246,060, computed 246,110",
        "Wild Side: (i): prize cost sub-total: published $2,512,625.00, computed $2,517,625.00",
        "Wild Side: (i): prize cost total: published $2,538,735.00, computed $2,517,625.00 + $26,110.00 "
        "other = $2,543,735.00"]
    assert game["pools"][0]["tiers"][-1] == {"id": "t35", "prize_cents": 10_000, "count": 10,
                                             "odds_1_in": "15000.00"}


def test_a_changed_way_to_win_checks_clean(base):
    result = invoke("check", base["checked"]["changed_wins"], "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"][0]["problems"] == []


@pytest.mark.parametrize("name", SPECS)
def test_verify_every_step_with_signature_spec_and_seed(base, name):
    result = invoke("verify", base["runs"][name], "--public-key", base["public"], "--spec",
                    base["specs"][name], "--seed-file", base["root"] / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [s["status"] for s in report["steps"]] == ["pass"] * 9
    assert report["steps"][3]["details"] == [
        f"pool p1: {TICKETS[name]:,} layouts evaluated by audit.styles (bonus_reveal, key_number_match): "
        f"each pays its stored prize ({WINNERS[name]:,} winners), none illegal",
        "pool p1: no two consecutive tickets of a pack show identical play data (56 layout columns compared)"]
    stats = " ".join(report["steps"][7]["details"])
    for feature in ("numbers_win_0 (a WINNING NUMBER)", "smallest WINNING NUMBER of numbers",
                    "numbers_your_0 (a YOUR NUMBER)", "numbers_prize_0 (a prize symbol)",
                    "wild_your_0 (a YOUR NUMBER)", "wild_prize_0 (a prize symbol)",
                    "bonus_spot_0 (a picture) on tickets revealing no amount there",
                    "win/lose predicted from the set of WINNING NUMBERS of area numbers"):
        assert feature in stats, feature


@pytest.mark.parametrize(("name", "tier", "wins"), [
    ("new_tier", "t35", [("wild", "match", 5, "5"), ("numbers", "match", 1, "50"),
                         ("bonus", "reveal", 1, "WIN25")]),
    ("changed_wins", "t21", [("wild", "match", 5, "10"), ("bonus", "reveal", 1, "WIN50")])])
def test_the_probe_tier_is_laid_out_as_its_row_says(base, name, tier, wins):
    manifest = json.loads((base["runs"][name] / "manifest.json").read_text())
    stated = next(t for t in manifest["play"]["tiers"] if t["id"] == tier)["wins"]
    assert [(w["area"], w["how"], w["by"], w["prize"]) for w in stated] == wins
    table = pl.read_parquet(base["runs"][name] / "pool-p1.parquet").filter(pl.col("tier") == tier)
    count = {"t35": 10, "t21": 30}[tier]
    assert table.height == count and set(table["prize_cents"].to_list()) == {10_000}
    for row in table.iter_rows(named=True):
        lucky = {row[f"numbers_win_{i}"] for i in range(5)}
        got = sorted([("numbers", row[f"numbers_prize_{j}"]) for j in range(12)
                      if row[f"numbers_your_{j}"] in lucky]
                     + [("wild", row[f"wild_prize_{j}"]) for j in range(12) if row[f"wild_your_{j}"] in lucky]
                     + [("bonus", row[f"bonus_spot_{j}"]) for j in range(3) if row[f"bonus_spot_{j}"] >= 8])
        prize_code = {"5": 2, "10": 3, "50": 6, "WIN25": 9, "WIN50": 10}  # wild_side.md section 1
        assert got == sorted((a, prize_code[p]) for a, _, _, p in wins)


def test_prove_and_check_proof_with_audit_alone(base, tmp_path):
    table = pl.read_parquet(base["runs"]["wild_side"] / "pool-p1.parquet", columns=["ticket", "tier"])
    ticket = table.filter(pl.col("tier") == "t30")["ticket"][0]
    run = base["runs"]["wild_side"]
    proved = invoke("prove", run, ticket, virn_of(run, ticket), "--json")
    assert proved.exit_code == 0, proved.output
    (tmp_path / "claim.json").write_text(proved.stdout)
    checked = invoke("check-proof", tmp_path / "claim.json", base["runs"]["wild_side"] / "manifest.json",
                     "--public-key", base["public"], application=audit_app)
    assert checked.exit_code == 0, checked.output
    assert f"valid proof: ticket {ticket}" in checked.stdout and "prize $500.00" in checked.stdout


def test_proof_faces_and_report(base, tmp_path):
    run = base["runs"]["wild_side"]
    made = invoke("proof", run, "--spec", SPEC, "--out", tmp_path / "proof.pdf")
    assert made.exit_code == 0, made.output
    pages = PdfReader(io.BytesIO((tmp_path / "proof.pdf").read_bytes())).pages
    text = [p.extract_text() for p in pages]
    assert len(pages) == 38 and sum("Specimen of " in t for t in text) == 35  # one specimen a tier
    assert all("- agrees" in t for t in text if "Specimen of" in t) and not any("ILLEGAL" in t for t in text)
    assert sum("No area shows a win: no prize." in t for t in text) == 1  # the losing tier's ticket
    faces = " ".join(text)
    for drawn in ("LUCKY NUMBERS  (area numbers, key_number_match)", "YOUR NUMBERS  (area numbers,",
                  "YOUR WILD NUMBERS (a match wins 5 times the prize shown)  (area wild, key_number_match)",
                  "WILD BONUS  (area bonus, bonus_reveal)", "THRNIN", "FIVE-HUN", "WIN$50",
                  "revealed: wins $50.00", "wild, spot"):
        assert drawn in faces, drawn
    assert "WINNING NUMBERS  (area" not in faces and "BONUS: REVEAL" not in faces  # the spec's labels
    assert not any("Symbol of" in t for t in text[3:])  # a picture is drawn by its name ("clover")
    # Drawn without the key: with it, the report ran the checklist again on a run whose every step
    # test_verify_every_step_with_signature_spec_and_seed passes; a Wild Side p1 report of a verified run
    # (every step, the seed included) is tests/poolgen/cli/test_demo.py's. The pages, charts and
    # statistics (the report's own) are drawn either way.
    report = invoke("report", run, "--spec", SPEC, "--out", tmp_path / "report.pdf")
    assert report.exit_code == 0, report.output
    assert (f"report {tmp_path / 'report.pdf'}: 1 pool(s), verification not run, public edition (mode 0600)"
            in report.stdout)
    assert "Pool p1: statistics (verify step 8)" in " ".join(
        " ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "report.pdf").pages)


def _refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in TEXT, old
    path = tmp_path / "wild_side.toml"
    path.write_text(TEXT.replace(old, new, 1))
    result = invoke("check", path)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.strip().splitlines() == [f"poolgen: error: {path}: {message}"]


T30_BONUS = 'prize = "WIN50", how = "reveal" } ]\n\n[[tiers]]\nid = "t31"'
REFUSED = {
    "four bonus wins": (T30_BONUS, 'prize = "WIN50", how = "reveal" },\n{ area = "bonus", prize = "WIN10", '
                                   'how = "reveal" } ]\n\n[[tiers]]\nid = "t31"',
                        "tiers[29].wins: 22 wins, but a ticket wins at most 21 times (play.max_wins)"),
    "a reveal with by": ('{ area = "bonus", prize = "WIN10", how = "reveal" } ]',
                         '{ area = "bonus", prize = "WIN10", how = "reveal", by = 2 } ]',
                         "tiers[3].wins[0].by: area 'bonus' (bonus_reveal): a revealed amount wins as shown: "
                         "no `by`"),
    "a bonus matched": ('{ area = "bonus", prize = "WIN10", how = "reveal" } ]',
                        '{ area = "bonus", prize = "WIN10", how = "match" } ]',
                        "tiers[3].wins[0].how: area 'bonus' (bonus_reveal): how = 'match': a bonus_reveal "
                        "win is "
                        "\"reveal\""),
    "a picture as a prize": ('{ area = "bonus", prize = "WIN10", how = "reveal" } ]',
                             '{ area = "bonus", prize = "CLOVER", how = "reveal" } ]',
                             "tiers[3].wins[0].prize: area 'bonus' (bonus_reveal): prize 'CLOVER' is not "
                             "one of "
                             "its prize symbols"),
    "wild at 2x": ('{ area = "wild", prize = "2", how = "match", by = 5 } ]',
                   '{ area = "wild", prize = "2", how = "match", by = 2 } ]',
                   "tiers[4].wins[0].by: area 'wild' (key_number_match): a match here pays 5 times the prize "
                   "shown, not 2"),
    "most_alike above spots": ("most_alike = 2 ", "most_alike = 4 ",
                               "areas[2].most_alike: 4 alike do not fit 3 spots"),
    "three of one picture": ("most_alike = 2 ", "most_alike = 0 ",
                             "areas[2].most_alike: must be at least 1, got 0"),
    "a field no style reads": ("most_alike = 2 ", "most_alike = 2\nmatch_by = 5 ",
                               "areas[2].match_by: unknown field"),
    "a weight missing": ('"1000" = 3, "25000" = 1 }', '"1000" = 3 }',
                         "areas[0].decoy_weights.25000: missing: every prize symbol has a weight"),
    "a weight for no prize": ('"1000" = 3, "25000" = 1 }', '"1000" = 3, "25000" = 1, "7" = 1 }',
                              "areas[0].decoy_weights.7: not one of the area's prize symbols"),
    "distinct_numbers not a boolean": ("yours = 12\nnumbers = \"number\"\nprizes = \"prize\"\n"
                                      "distinct_numbers = true",
                                      "yours = 12\nnumbers = \"number\"\nprizes = \"prize\"\n"
                                      "distinct_numbers = \"yes\"",
                                      "areas[0].distinct_numbers: must be a bool, not 'yes'"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_what_a_style_cannot_lay_out_is_refused_by_check(tmp_path, case):
    _refused(tmp_path, *REFUSED[case])


@pytest.mark.parametrize(("old", "new", "message"), [
    ('labels = ["WILD BONUS"]', 'labels = ["WILD BONUS", "MORE"]',
     "areas[2].labels: 2 title(s) for the area's 1 section(s) (BONUS: REVEAL A WIN AMOUNT)"),
    ('labels = ["LUCKY NUMBERS", "YOUR NUMBERS"]', 'labels = ["LUCKY NUMBERS"]',
     "areas[0].labels: 1 title(s) for the area's 2 section(s) (WINNING NUMBERS; YOUR NUMBERS)"),
    ('labels = ["WILD BONUS"]', 'labels = "WILD BONUS"',
     "areas[2].labels: must be a list of section titles (strings of 1 to 200 characters)"),
    ('labels = ["WILD BONUS"]', 'labels = [""]',
     "areas[2].labels: must be a list of section titles (strings of 1 to 200 characters)"),
])
def test_area_labels_name_every_section_or_are_refused(tmp_path, old, new, message):
    assert old in TEXT, old
    path = tmp_path / "wild_side.toml"
    path.write_text(TEXT.replace(old, new, 1))
    result = invoke("check", path)
    assert result.exit_code == 2 and f"wild_side.toml: {message}" in result.output, result.output
    assert "Traceback" not in result.output
