"""What a ticket's layout pays, evaluated for the proof pages by the rules of specs/<game>.md.

One evaluator per game of the four shipped games (a game of play styles is evaluated by
poolgen/pdf/faces_styles.py), each giving the prize, the lines that explain it and the spots
that win; and the layout columns each game's evaluator and ticket face read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from poolgen.money import fmt_cents
from poolgen.pdf import faces_styles
from poolgen.spec import Spec, Symbol

__all__ = ["EVALUATORS", "Evaluation", "LAYOUT_COLUMNS", "evaluate", "required_columns"]


@dataclass(frozen=True)
class Evaluation:
    """What a layout pays by the game's rules, how, and which spots win."""

    prize_cents: int
    lines: tuple[str, ...]
    winning: frozenset[str] = field(default_factory=frozenset)


def _symbol(table: tuple[Symbol, ...], i: int) -> Symbol:
    if 0 <= i < len(table):
        return table[i]
    return Symbol(group="?", code=f"?{i}", symbol=f"?{i}", caption="unknown", value_cents=None)


def _name(s: Symbol) -> str:
    """'Symbol of a Golden Football' -> 'Golden Football'."""
    text = s.symbol
    for prefix in ("Symbol of an ", "Symbol of a ", "Symbol of the ", "Symbol of "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def _join_money(values: list[int]) -> str:
    return " + ".join(fmt_cents(v) for v in values)


def _ws_tables(spec: Spec) -> tuple[dict[int, Symbol], tuple[Symbol, ...], tuple[Symbol, ...]]:
    numbers = {int(s.code): s for s in spec.symbols_in("number")}
    prizes = spec.symbols_in("prize")
    bonus = spec.symbols_in("bonus_play") + spec.symbols_in("bonus_prize")
    return numbers, prizes, bonus


def _eval_wild_side(spec: Spec, pool: dict, row: dict) -> Evaluation:
    _, prizes, bonus = _ws_tables(spec)
    mult = spec.play.get("wild_multiplier", 5)
    lucky = {row[f"lucky_{j}"] for j in range(5)}
    winning: set[str] = set()
    lines: list[str] = []
    total = 0
    for area, label, factor in (("your", "YOUR NUMBERS", 1), ("wild", "YOUR WILD NUMBERS", mult)):
        wins = [j for j in range(12) if row[f"{area}_{j}"] in lucky]
        if not wins:
            continue
        values = [_symbol(prizes, row[f"{area}_prize_{j}"]).value_cents or 0 for j in wins]
        paid = factor * sum(values)
        total += paid
        winning |= {f"{area}_{j}" for j in wins}
        winning |= {f"lucky_{j}" for j in range(5)
                    if row[f"lucky_{j}"] in {row[f"{area}_{i}"] for i in wins}}
        n = len(wins)
        shown = _join_money(values) if n <= 6 else " + ".join(
            f"{k} x {fmt_cents(v)}" if k > 1 else fmt_cents(v)
            for v, k in sorted(Counter(values).items(), reverse=True))
        how = f"{factor} x ({shown})" if factor != 1 else shown
        lines.append(f"{label}: {n} match{'es' if n > 1 else ''} with a LUCKY NUMBER: "
                     f"{how} = {fmt_cents(paid)}")
    bwins = [j for j in range(3) if (_symbol(bonus, row[f"bonus_{j}"]).value_cents or 0) > 0]
    if bwins:
        values = [_symbol(bonus, row[f"bonus_{j}"]).value_cents or 0 for j in bwins]
        total += sum(values)
        winning |= {f"bonus_{j}" for j in bwins}
        caps = ", ".join(_symbol(bonus, row[f"bonus_{j}"]).caption for j in bwins)
        lines.append(f"WILD BONUS: {caps} revealed: {_join_money(values)} = "
                     f"{fmt_cents(sum(values))}")
    if not lines:
        lines.append("No YOUR NUMBER or YOUR WILD NUMBER matches a LUCKY NUMBER, and WILD BONUS "
                     "shows no WIN$ symbol: no win.")
    return Evaluation(total, tuple(lines), frozenset(winning))


def _eval_hand_to_hand_tactics(spec: Spec, pool: dict, row: dict) -> Evaluation:
    codes = [row[f"spot_{i}"] for i in range(15)]
    amts = [row[f"amt_{i}"] for i in range(15)]
    wins = [i for i, c in enumerate(codes) if c == 3]
    m = sum(1 for c in codes if c == 4)
    losses = [i for i, c in enumerate(codes) if c == 1]
    total = sum(amts)
    prize = (1 + m) * total
    lines = []
    if len(losses) >= 3:
        end = losses[2]
        after = f"; spots {end + 2}-15 are never revealed" if end < 14 else ""
        lines.append(f"Play ends at the third loss, spot {end + 1}{after}.")
    else:
        lines.append(f"ILLEGAL LAYOUT: {len(losses)} losses (every share has exactly three).")
    if wins:
        shown = _join_money([amts[i] for i in wins]) if len(wins) <= 6 else \
            f"{len(wins)} wins"
        lines.append(f"Prize legend: {shown} = {fmt_cents(total)}; legend multiplier {1 + m} "
                     f"(1 + {m} multiplier symbol{'s' if m != 1 else ''}).")
        lines.append(f"Prize = {1 + m} x {fmt_cents(total)} = {fmt_cents(prize)}.")
    else:
        lines.append(f"No WIN spot: the prize legend stays at $0.00 (multiplier {1 + m}): no win.")
    return Evaluation(prize, tuple(lines), frozenset(f"spot_{i}" for i in wins))


PP_COIN, PP_GFOOT, PP_TD, PP_FG = 12, 9, 10, 11
PP_MATCHABLE = (1, 2, 3, 4, 5, 6, 7, 8, 13)


def _pp_area(spec: Spec, row: dict, i: int) -> tuple[int, str, frozenset[int]]:
    """What area i pays, one line saying why, and the spots that make the win."""
    codes = [row[f"a{i}_s{j}"] for j in range(4)]
    amount = row[f"a{i}_amount"]
    coins = codes.count(PP_COIN)
    counts = Counter(c for c in codes if c in PP_MATCHABLE)
    best_code, best = (counts.most_common(1)[0] if counts else (None, 0))
    match = coins + best
    trigger = 1 if PP_GFOOT in codes and PP_TD in codes else (
        2 if PP_GFOOT in codes and PP_FG in codes else 0)
    wild = f" ({coins} Coin{'s' if coins > 1 else ''} wild)" if coins and best else ""
    what = _name(_symbol(spec.symbols, best_code - 1)) if best_code else "Coin"
    matching = frozenset(j for j in range(4) if codes[j] in (PP_COIN, best_code))
    if match >= 4:
        return 2 * amount, (f"4 matching {what}{wild}: 2 x {fmt_cents(amount)} = "
                            f"{fmt_cents(2 * amount)}"), matching
    if match == 3:
        return amount, f"3 matching {what}{wild}: {fmt_cents(amount)}", matching
    if trigger:
        n = row[f"a{i}_bonus_prizes"]
        kind = "Touchdown" if trigger == 1 else "Field Goal"
        other = PP_TD if trigger == 1 else PP_FG
        spots = frozenset(j for j in range(4) if codes[j] in (PP_GFOOT, other))
        return n * amount, (f"{kind} bonus, {n} prize{'s' if n != 1 else ''}: {n} x "
                            f"{fmt_cents(amount)} = {fmt_cents(n * amount)}"), spots
    return 0, f"no match of three, no bonus: no win (the {fmt_cents(amount)} is not won)", \
        frozenset()


def _pp_areas(pool: dict) -> int:
    return int(pool.get("play_areas") or 1)


def _eval_primetime_payout(spec: Spec, pool: dict, row: dict) -> Evaluation:
    lines, total, winning = [], 0, set()
    for i in range(_pp_areas(pool)):
        paid, why, spots = _pp_area(spec, row, i)
        total += paid
        if paid:
            winning.add(f"a{i}")
            winning |= {f"a{i}_s{j}" for j in spots}
        lines.append(f"Play area {i + 1}: {why}.")
    if len(lines) > 1:
        lines.append(f"Total of the play areas: {fmt_cents(total)}.")
    return Evaluation(total, tuple(lines), frozenset(winning))


EVALUATORS: dict[str, Callable[[Spec, dict, dict], Evaluation]] = {
    "wild_side": _eval_wild_side,
    "hand_to_hand_tactics": _eval_hand_to_hand_tactics,
    "primetime_payout": _eval_primetime_payout,
}


def evaluate(spec: Spec, pool: dict, row: dict) -> Evaluation:
    """What a ticket's layout pays under its game's rules (specs/<game>.md, section Evaluation)."""
    if spec.styles is not None:  # a game of play styles: poolgen/pdf/faces_styles.py
        return faces_styles.evaluate(spec, pool, row, Evaluation)
    return EVALUATORS[spec.rules](spec, pool, row)


# The layout columns each game's evaluator and ticket face read (specs/<game>.md, section Columns).
LAYOUT_COLUMNS: dict[str, Callable[[dict], list[str]]] = {
    "wild_side": lambda pool: (
        [f"lucky_{j}" for j in range(5)]
        + [f"{area}{part}_{j}" for area in ("your", "wild") for part in ("", "_prize")
           for j in range(12)]
        + [f"bonus_{j}" for j in range(3)]),
    "hand_to_hand_tactics": lambda pool: [f"{c}_{i}" for c in ("spot", "amt") for i in range(15)],
    "primetime_payout": lambda pool: [
        f"a{i}_{c}" for i in range(_pp_areas(pool))
        for c in ("s0", "s1", "s2", "s3", "amount", "bonus", "bonus_result", "bonus_prizes")],
}


def required_columns(spec: Spec, pool: dict) -> list[str]:
    """Every column a proof page of this pool reads: the common ones, then the game's layout."""
    ids = ["book", "ticket_no"] if spec.kind == "printed" else ["serial"]
    layout = faces_styles.columns(spec) if spec.styles is not None else LAYOUT_COLUMNS[spec.rules](pool)
    return ["position", "ticket", "tier", "prize_cents", *ids, *layout]
