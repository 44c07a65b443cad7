"""A format-1 eInstant spec that names a ticket-wide style ([game] id and style,
poolgen/loader/einstant.py): what it loads as, and the one-line refusals of a [game] table that mixes
the two ways of naming a game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from poolgen.errors import SpecError
from poolgen.game.play import TicketPlay
from poolgen.loader import load_spec
from poolgen.styles import TICKET_STYLES
from poolgen.styles.area_match import style as area_match
from tests.support import ROOT, spec_path
from tests.support.cli import invoke, one_line

SPEC = ROOT / "specs" / "primetime_payout.toml"


def test_a_style_spec_is_named_by_its_id():
    spec = load_spec(SPEC)
    assert isinstance(spec.play, TicketPlay)
    assert (spec.id, spec.play.style, spec.kind) == ("primetime_payout", "area_match", "einstant")
    assert spec.play.module is area_match is TICKET_STYLES["area_match"]


@pytest.mark.parametrize("style", ["match_n", "key_number_match", "area_match_tables", "nope", "Area_match",
                                   "../x"])
def test_only_a_registered_ticket_wide_style_is_an_einstant_style(tmp_path, style):
    path = tmp_path / "p.toml"
    path.write_text(SPEC.read_text().replace('style = "area_match"', f'style = "{style}"', 1))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/p.toml: game.style: unknown eInstant style {style!r} "
                              "(known: area_match, prize_legend_duel)")


@pytest.mark.parametrize(("old", "new", "message"), [
    ('id = "primetime_payout"\n', 'id = "primetime_payout"\nrules = "primetime_payout"\n',
     "game.rules: a spec with game.style names its game by game.id, not rules"),
    ('style = "area_match"', 'style = "match_n"', "game.style: unknown eInstant style 'match_n'"),
    ('style = "area_match"', 'style = "primetime"', "game.style: unknown eInstant style 'primetime'"),
    ('id = "primetime_payout"\n', "", "game.id"),
    ('id = "primetime_payout"', 'id = "Primetime Payout"',
     "game.id: 'Primetime Payout' is not a lower-case name (a-z, 0-9, _; at most 64)"),
    ('style = "area_match"\n', "", "game.id: goes with game.style (a spec without a style names its rules)"),
    ('id = "primetime_payout"\nstyle = "area_match"\n', "", "game.rules: missing field"),
    ('id = "primetime_payout"\nstyle = "area_match"\n', 'rules = "primetime_payout"\n',
     "game.rules: 'primetime_payout': no game has rules of its own; write a printed game as a format = 2 "
     "spec of play styles, an eInstant with game.id and game.style (docs/new-game.md)"),
])
def test_a_bad_game_table_is_refused_naming_the_field(tmp_path, old, new, message):
    text = SPEC.read_text()
    assert old in text
    path = tmp_path / "p.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value).startswith(f"{tmp_path}/p.toml: ") and message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_format_1_game_with_rules_of_its_own_is_refused_with_the_way_forward(tmp_path):
    """No game has a module of its own any more: a format-1 spec naming `rules` is told what to write."""
    path = tmp_path / "old.toml"
    path.write_text('format = 1\n[game]\nname = "Old"\nregulation = "K.A.R. 1"\nrules = "happy_holidays"\n'
                    'kind = "printed"\nsource = "x"\n')
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (
        f"{path}: game.rules: 'happy_holidays': no game has rules of its own; write a printed game as "
        "a format = 2 spec of play styles, an eInstant with game.id and game.style (docs/new-game.md)")


def test_an_einstant_spec_with_a_printed_table_is_refused(tmp_path):
    """A field nothing uses is an error: format 1 sells shares, so a [printed] table would be ignored."""
    path = tmp_path / "p.toml"
    path.write_text(SPEC.read_text() + '\n[printed]\nprice = "1.00"\n')
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/p.toml: printed: not used: an eInstant sells shares ([einstant]); "
                              "a printed game is a format = 2 spec")


# ------------------------------------------------------------------------------------------------
# docs/pool-files.md: the eInstant pool ids, from the rule written there
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["hand_to_hand_tactics", "primetime_payout"])
def test_einstant_pool_ids_follow_pool_files_md(game):
    spec = load_spec(spec_path(game))
    text = spec_path(game).read_text()
    several = "play_areas = [1, 2, 3, 4]" in text
    assert several == (game == "primetime_payout")
    want = [f"d{p.denomination_cents // 100}.{p.denomination_cents % 100:02d}"
            + (f"x{p.play_areas}" if several else "") for p in spec.pools]
    assert [p.id for p in spec.pools] == want
    assert want[0] == ("d1.00x1" if several else "d1.00")


def test_a_blank_symbol_code_is_refused(tmp_path):
    """As in a printed spec: loaded, generated and verified before, a symbol named '' everywhere."""
    text = SPEC.read_text()
    old = next(line for line in text.splitlines() if line.startswith("code = "))
    path = tmp_path / "p.toml"
    path.write_text(text.replace(old, 'code = " "', 1))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/p.toml: symbols[0].code: must not be blank: the play and the "
                              "manifest name "
                              "the symbol by its code")


@pytest.mark.parametrize("field", ["winners = 1", 'subtotal_cost = "$1"', 'total_cost = "$1"',
                                   'other_costs = [ { name = "Players Loyalty Program", amount = "$1" } ]'])
def test_an_einstant_published_figure_check_never_reconciles_is_refused(tmp_path, field):
    """`poolgen check` reconciles an eInstant's losers, their odds and the overall odds (per pool, as
    table (j) prints them), never winners or costs: a format-1 spec stating one was accepted and
    check said "every published figure reconciles" whatever it said. Refused as unused instead."""
    text = SPEC.read_text()
    assert "[published]" in text
    path = tmp_path / "p.toml"
    path.write_text(text.replace("[published]", "[published]\n" + field, 1))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == f"{tmp_path}/p.toml: published.{field.split(' ')[0]}: unknown field"


# ------------------------------------------------------------------------------------------------
# An amount a style would show that is not whole cents at a denomination: unusable input, exit 2
# ------------------------------------------------------------------------------------------------

def _odd_cent_primetime(tmp_path) -> Path:
    """Primetime with a $1.01 denomination and no half multiplier among its tiers (every tier whole
    cents), so only the amounts 0.5, 1.5, ... x $1.01 are fractional cents."""
    text = SPEC.read_text().replace('denominations = ["1.00"', 'denominations = ["1.01"', 1)
    text, dropped = re.subn(r'\[\[tiers\]\]\nmultiplier = "\d+\.5"\n(?:[^\n]+\n)*?i_odds = [^\n]+\n', "",
                            text)
    assert dropped == 5
    path = tmp_path / "odd.toml"
    path.write_text(text)
    return path


def _small_legend(tmp_path) -> Path:
    text = spec_path("hand_to_hand_tactics").read_text()
    assert 'legend = ["0.5", "1"' in text
    path = tmp_path / "odd.toml"
    path.write_text(text.replace('legend = ["0.5", "1"', 'legend = ["0.125", "0.5", "1"', 1))
    return path


@pytest.mark.parametrize(("make", "pool", "line"), [
    (_odd_cent_primetime, "d1.01x1",
     "odd.toml: layout.amount_multipliers[0]: 0.5 x $1.01 is not whole cents (an amount an area may show)"),
    (_small_legend, "d1.00",
     "odd.toml: play.legend[0]: 0.125 x $1.00 is not whole cents (a prize symbol a share may show)"),
])
def test_an_amount_not_whole_cents_at_a_denomination_is_refused_alike_by_check_and_generate(
        tmp_path, make, pool, line):
    """`check` called it a disagreeing figure (exit 1) while `generate` refused the spec (exit 2): the
    spec is unusable input, refused when it loads, in the same one line by both."""
    path = make(tmp_path)
    with pytest.raises(SpecError) as err:
        load_spec(path)
    line = f"{tmp_path}/{line}"  # the spec as given: tmp_path/odd.toml
    assert str(err.value) == line
    one_line(invoke("check", path), "poolgen", line)
    one_line(invoke("check", path, "--json"), "poolgen", line)
    assert invoke("keys", "new", tmp_path / "keys").exit_code == 0
    made = invoke("generate", path, "--out", tmp_path / "runs", "--pool", pool, "--workers", "1",
                  "--key", tmp_path / "keys" / "signing-key.pem")
    one_line(made, "poolgen", line)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
