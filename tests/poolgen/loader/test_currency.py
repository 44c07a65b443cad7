"""A game's currency (`game.currency`, docs/new-game.md section 1, "Money and its currency"): the loader
reads amounts written bare or with the game's sign, refuses another currency's sign in an amount field
or in a symbol's text or caption, and refuses a code it does not know, each in one line naming the field;
audit's spec reader refuses the same in the same words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.money import CURRENCIES, USD
from tests.support import ROOT
from tests.support.cli import invoke, one_line

UK = (ROOT / "specs/examples/uk_scrabble_0493.toml").read_text()
GBP_LINE = 'currency = "GBP"                # pounds: every amount the tool prints is written "£2.00"\n'


def _spec(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "uk.toml"
    path.write_text(text)
    return path


def _changed(was: str, now: str, text: str = UK) -> str:
    assert text.count(was) >= 1, was
    return text.replace(was, now)


def test_a_gbp_game_reads_amounts_bare_or_with_the_pound_sign_in_pence():
    game = load_spec(ROOT / "specs/examples/uk_scrabble_0493.toml")
    assert game.currency == CURRENCIES["GBP"]
    assert game.sales.price_cents == 200  # type: ignore[union-attr]
    assert [s.cents for s in game.symbols if s.symbol.startswith("£")][:3] == [200, 400, 500]


def test_a_price_written_with_the_games_own_sign_is_the_same_game(tmp_path):
    signed = load_spec(_spec(tmp_path, _changed('price = "2.00"', 'price = "£2.00"')))
    bare = load_spec(ROOT / "specs/examples/uk_scrabble_0493.toml")
    assert signed.sales == bare.sales and signed.tiers == bare.tiers and signed.currency == bare.currency


def test_a_spec_without_a_currency_is_in_dollars(tmp_path):
    assert load_spec(ROOT / "specs/happy_holidays.toml").currency == USD


@pytest.mark.parametrize(("was", "now", "field", "why"), [
    ('price = "2.00"', 'price = "$2.00"', "printed.price",
     "'$2.00' is not an amount in GBP: its sign '$' is another currency's (the game's is '£')"),
    ('value = "4.00"', 'value = "€4.00"', "symbols[47].value",
     "'€4.00' is not an amount in GBP: its sign '€' is another currency's (the game's is '£')"),
    ('symbol = "£4"', 'symbol = "$4"', "symbols[47].symbol",
     "'$4' shows an amount in another currency's sign: the game's currency is GBP ('£')"),
    (GBP_LINE, 'currency = "JPY"\n', "game.currency",
     "must be one of USD, CAD, GBP, EUR, AUD, NZD (an ISO 4217 code), not 'JPY'"),
    (GBP_LINE, 'currency = 826\n', "game.currency",
     "must be one of USD, CAD, GBP, EUR, AUD, NZD (an ISO 4217 code), not 826"),
])
def test_another_currencys_sign_or_an_unknown_code_is_refused_naming_the_field(tmp_path, was, now, field,
                                                                              why):
    path = _spec(tmp_path, _changed(was, now))
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert str(caught.value) == f"{path}: {field}: {why}"
    one_line(invoke("check", path), "poolgen", f"{field}: {why}")
    with pytest.raises(UnusableInput) as audited:  # audit's spec reader, in the loader's words
        read_spec(path)
    assert f"{field}: {why}" in str(audited.value)


def test_a_caption_showing_dollars_on_a_pound_game_is_refused(tmp_path):
    path = _spec(tmp_path, _changed('symbol = "£4"\ncaption = "FOUR"', 'symbol = "£4"\ncaption = "WIN $4"'))
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert str(caught.value) == (f"{path}: symbols[47].caption: 'WIN $4' shows an amount in another "
                                 "currency's sign: the game's currency is GBP ('£')")


def test_a_pound_amount_on_a_dollar_game_is_refused_as_it_always_was_an_amount_in_another_sign(tmp_path):
    path = _spec(tmp_path, _changed(GBP_LINE, "").replace('price = "2.00"', 'price = "£2.00"'))
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert str(caught.value) == (f"{path}: printed.price: '£2.00' is not an amount in USD: its sign '£' is "
                                 "another currency's (the game's is '$')")


@pytest.mark.parametrize("prize", ['"£500.00"', '"500"'])
def test_a_pack_cap_named_by_a_pound_prize_is_read_by_the_loader_and_audits_spec_reader(tmp_path, prize):
    path = _spec(tmp_path, UK + f"\n[packs]\ncaps = [{{ prize = {prize}, at_most = 1 }}]\n")
    game = load_spec(path)
    assert [c.tiers for c in game.packs.caps] == [("500t",)]
    assert read_spec(path).sha256 == game.sha256  # audit read '£500.00' as an amount in USD and refused it


@pytest.mark.parametrize(("table", "field", "why"), [
    ('caps = [{ prize = "£3.00", at_most = 1 }]', "packs.caps[0].prize", "no tier pays £3.00"),
    ('min_prize_value = "£100.00"', "packs.min_prize_value",
     "pool p1 (4,000 packs of 60) pays £231,000.00 in all, less than £100.00 x 4,000 = £400,000.00"),
])
def test_a_pack_rule_of_a_pound_game_is_refused_in_pounds_by_both(tmp_path, table, field, why):
    path = _spec(tmp_path, UK + f"\n[packs]\n{table}\n")
    with pytest.raises(SpecError) as loader:
        load_spec(path)
    with pytest.raises(UnusableInput) as audit:
        read_spec(path)
    assert str(loader.value) == str(audit.value) == f"{path}: {field}: {why}"


def _in_pounds(name: str) -> str:
    """An example moved to pounds: `currency = "GBP"`, and its symbols' amounts and prizes written '£'."""
    text = (ROOT / f"specs/examples/{name}.toml").read_text()
    text = re.sub(r'((?:value|symbol|caption|price|prize) *= *")\$', r"\1£", text)
    text = re.sub(r'((?:value|price) = ")([0-9])', r"\1£\2", text)
    return text.replace("[game]\n", '[game]\ncurrency = "GBP"\n', 1)


@pytest.mark.parametrize(("name", "written"), [
    ("money_bag_match", 'prize = "£30.00", how = "all"'),  # a win-all win's sum (key_number_match)
    ("money_bag_match", 'prize = "30.00", how = "all"'),
    ("bingo_bucks", 'value = "£3.00"'),  # a pattern's prize symbol (bingo)
])
def test_a_pound_games_win_all_sum_and_bingo_prizes_are_read_by_the_loader_and_audits_spec_reader(
        tmp_path, name, written):
    text = re.sub(r'prize = "([0-9.]+)", how = "all"', r'prize = "£\1", how = "all"', _in_pounds(name))
    path = _spec(tmp_path, text.replace('prize = "£30.00", how = "all"', written))
    assert written in path.read_text()
    game, dollars = load_spec(path), load_spec(ROOT / f"specs/examples/{name}.toml")
    assert game.currency.code == "GBP" and [t.cents for t in game.tiers] == [t.cents for t in dollars.tiers]
    assert read_spec(path).sha256 == game.sha256  # audit refused '£3.00' and '£30.00' as not in USD


def test_a_win_all_sum_in_dollars_on_a_pound_game_is_refused_by_both_in_the_same_words(tmp_path):
    path = _spec(tmp_path, re.sub(r'prize = "([0-9.]+)", how = "all"', r'prize = "$\1", how = "all"',
                                  _in_pounds("money_bag_match")))
    with pytest.raises(SpecError) as loader:  # the loader took '$20.00' on a pound game
        load_spec(path)
    with pytest.raises(UnusableInput) as audit:
        read_spec(path)
    assert str(loader.value) == str(audit.value) == (
        f"{path}: tiers[6].wins[0].prize: area 'play' (key_number_match): '$20.00' is not an amount in GBP: "
        "its sign '$' is another currency's (the game's is '£')")


@pytest.mark.parametrize("code", ["AUD", "NZD"])
def test_a_game_in_australian_or_new_zealand_dollars_is_checked_generated_and_verified(tmp_path, code):
    """The Lott's Instant Scratch-Its are sold in AUD, Lotto NZ's Instant Kiwi in NZD: both print '$' as
    US dollars do. Such a game was refused (`game.currency: must be one of USD, CAD, GBP, EUR ...`); now
    the loader and audit's reader take it, and a run of it verifies with the manifest's currency."""
    text = (ROOT / "specs/examples/alc_seven_or_eleven.toml").read_text()
    text = text.replace('currency = "CAD"', f'currency = "{code}"').replace("240000", "12000")
    text = re.sub(r"^count = (\d+)$", lambda m: f"count = {max(1, int(m.group(1)) // 20)}", text, flags=re.M)
    path = _spec(tmp_path, text)
    game = load_spec(path)
    assert (game.currency.code, game.currency.sign) == (code, "$")
    assert read_spec(path).sha256 == game.sha256
    keys, run = tmp_path / "keys", tmp_path / "runs" / "r"
    assert invoke("keys", "new", keys).exit_code == 0
    made = invoke("generate", path, "--out", tmp_path / "runs", "--run-id", "r", "--workers", "1",
                  "--key", keys / "signing-key.pem")
    assert made.exit_code == 0, made.output
    assert json.loads((run / "manifest.json").read_text())["game"]["currency"] == code
    verified = invoke("verify", run, "--public-key", keys / "signing-key.pub.pem", "--spec", path)
    assert verified.exit_code == 0, verified.output
    assert re.search(r"prize cost \$16,060\.00, odds 1 in 4\.48", verified.output), verified.output
    assert "£" not in verified.output and "€" not in verified.output
