"""A third re-evaluator of a ticket_multiplier box that multiplies one crossword grid (`multiplies =
[{area, grid}]`), with the crossword (legends a grid, a bonus word) and prize_box areas beside it,
written from docs/styles/ticket_multiplier.md (sections 3, 5, 9), crossword.md (sections 2 to 5, 9 to 11),
prize_box.md (sections 4, 5) and play.md alone (not from poolgen/ or audit/, nor the other third
engines): a row's wins and amount as the run's own files state them; held to the rows' tiers and stored
prizes by tests/third_engines/test_multiplies_agree.py."""

from __future__ import annotations

from collections import Counter
from functools import cache

Win = tuple[str, str, int, str]


@cache
def grid_words(rows: tuple[str, ...]) -> list[list[int]]:
    """A grid's words (crossword.md section 2: maximal runs of two or more letter cells, across then
    down, each in reading order of its first cell), as indices among the grid's letter cells in reading
    order (section 4)."""
    number = {(r, c): k for k, (r, c) in enumerate(
        (r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == ".")}
    height, width = len(rows), len(rows[0])

    def runs(lines: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
        found = []
        for line in lines:
            run: list[tuple[int, int]] = []
            for rc in line + [(-1, -1)]:
                if rc in number:
                    run.append(rc)
                    continue
                if len(run) >= 2:
                    found.append(run)
                run = []
        return found
    across = runs([[(r, c) for c in range(width)] for r in range(height)])
    down = runs([[(r, c) for r in range(height)] for c in range(width)])
    down.sort(key=lambda w: w[0])  # in reading order of their first cells
    return [[number[rc] for rc in w] for w in across + down]


def crossword(area: dict, row: dict, words: frozenset[str]) -> tuple[list[Win], list[int]]:
    """The area's wins (sections 5, 9, 10, 11) and W_g of every grid; `words` the entry's `words`."""
    aid = area["id"]
    held = {row[f"{aid}_letter_{j}"] for j in range(area["letters"])}
    assert len(held) == area["letters"], "YOUR LETTERS show a letter twice"
    alphabet = area["alphabet"]
    legends = area.get("legends")
    doubler = area.get("doubler")  # section 11: one cell a grid, a marked letter or a free space
    ks = (doubler["by"] if isinstance(doubler["by"], list) else [doubler["by"]] * len(area["grids"])) \
        if doubler else []
    base, completed, marked, found = 0, [], [], []
    for g, rows in enumerate(area["grids"]):
        cells = sum(line.count(".") for line in rows)
        grid = [row[f"{aid}_cell_{base + k}"] for k in range(cells)]
        base += cells
        cell = row[f"{aid}_doubler_{g}"] if doubler else -1
        free = bool(doubler and doubler.get("free", False))
        done, holds = 0, False
        for w in grid_words(tuple(rows)):
            assert "".join(alphabet[grid[k]] for k in w) in words, "a grid word not listed"
            if all(grid[k] in held or (free and k == cell) for k in w):
                done += 1
                holds = holds or cell in w
        completed.append(done)
        marked.append(holds)
    counts = [sum(completed)] if legends is None else completed
    doubled = [any(marked)] if legends is None else marked
    for g, (lines, w) in enumerate(zip(legends or [area["legend"]], counts, strict=True)):
        prize = {x["words"]: x["prize"] for x in lines}
        assert w < lines[0]["words"] or w in prize, f"{w} completed words: no prize"
        if w in prize:
            found.append((aid, "match", ks[g] if doubler and doubled[g] else 1, prize[w]))
    if "bonus" in area:
        letters = [row[f"{aid}_bonus_{k}"] for k in range(area["bonus"]["length"])]
        assert "".join(alphabet[c] for c in letters) in words, "bonus word not listed"
        if all(c in held for c in letters):
            found.append((aid, "bonus", 1, area["bonus"]["prize"]))
    return found, completed


def prize_box(area: dict, row: dict) -> list[Win]:
    """prize_box.md section 5: a game with a picture exactly N times wins its box's prize."""
    aid, s, d = area["id"], area["spots"], len(area["pictures"])
    found = []
    for g in range(area["games"]):
        shown = Counter(row[f"{aid}_spot_{g * s + j}"] for j in range(s))
        matched = [c for c, n in shown.items() if c < d and n == area["match"]]
        assert all(n <= area["match"] for c, n in shown.items() if c < d), "more than N like pictures"
        assert len(matched) <= 1, "two matches"
        if matched:
            found.append((aid, "match", 1, area["prizes"][row[f"{aid}_prize_{g}"]]["code"]))
    return found


def box(area: dict, row: dict) -> tuple[str, int] | None:
    """ticket_multiplier.md section 5: the multiplier of the first spot that shows one, if any."""
    d = len(area["pictures"])
    for j in range(area["spots"]):
        c = row[f"{area['id']}_spot_{j}"]
        if c >= d:
            m = area["multipliers"][c - d]
            return m["code"], m["by"]
    return None


def covered(areas: dict[str, dict], multiplies: list[dict], win: Win) -> bool:
    """Section 9: a win of a named area with no `grid`, or of a named crossword area whose prize code
    that grid's legend lists (a bonus word's win is in no legend)."""
    for m in multiplies:
        if m["area"] != win[0]:
            continue
        if "grid" not in m:
            return True
        legend = areas[win[0]]["legends"][m["grid"] - 1]
        return win[1] == "match" and any(x["prize"] == win[3] for x in legend)
    return False


def listed(play: dict) -> dict[str, frozenset[str]]:
    """Each crossword area's listed words (its entry's `words`)."""
    return {a["id"]: frozenset(a["words"]) for a in play["areas"] if a["style"] == "crossword"}


def evaluate(play: dict, row: dict, words: dict[str, frozenset[str]]) -> tuple[list[Win], int]:
    """A row's wins (play.md's multiset, the multiplier among them when it multiplies) and what it
    pays (section 9, replacing play.md's rule 2); `words` is `listed(play)`."""
    areas = {a["id"]: a for a in play["areas"]}
    cents = {(a["id"], p["code"]): p["cents"] for a in play["areas"] for p in a.get("prizes", [])}
    wins: list[Win] = []
    shown = None
    multiplier: dict = {}
    for area in play["areas"]:
        if area["style"] == "crossword":
            wins += crossword(area, row, words[area["id"]])[0]
        elif area["style"] == "prize_box":
            wins += prize_box(area, row)
        else:
            assert area["style"] == "ticket_multiplier", area["style"]
            multiplier, shown = area, box(area, row)
    scope = multiplier.get("multiplies")
    inside = [w for w in wins if scope is None or covered(areas, scope, w)]
    outside = [w for w in wins if w not in inside]
    paid = sum(cents[w[0], w[3]] * w[2] for w in outside)
    if shown is None:
        return sorted(wins), paid + sum(cents[w[0], w[3]] * w[2] for w in inside)
    code, k = shown
    if not inside:
        assert multiplier.get("multipliers_on_losers", False), "a multiplier on nothing"
        return sorted(wins), paid
    return sorted(wins + [(multiplier["id"], "ticket", k, code)]), paid + k * sum(
        cents[w[0], w[3]] * w[2] for w in inside)
