"""audit/read/specs/known.py: a field no part of poolgen reads is an error. poolgen's loader refused one
(`game.colour = 1`: `<spec>: game.colour: unknown field`) while audit's reader took it, so `verify --spec`
held a run to a spec `check` refuses. Both refuse it now, naming the same field in the same words: an
unknown field added at every level of shipped specs (both formats, every nested table a style reads),
each refused by the loader and audit's reader in the same line; the style field lists equal poolgen's.
(Every shipped spec is still read by audit: test_unused.py's test_every_shipped_spec_...)"""

from __future__ import annotations

import tomllib

import pytest

from audit.errors import UnusableInput
from audit.read.specs import known, read_spec
from audit.read.specs.known import AREA_FIELDS, DUEL_FIELDS, MATCH_GAME, MATCH_LAYOUT
from poolgen.errors import SpecError
from poolgen.loader import areas, einstant, load_spec, packs, printed
from poolgen.styles import AREA_STYLES
from poolgen.styles.area_match import params as area_match
from poolgen.styles.prize_legend_duel import params as duel
from tests.support import ROOT
from tests.support.spec_docs import dumps

# (spec under specs/, where the unknown field `colour` is added, the start of the line both give)
CASES = [
    ("wild_side", [], "colour: unknown field"),
    ("wild_side", ["game"], "game.colour: unknown field"),
    ("wild_side", ["printed"], "printed.colour: unknown field"),
    ("wild_side", ["play"], "play.colour: unknown field"),
    ("wild_side", ["published"], "published.colour: unknown field"),
    ("wild_side", ["published", "other_costs", 0], "published.other_costs[0].colour: unknown field"),
    ("wild_side", ["symbols", 0], "symbols[0].colour: unknown field"),
    ("wild_side", ["areas", 0], "areas[0].colour: unknown field"),
    ("wild_side", ["tiers", 0], "tiers[0].colour: unknown field"),
    ("wild_side", ["tiers", 0, "wins", 0], "tiers[0].wins[0].colour: unknown field"),
    ("examples/five_alarm_flames", ["areas", 0, "legend", 0], "areas[0].legend[0].colour: unknown field"),
    ("examples/hundred_thousand_crossword", ["areas", 0, "legend", 0],
     "areas[0].legend[0].colour: unknown field"),
    ("examples/hundred_thousand_crossword", ["areas", 0, "bonus"], "areas[0].bonus.colour: unknown field"),
    ("examples/cashtastic_crossword", ["areas", 0, "legends", 0, 0],
     "areas[0].legends[0][0].colour: unknown field"),
    ("examples/cashtastic_crossword", ["areas", 0, "doubler"], "areas[0].doubler.colour: unknown field"),
    ("examples/tic_tac_cash", ["areas", 0, "legend", 0], "areas[0].legend[0]: must be a table"),
    ("examples/pattern_bingo", ["areas", 0, "patterns", 0], "areas[0].patterns[0]: must be a table"),
    ("examples/arrow_maze", ["areas", 0, "exits", 0], "areas[0].exits[0]: must be a table"),
    ("examples/happy_holidays_packs", ["packs"], "packs.colour: unknown field"),
    ("examples/happy_holidays_packs", ["packs", "caps", 0], "packs.caps[0].colour: unknown field"),
    ("examples/happy_holidays_packs", ["packs", "spacing", 0], "packs.spacing[0].colour: unknown field"),
    ("hand_to_hand_tactics", [], "colour: unknown field"),
    ("hand_to_hand_tactics", ["game"], "game.colour: unknown field"),
    ("hand_to_hand_tactics", ["einstant"], "einstant.colour: unknown field"),
    ("hand_to_hand_tactics", ["published"], "published.colour: unknown field"),
    ("hand_to_hand_tactics", ["symbols", 0], "symbols[0].colour: unknown field"),
    ("hand_to_hand_tactics", ["tiers", 0], "tiers[0].colour: unknown field"),
    ("hand_to_hand_tactics", ["play"], "play.colour: unknown field (the prize_legend_duel style reads "),
    ("hand_to_hand_tactics", ["layout"], "layout: the prize_legend_duel style reads every parameter"),
    ("examples/hand_to_hand_blocks", ["blocks"], "blocks.colour: unknown field"),
    ("examples/hand_to_hand_blocks", ["blocks", "caps", 0], "blocks.caps[0].colour: unknown field"),
    ("examples/hand_to_hand_blocks", ["blocks", "spacing", 0], "blocks.spacing[0].colour: unknown field"),
    ("primetime_payout", ["layout"], "layout.colour: unknown field (the area_match style reads "),
    ("primetime_payout", ["play"], "play.colour: not a field of the area_match style"),
    ("primetime_payout", ["layout", "bonus_games", 0], "layout.bonus_games[0].colour: unknown field"),
    ("primetime_payout", ["layout", "match_pays", 0],
     "layout.match_pays[0]: has exactly count and times, not ['colour', 'count', 'times']"),
]


def _number_with_a_value(doc: dict) -> None:
    area = next(a for a in doc["areas"] if a["style"] == "key_number_match")
    next(s for s in doc["symbols"] if s["group"] == area["numbers"])["value"] = "1.00"


def _prize_with_by(doc: dict) -> None:
    area = next(a for a in doc["areas"] if a["style"] == "key_number_match")
    next(s for s in doc["symbols"] if s["group"] == area["prizes"])["by"] = 2


def _group_no_area_uses(doc: dict) -> None:
    doc["symbols"].append({"group": "nowhere", "code": "ZZ", "symbol": "zz"})


ROLES = {"a value on a number": (_number_with_a_value, "not used: a symbol of numbers has no value"),
         "a by on a prize": (_prize_with_by, "not used: a symbol of prizes has no by"),
         "a group no area uses": (_group_no_area_uses, "group 'nowhere' is used by no area")}


@pytest.mark.parametrize("case", list(ROLES))
def test_a_symbol_field_its_role_does_not_read_is_refused_by_audits_reader_as_by_the_loader(tmp_path, case):
    """docs/new-game.md: a symbol group no area uses, a symbol field its group's role does not read."""
    change, said = ROLES[case]
    doc = tomllib.loads((ROOT / "specs" / "wild_side.toml").read_text(encoding="utf-8"))
    change(doc)
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader_said:
        load_spec(spec)
    assert str(loader_said.value).startswith(f"{spec}: symbols[") and str(loader_said.value).endswith(said)
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == str(loader_said.value)


@pytest.mark.parametrize(("name", "where", "said"), CASES,
                         ids=[f"{n}:{said.split(':')[0]}" for n, _, said in CASES])
def test_an_unknown_field_is_refused_by_audits_reader_as_by_the_loader(tmp_path, name, where, said):
    doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
    table = doc
    for key in where:
        table = table.setdefault(key, {}) if isinstance(key, str) and key == "layout" else table[key]
    table["colour"] = 1
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader_said:
        load_spec(spec)
    assert str(loader_said.value).startswith(f"{spec}: {said}")
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == str(loader_said.value)


def test_audits_style_field_lists_are_poolgens():
    poolgens = {name: set(module.FIELDS) for name, module in AREA_STYLES.items()}
    assert poolgens == AREA_FIELDS
    ticket_wide = (duel.FIELDS, area_match.LAYOUT_FIELDS, set(area_match.GAME_FIELDS))
    assert ticket_wide == (DUEL_FIELDS, MATCH_LAYOUT, MATCH_GAME)


def test_audits_table_field_lists_are_the_loaders():
    """known.py's copy of each table's fields (audit never imports poolgen) is the loader's own, read here
    from the loader's modules: a field the loader comes to read that audit's copy lacks would make
    `verify --spec` refuse, as unknown, a spec `check` accepts (only a shipped spec using it shows it)."""
    ours = [known._TOP[2], known._GAME[2], known._PRINTED, known._PUBLISHED[2], known._SYMBOL[2],
            known.ROLE_FIELDS, known._TIER[2], known._WIN, known._PACKS, known._BLOCKS, known._TOP[1],
            known._GAME[1], known._EINSTANT, known._PUBLISHED[1], known._SYMBOL[1], known._TIER[1]]
    loaders = [printed._TOP, printed._GAME, printed._PRINTED, printed._PUBLISHED, printed._SYMBOL,
               printed.ROLE_FIELDS, areas._TIER, areas._WIN, packs._PACKS, packs._BLOCKS, einstant._TOP,
               einstant._GAME, einstant._EINSTANT, einstant._PUBLISHED, einstant._SYMBOL, einstant._TIER]
    assert ours == loaders
    assert {"max_wins"} == printed._PLAY
