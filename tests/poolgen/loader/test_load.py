"""Loading specs: the four real ones load; every kind of bad spec is one clear error (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.errors import SpecError
from poolgen.game.play import AreaPlay
from poolgen.loader import load_spec
from tests.support import ASSETS, SPECS

BAD = {
    "spec_unknown_field": "spec_unknown_field.toml: play.colour: unknown field",
    "spec_missing_field": "spec_missing_field.toml: printed.pool_tickets: missing field",
    "spec_negative_count": "spec_negative_count.toml: tiers[4].count: must not be negative, got -3000",
    "spec_noninteger_count": "spec_noninteger_count.toml: tiers[4].count: must be a whole number, "
                             "not 3000.5",
    "spec_count_exceeds_pool": "spec_count_exceeds_pool.toml: tiers: 348550 winners per pool exceed the "
                               "pool of 300000 tickets",
    "spec_float_money": "spec_float_money.toml: tiers[3].prize: money must be a decimal string "
                        'such as "5.00", not the float 5.0',
    "spec_undeclared_symbol": "spec_undeclared_symbol.toml: tiers[4].wins[0].prize: area 'play' (match_n): "
                              "prize "
                              "'25' is not one of its prize symbols",
    "spec_duplicate_tier": "spec_duplicate_tier.toml: tiers[2].id: duplicate tier id '1'",
    "spec_indivisible_count": "spec_indivisible_count.toml: tiers[4].count: 3001 winners per order do not "
                              "scale exactly to a pool of 300000 (printed.split = \"even\" spreads it)",
    "spec_bad_toml": "spec_bad_toml.toml: not valid TOML: Expected ']' at the end of a table declaration",
    "spec_codes_not_a_list": "spec_codes_not_a_list.toml: tiers[9].wins: must be a list, not '25'",
    "spec_symbol_is_a_list": "spec_symbol_is_a_list.toml: tiers[0].wins[0].prize: must be a string, not "
                             "['FREE']",
    "spec_missing_odds": "spec_missing_odds.toml: tiers[39].odds: missing field",
    "spec_unreadable_odds": "spec_unreadable_odds.toml: published.odds: 'x2.95' is not a number",
    "spec_infinite_price": "spec_infinite_price.toml: printed.price: 'Infinity' is not an amount",
    "spec_other_cost_without_amount": "spec_other_cost_without_amount.toml: "
                                      "published.other_costs[0].amount: missing field",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_spec_is_one_clear_error(name):
    with pytest.raises(SpecError) as info:
        load_spec(ASSETS / f"{name}.toml")
    assert str(info.value).startswith(f"{ASSETS / BAD[name]}")


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_spec_exits_2_with_one_line_and_no_traceback(name):
    result = CliRunner().invoke(app, ["check", str(ASSETS / f"{name}.toml")])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"poolgen: error: {ASSETS / BAD[name]}")
    assert "Traceback" not in result.output


def test_a_spec_is_named_as_the_user_typed_it_so_two_folders_specs_are_told_apart(tmp_path, monkeypatch):
    """Spec errors named the spec by its base name: `a/wild_side.toml` and `b/wild_side.toml` both said
    "wild_side.toml: ...". poolgen (check, the loader's every line) and audit (its spec reader) now name
    it as typed, relative or absolute."""
    from audit.errors import UnusableInput  # noqa: PLC0415  # audit's side of the same spec
    from audit.read.specs import read_spec  # noqa: PLC0415

    text = (SPECS / "wild_side.toml").read_text().replace("[game]\n", "[game]\ncolour = [1\n", 1)
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "wild_side.toml").write_text(text)
    monkeypatch.chdir(tmp_path)
    for typed in ("a/wild_side.toml", "b/wild_side.toml", str(tmp_path / "b" / "wild_side.toml")):
        result = CliRunner().invoke(app, ["check", typed])
        said = f"{typed}: not valid TOML: "
        assert result.exit_code == 2 and result.stderr.startswith(f"poolgen: error: {said}"), result.stderr
        with pytest.raises(SpecError) as loaded:
            load_spec(typed)
        assert str(loaded.value).startswith(said)
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(Path("a/wild_side.toml"))
    assert str(audit_said.value).startswith("a/wild_side.toml: not a TOML spec: ")


def test_missing_spec_file():
    result = CliRunner().invoke(app, ["check", "no/such/spec.toml"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "poolgen: error: no/such/spec.toml: spec file not found"


def test_duplicate_play_is_a_duplicate_tier(tmp_path):
    text = (SPECS / "wild_side.toml").read_text()
    old = ('count = 17400\npublished_cost = "$174,000"\n'
           'wins = [ { area = "bonus", prize = "WIN10", how = "reveal" } ]')
    assert old in text
    text = text.replace(old, old.replace('area = "bonus", prize = "WIN10", how = "reveal"',
                                         'area = "numbers", prize = "10", how = "match"'))
    path = tmp_path / "ws.toml"
    path.write_text(text)
    message = r"/ws.toml: tiers\[3\]: duplicate tier: won the same way as tiers\[2\]"
    with pytest.raises(SpecError, match=message):
        load_spec(path)


def test_real_specs_load_with_their_pools():
    ws = load_spec(SPECS / "wild_side.toml")
    assert (ws.name, ws.number, ws.regulation, ws.kind) == ("Wild Side", 358, "K.A.R. 111-4-3762", "printed")
    assert len(ws.tiers) == 34 and [p.id for p in ws.pools] == ["p1", "p2", "p3", "p4", "p5"]
    assert [p.first_book for p in ws.pools] == [0, 2500, 5000, 7500, 10000]
    assert len(ws.symbols_in("number")) == 46 and len(ws.symbols_in("prize")) == 11
    assert len(ws.symbols_in("bonus_play")) == 8 and len(ws.symbols_in("bonus_prize")) == 3
    hh = load_spec(SPECS / "happy_holidays.toml")
    assert len(hh.pools) == 6 and hh.pools[0].tickets == 300_000 and hh.tickets_per_book == 300
    hth = load_spec(SPECS / "hand_to_hand_tactics.toml")
    assert [p.id for p in hth.pools] == ["d1.00", "d2.00", "d5.00", "d10.00", "d20.00", "d30.00"]
    assert (hth.id, hth.play.style) == ("hand_to_hand_tactics", "prize_legend_duel")  # game id, its style
    assert isinstance(ws.play, AreaPlay) and isinstance(hh.play, AreaPlay)
    ppo = load_spec(SPECS / "primetime_payout.toml")
    assert len(ppo.pools) == 16 and ppo.pools[-1].id == "d7.50x4" and ppo.pools[-1].price_cents == 3000
    assert len(ppo.symbols) == 13 and len(ppo.tiers) == 58
    half = next(t for t in ppo.pools[-1].tiers if t.id == "m0.5")
    assert half.prize_cents == 1500  # 0.5 x $7.50 x 4 areas


@pytest.mark.parametrize(("old", "new", "message"), [
    ('id = "free"', 'id = ""', "tiers[0].id: must not be blank: the pool files, the manifest and [packs] "
                               "name a tier by its id"),
    ('id = "free"', 'id = "  "', "tiers[0].id: must not be blank: the pool files, the manifest and [packs] "
                                 "name a tier by its id"),
    ('code = "BAG"', 'code = ""', "symbols[21].code: must not be blank: a tier's wins and the manifest name "
                                  "the symbol by its code"),
])
def test_blank_tier_id_or_symbol_code_is_refused(tmp_path, old, new, message):
    """Both loaded, generated and verified before: a blank name the files and messages show as ''."""
    text = (SPECS / "examples" / "hit_50.toml").read_text()
    assert text.count(old) == 1
    path = tmp_path / "hit.toml"
    path.write_text(text.replace(old, new))
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert str(info.value) == f"{path}: {message}"
