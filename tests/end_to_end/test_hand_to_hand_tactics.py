"""The prize_legend_duel eInstant style from the command line, as an operator runs it: Hand to Hand
Tactics (specs/hand_to_hand_tactics.toml) end to end, a variant of other parameters (five play symbols
that each beat two, 12 spots, 4 losses, another legend) that checks, generates a full pool and
verifies, variants the style cannot lay out refused by `check` naming the field, and the plumbing that
finds an eInstant style (docs/styles/play.md, "eInstant styles")."""

from __future__ import annotations

import io
import json
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from audit.cli import app as audit_app
from audit.styles import einstant_engine
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.pdf.proofs import INDEX_ROWS
from poolgen.rng import derive_stream
from poolgen.styles import TICKET_STYLES
from poolgen.styles.prize_legend_duel.style import decompositions
from tests.support import ROOT, SEED_A, small_einstant
from tests.support.cli import invoke, one_line

SPEC = ROOT / "specs" / "hand_to_hand_tactics.toml"
TEXT = SPEC.read_text(encoding="utf-8")
PROBE_SHARES = 200_000  # the probe's run (the real game's: 1,000,000)
LEGEND = 'legend = ["0.5", "1", "2", "3", "4", "5", "10", "20", "25", "50", "100", "250", "500", "1000"]'
FIVE_SYMBOLS = '''
[[symbols]]
group = "play"
code = "L"
symbol = "Symbol of a Lizard"

[[symbols]]
group = "play"
code = "K"
symbol = "Symbol of Spock"
'''


def variant(tmp_path: Path, *changes: tuple[str, str], name: str = "duel_variant.toml",
            text: str = TEXT) -> Path:
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# The probe: the same style, other parameters (its published figures are the game's: tiers unchanged).
PROBE = (
    ('id = "hand_to_hand_tactics"', 'id = "duel_probe"'),
    ("spots = 15 ", "spots = 12 "),
    ("losses = 3 ", "losses = 4 "),
    ('play_symbols = ["R", "P", "S"]', 'play_symbols = ["R", "P", "S", "L", "K"]'),
    ('beats = { P = ["R"], R = ["S"], S = ["P"] }',
     'beats = { R = ["S", "L"], P = ["R", "K"], S = ["P", "L"], L = ["P", "K"], K = ["S", "R"] }'),
    (LEGEND, 'legend = ["0.5", "1", "2", "3", "5", "7", "10", "25", "100", "1000"]'),
    ('first_spot_loss = "1/4"', 'first_spot_loss = "1/3"'),
    ("loser_max_multipliers = 1 ", "loser_max_multipliers = 2 "),
    ('[[symbols]]\ngroup = "play"\ncode = "M"',
     FIVE_SYMBOLS.strip() + '\n\n[[symbols]]\ngroup = "play"\ncode = "M"'),
)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("duel")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    probe = variant(root, *PROBE)
    # The probe's run: its pools cut to 200,000 shares (small_einstant: every count a fifth), what its
    # other parameters change (the layouts, audit's engine paying them, step 8's rule read from the
    # manifest) being the same in a pool of any size; the real game's run is a full pool.
    (root / "cut").mkdir()
    cut = small_einstant(root / "cut", "hand_to_hand_tactics", PROBE_SHARES).read_text(encoding="utf-8")
    probe_run = variant(root, *PROBE, name="duel_probe_cut.toml", text=cut)
    runs = {}
    for name, spec in (("hand_to_hand_tactics", SPEC), ("duel_probe", probe_run)):
        made = invoke("generate", spec, "--out", root / "runs", "--seed-file", root / "run.seed",
                      "--pool", "d1.00", "--run-id", name, "--workers", "1",
                      "--key", root / "keys" / "signing-key.pem")
        assert made.exit_code == 0, made.output
        runs[name] = root / "runs" / name
    return {"root": root, "runs": runs, "specs": {"hand_to_hand_tactics": SPEC, "duel_probe": probe},
            "run_specs": {"hand_to_hand_tactics": SPEC, "duel_probe": probe_run},
            "public": root / "keys" / "signing-key.pub.pem"}


# ---- end to end ------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["hand_to_hand_tactics", "duel_probe"])
def test_check_reconciles_every_published_figure(base, game):
    result = invoke("check", base["specs"][game], "--json")
    assert result.exit_code == 0, result.output
    (found,) = json.loads(result.stdout)["games"]
    assert found["problems"] == []
    assert [p["id"] for p in found["pools"]] == ["d1.00", "d2.00", "d5.00", "d10.00", "d20.00", "d30.00"]
    kept = {"hand_to_hand_tactics": "3..256", "duel_probe": "3..252"}[game]
    assert found["notes"] == [f"{game}: every tier has {kept} decompositions (at most 256 kept per tier)"]


@pytest.mark.parametrize("game", ["hand_to_hand_tactics", "duel_probe"])
def test_the_manifest_names_the_game_and_its_style(base, game):
    doc = json.loads((base["runs"][game] / "manifest.json").read_text())
    assert (doc["game"]["rules"], doc["game"]["style"]) == (game, "prize_legend_duel")
    assert len(doc["drbg"]["streams"]) == 3 and all(game in s for s in doc["drbg"]["streams"])
    play = doc["play"]
    assert play["style"] == "prize_legend_duel"
    if game == "hand_to_hand_tactics":
        assert play == {
            "style": "prize_legend_duel", "spots": 15, "losses": 3,
            "play_symbols": [{"code": "R", "symbol": "Symbol of Rock", "beats": ["S"]},
                             {"code": "P", "symbol": "Symbol of Paper", "beats": ["R"]},
                             {"code": "S", "symbol": "Symbol of Scissors", "beats": ["P"]}],
            "multiplier_symbol": {"code": "M", "symbol": "Symbol of a Multiplier"},
            "legend": ["0.5", "1", "2", "3", "4", "5", "10", "20", "25", "50", "100", "250", "500", "1000"],
            "max_decompositions": 256, "first_spot_loss": "1/4", "loser_max_multipliers": 1}
    else:
        assert (play["spots"], play["losses"], len(play["play_symbols"])) == (12, 4, 5)
        assert doc["pools"][0]["columns"][-24:] == [f"{c}_{i}" for c in ("spot", "amt") for i in range(12)]


@pytest.mark.parametrize("game", ["hand_to_hand_tactics", "duel_probe"])
def test_verify_every_step_with_signature_spec_and_seed(base, game):
    result = invoke("verify", base["runs"][game], "--public-key", base["public"], "--spec",
                    base["run_specs"][game], "--seed-file", base["root"] / "run.seed", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [s["status"] for s in report["steps"]] == ["pass"] * 9
    columns = {"hand_to_hand_tactics": 30, "duel_probe": 24}[game]
    shares, winners = {"hand_to_hand_tactics": ("1,000,000", "338,644"),
                       "duel_probe": ("200,000", "67,714")}[game]
    assert report["steps"][3]["details"] == [
        f"pool d1.00: {shares} layouts evaluated by audit.styles.prize_legend_duel: each pays its stored "
        f"prize ({winners} winners), none illegal",
        "pool d1.00: no two consecutive tickets of the pool (consecutive serials) show identical play data "
        f"({columns} layout columns compared)"]
    step8 = " | ".join(report["steps"][7]["details"])
    rule = {"hand_to_hand_tactics": "1/4", "duel_probe": "1/3"}[game]
    assert f"pool d1.00: first reveal (spot_0) a loss (drawn {rule} for every share), against win/lose" \
        in step8


def test_the_probe_lays_out_its_own_parameters(base):
    table = pl.read_parquet(base["runs"]["duel_probe"] / "pool-d1.00.parquet")
    codes = table.select([f"spot_{i}" for i in range(12)]).to_numpy()
    amts = table.select([f"amt_{i}" for i in range(12)]).to_numpy()
    assert ((codes == 1).sum(axis=1) == 4).all()  # four losses in every share
    played = (codes != 0).sum(axis=1)
    assert played.min() == 4 and played.max() == 12
    assert set(amts[codes == 3].tolist()) == {50, 100, 200, 300, 500, 700, 1000, 2500, 10_000, 100_000}
    losers = table["prize_cents"].to_numpy() == 0
    assert (codes[losers] == 4).sum(axis=1).max() == 2  # loser_max_multipliers = 2
    first_loss = (codes[:, 0] == 1).mean()
    assert abs(first_loss - 1 / 3) < 0.003


@pytest.mark.parametrize("game", ["hand_to_hand_tactics", "duel_probe"])
def test_prove_and_check_proof_with_audit_alone(base, game, tmp_path):
    run = base["runs"][game]
    table = pl.read_parquet(run / "pool-d1.00.parquet", columns=["ticket", "prize_cents"])
    ticket = table.filter(pl.col("prize_cents") > 0)["ticket"][0]
    proved = invoke("prove", run, ticket, "--json")
    assert proved.exit_code == 0, proved.output
    (tmp_path / "claim.json").write_text(proved.stdout)
    checked = invoke("check-proof", tmp_path / "claim.json", run / "manifest.json",
                     "--public-key", base["public"], application=audit_app)
    assert checked.exit_code == 0, checked.output
    assert f"valid proof: ticket {ticket}" in checked.stdout


@pytest.mark.parametrize("game", ["hand_to_hand_tactics", "duel_probe"])
def test_proof_and_report(base, game, tmp_path):
    run, spec = base["runs"][game], base["run_specs"][game]
    made = invoke("proof", run, "--spec", spec, "--out", tmp_path / "proof.pdf")
    assert made.exit_code == 0, made.output
    pages = [" ".join(p.extract_text().split())
             for p in PdfReader(io.BytesIO((tmp_path / "proof.pdf").read_bytes())).pages]
    index = -(-41 // INDEX_ROWS)  # the index pages of 41 shares: one of every tier (40 and the losers)
    assert len(pages) == 1 + index + 41
    shares = pages[1 + index:]
    assert all("- agrees" in t for t in shares) and not any("ILLEGAL" in t for t in pages)
    assert sum("No WIN spot: the prize legend stays at $0.00" in t for t in shares) == 1
    last = {"hand_to_hand_tactics": "third", "duel_probe": "fourth"}[game]
    assert all(f"Play ends at the {last} loss, spot " in t for t in shares)
    beats = {"hand_to_hand_tactics": "Rock beats Scissors, Paper beats Rock, Scissors beats Paper.",
             "duel_probe": "Rock beats Scissors and Lizard, Paper beats Rock and Spock,"}[game]
    assert beats in pages[0]
    # The real game's report runs the checklist (its pages drawn with the style's step details). The
    # probe's ran it a second time on a run of the same style whose every step the verify test above
    # already passes (with the seed): its report is drawn without it; its pages, charts and statistics
    # (computed by the report itself) are the same either way.
    key = ["--public-key", base["public"]] if game == "hand_to_hand_tactics" else []
    report = invoke("report", run, "--spec", spec, *key, "--out", tmp_path / "r.pdf")
    assert report.exit_code == 0, report.output
    said = "verification passes" if key else "verification not run"
    assert f"report {tmp_path / 'r.pdf'}: 1 pool(s), {said}, public edition (mode 0600)" in report.stdout
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "r.pdf").pages)
    assert "Pool d1.00: statistics (verify step 8)" in text


# ---- what the style cannot lay out, and bad parameters ----------------------------------------

def test_a_legend_that_cannot_make_a_tier_is_refused_by_check_and_generate_alike(tmp_path):
    """check exited 1 (a figure that disagrees) where generate exited 2: a spec that cannot be laid out
    is bad input, one line naming the field from both."""
    path = variant(tmp_path, (LEGEND, 'legend = ["2", "5"]'))
    # (1 + m) x (sums of 2s and 5s) within 12 spots reaches every multiplier but 5000, 500, 400, 300, 3, 1
    line = ("duel_variant.toml: play.legend: 6 tier(s) cannot be laid out: no (1 + m) x sum of "
            "legend values [2, 5] within 12 non-loss spots equals the multiplier of m5000 (5000), m500 "
            "(500), m400 (400), m300 (300), m3 (3), m1 (1)")
    one_line(invoke("check", path, "--json"), "poolgen", line)
    one_line(invoke("generate", path, "--pool", "d1.00", "--unsigned", "--out", tmp_path / "out"), "poolgen",
             line)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize(("changes", "message"), [
    ((("spots = 15 ", "spots = 3 "),), "play.spots: must be a whole number 4..40, not 3"),
    ((("losses = 3 ", "losses = 1 "),),
     "play.first_spot_loss: must be \"0\" with losses = 1 (a first-spot loss would end every such share "
     "at once, winners included)"),
    ((('beats = { P = ["R"], R = ["S"], S = ["P"] }', 'beats = { P = ["R"], R = ["S"], S = ["R"] }'),),
     "play.beats: R beats S and S beats R"),
    ((('beats = { P = ["R"], R = ["S"], S = ["P"] }', 'beats = { P = ["R", "S"], R = ["S"], S = [] }'),),
     "play.beats: nothing beats P (a pick of it could never lose)"),
    ((('beats = { P = ["R"], R = ["S"], S = ["P"] }', 'beats = { P = ["R"], R = ["S"] }'),),
     "play.beats: no entry for play symbol 'S'"),
    ((('beats = { P = ["R"], R = ["S"], S = ["P"] }', 'beats = { P = ["R"], R = ["R"], S = ["P"] }'),),
     "play.beats: R: a symbol cannot beat itself"),
    ((('multiplier_symbol = "M"', 'multiplier_symbol = "R"'),),
     "play.multiplier_symbol: must be a [[symbols]] code of group \"play\" that is not a play symbol, "
     "not 'R'"),
    ((('play_symbols = ["R", "P", "S"]', 'play_symbols = ["R", "P"]'),),
     "symbols: play symbol 'S' is neither in play.play_symbols nor play.multiplier_symbol"),
    ((('play_symbols = ["R", "P", "S"]', 'play_symbols = ["R", "P", "X"]'),),
     "play.play_symbols: 'X' is not a [[symbols]] code of group \"play\""),
    ((("play_areas = [1]", "play_areas = [1, 2]"),), "einstant.play_areas: the prize_legend_duel style has "
                                                      "one play area: write [1]"),
    ((("[published]", "[layout]\nlegend = []\n\n[published]"),),
     "layout: the prize_legend_duel style reads every parameter from [play]; remove [layout]"),
    ((('style = "prize_legend_duel"', 'style = "match_n"'),),
     "game.style: unknown eInstant style 'match_n' (known: area_match, prize_legend_duel)"),
    ((('style = "prize_legend_duel"', 'style = "prize_legend_duel_params"'),),
     "game.style: unknown eInstant style 'prize_legend_duel_params' (known: area_match, prize_legend_duel)"),
    ((('id = "hand_to_hand_tactics"', 'id = "Hand to Hand"'),),
     "game.id: 'Hand to Hand' is not a lower-case name (a-z, 0-9, _; at most 64)"),
    ((('id = "hand_to_hand_tactics"', 'rules = "hand_to_hand_tactics"'),),
     "game.rules: a spec with game.style names its game by game.id, not rules"),
    ((('id = "hand_to_hand_tactics"\n', ''),), "game.id: missing field"),
    ((('id = "hand_to_hand_tactics"', 'id = "x"\nrules = "x"'),),
     "game.rules: a spec with game.style names its game by game.id, not rules"),
    ((('style = "prize_legend_duel"\n', ''),),
     "game.id: goes with game.style (a spec without a style names its rules)"),
    ((('kind = "einstant"', 'kind = "printed"'),),
     "game.style: names an eInstant style; a printed game of styles is format = 2"),
])
def test_a_variant_the_style_cannot_take_is_refused_in_one_line(tmp_path, changes, message):
    path = variant(tmp_path, *changes)
    result = invoke("check", path)
    assert result.exit_code == 2
    assert result.output == f"poolgen: error: {path}: {message}\n"


def test_the_ticket_wide_styles_are_the_registered_ones():
    assert sorted(TICKET_STYLES) == ["area_match", "prize_legend_duel"]
    spec = load_spec(SPEC)
    assert spec.play.module is TICKET_STYLES["prize_legend_duel"]
    assert spec.play.document()["style"] == "prize_legend_duel"


def test_the_spec_is_checked_when_it_loads(tmp_path):
    with pytest.raises(SpecError, match=r"/duel_variant\.toml: play\.legend: missing field$"):
        load_spec(variant(tmp_path, (LEGEND + "\n", "")))


# ---- any valid duel ----------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_duel_check_accepts_lays_out_shares_audit_pays_exactly(data):
    """Random valid parameters (spots, losses, legend, first-spot rule, losers' multipliers, three or
    five play symbols): every tier `check` finds a layout for is laid out, and audit's engine, reading
    only the manifest's play entry, finds every share legal and paying its tier."""
    losses = data.draw(st.integers(1, 6))
    spots = data.draw(st.integers(losses + 1, 20))
    legend = data.draw(st.lists(st.sampled_from(["0.5", "1", "2", "3", "5", "10", "25", "100", "1000"]),
                                min_size=1, max_size=6, unique=True))
    rule = "0" if losses == 1 else data.draw(st.sampled_from(["0", "1/4", "1/2", "1"]))
    lmax = data.draw(st.integers(0, min(2, spots - losses)))
    five = data.draw(st.booleans())
    changes = [("spots = 15 ", f"spots = {spots} "), ("losses = 3 ", f"losses = {losses} "),
               (LEGEND, "legend = [" + ", ".join(f'"{v}"' for v in legend) + "]"),
               ('first_spot_loss = "1/4"', f'first_spot_loss = "{rule}"'),
               ("loser_max_multipliers = 1 ", f"loser_max_multipliers = {lmax} ")]
    if five:
        changes += [change for change in PROBE if "symbols" in change[0] or "beats" in change[0]]
    with tempfile.TemporaryDirectory() as tmp:
        spec = load_spec(variant(Path(tmp), *changes))
    style = TICKET_STYLES["prize_legend_duel"]
    prm = spec.play.params
    pool = spec.pool("d1.00")
    fits = [i for i, t in enumerate(pool.tiers) if i == 0 or decompositions(
        Fraction(t.prize_cents, 100), prm.legend, prm.max_decompositions, prm.non_loss).total]
    tiers = np.repeat(np.array(fits, dtype=np.int64), 3)
    stream = derive_stream(SEED_A, "duel-property", str(spots))
    shown = {v for t in pool.tiers[1:] for d in decompositions(Fraction(t.prize_cents, 100), prm.legend,
                                                                 prm.max_decompositions, prm.non_loss).amounts
             for v in d}
    unshown = [j for j, v in enumerate(legend) if Fraction(v) not in shown]  # spec order, as named
    if unshown:  # a legend value no share would reveal: a field nothing uses, refused (contract, section 7)
        with pytest.raises(SpecError, match=rf"play\.legend\[{unshown[0]}\]: not used: "):
            style.lay_out(prm, spec, pool, tiers, stream)
        return
    columns = style.lay_out(prm, spec, pool, tiers, stream)
    assert list(columns) == [f"{c}_{i}" for c in ("spot", "amt") for i in range(spots)]
    prizes = np.array([pool.tiers[t].prize_cents for t in tiers], dtype=np.int64)
    table = pl.DataFrame({"tier": [pool.tiers[t].id for t in tiers], "prize_cents": prizes,
                          **{k: pl.Series(k, v) for k, v in columns.items()}})
    entry = {"id": pool.id, "price_cents": 100, "denomination_cents": 100, "play_areas": 1}
    result = einstant_engine("prize_legend_duel").evaluate(table, entry, spec.play.document())
    assert result.illegal == []
    assert result.prize_cents.tolist() == prizes.tolist()
    codes = np.stack([columns[f"spot_{i}"] for i in range(spots)], axis=1)
    assert ((codes == 1).sum(axis=1) == losses).all()
    if rule in ("0", "1"):
        assert ((codes[:, 0] == 1) == (rule == "1")).all()
    assert (codes[tiers == 0] == 4).sum(axis=1).max() <= lmax
