"""Win-all games for tests/third_engines/test_win_all.py, as spec documents (tests/support/spec_docs.py):
different sums, areas and spot counts, each small enough to generate and judge in about a second."""

from __future__ import annotations

from tests.support.spec_docs import base_doc


def _symbols(group: str, codes: list[str], **fields: object) -> list[dict]:
    return [{"group": group, "code": c, "symbol": c, **fields} for c in codes]


def _prizes(group: str, dollars: list[int]) -> list[dict]:
    return [{"group": group, "code": str(d), "symbol": f"${d}.00", "value": f"{d}.00"} for d in dollars]


def mixed() -> dict:
    """One area of 3 WINNING NUMBERS and 5 YOUR NUMBERS, a win-all beside an automatic and a 2X symbol;
    win-all sums of $5 (one multiset), $10 and $17."""
    specials = [{"group": "sp", "code": "BAG", "symbol": "moneybag", "how": "all"},
                {"group": "sp", "code": "STAR", "symbol": "star", "how": "automatic"},
                {"group": "sp", "code": "2X", "symbol": "2X", "how": "multiplier", "by": 2}]
    area = {"id": "play", "style": "key_number_match", "spots": 13, "winning": 3, "yours": 5,
            "numbers": "num", "prizes": "pz", "specials": "sp"}
    win = {"area": "play", "how": "match"}
    tiers = [{"id": "1", "count": 200, "wins": [{**win, "prize": "1"}]},
             {"id": "s5", "count": 100, "wins": [{"area": "play", "prize": "5", "how": "automatic"}]},
             {"id": "x4", "prize": "4.00", "count": 100,
              "wins": [{"area": "play", "prize": "2", "how": "multiplier", "by": 2}]},
             {"id": "12", "count": 60, "wins": [{**win, "prize": "10"}, {**win, "prize": "2"}]},
             {"id": "b5", "count": 100, "wins": [{"area": "play", "prize": "5.00", "how": "all"}]},
             {"id": "b10", "count": 100, "wins": [{"area": "play", "prize": "$10", "how": "all"}]},
             {"id": "b17", "count": 40, "wins": [{"area": "play", "prize": "17.00", "how": "all"}]}]
    return base_doc([area], _symbols("num", [str(n) for n in range(1, 10)]) + _prizes("pz", [1, 2, 5, 10])
                    + specials, tiers, max_wins=2, pool_tickets=1500)


def two_areas(distinct: bool = True) -> dict:
    """LUCKY NUMBERS (2) with 3 YOUR NUMBERS, and a WILD area of 6 matching them at 2x, distinct numbers
    (or not); each area has its own win-all symbol, and one tier wins all in both."""
    areas = [{"id": "lucky", "style": "key_number_match", "spots": 8, "winning": 2, "yours": 3,
              "numbers": "num", "prizes": "pz", "specials": "bag", "distinct_numbers": True},
             {"id": "wild", "style": "key_number_match", "spots": 12, "winning_from": "lucky", "yours": 6,
              "numbers": "num", "prizes": "pz", "specials": "bag", "match_by": 2, "distinct_numbers": True}]
    tiers = [{"id": "m3", "count": 150, "wins": [{"area": "lucky", "prize": "3", "how": "match"}]},
             {"id": "w6", "prize": "6.00", "count": 100,
              "wins": [{"area": "wild", "prize": "3", "how": "match", "by": 2}]},
             {"id": "l9", "count": 80, "wins": [{"area": "lucky", "prize": "9.00", "how": "all"}]},
             {"id": "w20", "count": 60, "wins": [{"area": "wild", "prize": "20.00", "how": "all"}]},
             {"id": "w20m", "count": 30, "wins": [{"area": "wild", "prize": "20.00", "how": "all"},
                                                   {"area": "lucky", "prize": "1", "how": "match"}]},
             {"id": "both", "count": 20, "wins": [{"area": "lucky", "prize": "9.00", "how": "all"},
                                                   {"area": "wild", "prize": "36.00", "how": "all"}]}]
    for area in areas if not distinct else []:
        del area["distinct_numbers"]
    return base_doc(areas, _symbols("num", [str(n) for n in range(1, 13)]) + _prizes("pz", [1, 3, 4, 9])
                    + [{"group": "bag", "code": "ALL", "symbol": "moneybag", "how": "all"}],
                    tiers, max_wins=3, pool_tickets=1500)


def key_symbols() -> dict:
    """A key symbol game (no WINNING NUMBERS): 7 pictures, 8 spots, a FLAME that wins all beside an
    automatic SEVEN; prizes of unrelated values."""
    area = {"id": "keys", "style": "key_number_match", "spots": 16, "winning": 0, "yours": 8,
            "numbers": "pic", "prizes": "pz", "specials": "sp"}
    tiers = [{"id": "7", "count": 150, "wins": [{"area": "keys", "prize": "7", "how": "automatic"}]},
             {"id": "a19", "count": 100, "wins": [{"area": "keys", "prize": "19.00", "how": "all"}]},
             {"id": "a40", "count": 40, "wins": [{"area": "keys", "prize": "40.00", "how": "all"}]}]
    return base_doc([area], _symbols("pic", ["BELL", "STAR", "HEART", "CLUB", "MOON", "SUN", "KEY"])
                    + _prizes("pz", [1, 3, 4, 7, 11])
                    + [{"group": "sp", "code": "FLAME", "symbol": "flame", "how": "all"},
                       {"group": "sp", "code": "SEVEN", "symbol": "7", "how": "automatic"}],
                    tiers, max_wins=1, pool_tickets=1500)


def uniform(count: int = 1400) -> dict:
    """Three spots and a $6 win-all on $1, $2, $3: the multisets {2, 2, 2} (one order) and {1, 2, 3}
    (six), so section 7.1 gives each of the seven sequences 1/7; most tickets win all."""
    area = {"id": "play", "style": "key_number_match", "spots": 8, "winning": 2, "yours": 3,
            "numbers": "num", "prizes": "pz", "specials": "sp"}
    tiers = [{"id": "a6", "count": count, "wins": [{"area": "play", "prize": "6.00", "how": "all"}]}]
    return base_doc([area], _symbols("num", [str(n) for n in range(1, 7)]) + _prizes("pz", [1, 2, 3])
                    + [{"group": "sp", "code": "BAG", "symbol": "moneybag", "how": "all"}],
                    tiers, max_wins=1, pool_tickets=2000)


def two_areas_plain() -> dict:
    """two_areas without distinct numbers (section 7's layout, not 8.1's)."""
    return two_areas(distinct=False)


def _pin(doc: dict, tier: str, area: str, shows: dict[str, int]) -> None:
    """The tier's win-all win in `area` pins the prizes it shows (section 2's `shows`)."""
    win = next(w for t in doc["tiers"] if t["id"] == tier for w in t["wins"]
               if w["area"] == area and w["how"] == "all")
    win["shows"] = shows


def pinned() -> dict:
    """mixed with its $10 and $17 win-alls pinning their prizes ($1 x 3 + $2 + $5; $10 + $2 x 3 + $1),
    its $5 not (one multiset): section 7's layout."""
    doc = mixed()
    _pin(doc, "b10", "play", {"1": 3, "2": 1, "5": 1})
    _pin(doc, "b17", "play", {"10": 1, "2": 3, "1": 1})
    return doc


def pinned_areas() -> dict:
    """two_areas (distinct numbers: section 8.1's layout) with pins in both areas: LUCKY's $9 as $4 x 2 +
    $1, WILD's $20 beside a match as $4 x 4 + $3 + $1, and WILD's $36 beside an unpinned LUCKY $9 as
    $9 x 3 + $3 x 3."""
    doc = two_areas()
    _pin(doc, "l9", "lucky", {"4": 2, "1": 1})
    _pin(doc, "w20m", "wild", {"4": 4, "3": 1, "1": 1})
    _pin(doc, "both", "wild", {"9": 3, "3": 3})
    return doc
