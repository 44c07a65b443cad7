"""audit/read/specs: blackjack specs poolgen's loader refuses (docs/styles/blackjack.md, section 2), which
audit's reader took until a third engine's sweep of hostile specs found them: a `numbers` group of one
symbol (the table's "at least 2"), and a tier no DEALER'S TOTAL can show ("check proves every tier can be
shown": W(d) > 0 for w > 0, L(d) > 0 for w < H); `verify --spec` then held a run to a spec no generation
could have used. And one both refused naming different fields: the prizes' group named as `numbers` or
`dealer_totals` with a list of another length (audit named the group's second role, the loader the list
it reads first). Both refuse them now, naming the same field in the same words, and `poolgen check` in
one line, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps


def _doc(points: list[int], dealer: list[int], wins: tuple[int, int] = (1, 2), cards: int = 3,
         hand_cards: int = 2) -> dict:
    """Two HANDS of `hand_cards` cards c0.. worth `points`, DEALER'S TOTALS d0.., tiers of `wins` wins."""
    symbols = ([{"group": "card", "code": f"c{i}", "symbol": f"C{i}"} for i in range(cards)]
               + [{"group": "dealer", "code": f"d{i}", "symbol": f"D{i}"} for i in range(len(dealer))]
               + [{"group": "pz", "code": p, "symbol": f"${p}.00", "value": f"{p}.00"} for p in ("1", "2")])
    area = {"id": "bj", "style": "blackjack", "hands": 2, "hand_cards": hand_cards, "numbers": "card",
            "points": points, "dealer_totals": "dealer", "dealer_points": dealer, "prizes": "pz"}
    tiers = [{"id": f"t{i}", "count": 10, "wins": [{"area": "bj", "prize": p, "how": "match"}
                                                   for p in ("1", "2")[:w]]} for i, w in enumerate(wins)]
    return base_doc([area], symbols, tiers, max_wins=2, pool_tickets=100)


NONE = ("tiers[0].wins: area 'bj' (blackjack): no DEALER'S TOTAL lets {} of the 2 hands win and the "
        "other {} lose")
def _prize_group_as(key: str) -> dict:
    doc = _doc([5, 10, 11], [15, 20, 0])
    doc["areas"][0][key] = "pz"
    doc["symbols"] = [s for s in doc["symbols"] if s["group"] != {"numbers": "card"}.get(key, "dealer")]
    return doc


def _many(group: str) -> dict:
    """256 symbols in `group` (cards of one card a HAND worth 18, or DEALER'S TOTALS of 15): one more than a
    uint8 code holds."""
    doc = _doc([5, 10, 11], [15, 20, 0], hand_cards=1 if group == "card" else 2)
    doc["symbols"] += [{"group": group, "code": f"m{i}", "symbol": f"M{i}"} for i in range(256 - 3)]
    doc["areas"][0]["points" if group == "card" else "dealer_points"] += [18 if group == "card" else 15] * 253
    return doc


CASES = [
    (_many("card"), "areas[0]: more than 255 symbols do not fit a uint8 code"),
    (_many("dealer"), "areas[0]: more than 255 symbols do not fit a uint8 code"),
    (_prize_group_as("numbers"), "areas[0].points: 2 numbers for the 2 symbols of 'pz', not 3"),
    (_prize_group_as("dealer_totals"), "areas[0].dealer_points: 2 numbers for the 2 symbols of 'pz', not 3"),
    (_doc([5], [15, 20, 0], cards=1), "areas[0].numbers: at least 2 numbers: a hand must be able to win and "
                                      "to lose"),
    (_doc([5, 10, 11], [15, 20, 0], cards=1), "areas[0].numbers: at least 2 numbers: a hand must be able to "
                                              "win and to lose"),
    (_doc([5, 10, 11], [21, 21, 21]), NONE.format(1, 1)),
    (_doc([22, 25, 30], [15, 20, 0], hand_cards=1), NONE.format(1, 1)),
    (_doc([22, 25, 30], [15, 20, 0], wins=(2, 1), hand_cards=1), NONE.format(2, 0)),
    (_doc([5, 10, 11], [15, 20, 0], hand_cards=1), NONE.format(1, 1)),  # 5, 10, A beat a BUST only
]


@pytest.mark.parametrize(("doc", "message"), CASES, ids=[m.split(":")[0] + f" {i}" for i, (_, m) in
                                                          enumerate(CASES)])
def test_a_blackjack_spec_the_loader_refuses_is_refused_by_audits_reader_in_its_words(tmp_path, doc, message):
    path = tmp_path / "g.toml"
    path.write_text(dumps(doc))
    with pytest.raises(SpecError) as loader:
        load_spec(path)
    assert str(loader.value) == f"{path}: {message}"
    with pytest.raises(UnusableInput) as reader:
        read_spec(path)
    assert str(reader.value) == f"{path}: {message}"
    one_line(invoke("check", path), "poolgen", f"g.toml: {message}")


def test_a_tier_winning_every_hand_a_bust_lets_win_is_taken_by_both(tmp_path: Path):
    """One card 5, 10 or A: no HAND beats 15 or 20, every HAND beats a BUST (W 3, L 0 against it), and
    15 and 20 let every HAND lose: tiers of 0 and of 2 wins of 2 can be shown, so both readers take them."""
    path = tmp_path / "g.toml"
    path.write_text(dumps(_doc([5, 10, 11], [15, 20, 0], wins=(2,), hand_cards=1)))
    load_spec(path)
    read_spec(path)
