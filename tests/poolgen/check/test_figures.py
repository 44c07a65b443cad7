"""`poolgen check`: exact figures for every pool of every game, and published-figure problems."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from poolgen.check.game import check_spec
from poolgen.cli.main import app
from poolgen.loader import load_spec
from tests.support import ASSETS, SPECS
from tests.support.cli import invoke
from tests.support.spec_docs import kn_doc, write


def _check_json(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["check", "--json", *args])
    return result.exit_code, json.loads(result.stdout)


def test_all_four_games_reconcile():
    code, doc = _check_json()
    assert code == 0 and doc["ok"] is True and doc["problems"] == []
    assert [g["name"] for g in doc["games"]] == ["Hand to Hand Tactics", "Happy Holidays",
                                                 "Primetime Payout", "Wild Side"]


def _pools(name: str) -> dict:
    doc = check_spec(load_spec(SPECS / name)).to_json()
    return {p["id"]: p for p in doc["pools"]} | ({"order": doc["order"]} if doc["order"] else {})


@pytest.mark.parametrize("name", ["wild_side.toml", "happy_holidays.toml", "hand_to_hand_tactics.toml",
                                  "primetime_payout.toml"])
def test_check_names_pools_as_generate_does(name):
    spec = load_spec(SPECS / name)
    doc = check_spec(spec).to_json()
    assert [p["id"] for p in doc["pools"]] == [p.id for p in spec.pools]
    for p in doc["pools"]:
        assert spec.pool(p["id"]).tickets == p["tickets"]  # what `generate --pool ID` builds
    if spec.kind == "printed":
        assert doc["order"]["tickets"] == sum(p.tickets for p in spec.pools)
    else:
        assert doc["order"] is None


def test_wild_side_figures():
    pools = _pools("wild_side.toml")
    assert [k for k in pools] == ["p1", "p2", "p3", "p4", "p5", "order"]
    pools["pool"] = pools["p3"]
    assert pools["pool"]["tickets"] == 150_000 and pools["pool"]["winners"] == 49_212
    assert pools["pool"]["prize_cost_cents"] == 50_252_500  # $2,512,625 / 5
    assert pools["pool"]["odds_1_in"] == "3.0480" and pools["pool"]["payout_pct"] == "67.0033"
    assert pools["order"]["tickets"] == 750_000 and pools["order"]["winners"] == 246_060
    assert pools["order"]["prize_cost_cents"] == 251_262_500
    assert pools["pool"]["top_prize_cents"] == 2_500_000
    tiers = {t["id"]: t["count"] for t in pools["pool"]["tiers"]}
    assert tiers["t01"] == 10_000 and tiers["t34"] == 1 and tiers["lose"] == 100_788


def test_happy_holidays_figures():
    pools = _pools("happy_holidays.toml")
    assert [k for k in pools] == ["p1", "p2", "p3", "p4", "p5", "p6", "order"]
    p = pools["p6"]
    assert (p["tickets"], p["winners"], p["losers"]) == (300_000, 87_900, 212_100)
    assert p["prize_cost_cents"] == 18_185_000 and p["odds_1_in"] == "3.4130"
    assert pools["order"]["prize_cost_cents"] == 109_110_000 and pools["order"]["winners"] == 527_400
    assert [t["count"] for t in p["tiers"]] == [212_100, 20_000, 39_350, 23_500, 4_100, 500, 450]


@pytest.mark.parametrize("denom", [100, 200, 500, 1000, 2000, 3000])
def test_hand_to_hand_tactics_figures(denom):
    pools = _pools("hand_to_hand_tactics.toml")
    p = pools[f"d{denom // 100}.00"]
    assert (p["tickets"], p["winners"], p["losers"]) == (1_000_000, 338_644, 661_356)
    assert p["prize_cost_cents"] == 879_992 * denom  # sum of multiplier x count = 879,992
    assert p["odds_1_in"] == "2.9530" and p["payout_pct"] == "87.9992"
    assert p["top_prize_cents"] == 5000 * denom


@pytest.mark.parametrize("denom", [100, 200, 500, 750])
@pytest.mark.parametrize("areas", [1, 2, 3, 4])
def test_primetime_payout_figures(denom, areas):
    pools = _pools("primetime_payout.toml")
    p = pools[f"d{denom // 100}.{denom % 100:02d}x{areas}"]
    assert p["price_cents"] == denom * areas
    assert (p["tickets"], p["winners"], p["losers"]) == (1_000_000, 330_943, 669_057)
    assert p["prize_cost_cents"] == 880_000 * denom * areas
    assert p["odds_1_in"] == "3.0217" and p["payout_pct"] == "88.0000"


def test_odd_printed_cell_is_a_note_not_a_problem():
    result = check_spec(load_spec(SPECS / "primetime_payout.toml"))
    assert result.problems == []
    assert any("'$1,2500.00' is printed oddly; read as $12,500.00" in n for n in result.notes)


def test_published_mismatch_exits_1_naming_game_table_row_and_values():
    code, doc = _check_json(str(ASSETS / "spec_published_mismatch.toml"))
    assert code == 1 and doc["ok"] is False
    assert doc["problems"] == [
        "Happy Holidays: (i): row 5 ($20) prize cost: published $66,000.00, "
        "computed 3,000 x $20.00 = $60,000.00",
        "Happy Holidays: (i): total winners: published 527,401, computed 527,400",
    ]


def test_einstant_odds_mismatch_is_reported(tmp_path):
    text = (SPECS / "hand_to_hand_tactics.toml").read_text().replace('\nodds = "4.98"', '\nodds = "4.99"')
    path = tmp_path / "hth.toml"
    path.write_text(text)
    problems = check_spec(load_spec(path)).problems
    assert problems == [
        "Hand to Hand Tactics: (j): multiplier 1 odds: published 1 in 4.99, computed 1 in 4.98"]


def test_einstant_odds_of_a_tier_no_share_wins_are_a_problem(tmp_path):
    # a transcription slip (count = 0) left the row's printed "1 in" unchecked, and check reconciled it
    text = (SPECS / "hand_to_hand_tactics.toml").read_text()
    row = 'multiplier = "5000"\ncount = 1\n'
    assert text.count(row) == 1
    path = tmp_path / "hth.toml"
    path.write_text(text.replace(row, 'multiplier = "5000"\ncount = 0\n'))
    problems = check_spec(load_spec(path)).problems
    assert [p for p in problems if "multiplier 5000" in p] == [
        "Hand to Hand Tactics: (j): multiplier 5000 odds: published 1 in 1,000,000.00, "
        "computed none: no share of a pool wins the tier",
        "Hand to Hand Tactics: (i): multiplier 5000 number of prizes: published 1, computed 0 in (j)",
        "Hand to Hand Tactics: (i): multiplier 5000 odds: published 1 in 1,000,000.00, "
        "computed none: no share of a pool wins the tier"]


@pytest.mark.parametrize(("spec", "order", "made"), [
    ("hand_to_hand_tactics", 6_000_000, "6 x 1,000,000"),
    ("primetime_payout", 16_000_000, "16 x 1,000,000")])
def test_an_einstant_order_of_other_than_its_pools_is_a_note(tmp_path, spec, order, made):
    text = (SPECS / f"{spec}.toml").read_text()
    path = tmp_path / f"{spec}.toml"
    path.write_text(text.replace(f"order_shares = {order}", f"order_shares = {order + 1}"))
    result = check_spec(load_spec(path))
    assert result.problems == []
    assert [n for n in result.notes if "order_shares" in n] == [
        f"{result.game.name}: einstant.order_shares: published {order + 1:,}; "
        f"the pools make {made} = {order:,}"]
    assert not any("order_shares" in n for n in check_spec(load_spec(SPECS / f"{spec}.toml")).notes)


def test_human_output_names_every_game():
    result = CliRunner().invoke(app, ["check"])
    assert result.exit_code == 0
    for name in ("Wild Side (game 358)", "Happy Holidays (game 465)", "Hand to Hand Tactics",
                 "Primetime Payout"):
        assert name in result.stdout
    assert "All figures of 4 game(s) reconcile." in result.stdout


def _regulation_without_figures(tmp_path):
    """Hit $50 with its designed table called the regulation's and no published figure stated."""
    text = (SPECS / "examples" / "hit_50.toml").read_text()
    assert 'prize_table = "designed"' in text and "[published]" not in text
    path = tmp_path / "hit_50_regulation.toml"
    path.write_text(text.replace('prize_table = "designed"', 'prize_table = "regulation"'))
    return path


def test_check_does_not_say_reconciled_when_nothing_published(tmp_path):
    """Nothing compared is not 'every published figure reconciles': check notes it and says so."""
    path = _regulation_without_figures(tmp_path)
    result = check_spec(load_spec(path))
    assert not result.stated and result.problems == []
    assert result.notes == ["Hit $50: the spec states no published figure ([published], a tier's "
                            "published_cost or odds): nothing reconciled, computed figures only"]
    out = CliRunner().invoke(app, ["check", str(path)])
    assert out.exit_code == 0
    assert "ok 13 prize tiers and the losing tier, no published figure to reconcile" in out.stdout
    assert "every published figure reconciles" not in out.stdout


def test_checks_last_line_does_not_say_reconciled_for_a_game_with_nothing_published(tmp_path):
    """The last line spoke of every game: "All figures of 1 game(s) reconcile." for a game of which
    nothing was compared. It counts only the games that state a figure, and names the others."""
    path = _regulation_without_figures(tmp_path)
    alone = CliRunner().invoke(app, ["check", str(path)])
    assert alone.exit_code == 0
    assert alone.stdout.splitlines()[-1] == ("No published figure in 1 game(s): nothing reconciled, computed "
                                             "figures only.")
    both = CliRunner().invoke(app, ["check", str(SPECS / "wild_side.toml"), str(path)])
    assert both.exit_code == 0
    assert both.stdout.splitlines()[-1] == ("All figures of 1 game(s) reconcile; 1 game(s) state no "
                                            "published figure (computed figures only).")


def test_check_says_reconciled_when_a_figure_is_published(tmp_path):
    path = _regulation_without_figures(tmp_path)
    path.write_text(path.read_text().replace("[play]", "[published]\nwinners = 529980\n\n[play]", 1))
    result = check_spec(load_spec(path))
    assert result.stated and result.notes == [] and result.problems == []


def test_a_pools_top_prize_is_one_a_ticket_of_it_can_win(tmp_path):
    """A tier of no ticket (count = 0, which the loader accepts) is no prize of the pool: check's table and
    its --json gave its amount as every pool's top prize, a prize no ticket of the pool pays."""
    doc = kn_doc()
    doc["tiers"][3]["count"] = 0  # the $6 row, the game's largest prize
    result = invoke("check", write(tmp_path, doc), "--json")
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    assert [p["top_prize_cents"] for p in [*game["pools"], game["order"]]] == [200] * (len(game["pools"]) + 1)
