"""The held-out example specs (specs/examples/, written from docs/new-game.md and docs/styles/ alone):
each real file passes `check` with the figures its [published] table states, and a small cut of each
(its sizes and counts divided, the shape of its play unchanged) generates, signed, and verifies with
audit's own command line: every step that runs without the seed passes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.cli import app as audit_app
from poolgen.run.signing import Signer
from tests.support import ROOT, SEED_A
from tests.support.cli import invoke
from tests.support.reseal import reseal_pool

EXAMPLES = ROOT / "specs" / "examples"

# spec: (order winners, order prize cost in cents) as `check` computes them from the real file
FIGURES = {"lucky_sevens_multiplier": (213_534, 101_400_000),
           "diamond_life": (674_636, 1_708_000_000),
           "two_million_blitz": (633_763, 2_675_500_000),
           "elemental_duel": (68_875, 17_200_000),  # an eInstant: the first pool's ($1.00)
           "lucky_reels_areas": (32_135, 7_400_000),
           "lizard_spock_showdown": (36_721, 1_427_500),  # sudden death, five symbols: the $0.25 pool's
           "red_hot_wild_7s": (246_247, 343_251_500),  # a key symbol game (winning = 0)
           "red_hot_wild_7s_pools": (246_247, 343_251_500),  # its whole order, counts split over 5 pools
           "granite_state_money_puzzle": (1_078_850, 778_670_500),  # its whole order of 4,129,500, split
           "ten_x_the_money": (64_554, 151_250_000),  # Nebraska's rows' odds truncated (row_odds_rounding)
           "deal_em": (226, 33_500),  # Wisconsin's rows' odds rounded up (row_odds_rounding = "up")
           "bazinga_bingo": (635_723, 483_638_900),  # Minnesota's 2,441,100 split in 9 pools (4 bingo cards)
           "bingo_bucks": (1_267_729, 1_018_369_800),  # Missouri: 5,004,000 split in 20 pools, 6 bingo cards
           "winter_fortune": (780_009, 994_720_000),  # five games on one ticket, 2,930,700 split in 30 pools
           "cashtastic_crossword": (500_613, 2_005_734_000),  # 18 YOUR LETTERS, a legend a puzzle, a BONUS
           "wheel_of_fortune": (651_732, 824_399_000),  # a key number match and three one-word grids
           "true_north": (615_320, 787_236_500),  # a key symbol game with a 5X symbol and a BONUS box
           "texas_numbers_game": (1_878_776, 2_493_708_000),  # 7,333,050 in 38 pools of packs of 75
           "iowa_full_of_300s": (242_932, 160_933_500),  # Iowa's whole order of 867,100 in one pool
           "nc_double_diamond_cashword": (1_351_894, 3_500_274_000),  # odds printed whole and to 2 places
           "fl_loteria": (13_402_291, 8_389_890_600),  # prize shown for each line, 60,328,650 in 41 pools
           "fl_loteria_caller": (13_402_291, 8_389_890_600),  # the same, 14 CALLER CARDS marking the board
           "ar_10x_extra_crossword": (702_703, 492_611_500),  # a free-space MONEYBAG paying 10 times
           "ca_tic_tac_bonus": (4_348_328, 2_381_116_000),  # X's or O's make lines, 18,097,700 in 61 pools
           "uk_scrabble_0493": (53_560, 23_100_000),  # UK: designed counts giving its published 1 in 4.48
           "id_king_cashword": (174_283, 427_962_000),  # Idaho: every row's whole 1 in, a CROWN tripler
           "bclc_deluxe_crossword": (428_556, 510_046_000),  # BC (CAD): three legends, an INSTANT WORD, 2X-5X
           "poker_lotto_instant": (134_025, 52_122_600),  # BCLC's chart, a quarter of the five-card hands
           "mi_poker_lotto_instant": (134_025, 54_821_400),  # Michigan's chart: two pair $3, jacks $2 cash
           "nz_holdem_five_deals": (14_313, 19_575_000),  # NZD, five hold 'em deals, two spacing rules
           "mn_ms_pac_man": (921_762, 678_757_800),  # Minnesota's maze: three LIFEs, 3,427,200 in 8 pools
           "mn_lucky_lines_gold": (593_449, 1_369_117_500)}  # ten GAMES of lines, prize spots, 1X-10X

# spec: (size replacements, count divisor, smallest pool of the cut, its tickets)
CUTS = {"lucky_sevens_multiplier": ({"order_tickets": 36_000, "pool_tickets": 6_000}, 20, "p1", 6_000),
        "diamond_life": ({"order_tickets": 24_000, "pool_tickets": 6_000}, 100, "p1", 6_000),
        "two_million_blitz": ({"order_tickets": 10_000, "pool_tickets": 10_000}, 200, "p1", 10_000),
        "pairs_payday_packs": ({"order_tickets": 11_000, "pool_tickets": 2_000}, 100, "p6", 1_000),
        "elemental_duel": ({"order_shares": 16_000, "pool_shares": 4_000}, 50, "d1.00", 4_000),
        "lucky_reels_areas": ({"order_shares": 24_000, "pool_shares": 4_000}, 25, "d1.00x2", 4_000),
        "lizard_spock_showdown": ({"order_shares": 16_000, "pool_shares": 4_000}, 25, "d0.25", 4_000),
        "red_hot_wild_7s": ({"order_tickets": 20_000, "pool_tickets": 20_000}, 50, "p1", 20_000),
        "red_hot_wild_7s_pools": ({"order_tickets": 20_300, "pool_tickets": 5_000}, 50, "p5", 300),
        "granite_state_money_puzzle": ({"order_tickets": 20_000, "pool_tickets": 10_000}, 200, "p2", 10_000),
        "big_cash_riches": ({"order_tickets": 20_000, "pool_tickets": 20_000}, 30, "p1", 20_000),
        "bank_roll": ({"order_tickets": 15_000, "pool_tickets": 15_000}, 20, "p1", 15_000),  # 7 or 11
        "ten_x_the_money": ({"order_tickets": 24_000, "pool_tickets": 24_000}, 10, "p1", 24_000),
        "deal_em": ({"order_tickets": 1_050, "pool_tickets": 1_050}, 1, "p1", 1_050),  # whole: one box
        # Minnesota's orders cut to four pools of 5,000 and a last of 300 (their counts split evenly)
        "bazinga_bingo": ({"order_tickets": 20_300, "pool_tickets": 5_000}, 120, "p5", 300),
        # Missouri's order cut to two pools of 7,500 (books of 150): six bingo cards a ticket
        "bingo_bucks": ({"order_tickets": 15_000, "pool_tickets": 7_500}, 250, "p1", 7_500),
        "winter_fortune": ({"order_tickets": 20_300, "pool_tickets": 5_000}, 144, "p5", 300),
        "cashtastic_crossword": ({"order_tickets": 20_300, "pool_tickets": 5_000}, 72, "p5", 300),
        "wheel_of_fortune": ({"order_tickets": 20_300, "pool_tickets": 5_000}, 120, "p5", 300),
        "true_north": ({"order_tickets": 20_300, "pool_tickets": 5_000}, 114, "p5", 300),
        # Texas's order cut to three pools of 100 packs of 75 (its counts split evenly)
        "texas_numbers_game": ({"order_tickets": 22_500, "pool_tickets": 7_500}, 326, "p3", 7_500),
        "iowa_full_of_300s": ({"order_tickets": 8_700, "pool_tickets": 8_700}, 100, "p1", 8_700),  # cards
        "nc_double_diamond_cashword": ({"order_tickets": 20_160, "pool_tickets": 5_040}, 239, "p4", 5_040),
        "cool_sevens": ({"order_tickets": 12_000, "pool_tickets": 12_000}, 20, "p1", 12_000),  # line_prizes
        # Florida's order cut to four pools of 30 books of 150 and a last of 2 books (line_prizes "shown")
        "fl_loteria": ({"order_tickets": 18_300, "pool_tickets": 4_500}, 3_300, "p5", 300),
        "fl_loteria_caller": ({"order_tickets": 18_300, "pool_tickets": 4_500}, 3_300, "p5", 300),  # `calls`
        "ar_10x_extra_crossword": ({"order_tickets": 20_000, "pool_tickets": 5_000}, 122, "p4", 5_000),
        # California's order cut to four pools of 50 books of 100 and a last of 3 books (`symbols`)
        "ca_tic_tac_bonus": ({"order_tickets": 20_300, "pool_tickets": 5_000}, 900, "p5", 300),
        # the UK's GBP 2 card: three rows of two tiles (prize_box) and three of yours beats theirs
        "uk_scrabble_0493": ({"order_tickets": 12_000, "pool_tickets": 12_000}, 20, "p1", 12_000),
        # Ohio's match three of six with a DOUBLER (match_n), books of 250
        "oh_winner_wonderland": ({"order_tickets": 12_000, "pool_tickets": 12_000}, 20, "p1", 12_000),
        # Ohio's match three of six beside a key number match whose YOUR NUMBER "26" wins all ten prizes
        "oh_26th_anniversary_millions": ({"order_tickets": 6_000, "pool_tickets": 6_000}, 20, "p1", 6_000),
        # Idaho's cashword with a CROWN (x3) and two BONUS spots: three pools of 100 books of 55, split
        "id_king_cashword": ({"order_tickets": 16_500, "pool_tickets": 5_500}, 40, "p1", 5_500),
        # BC's three puzzles, a MATCH 3 BONUS and a multiplier shown on losers too (CAD): split in four
        "bclc_deluxe_crossword": ({"order_tickets": 20_000, "pool_tickets": 5_000}, 75, "p1", 5_000),
        # Atlantic Lottery's 7 or 11 (CAD): five games of three YOUR NUMBERS adding up to 7 or 11
        "alc_seven_or_eleven": ({"order_tickets": 12_000, "pool_tickets": 12_000}, 20, "p1", 12_000),
        # Washington's Golden Sun: a legend by the number of SUNs (symbol_count)
        "wa_golden_sun": ({"order_tickets": 20_000, "pool_tickets": 20_000}, 75, "p1", 20_000),
        # BCLC's Poker Lotto instant-win chart (poker_hand): a 119th of the five-card hands' quarter
        "poker_lotto_instant": ({"order_tickets": 5_460, "pool_tickets": 5_460}, 119, "p1", 5_460),
        # Michigan's Poker Lotto instant-win chart (poker_hand), cut as BCLC's
        "mi_poker_lotto_instant": ({"order_tickets": 5_460, "pool_tickets": 5_460}, 119, "p1", 5_460),
        # a chart from a pair of 10s (poker_hand's `tens_or_better`), cut as BCLC's
        "tens_or_better_poker": ({"order_tickets": 5_460, "pool_tickets": 5_460}, 119, "p1", 5_460),
        # Ohio's Joker Poker: the JOKER wild, no five of a kind, a JOKER hand paid double (by = 2)
        "oh_joker_poker": ({"order_tickets": 3_000, "pool_tickets": 3_000}, 200, "p1", 3_000),
        # a designed NZD game of five hold 'em deals, ties winning, two spacing rules drawn exactly (5.12)
        "nz_holdem_five_deals": ({"order_tickets": 6_000, "pool_tickets": 6_000}, 10, "p1", 6_000),
        # Minnesota's Ms. Pac-Man (maze): three LIFEs, its order cut to four pools of 50 books of 100, split
        "mn_ms_pac_man": ({"order_tickets": 20_000, "pool_tickets": 5_000}, 171, "p1", 5_000),
        # Minnesota's Lucky Lines Gold: ten GAMES of lines marked by callers, a 1X-10X MULTIPLIER, split
        "mn_lucky_lines_gold": ({"order_tickets": 20_000, "pool_tickets": 5_000}, 98, "p1", 5_000)}


# examples whose counts are designed (the source's order cannot be written): no [published] figures
UNPUBLISHED = {"big_cash_riches", "bank_roll", "cool_sevens", "oh_winner_wonderland",
               "oh_26th_anniversary_millions", "alc_seven_or_eleven", "wa_golden_sun", "nz_holdem_five_deals",
               "tens_or_better_poker", "oh_joker_poker"}
# examples whose [published] states one figure (Nebraska and Missouri print their overall odds, no total
# of winners)
ONE_FIGURE = {"ten_x_the_money", "bingo_bucks", "uk_scrabble_0493", "bclc_deluxe_crossword",
              "poker_lotto_instant", "mi_poker_lotto_instant"}
# examples whose table prints its rows' odds and no total (Wisconsin's procedures, Idaho's page): nothing
# to drop
ROWS_ONLY = {"deal_em", "id_king_cashword"}


def cut(name: str, folder: Path) -> Path:
    """specs/examples/<name>.toml with the sizes of CUTS and every count divided (at least 1; for the
    order of 5.5 pools a multiple of 11, so that it still scales to every pool), its published
    figures dropped (they are the real file's; an eInstant's tiers keep their required `odds`, which
    only `check` reads), written as folder/<name>.toml."""
    sizes, k, _, _ = CUTS[name]
    text = (EXAMPLES / f"{name}.toml").read_text()
    for key, value in sizes.items():
        text, n = re.subn(rf"^{key} = \d+$", f"{key} = {value}", text, flags=re.M)
        assert n == 1, (name, key)
    step = 11 if name == "pairs_payday_packs" else 1
    text = re.sub(r"^count = (\d+)$", lambda m: f"count = {max(step, int(m.group(1)) // k // step * step)}",
                  text, flags=re.M)
    dropped = "winners|total_cost|odds" if "\nformat = 2\n" in text else "losers|losers_odds"
    text, n = re.subn(rf"^({dropped}) = .*\n", "", text, flags=re.M)
    assert n >= (1 if name in ONE_FIGURE else 2) or name in UNPUBLISHED | ROWS_ONLY, name
    path = folder / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("heldout")
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)  # a seed file others may read is refused
    assert invoke("keys", "new", root / "keys").exit_code == 0
    return root


def test_each_heldout_example_reconciles_every_figure_it_publishes():
    result = invoke("check", *(EXAMPLES / f"{name}.toml" for name in FIGURES), "--json")
    assert result.exit_code == 0, result.output
    games = {g["spec"]: g for g in json.loads(result.stdout)["games"]}
    assert set(games) == {f"{name}.toml" for name in FIGURES}
    for name, (winners, cost) in FIGURES.items():
        game = games[f"{name}.toml"]
        first_pool = name in ("elemental_duel", "lucky_reels_areas", "lizard_spock_showdown")
        figures = game["pools"][0] if first_pool else game["order"]
        assert (figures["winners"], figures["prize_cost_cents"]) == (winners, cost), name
        assert game["problems"] == [], name


def test_the_pack_example_is_5_5_pools_of_whole_packs_and_its_cut_is_possible(tmp_path):
    """pairs_payday_packs' real check probes its pack parameters on pools of 200,000 (half a minute):
    here its pools are read from the real file, and the probe runs on the cut."""
    result = invoke("check", cut("pairs_payday_packs", tmp_path), "--json")
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    assert [(p["id"], p["tickets"]) for p in game["pools"]] == \
        [(f"p{i}", 2_000) for i in range(1, 6)] + [("p6", 1_000)]
    assert any("check found a pool meeting every parameter" in n for n in game["notes"])


@pytest.mark.parametrize("name", CUTS)
def test_a_cut_of_each_heldout_example_generates_and_verifies_with_audit_alone(keys, name, tmp_path):
    _, _, pool, tickets = CUTS[name]
    spec = cut(name, tmp_path)
    made = invoke("generate", spec, "--out", tmp_path / "runs", "--seed-file", keys / "run.seed", "--pool",
                  pool, "--run-id", name, "--workers", "1", "--key", keys / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    result = invoke("verify", tmp_path / "runs" / name, "--public-key", keys / "keys" / "signing-key.pub.pem",
                    "--json", application=audit_app)
    assert result.exit_code == 0, result.output
    steps = json.loads(result.stdout)["steps"]
    assert [s["status"] for s in steps] == ["pass"] * 6 + ["skip", "pass", "pass"]
    assert any(f"{tickets:,}" in d for d in steps[2]["details"]), steps[2]["details"]


def test_a_cut_of_the_split_order_verifies_with_the_seed_regenerated_and_with_audit_alone(keys, tmp_path):
    """red_hot_wild_7s_pools cut to four pools of 5,000 and one of 300 (counts split, docs/randomness.md
    4b): its last pool regenerates byte for byte (poolgen verify --seed-file) and audit alone re-derives
    its counts from the seed (python -m audit verify --seed-file)."""
    spec = cut("red_hot_wild_7s_pools", tmp_path)
    seed, public = keys / "run.seed", keys / "keys" / "signing-key.pub.pem"
    made = invoke("generate", spec, "--out", tmp_path / "runs", "--seed-file", seed, "--pool", "p5",
                  "--run-id", "split", "--workers", "1", "--key", keys / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    run = tmp_path / "runs" / "split"
    result = invoke("verify", run, "--public-key", public, "--spec", spec, "--seed-file", seed, "--json")
    assert result.exit_code == 0, result.output
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["pass"] * 9
    result = invoke("verify", run, "--public-key", public, "--spec", spec, "--seed-file", seed, "--json",
                    application=audit_app)
    assert result.exit_code == 0, result.output
    steps = json.loads(result.stdout)["steps"]
    assert any("the counts per tier of 1 pool(s) (the order's split)" in d for d in steps[6]["details"]), \
        steps[6]["details"]


def test_the_flame_rows_pin_their_prizes_through_generate_verify_and_a_tampered_pool(keys, tmp_path):
    """red_hot_wild_7s cut to 2,000 tickets (every count divided by 500, at least 1): its FLAME rows,
    win-all wins that pin the prizes they print (`shows`), generate, and pass verify with the spec
    (step 5 ties the manifest's pins to it) and the seed; a "$100 w/FLAME" ticket whose three $10 are
    shown as $5, $5 and $20 (still $100, other prizes than its row prints) fails step 4, named."""
    text = (EXAMPLES / "red_hot_wild_7s.toml").read_text()
    text = re.sub(r"^(order_tickets|pool_tickets) = \d+$", r"\1 = 2000", text, flags=re.M)
    text = re.sub(r"^count = (\d+)$", lambda m: f"count = {max(1, int(m.group(1)) // 500)}", text, flags=re.M)
    text = re.sub(r"^(winners|odds|published_odds) = .*\n", "", text, flags=re.M)
    spec = tmp_path / "red_hot_wild_7s.toml"
    spec.write_text(text)
    seed, public = keys / "run.seed", keys / "keys" / "signing-key.pub.pem"
    made = invoke("generate", spec, "--out", tmp_path / "runs", "--seed-file", seed, "--run-id", "nh",
                  "--workers", "1", "--key", keys / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    run = tmp_path / "runs" / "nh"
    result = invoke("verify", run, "--public-key", public, "--spec", spec, "--seed-file", seed, "--json",
                    application=audit_app)
    assert result.exit_code == 0, result.output
    steps = json.loads(result.stdout)["steps"]
    assert [s["status"] for s in steps] == ["pass"] * 6 + ["skip", "pass", "pass"]  # 7: no generator here
    assert any("every pool, area and tier is as it says" in d for d in steps[4]["details"])

    table = pl.read_parquet(run / "pool-p1.parquet")
    row = int(np.flatnonzero(table["tier"].to_numpy() == "100f")[0])
    tens = [j for j in range(15) if table[f"play_prize_{j}"][row] == 1][:3]  # code 1: $10
    for j, code in zip(tens, (0, 0, 2), strict=True):  # $5, $5, $20
        name = f"play_prize_{j}"
        values = table[name].to_numpy().copy()
        values[row] = code
        table = table.with_columns(pl.Series(name, values, dtype=table.schema[name]))
    reseal_pool(run, "pool-p1.parquet", table, Signer.from_file(keys / "keys" / "signing-key.pem"))
    result = invoke("verify", run, "--public-key", public, "--json", application=audit_app)
    step = json.loads(result.stdout)["steps"][3]
    assert (result.exit_code, step["status"]) == (1, "fail")
    assert f"{table['ticket'][row]} (row {row}): play: its win-all symbol shows 12 x '5', 2 x '10', " \
           "1 x '20', not the prizes its tier pins (10 x '5', 5 x '10')" in " ".join(step["reasons"])
