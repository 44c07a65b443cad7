"""What a format-2 spec (docs/new-game.md) says a run holds, read with tomllib alone (step 5, --spec).

Pools: whole pools of `pool_tickets`, then with `last_pool = "partial"` one pool of the order's rest;
a tier's count scales to a pool of t tickets as count x t / order (`counts_per = "order"`) or
count x t / pool_tickets (`"pool"`). A tier pays the sum of its wins, `by` (1 unless given, or the
area's `match_by` for a match) x its prize symbol's value (`free = true`: the ticket price), times
the k of a ticket-wide multiplier (a win `how = "ticket"`, docs/styles/ticket_multiplier.md); a
win-all win (`how = "all"`) pays its `prize`, an amount, shown by the area's win-all symbol, and
states the spec's `shows` (the prizes it pins) as written. The manifest's `play` entry must state the
spec's areas, tiers and `[play] max_wins` (docs/styles/play.md);
pool k's id is `pk` (docs/pool-files.md); its `print` the spec's free-ticket tiers and `virn_digits`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.errors import UnusableInput
from audit.read.manifest import Manifest
from audit.read.specs.art import SpecArt, spec_art
from audit.read.specs.entry_keys import ENTRY_KEYS, SYMBOL_KEYS
from audit.read.specs.model import SpecExpectation, same
from audit.read.specs.money import money, sign_of
from audit.read.specs.multiplies import scaled, shown_elsewhere
from audit.read.specs.order import refuse_unfit_order
from audit.read.specs.pack_rules import PoolCounts, refuse_impossible_rules
from audit.read.specs.told_apart import refuse_look_alikes
from audit.read.specs.unused import refuse_unpaid
from audit.read.specs.wins import refuse_unwinnable

__all__ = ["PrintedPools", "StatedPlay", "read_printed"]


def read_printed(doc: dict[str, Any], file: str, sha256: str) -> SpecExpectation:
    """The model of a format-2 spec (its TOML as read); UnusableInput or a KeyError, TypeError, ...
    for what is not such a spec (audit/read/specs/__init__.py words them)."""
    game, sales = doc["game"], doc["printed"]
    sign = sign_of(doc)
    price = money(sales["price"], "printed.price", sign)
    groups: dict[str, list[dict[str, Any]]] = {}
    for s in doc["symbols"]:
        groups.setdefault(s["group"], []).append(s)

    refuse_unwinnable(doc)  # a win its area's style does not take
    refuse_unpaid(doc, groups)  # a legend line, pattern or symbol no win shows, as poolgen refuses it
    refuse_look_alikes(doc)  # then two symbols one spot prints alike (a symbol no win shows: not used)

    def cents(s: dict[str, Any]) -> int:
        return price if s.get("free") else money(s["value"], f"symbols {s['code']}", sign)

    areas = []
    for i, a in enumerate(doc["areas"]):
        # a win-all symbol sums cash prizes only (docs/styles/key_number_match.md, section 2)
        if any(s.get("how") == "all" for s in groups.get(a.get("specials"), [])) \
                and any(s.get("free") for s in groups.get(a.get("prizes"), [])):
            raise UnusableInput(f"areas[{i}].prizes: a free ticket cannot be part of a win-all symbol's sum: "
                                "an area with one has cash prize symbols only")
        resolved: dict[str, Any] = {}
        for key, value in a.items():
            if isinstance(value, str) and key not in ("id", "style") and value in groups:  # a symbol group
                resolved[key] = [{k: v for k, v in s.items() if k in ("code", "how", "by")}
                                 | ({"cents": cents(s)} if "value" in s or "free" in s else {})
                                 for s in groups[value]]
            else:
                resolved[key] = value
        areas.append(resolved)
    by_id = {a["id"]: a for a in doc["areas"]}
    tiers: list[dict[str, Any]] = [{"id": "lose", "wins": []}]
    prizes: list[int] = []
    free: list[str] = []  # tiers won with a free-ticket symbol: the manifest's print.free_ticket_tiers
    for i, t in enumerate(doc["tiers"]):
        wins, total, times = [], 0, 1
        for w in t["wins"]:
            area = by_id[w["area"]]
            if w["how"] == "ticket":  # a ticket-wide multiplier: k x the other wins (docs/styles/play.md)
                multiplier = next(s for s in groups[area["multipliers"]] if s["code"] == w["prize"])
                times = multiplier["by"]
                if multiplier.get("free") and t["id"] not in free:
                    free.append(t["id"])
                wins.append({"area": w["area"], "how": "ticket", "by": times, "prize": w["prize"],
                             "prize_cents": 0})
                continue
            if w["how"] == "all":  # a win-all symbol: `prize` is the sum (docs/styles/key_number_match.md)
                whole = money(w["prize"], f"tiers[{i}].wins prize", sign)
                symbol = next(s for s in groups[area["specials"]] if s.get("how") == "all")
                wins.append({"area": w["area"], "how": "all", "by": 1, "prize": symbol["code"],
                             "prize_cents": whole} | ({"shows": w["shows"]} if "shows" in w else {}))
                total += whole
                continue
            prize_group = groups[area["prizes"]]
            symbol = next(s for s in prize_group if s["code"] == w["prize"])
            if symbol.get("free") and t["id"] not in free:
                free.append(t["id"])
            by = w.get("by", area.get("match_by", 1) if w["how"] == "match" else 1)
            wins.append({"area": w["area"], "how": w["how"], "by": by, "prize": w["prize"],
                         "prize_cents": cents(symbol)})
            total += by * cents(symbol)
        total = scaled(by_id, wins, total, times)  # the box multiplies what it covers (ticket_multiplier.md)
        if "prize" in t and money(t["prize"], f"tiers[{i}].prize", sign) != total:  # its wins' sum
            raise UnusableInput(f"tiers[{i}].prize: {t['prize']!r}, but its wins pay {total} cents")
        tiers.append({"id": t["id"], "wins": wins})
        prizes.append(total)
    _free_ticket_cost(doc, free)
    refuse_unfit_order(sales)  # books and pools the loader refuses (order.py)
    per_book = sales["last_ticket"] - sales["first_ticket"] + 1
    order, size = sales["order_tickets"], sales["pool_tickets"]
    sizes = [size] * (order // size) + ([order % size] if order % size else [])
    basis = order if sales["counts_per"] == "order" else size
    split = sales.get("split")  # "even": each count its exact share rounded down or up (section 4b)
    if split not in (None, "even"):  # docs/new-game.md, section 2
        raise UnusableInput(f"printed.split: must be \"even\", not {split!r}")
    if split and basis != order:
        raise UnusableInput("printed.split: needs counts_per = \"order\": the pools' counts add up to the "
                            "order's")
    if split and all(t["count"] * s % order == 0 for t in doc["tiers"] for s in sizes):
        raise UnusableInput("printed.split: not used: every tier's count scales exactly to every pool")
    pools, book, made, ids = [], 0, [], [t["id"] for t in doc["tiers"]]
    for k, tickets in enumerate(sizes, start=1):
        counts = []
        for i, t in enumerate(doc["tiers"]):
            if t["count"] * tickets % basis and not split:
                even = " (printed.split = \"even\" spreads it)" if sales["counts_per"] == "order" else ""
                raise UnusableInput(f"tiers[{i}].count: {t['count']} winners per {sales['counts_per']} do "
                                    f"not scale exactly to a pool of {tickets}{even}")
            counts.append(t["count"] * tickets // basis)
        most = sum(-(-t["count"] * tickets // basis) for t in doc["tiers"])  # every share rounded up
        if most > tickets:
            rounded = " when every share rounds up" if split else ""
            raise UnusableInput(f"{'printed.split' if split else 'tiers'}: {most} winners per pool exceed "
                                f"the pool of {tickets} tickets{rounded}")
        rows: list[tuple[str, int, int | None]] = [("lose", 0, None if split else tickets - sum(counts))] + [
            (t["id"], p, None if split and t["count"] * tickets % basis else c)
            for t, p, c in zip(doc["tiers"], prizes, counts, strict=True)]
        pools.append({"id": f"p{k}", "first_book": book, "books": tickets // per_book, "tickets": tickets,
                      "price_cents": price, "tiers": rows})
        book += tickets // per_book
        made.append(PoolCounts(f"p{k}", tickets, price, dict(zip(ids, counts, strict=True)),
                               dict(zip(ids, prizes, strict=True))))
    losers = order - sum(t["count"] for t in doc["tiers"]) if split else \
        sum(p.tickets - sum(p.counts.values()) for p in made)
    for i, a in enumerate(doc["areas"]):  # shown on losers alone (docs/styles/ticket_multiplier.md, 2)
        if a.get("multipliers_on_losers") and not losers and not shown_elsewhere(doc, a):
            raise UnusableInput(f"areas[{i}].multipliers_on_losers: not used: no pool holds a losing "
                                "ticket (every ticket wins a tier)")
    most = [PoolCounts(p.id, p.tickets, p.price_cents, {t["id"]: -(-t["count"] * p.tickets // order)
                                                        for t in doc["tiers"]}, p.prizes)
            for p in made] if split else None  # a split's pools with every share rounded up
    refuse_impossible_rules(doc, per_book, dict(zip(ids, prizes, strict=True)), made, most=most)
    stated = {"name": game["name"], "number": game["number"], "regulation": game["regulation"],
              "rules": game["id"], "kind": "printed", "currency": _currency(game)}
    return SpecExpectation(file, sha256, tuple(stated.items()),
                           (PrintedPools(tuple(pools)), StatedPlay(tuple(areas), tuple(tiers),
                                                                   doc["play"]["max_wins"]),
                            StatedSplit(None if not split else {
                                "rule": split, "order_tickets": order, "pool_tickets": size,
                                "tiers": [{"id": t["id"], "count": t["count"]} for t in doc["tiers"]]}),
                            SpecArt(spec_art(doc), doc),
                            PrintSettings(tuple(free), sales.get("virn_digits", 12))),
                           "every pool, area and tier", doc)


def _free_ticket_cost(doc: dict[str, Any], free: list[str]) -> None:
    """docs/new-game.md, section 2 (free tickets): `[published] free_ticket_cost` is required when a
    tier won with a free ticket states a `published_cost`, and refused when no tier wins a free ticket."""
    published = doc.get("published", {})
    stated = published.get("free_ticket_cost") if isinstance(published, dict) else None
    if stated is None and any(t["id"] in free and "published_cost" in t for t in doc["tiers"]):
        raise UnusableInput('published.free_ticket_cost: missing: say how the published table prices free '
                            'tickets ("zero" or "price")')
    if stated is not None and not free:
        raise UnusableInput("published.free_ticket_cost: not used: no tier wins a free ticket")


def _currency(game: dict[str, Any]) -> str | None:
    """The manifest's `game.currency`: the spec's, recorded only for a game not in USD (docs/manifest.md)."""
    return None if game.get("currency", "USD") == "USD" else game["currency"]


@dataclass(frozen=True)
class PrintedPools:
    """Every pool of the manifest is the order's pool that starts at its first book, under that pool's
    id (docs/pool-files.md: pool k is `pk`), and no two pools hold the same books."""

    pools: tuple[dict[str, Any], ...]  # {id, first_book, books, tickets, price_cents, tiers [(id, prize, n)]}

    def problems(self, manifest: Manifest) -> list[str]:
        problems = []
        by_book = {p["first_book"]: p for p in self.pools}
        for p in manifest.pools:
            want = by_book.get(p.raw.get("first_book"))
            if want is None:
                problems.append(f"pool {p.id}: books {p.raw.get('first_book')}.. do not start a pool "
                                "of the order")
                continue
            # a count the spec leaves to the split (None) is held within one of its share by step 5's
            # audit/steps/split.py, from print.split, which StatedSplit holds to the spec
            got = {"id": p.id, "books": p.raw.get("books"), "tickets": p.tickets,
                   "price_cents": p.price_cents,
                   "tiers": [(t.id, t.prize_cents, None if w is None else t.count)
                             for t, w in zip(p.tiers, [c for _, _, c in want["tiers"]], strict=False)]}
            for key, value in got.items():
                if not same(value, want[key]):
                    problems.append(f"pool {p.id}: {key} {value}, spec {want[key]}")
        if len({p.raw.get("first_book") for p in manifest.pools}) != len(manifest.pools):
            problems.append("two pools hold the same books")
        return problems


@dataclass(frozen=True)
class StatedSplit:
    """The manifest's `print.split` is the spec's `split` with the order and its counts (docs/manifest.md),
    or absent when the spec has none: step 5 holds every pool's counts to it, step 7 draws them by it."""

    split: dict[str, Any] | None

    def problems(self, manifest: Manifest) -> list[str]:
        stated = manifest.doc.get("print", {}).get("split")
        if same(stated, self.split):
            return []
        if self.split is None:
            return ["print.split: the spec splits no count"]
        if not isinstance(stated, dict):
            return ["print.split: missing, but the spec splits the counts (split = \"even\")"]
        for key in ("rule", "order_tickets", "pool_tickets"):
            if not same(stated.get(key), self.split[key]):
                return [f"print.split.{key} {stated.get(key)!r}, spec {self.split[key]!r}"[:200]]
        tiers = stated.get("tiers")
        if not isinstance(tiers, list) or len(tiers) != len(self.split["tiers"]):
            return [f"print.split.tiers: not the spec's {len(self.split['tiers'])} tiers"]
        for i, (got, want) in enumerate(zip(tiers, self.split["tiers"], strict=True)):
            if not same(got, want):
                return [f"print.split.tiers[{i}] {got!r}, spec {want!r}"[:200]]
        return ["print.split: holds more than the spec's rule, order and counts"]


@dataclass(frozen=True)
class PrintSettings:
    """The manifest's `print` states the spec's free-ticket tiers (a free ticket's validation records
    say FREE, docs/validation.md section 3: a tier the spec pays in cash must not, nor the other way
    round) and its `printed.virn_digits` (default 12; the work of finding a ticket's record without its
    validation number). Step 9 and step 7 take both from the manifest, so only this holds them to the
    game."""

    free_tiers: tuple[str, ...]  # the spec's tiers won with a symbol of `free = true`, in its order
    virn_digits: int

    def problems(self, manifest: Manifest) -> list[str]:
        stated = manifest.doc.get("print", {})
        problems = []
        if not same(stated.get("free_ticket_tiers"), list(self.free_tiers)):
            problems.append(f"print.free_ticket_tiers {stated.get('free_ticket_tiers')!r}, spec "
                            f"{list(self.free_tiers)!r}")
        if not same(stated.get("virn_digits"), self.virn_digits):
            problems.append(f"print.virn_digits {stated.get('virn_digits')!r}, spec {self.virn_digits!r}")
        return problems


# A spec field an area may leave out, by style, with what the entry then holds (the style's contract,
# section 3): its default, written or left out by the entry, or None, left out of the entry too, or a
# function of the spec's area giving the default the generator resolves and writes. A spec that writes the
# default out states what the absent key means; an entry stating anything else for a key the spec leaves
# out states another rule than the spec's (a multiplier allowed on losers, a special symbol or multiplier
# the game has not, decoy weights, more alike pictures than read as no match): step 4 would apply it.
LEFT_OUT: dict[str, dict[str, object]] = {
    "blackjack": {"dealer_cards": 1, "pays": "hand", "legend": None},
    "bonus_reveal": {"most_alike": lambda area: max(1, area["spots"] - 1)},
    "cards": {"deal": "five", "dealer": "each"},
    "poker_hand": {"joker": False, "joker_multiplier": None,
                   "five_of_a_kind": lambda area: True if area.get("joker") is True else None},
    "key_number_match": {"distinct_numbers": False, "match_by": 1, "specials": [], "decoy_weights": None,
                         "winning_from": None},
    "match_n": {"multipliers": []},
    "symbol_count": {"most_alike": lambda area: max(1, area["legend"][0]["count"] - 1)},
    "ticket_multiplier": {"multipliers_on_losers": False, "multiplies": None},
    "yours_beats_theirs": {"multipliers": None},
}


def _left_out(spec_area: dict[str, Any], style: object) -> dict[str, object]:
    """LEFT_OUT's defaults of the style for this spec area (None for one its area cannot give)."""
    out = {}
    for key, default in LEFT_OUT.get(str(style), {}).items():
        if callable(default):
            try:
                default = default(spec_area)
            except (KeyError, IndexError, TypeError):  # a spec area without it: step 5 says what differs
                default = None
        out[key] = default
    return out


@dataclass(frozen=True)
class StatedPlay:
    """The manifest's play entry states the spec's areas (their groups resolved), tier wins and the
    most wins a ticket may have (step 4 judges every layout by the manifest's: a run stating more
    than the spec would publish, and pass, layouts the game's rules forbid)."""

    areas: tuple[dict[str, Any], ...]  # the spec's [[areas]] tables with their groups resolved
    tiers: tuple[dict[str, Any], ...]  # {"id", "wins": [...]} as the manifest's play entry states them
    max_wins: int  # the spec's [play] max_wins

    def problems(self, manifest: Manifest) -> list[str]:
        play = manifest.doc.get("play")
        if not isinstance(play, dict):
            return ["the manifest has no play entry, but the spec is of play styles"]
        problems = []
        run_areas = {a.get("id"): a for a in play.get("areas", []) if isinstance(a, dict)}
        for a in self.areas:
            problems += _area_problems(a, run_areas.get(a["id"], {}))
        if len(run_areas) != len(self.areas):
            problems.append(f"{len(run_areas)} areas, spec {len(self.areas)}")
        elif list(run_areas) != (ids := [a["id"] for a in self.areas]):  # rule 4's and print.art's order
            problems.append(f"play.areas in the order {list(run_areas)}, spec {ids}")
        if not same(play.get("tiers"), list(self.tiers)):
            problems.append("the play entry's tier wins are not the spec's")
        if not same(play.get("max_wins"), self.max_wins):
            problems.append(f"play.max_wins {play.get('max_wins')!r}, spec {self.max_wins!r}")
        unstated = sorted(set(play) - {"max_wins", "areas", "tiers"})
        if unstated:
            problems.append(f"play holds {unstated}: not the spec's")
        for a in self.areas:
            problems += _unstated_keys(a, run_areas.get(a["id"], {}))
        return problems


def _unstated_keys(spec_area: dict[str, Any], run_area: dict[str, Any]) -> list[str]:
    """A run area's keys that are neither the spec area's nor a default of its style's entry, and a
    group's symbols holding more than a symbol's keys (only for a style ENTRY_KEYS knows)."""
    keys = ENTRY_KEYS.get(str(run_area.get("style")))
    if keys is None:
        return []
    out = [f"area {spec_area['id']}: {key} is neither the spec's nor its style's"
           for key in sorted(set(run_area) - set(spec_area) - keys - {"id", "style"})]
    for key, value in spec_area.items():
        if isinstance(value, list) and all(isinstance(s, dict) and "code" in s for s in value):
            got = run_area.get(key)
            items = got if isinstance(got, list) else []
            more = [g for g in items if isinstance(g, dict) and set(g) - SYMBOL_KEYS]
            out += [f"area {spec_area['id']}: {key} {g.get('code')!r} holds {sorted(set(g) - SYMBOL_KEYS)}"
                    for g in more]
    return out


def _area_problems(spec_area: dict[str, Any], run_area: dict[str, Any]) -> list[str]:
    out = []
    left_out = _left_out(spec_area, run_area.get("style"))
    for key, value in spec_area.items():
        if key in ("spots",) and run_area.get("style") == "key_number_match":
            continue  # the printed spots, W + 2Y: not part of the manifest's entry
        if key in ("labels", "colours", "per_row"):
            continue  # titles of sections, colours of grids, spots a row: drawn on the proofs, never paid on
        if key not in run_area and key in left_out and same(left_out[key], value):
            continue  # the spec writes out the default the entry leaves out
        got = run_area.get(key)
        if isinstance(value, list) and all(isinstance(s, dict) and "code" in s for s in value):
            # a group: compare what the manifest says of each symbol (other lists, as a crossword's
            # grids and legend, are compared as they are)
            want = [s["code"] for s in value]
            codes = [g if isinstance(g, str) else g.get("code") for g in got or []]
            if codes != want:
                out.append(f"area {spec_area['id']}: {key} {codes}, spec {want}")
            for s, g in zip(value, got or [], strict=False):
                # an automatic or win-all symbol's by is written 1 (key_number_match.md section 3)
                s = s | {"by": 1} if s.get("how") in ("automatic", "all") and "by" not in s else s
                for k in ("how", "by", "cents"):
                    if k in s and isinstance(g, dict) and not same(g.get(k), s[k]):
                        out.append(f"area {spec_area['id']}: {key} {s['code']}: {k} {g.get(k)!r}, "
                                   f"spec {s[k]!r}")
        elif not same(got, value):
            out.append(f"area {spec_area['id']}: {key} {got!r}, spec {value!r}")
    for key, default in left_out.items():
        stated = key not in spec_area and key in run_area
        if stated and (default is None or not same(run_area[key], default)):
            # an entry stating a key the spec leaves out otherwise states another rule than the spec's
            # (a multiplier allowed on losers: docs/styles/ticket_multiplier.md, section 3)
            said = "none" if default is None else repr(default)
            out.append(f"area {spec_area['id']}: {key} {run_area[key]!r}, spec {said} (left out)")
    return out
