"""Format-2 specs (poolgen/loader/printed.py, areas.py): what they accept, and every refusal as one
line naming the file and the field."""

from __future__ import annotations

import copy

import pytest

from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.styles import AREA_STYLES
from tests.support import SPECS
from tests.support.spec_docs import DELETE, base_doc, kn_doc, write
from tests.support.spec_docs import edit as _edit

# every registered area style, in registry order (a style added to the registry is listed without
# editing this test): the first eleven, then whatever later styles the registry adds
KNOWN = ", ".join(AREA_STYLES)
assert KNOWN.startswith("key_number_match, match_n, bonus_reveal, crossword, symbol_count, prize_box, lines, "
                        "yours_beats_theirs, add_up, cards, bingo")


def test_a_valid_key_number_match_spec(tmp_path):
    spec = load_spec(write(tmp_path, kn_doc()))
    assert spec.id == "test_game" and spec.kind == "printed"
    assert [(t.id, t.prize_cents, t.count) for t in spec.pools[0].tiers] == [
        ("lose", 0, 1740), ("free", 100, 100), ("1", 100, 100), ("2", 200, 50), ("6", 600, 10)]
    # the number 5 and the $5.00 prize may share the code "5": codes are unique within a group
    assert [s.group for s in spec.symbols if s.code == "5"] == ["number", "prize"]


REFUSED = [
    ("areas.0.style", "lottery", f"g.toml: areas[0].style: unknown style 'lottery' (known: {KNOWN})"),
    ("areas.0.spots", 12, "g.toml: areas[0].spots: 12 spots, but 2 winning numbers and 3 your numbers with "
                          "their prizes are 8"),
    ("areas.0.colour", "red", "g.toml: areas[0].colour: unknown field"),
    ("game.extra", 1, "g.toml: game.extra: unknown field"),
    ("symbols.0.value", "1.00", "g.toml: symbols[0].value: not used: a symbol of numbers has no value"),
    ("symbols.1.code", "1", "g.toml: symbols[1].code: duplicate symbol code '1' in group 'number'"),
    ("symbols.6.free", DELETE, "g.toml: symbols[6].value: missing field (or free = true)"),
    ("tiers.2.wins", [{"area": "play", "prize": "1", "how": "multiplier", "by": 3}],
     "g.toml: tiers[2].wins[0].by: area 'play' (key_number_match): no multiplier symbol with by = 3 "
     "(it has: 2)"),
    # a "1X" (Minnesota's MULTIPLIER box shows one on tickets whose prize "remains the same") is a picture
    ("symbols.10.by", 1, "g.toml: symbols[10].by: a multiplier is 2..1000, got 1 (a \"1X\" that multiplies "
                         "nothing is a picture, with no by: docs/styles/ticket_multiplier.md, section 2)"),
    ("symbols.10.by", 1001, "g.toml: symbols[10].by: a multiplier is 2..1000, got 1001"),  # limits.py
    ("areas.0.match_by", 1001, "g.toml: areas[0].match_by: must be at most 1000, got 1001"),
    ("tiers.2.prize", "3.00", "g.toml: tiers[2].prize: 300 cents, but its wins add up to 200 cents"),
    ("tiers.1.wins", [{"area": "bonus", "prize": "1", "how": "match"}],
     "g.toml: tiers[1].wins[0].area: no area 'bonus' (areas: play)"),
    ("tiers.1.wins", [{"area": "play", "prize": "7", "how": "match"}],
     "g.toml: tiers[1].wins[0].prize: area 'play' (key_number_match): prize '7' is not one of its prize "
     "symbols"),
    ("tiers.1.wins", [{"area": "play", "prize": "1", "how": "match"}] * 3,
     "g.toml: tiers[1].wins: 3 wins, but a ticket wins at most 2 times (play.max_wins)"),
    ("tiers.1.wins", [{"area": "play", "prize": "FREE", "how": "match"}],
     "g.toml: tiers[1]: duplicate tier: won the same way as tiers[0]"),
    ("tiers.1.wins", [{"area": "play", "prize": "FREE", "how": "multiplier", "by": 2}],
     "g.toml: tiers[1].wins[0]: area 'play' (key_number_match): a free ticket cannot be multiplied"),
    ("tiers.1.count", 5000, "g.toml: tiers: 5160 winners per pool exceed the pool of 2000 tickets"),
    ("printed.order_tickets", 3000,
     "g.toml: printed.pool_tickets: an order of 3000 is not whole pools of 2000 (last_pool = \"partial\" "
     "makes the rest one smaller pool)"),
    ("printed.last_pool", "partial",
     "g.toml: printed.last_pool: not used: an order of 2000 is whole pools of 2000"),
    ("play.max_wins", DELETE, "g.toml: play.max_wins: missing field"),
    # a zero is refused naming its own field, not the first tier its bound then refused
    ("play.max_wins", 0, "g.toml: play.max_wins: a winning ticket wins at least once: 1 or more, not 0"),
    ("tiers.2.wins", [{"area": "play", "prize": "1", "how": "multiplier", "by": 0}],
     "g.toml: tiers[2].wins[0].by: area 'play' (key_number_match): no multiplier symbol with by = 0 "
     "(it has: 2)"),
    ("tiers.2.wins", [{"area": "play", "prize": "1", "how": "match", "by": 2}],
     "g.toml: tiers[2].wins[0].by: area 'play' (key_number_match): a match here pays 1 times the prize "
     "shown, not 2"),
    ("tiers.2.wins", [{"area": "play", "prize": "1", "how": "all"}],
     "g.toml: tiers[2].wins[0].how: area 'play' (key_number_match): it has no win-all symbol"),
    ("tiers.2.wins", [{"area": "play", "prize": "1", "how": "sum"}],
     "g.toml: tiers[2].wins[0].how: area 'play' (key_number_match): how = 'sum': a key number match win is "
     "\"match\", \"automatic\", \"multiplier\" or \"all\""),
    # the input boundary of poolgen/limits.py holds for format 2 as for format 1
    ("printed.order_tickets", 9 * 10**18,
     "g.toml: printed.order_tickets: 9,000,000,000,000,000,000 is more than 100,000,000 per order"),
    ("printed.pool_tickets", 10**9,
     "g.toml: printed.pool_tickets: 1,000,000,000 is more than 10,000,000 per pool"),
    ("printed.pool_tickets", 0, "g.toml: printed.pool_tickets: a pool holds at least one ticket"),
]


@pytest.mark.parametrize(("path", "value", "message"), REFUSED,
                         ids=[f"{r[0]}={r[1]!r}"[:60] for r in REFUSED])
def test_refused_with_one_line(tmp_path, path, value, message):
    doc = copy.deepcopy(kn_doc())
    _edit(path, value)(doc)
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == f"{tmp_path}/{message}"  # the spec as given: tmp_path/g.toml


def test_a_win_all_symbol_with_by_is_refused_as_one(tmp_path):
    """The message named only the automatic symbol for a win-all symbol's `by` (found by
    tests/third_engines: docs/new-game.md gives `by` to multipliers alone)."""
    doc = copy.deepcopy(kn_doc())
    doc["symbols"] = [s for s in doc["symbols"] if s["code"] != "FREE"]  # a win-all sums cash prizes only
    doc["tiers"] = [t for t in doc["tiers"] if t["id"] in ("1", "6")]
    doc["symbols"][-1]["how"] = "all"  # the 2X, by = 2
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: symbols[9].by: a multiplier symbol has `by`, an "
                              "automatic or win-all "
                              "one has not")


def test_an_unused_symbol_group_is_refused(tmp_path):
    doc = kn_doc()
    doc["areas"][0].pop("specials")
    doc["tiers"] = doc["tiers"][:2]
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == f"{tmp_path}/g.toml: symbols[9].group: group 'special' is used by no area"


def test_partial_last_pool_only_where_the_counts_scale_exactly(tmp_path):
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 3000, "last_pool": "partial"}
    spec = load_spec(write(tmp_path, doc))
    assert [(p.id, p.tickets, p.first_book, p.books, p.winners) for p in spec.pools] == [
        ("p1", 2000, 0, 40, 260), ("p2", 1000, 40, 20, 130)]
    doc["tiers"][3]["count"] = 11
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: tiers[3].count: 11 winners per pool do not scale "
                              "exactly to a "
                              "pool of 1000")


def test_match_n_limits(tmp_path):
    prizes = [{"group": "prize", "code": c, "symbol": c, "value": f"{c}.00"} for c in ("1", "2", "5")]
    mults = [{"group": "mult", "code": "2X", "symbol": "2X", "by": 2}]
    area = {"id": "play", "style": "match_n", "spots": 5, "match": 3, "prizes": "prize",
            "multipliers": "mult"}
    tiers = [{"id": "2", "count": 10, "wins": [{"area": "play", "prize": "1", "how": "multiplier", "by": 2}]}]
    doc = base_doc([area], prizes + mults, tiers)
    load_spec(write(tmp_path, doc))  # 2 x $1 + 2X, and one of each other amount: 5 spots
    doc["areas"][0]["spots"] = 7
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: areas[0].prizes: 3 prize symbols, each at most 2 times, "
                              "cannot fill a "
                              "losing ticket's 7 spots")
    doc["areas"][0]["spots"] = 6
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: tiers[0].wins: area 'play' (match_n): the other 2 "
                              "amounts, each at "
                              "most 1 times, cannot fill the 3 other spots without a second win")


def test_an_area_matching_another_areas_winning_numbers(tmp_path):
    """A YOUR WILD NUMBERS area: no winning numbers of its own, every match pays 5 times."""
    doc = kn_doc()
    doc["areas"].append({"id": "wild", "style": "key_number_match", "spots": 4, "winning_from": "play",
                         "yours": 2, "numbers": "number", "prizes": "prize", "match_by": 5})
    doc["tiers"].append({"id": "w5", "prize": "5.00", "count": 10,
                         "wins": [{"area": "wild", "prize": "1", "how": "match"}]})
    spec = load_spec(write(tmp_path, doc))
    assert [a.module.columns(a.id, a.params) for a in spec.play.areas][1] == [
        "wild_your_0", "wild_your_1", "wild_prize_0", "wild_prize_1"]
    doc["areas"][1]["winning_from"] = "nowhere"
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: areas[1].winning_from: 'nowhere' is not an earlier "
                              "key_number_match "
                              "area with winning numbers of its own")


@pytest.mark.parametrize("command", ["check", "generate"])
def test_a_bad_format_2_spec_exits_2_with_one_line(tmp_path, command):
    from typer.testing import CliRunner

    from poolgen.cli.main import app

    doc = kn_doc()
    doc["areas"][0]["style"] = "lottery"
    extra = ["--unsigned", "--out", str(tmp_path / "runs")] if command == "generate" else []
    result = CliRunner().invoke(app, [command, str(write(tmp_path, doc)), *extra])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.strip().splitlines() == [
        f"poolgen: error: {tmp_path}/g.toml: areas[0].style: unknown style 'lottery' (known: {KNOWN})"]
    assert not (tmp_path / "runs").exists()


def test_a_spec_without_prize_table_is_a_regulation_table_as_new_game_md_says(tmp_path):
    """docs/new-game.md, section 1: `prize_table` is "regulation" when the field is left out (a held-out
    writer's Wisconsin spec without it was refused with `game.prize_table: missing field`)."""
    doc = kn_doc()
    _edit("game.prize_table", DELETE)(doc)
    assert load_spec(write(tmp_path, doc)).published.prize_table == "regulation"
    _edit("game.prize_table", "Designed")(doc)
    with pytest.raises(SpecError) as e:
        load_spec(write(tmp_path, doc))
    assert str(e.value) == (f"{tmp_path}/g.toml: game.prize_table: must be one of regulation, designed, "
                            "partly designed, "
                            "not 'Designed'")


def test_symbols_written_below_a_table_header_are_named_where_toml_put_them(tmp_path):
    """`symbols = [...]` written after `[[areas]]` is, in TOML, the area's key: the spec has no symbols,
    and the refusal says which table holds them (a held-out spec, fl_loteria, was told only 'missing')."""
    text = (SPECS / "examples" / "fl_loteria.toml").read_text()
    start = text.index("symbols = [\n")
    block = text[start:text.index("]\n", start) + 2]
    spec = tmp_path / "g.toml"
    spec.write_text(text.replace(block, "") + "\n" + block)  # last in the file: the last tier's key
    with pytest.raises(SpecError) as said:
        load_spec(spec)
    assert str(said.value) == (
        f"{spec}: symbols: missing: a spec declares its symbols as [[symbols]] (tiers[20] holds a "
        "'symbols' key: TOML reads a key written below a table's header as that table's; write it above "
        "the first table)")
