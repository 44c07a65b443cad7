"""A third engine for the printed Kansas games' plays: areas of `key_number_match`, `bonus_reveal` and
`match_n`, from docs/styles/key_number_match.md, bonus_reveal.md, match_n.md, docs/styles/play.md and
the games' contracts (specs/wild_side.md, specs/happy_holidays.md) alone, checked against the
regulations (K.A.R. 111-4-3762, 111-4-3836).

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): given a
manifest's `play` entry and a pool table, it gives every row's wins and the reasons an illegal row is
refused, worded as the contracts state them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import polars as pl

Win = tuple[str, str, int, str]  # (area, how, by, prize code)


def _shown(value: int | None) -> str:
    """A stored code as a reason lists it (a layout column may be of any integer dtype)."""
    return "null" if value is None else "negative" if value < 0 else ">=9999" if value >= 9999 else str(value)


def _listed(values: list[int | None]) -> str:
    return ", ".join(_shown(v) for v in values)


def _inside(value: int | None, size: int) -> bool:
    return value is not None and 0 <= value < size


def key_number_row(area: dict, win: list[int | None], your: list[int | None],
                   prize: list[int | None]) -> tuple[list[Win], list[str]]:
    """One key_number_match area of one row (key_number_match.md sections 5 and 8.1). `win` is the
    WINNING NUMBERS the area matches: its own, or its `winning_from` area's."""
    aid, n = area["id"], len(area["numbers"])
    prizes, specials = area["prizes"], area["specials"]
    own = "winning_from" not in area
    reasons = []
    if own and not all(_inside(v, n) for v in win):
        reasons.append(f"{aid}: a winning number code out of range ({_listed(win)})")
    if not all(_inside(v, n + len(specials)) for v in your):
        reasons.append(f"{aid}: a your-number code out of range ({_listed(your)})")
    if not all(_inside(q, len(prizes)) for q in prize):
        reasons.append(f"{aid}: a prize code out of range ({_listed(prize)})")
    if own and len({v for v in win if v is not None}) < len([v for v in win if v is not None]):
        reasons.append(f"{aid}: two winning numbers are equal")
    # section 5: a YOUR NUMBER matches only while every WINNING NUMBER is in range; a spot whose prize
    # code is out of range wins nothing
    targets = set(win) if all(_inside(v, n) for v in win) else set()
    wins: list[Win] = []
    for y, q in zip(your, prize, strict=True):
        if not _inside(q, len(prizes)) or y is None:
            continue
        code = prizes[q]["code"]
        if y < n and y in targets:
            wins.append((aid, "match", area["match_by"], code))
        elif n <= y < n + len(specials):
            s = specials[y - n]
            wins.append((aid, s["how"], 1 if s["how"] == "automatic" else s["by"], code))
    if area.get("distinct_numbers"):
        matching = [y for y in your if y is not None and y < n and y in targets]
        k, w = len(matching), len(win)
        used = [matching.count(v) for v in win]
        if k and any(not k // w <= u <= -(-k // w) for u in used):
            times = ", ".join(map(str, used))
            reasons.append(f"{aid}: {k} matches use the WINNING NUMBERS unevenly ({times} times)")
        others = [y for y in your if y is not None and y < n and y not in targets]
        if len(set(others)) < len(others):
            reasons.append(f"{aid}: a YOUR NUMBER that matches nothing shows twice")
    return wins, reasons


def bonus_reveal_row(area: dict, spots: list[int | None]) -> tuple[list[Win], list[str]]:
    """One bonus_reveal area of one row (bonus_reveal.md sections 5 and 6)."""
    aid, d, prizes = area["id"], len(area["pictures"]), area["prizes"]
    reasons = []
    if not all(_inside(v, d + len(prizes)) for v in spots):
        reasons.append(f"{aid}: a spot code out of range ({_listed(spots)})")
    most = max(Counter(v for v in spots if _inside(v, d)).values(), default=0)
    if most > area["most_alike"]:
        reasons.append(f"{aid}: one picture shows {most} times (at most {area['most_alike']}: "
                       "more read as a match that wins nothing)")
    wins = [(aid, "reveal", 1, prizes[v - d]["code"]) for v in spots
            if v is not None and d <= v < d + len(prizes)]
    return wins, reasons


def match_n_row(area: dict, spots: list[int | None]) -> tuple[list[Win], list[str]]:
    """One match_n area of one row (match_n.md section 5)."""
    aid, big_n = area["id"], area["match"]
    prizes, multipliers = area["prizes"], area["multipliers"]
    p = len(prizes)
    reasons = []
    if not all(_inside(v, p + len(multipliers)) for v in spots):
        reasons.append(f"{aid}: a spot code out of range ({_listed(spots)})")
    counts = Counter(v for v in spots if _inside(v, p))
    shown = [v for v in spots if v is not None and p <= v < p + len(multipliers)]
    if any(c > big_n for c in counts.values()):
        reasons.append(f"{aid}: more than {big_n} like amounts")
    if len(shown) >= 2:
        reasons.append(f"{aid}: {len(shown)} multiplier symbols")
    if shown and not any(c == big_n - 1 for c in counts.values()):
        codes = ", ".join(multipliers[v - p]["code"] for v in sorted(shown))
        reasons.append(f"{aid}: {codes} beside no {big_n - 1} like amounts: it multiplies nothing")
    wins: list[Win] = []
    for i in sorted(counts):
        if counts[i] == big_n:
            wins.append((aid, "match", 1, prizes[i]["code"]))
        elif counts[i] == big_n - 1 and len(shown) == 1:
            m = multipliers[shown[0] - p]
            wins.append((aid, "multiplier", m["by"], prizes[i]["code"]))
    return wins, reasons


def _columns(area: dict) -> dict[str, list[str]]:
    aid = area["id"]
    if area["style"] == "key_number_match":
        source = area.get("winning_from", aid)
        return {"win": [f"{source}_win_{i}" for i in range(area["winning"])],
                "your": [f"{aid}_your_{j}" for j in range(area["yours"])],
                "prize": [f"{aid}_prize_{j}" for j in range(area["yours"])]}
    if area["style"] in ("bonus_reveal", "match_n"):
        return {"spots": [f"{aid}_spot_{j}" for j in range(area["spots"])]}
    raise ValueError(f"no third engine for style {area['style']!r}")


RULES = {"key_number_match": key_number_row, "bonus_reveal": bonus_reveal_row, "match_n": match_n_row}


def row_wins(play: dict, table: pl.DataFrame) -> list[tuple[list[Win], list[str]]]:
    """Every row's wins and its areas' reasons, the areas in the order of `play.areas`."""
    parts = [(a, {k: table.select(cols).rows() for k, cols in _columns(a).items()}) for a in play["areas"]]
    out = []
    for i in range(table.height):
        wins: list[Win] = []
        reasons: list[str] = []
        for area, cols in parts:
            w, r = RULES[area["style"]](area, *(list(c[i]) for c in cols.values()))
            wins += w
            reasons += r
        out.append((wins, reasons))
    return out


def judge(play: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """Every row the contracts refuse, as row -> (its reasons joined with "; ", what it pays in cents),
    and every row that pays other than its stored prize (reasons "" when it is legal)."""
    return verdicts(play, table, row_wins(play, table))


def verdicts(play: dict, table: pl.DataFrame,
             rows: Iterable[tuple[list[Win], list[str]]]) -> dict[int, tuple[str, int]]:
    """play.md's rules over each row's areas' (wins, reasons), in table order: at most `max_wins`, the
    tier in the play entry with exactly these wins, and what the row pays against its stored prize;
    the third engines of the other printed styles (cards.py, grid.py) judge their rows with it too."""
    cents = {(a["id"], p["code"]): p["cents"] for a in play["areas"] for p in a["prizes"]}
    tiers = {t["id"]: Counter((w["area"], w["how"], w["by"], w["prize"]) for w in t["wins"])
             for t in play["tiers"]}
    out = {}
    for i, ((wins, reasons), tier, stored) in enumerate(
            zip(rows, table["tier"], table["prize_cents"], strict=True)):
        pays = sum(by * cents[(a, p)] for a, _, by, p in wins)
        if len(wins) > play["max_wins"]:
            reasons.append(f"{len(wins)} wins, at most {play['max_wins']}")
        if tier not in tiers:
            reasons.append(f"tier '{tier}' is not in the manifest's play entry")
        elif Counter(wins) != tiers[tier]:
            reasons.append(f"its wins are not its tier '{tier}''s ({len(wins)} win(s) paying {pays} cents)")
        if reasons or pays != stored:
            out[i] = ("; ".join(reasons), pays)
    return out
