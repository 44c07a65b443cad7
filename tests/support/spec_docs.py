"""Writing format-2 specs for tests: a small TOML writer for the shapes a spec has (tables of
strings, whole numbers, booleans and lists of inline tables), so tests build specs as data; a small
key_number_match game to start from (`kn_doc`), and one-field edits of a document (`edit`)."""

from __future__ import annotations

import copy
import json
from pathlib import Path


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[ " + ", ".join(_value(x) for x in v) + " ]"
    raise TypeError(v)


def dumps(doc: dict) -> str:
    lines = [f"{k} = {_value(v)}" for k, v in doc.items() if not isinstance(v, dict | list)
             or isinstance(v, list) and not (v and all(isinstance(x, dict) for x in v))]
    for k, v in doc.items():
        if isinstance(v, dict):
            lines += ["", f"[{k}]"] + [f"{kk} = {_value(vv)}" for kk, vv in v.items()]
    for k, v in doc.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for item in v:
                lines += ["", f"[[{k}]]"] + [f"{kk} = {_value(vv)}" for kk, vv in item.items()]
    return "\n".join(lines) + "\n"


def base_doc(areas: list[dict], symbols: list[dict], tiers: list[dict], *, max_wins: int = 1,
             pool_tickets: int = 2000, per_book: int = 50) -> dict:
    """A printed format-2 game of one pool of `pool_tickets`, counts per pool."""
    return {
        "format": 2,
        "game": {"id": "test_game", "name": "Test Game", "number": 7, "regulation": "none",
                 "source": "tests", "prize_table": "designed"},
        "printed": {"price": "1.00", "order_tickets": pool_tickets, "pool_tickets": pool_tickets,
                    "first_ticket": 0, "last_ticket": per_book - 1, "counts_per": "pool"},
        "play": {"max_wins": max_wins},
        "areas": areas,
        "symbols": symbols,
        "tiers": tiers,
    }


def kn_doc() -> dict:
    """One key_number_match area (numbers 1..6, prizes FREE, $1, $5, a moneybag and a 2X) and four tiers
    of two wins at most: docs/styles/key_number_match.md's shapes, as small as a game gets."""
    numbers = [{"group": "number", "code": str(n), "symbol": str(n)} for n in range(1, 7)]
    prizes = [{"group": "prize", "code": "FREE", "symbol": "FREE", "free": True},
              {"group": "prize", "code": "1", "symbol": "$1.00", "value": "1.00"},
              {"group": "prize", "code": "5", "symbol": "$5.00", "value": "5.00"}]
    specials = [{"group": "special", "code": "BAG", "symbol": "moneybag", "how": "automatic"},
                {"group": "special", "code": "2X", "symbol": "2X", "how": "multiplier", "by": 2}]
    area = {"id": "play", "style": "key_number_match", "spots": 8, "winning": 2, "yours": 3,
            "numbers": "number", "prizes": "prize", "specials": "special"}
    tiers = [{"id": "free", "count": 100, "wins": [{"area": "play", "prize": "FREE", "how": "match"}]},
             {"id": "1", "count": 100, "wins": [{"area": "play", "prize": "1", "how": "match"}]},
             {"id": "2", "prize": "2.00", "count": 50,
              "wins": [{"area": "play", "prize": "1", "how": "multiplier", "by": 2}]},
             {"id": "6", "count": 10, "wins": [{"area": "play", "prize": "5", "how": "automatic"},
                                               {"area": "play", "prize": "1", "how": "match"}]}]
    return base_doc([area], numbers + prizes + specials, tiers, max_wins=2)


def write(tmp_path, doc: dict):
    """`doc` written as tmp_path/g.toml (the file name every refusal of these specs starts with)."""
    path = tmp_path / "g.toml"
    path.write_text(dumps(doc))
    return path


def edit(path: str, value):
    """A change setting the field at the dotted `path` ("tiers.2.wins") to `value` (DELETE removes it)."""
    def change(doc):
        *parents, last = path.split(".")
        node = doc
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        if value is DELETE:
            del node[last]
        else:
            node[last] = value
    return change


class _Delete:
    """Marks a field to remove; its repr names it, so a test's id is the same in every process."""

    def __repr__(self) -> str:
        return "DELETE"


DELETE = _Delete()


def replaced(spec: Path, folder: Path, old: str, new: str) -> Path:
    """A copy of the spec file `spec` in `folder`, under its own name, with the first `old` made `new`
    (which must be there)."""
    text = spec.read_text()
    assert old in text, old
    path = folder / spec.name
    path.write_text(text.replace(old, new, 1))
    return path


def crossword_legends_doc(tickets: int = 1200) -> dict:
    """A crossword of two grids, each paid by its own legend (docs/styles/crossword.md section 10), and a
    BONUS WORD: 9 YOUR LETTERS of 14; grid 1 (4 words) pays 2, 3, 4 words $1, $2, $5, grid 2 (3 words)
    pays 2 and 3 words its own $1 and $3 (codes M1, M3); tiers winning in one grid, in both, with the
    bonus word, up to 3 wins a ticket."""
    letters = [{"group": "abc", "code": c, "symbol": c} for c in "ABCDEHILNORSTU"]
    money = [{"group": "wz", "code": c, "symbol": f"${v}", "value": v} for c, v in (
        ("1", "1.00"), ("2", "2.00"), ("5", "5.00"), ("M1", "1.00"), ("M3", "3.00"), ("B", "2.00"))]
    area = {"id": "cw", "style": "crossword", "letters": 9, "alphabet": "abc", "prizes": "wz",
            "grids": [["....#", ".#.##", ".#..."], ["...", ".#.", ".#."]],
            "legends": [[{"words": 2, "prize": "1"}, {"words": 3, "prize": "2"}, {"words": 4, "prize": "5"}],
                        [{"words": 2, "prize": "M1"}, {"words": 3, "prize": "M3"}]],
            "bonus": {"length": 4, "prize": "B"}}

    def w(prize: str, how: str = "match") -> dict:
        return {"area": "cw", "prize": prize, "how": how}

    tiers = [{"id": "g1", "count": tickets // 8, "wins": [w("1")]},
             {"id": "g2", "count": tickets // 8, "wins": [w("M1")]},
             {"id": "both", "count": tickets // 20, "wins": [w("2"), w("M1")]},
             {"id": "top", "count": 5, "wins": [w("5"), w("M3")]},
             {"id": "b", "count": tickets // 20, "wins": [w("B", "bonus")]},
             {"id": "g2b", "count": tickets // 40, "wins": [w("M1"), w("B", "bonus")]}]
    return base_doc([area], letters + money, tiers, pool_tickets=tickets, per_book=50, max_wins=3)


def crossword_doubler_doc(tickets: int = 1200, free: bool | None = None, by: int | list[int] = 2) -> dict:
    """`crossword_legends_doc` with `doubler = { by = 2 }` and tiers of each grid's prize doubled and not:
    g1 (grid 1's $1), g1x2 (grid 1's $1 doubled), g2x2 (grid 2's $1 doubled), bothx2 (grid 1's $2
    doubled, grid 2's $1 not), top's both prizes doubled (every word of a grid completed holds its doubler
    cell, whatever cell it is), and the rest as there; with `free`, the doubler's `free` as given; with
    `by` a list, one k a grid (a doubled win of grid g is by = by[g])."""
    doc = copy.deepcopy(crossword_legends_doc(tickets))
    doc["areas"][0]["doubler"] = {"by": by, **({} if free is None else {"free": free})}
    k1, k2 = by if isinstance(by, list) else (by, by)
    top = next(t for t in doc["tiers"] if t["id"] == "top")
    top["wins"] = [{**w, "by": k1 if w["prize"] == "5" else k2} for w in top["wins"]]

    def w(prize: str, by: int | None = None) -> dict:
        return {"area": "cw", "prize": prize, "how": "match", **({"by": by} if by else {})}

    doc["tiers"] += [{"id": "g1x2", "count": tickets // 10, "wins": [w("1", k1)]},
                     {"id": "g2x2", "count": tickets // 10, "wins": [w("M1", k2)]},
                     {"id": "bothx2", "count": tickets // 20, "wins": [w("2", k1), w("M1")]}]
    return doc


def drop_unpaid_specials(doc: dict) -> dict:
    """`doc` less every multiplier or special symbol no tier's win uses (a match_n area's by, a
    key_number_match area's special of its how (and by), a ticket_multiplier box's code), as a spec
    author must (the loader refuses one: a field nothing uses); an area field left naming no symbol is
    dropped, and a ticket_multiplier box or key symbol area left without any with its groups."""
    wins = [w for t in doc["tiers"] for w in t["wins"]]
    drop: list[dict] = []
    for area in list(doc["areas"]):
        field = {"match_n": "multipliers", "key_number_match": "specials",
                 "ticket_multiplier": "multipliers"}.get(area["style"])
        if field not in area:
            continue
        mine = [w for w in wins if w["area"] == area["id"]]
        for s in doc["symbols"]:
            if s["group"] != area[field]:
                continue
            how = s.get("how", "multiplier")
            if not any(w["prize"] == s["code"] if area["style"] == "ticket_multiplier"
                       else w["how"] == how and w.get("by") == s.get("by") for w in mine):
                drop.append(s)
        left = [s for s in doc["symbols"] if s["group"] == area[field] and s not in drop]
        if not left and (area["style"] == "ticket_multiplier" or area.get("winning", 1) == 0):
            doc["areas"].remove(area)  # a box, or a key symbol area, left nothing to win by
            used = {v for a in doc["areas"] for k, v in a.items() if k != "id" and isinstance(v, str)}
            groups = {v for v in area.values() if isinstance(v, str)} - used
            drop += [s for s in doc["symbols"] if s["group"] in groups]
        elif not left:
            del area[field]
    doc["symbols"] = [s for s in doc["symbols"] if s not in drop]
    return doc
