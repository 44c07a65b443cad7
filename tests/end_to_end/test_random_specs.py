"""Property: every random format-2 spec that `check` accepts generates a pool that audit verifies,
every ticket paying its tier; and a broken variant of it is refused with one line naming the file.

Specs are drawn at random (numbers, prize and special symbols, spot counts, multipliers, tiers of one
or two areas of any style, key number areas with or without distinct numbers and decoy weights; and,
in a test of their own, key number areas of a win-all symbol),
built feasible by construction, on pools of a few thousand tickets.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.check.game import check_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, drop_unpaid_specials, dumps

VALUES = st.integers(1, 500).map(lambda c: f"{c * 5 // 100}.{c * 5 % 100:02d}")


@st.composite
def prize_symbols(draw, group: str, low: int, high: int) -> list[dict]:
    n = draw(st.integers(low, high))
    values = draw(st.lists(VALUES, min_size=n, max_size=n, unique=True))  # each printed as it pays
    out = [{"group": group, "code": f"P{i}", "symbol": f"${v}", "value": v} for i, v in enumerate(values)]
    if draw(st.booleans()):
        out[0] = {"group": group, "code": "FREE", "symbol": "FREE", "caption": "TICKET", "free": True}
    return out


@st.composite
def kn_area(draw, area: str, share: dict | None = None, key_symbol: bool = False,
            win_all: bool = False) -> tuple[dict, list[dict], list[list[dict]]]:
    """A key number match area, its symbols, and the ways one tier can win in it (lists of wins).
    With `share` (an earlier key number area) it matches that area's winning numbers; a `key_symbol`
    area has none (winning = 0): only its special symbols win. `win_all`: it has a win-all symbol
    (and so cash prizes only, no decoy weights)."""
    w = 0 if key_symbol else share["winning"] if share else draw(st.integers(1, 4))
    y = draw(st.integers(1, 6))
    numbers = [] if share else [{"group": f"{area}_n", "code": str(i), "symbol": str(i)}
                                for i in range(w + draw(st.integers(1, 12)))]
    prizes = draw(prize_symbols(f"{area}_p", 1, 6))
    if win_all and "free" in prizes[0]:
        value = draw(VALUES.filter(lambda v: v not in {p.get("value") for p in prizes}))
        prizes[0] = {"group": f"{area}_p", "code": "P0", "symbol": f"${value}", "value": value}
    bys = draw(st.lists(st.sampled_from([2, 3, 4, 5, 10]), max_size=3, unique=True))
    specials = [{"group": f"{area}_s", "code": f"{k}X", "symbol": f"{k}X", "how": "multiplier", "by": k}
                for k in bys]
    if draw(st.booleans()) or key_symbol and not specials:  # a key symbol area wins by its specials
        specials.append({"group": f"{area}_s", "code": "BAG", "symbol": "moneybag", "how": "automatic"})
    match_by = draw(st.sampled_from([1, 1, 2, 5]))
    spec_area = {"id": area, "style": "key_number_match", "spots": w + 2 * y, "winning": w, "yours": y,
                 "numbers": f"{area}_n", "prizes": f"{area}_p", "match_by": match_by}
    if share:
        spec_area |= {"spots": 2 * y, "numbers": share["numbers"], "winning_from": share["id"]}
        del spec_area["winning"]
    n_numbers = len(numbers) if not share else share["n_numbers"]
    if n_numbers - w >= y and draw(st.booleans()):  # key_number_match.md section 8.1
        spec_area["distinct_numbers"] = True
    if draw(st.booleans()) and not win_all:  # section 8.2
        spec_area["decoy_weights"] = {p["code"]: draw(st.integers(1, 20)) for p in prizes}
    if win_all:  # a win-all symbol (section 1): cash prizes only, no decoy weights
        specials.append({"group": f"{area}_s", "code": "ALL", "symbol": "win all", "how": "all"})
    if specials:
        spec_area["specials"] = f"{area}_s"
    hows = [("match", None)] * (w > 0) + [("multiplier", k) for k in bys] + \
        ([("automatic", None)] if any(s["how"] == "automatic" for s in specials) else [])
    ways = []
    for _ in range(draw(st.integers(1, 4))):
        wins = []
        for _ in range(draw(st.integers(1, y))):
            how, by = draw(st.sampled_from(hows))
            multiplied = how == "multiplier" or how == "match" and match_by > 1  # never a free ticket
            prize = draw(st.sampled_from([p["code"] for p in prizes if not multiplied or "value" in p]
                                         or ["-"]))
            if prize == "-":
                continue
            wins.append({"area": area, "prize": prize, "how": how} | ({"by": by} if by else {}))
        if wins:
            ways.append(wins)
    if win_all:  # a sum Y of its prizes make, by construction
        cents = sum(int(Decimal(draw(st.sampled_from(prizes))["value"]) * 100) for _ in range(y))
        ways.append([{"area": area, "prize": f"{cents // 100}.{cents % 100:02d}", "how": "all"}])
    return spec_area, numbers + prizes + specials, ways


@st.composite
def br_area(draw, area: str) -> tuple[dict, list[dict], list[list[dict]]]:
    """A bonus_reveal area: S spots of D pictures (each at most m times) or win amounts."""
    s, d = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    m = draw(st.integers(max(1, -(-s // d)), s))
    prizes = draw(prize_symbols(f"{area}_p", 1, 4))
    pictures = [{"group": f"{area}_d", "code": f"D{i}", "symbol": f"Symbol of a picture {i}"}
                for i in range(d)]
    spec_area = {"id": area, "style": "bonus_reveal", "spots": s, "prizes": f"{area}_p",
                 "pictures": f"{area}_d", "most_alike": m}
    ways = [[{"area": area, "prize": draw(st.sampled_from([p["code"] for p in prizes])), "how": "reveal"}
             for _ in range(draw(st.integers(1, s)))] for _ in range(draw(st.integers(1, 3)))]
    return spec_area, prizes + pictures, ways


@st.composite
def mn_area(draw, area: str) -> tuple[dict, list[dict], list[list[dict]]]:
    s = draw(st.integers(2, 9))
    n = draw(st.integers(2, s))
    low = max(2, -(-s // (n - 1)))  # a loser shows each amount at most n - 1 times
    prizes = draw(prize_symbols(f"{area}_p", low, max(low, 8)))
    bys = draw(st.lists(st.sampled_from([2, 3, 5, 10]), max_size=3, unique=True))
    mults = [{"group": f"{area}_m", "code": f"{k}X", "symbol": f"{k}X", "by": k} for k in bys]
    spec_area = {"id": area, "style": "match_n", "spots": s, "match": n, "prizes": f"{area}_p"}
    if mults:
        spec_area["multipliers"] = f"{area}_m"
    ways = []
    others = len(prizes) - 1
    for p in prizes:
        if others * (n - 1) >= s - n:
            ways.append([{"area": area, "prize": p["code"], "how": "match"}])
        if "value" in p and n >= 2 and others * (n - 2) >= s - n:
            ways += [[{"area": area, "prize": p["code"], "how": "multiplier", "by": k}] for k in bys]
    return spec_area, prizes + mults, ways


@st.composite
def games(draw, win_all: bool = False) -> dict:
    """A random spec; `win_all`: one with a key number area of a win-all symbol, and a tier of it."""
    combos = [["kn"], ["mn"], ["kn", "mn"], ["mn", "kn"], ["kn", "kn"], ["kn", "wild"], ["mn", "mn"],
              ["br"], ["kn", "br"], ["br", "mn"], ["ks"], ["kn", "ks"]]  # ks: a key symbol area
    styles = draw(st.sampled_from([c for c in combos if not win_all or {"kn", "ks"} & set(c)]))
    areas, symbols, ways = [], [], []
    for i, style in enumerate(styles):
        if style == "wild":  # a second key number area matching the first one's winning numbers
            a, s, w = draw(kn_area(f"a{i}", areas[0], win_all=win_all))
        else:
            make = {"kn": kn_area, "mn": mn_area, "br": br_area,
                    "ks": lambda aid: kn_area(aid, key_symbol=True, win_all=win_all)}[style]
            a, s, w = draw(kn_area(f"a{i}", win_all=win_all) if style == "kn" else make(f"a{i}"))
            if style in ("kn", "ks"):
                a = a | {"n_numbers": sum(x["group"] == f"a{i}_n" for x in s)}
        areas.append(a)
        symbols += s
        ways += w
    ways = [w for w in ways if w]
    for a in areas:
        a.pop("n_numbers", None)
    if len(styles) == 2 and ways:  # a tier may combine wins of both areas
        first = [w for w in ways if w[0]["area"] == "a0"]
        second = [w for w in ways if w[0]["area"] == "a1"]
        if first and second and all(x["how"] for x in first[0]):
            ways.append(first[0][:1] + second[0][:1])
    unique = {}
    for w in ways:
        unique.setdefault(tuple(sorted((x["area"], x["prize"], x["how"], x.get("by", 0)) for x in w)), w)
    chosen = []
    if unique:
        n = draw(st.integers(1, min(6, len(unique))))
        chosen = draw(st.permutations(sorted(unique)))[:n]
        alls = [k for k in sorted(unique) if any(x["how"] == "all" for x in unique[k])]
        if alls and not set(alls) & set(chosen):  # games(win_all=True): a win-all tier among them
            chosen.append(draw(st.sampled_from(alls)))
    per_book = draw(st.sampled_from([10, 25, 50]))
    tickets = per_book * 2 * draw(st.integers(10, 40))
    half = draw(st.booleans())  # an order of 1.5 pools: the last pool is half of one
    tiers = [{"id": f"t{i}", "count": 2 * draw(st.integers(0, tickets // (4 * max(1, len(chosen))))),
              "wins": unique[k]} for i, k in enumerate(chosen)]
    max_wins = max([len(t["wins"]) for t in tiers] + [1]) + draw(st.integers(0, 2))
    doc = drop_unpaid_specials(base_doc(areas, symbols, tiers, max_wins=max_wins, pool_tickets=tickets,
                                           per_book=per_book))
    if half:
        doc["printed"] |= {"order_tickets": tickets + tickets // 2, "last_pool": "partial"}
    return doc


SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])


@SETTINGS
@given(doc=games())
def test_every_accepted_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    if not doc["tiers"]:
        return
    folder = tmp_path_factory.mktemp("prop")
    path = folder / "g.toml"
    path.write_text(dumps(doc))
    spec = load_spec(path)  # built feasible: check must accept it
    try:
        assert check_spec(spec).problems == []
    except SpecError as exc:  # layouts too few for the neighbour rule (docs/new-game.md, 2b): refused
        assert "packs.neighbours" in str(exc), exc
        return
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC), out=folder,
                                   run_id="r"))
    report = verify_run(VerifyRequest(run=run.folder, spec=path))  # step 5 also against the spec
    per_pool = (Step.FILES, Step.COMPLETENESS, Step.LAYOUTS, Step.FIGURES, Step.MERKLE_ROOTS)
    assert [report.step(s).status for s in per_pool] == ["pass"] * 5, report.to_json()
    for pool in run.manifest["pools"]:
        table = pl.read_parquet(run.folder / f"pool-{pool['id']}.parquet")
        want = {t["id"]: t["count"] for t in pool["tiers"] if t["count"]}
        assert dict(table.group_by("tier").len().iter_rows()) == want


@settings(SETTINGS, max_examples=20)
@given(doc=games(win_all=True))
def test_every_accepted_win_all_spec_generates_a_pool_audit_verifies(tmp_path_factory, doc):
    """The same with a win-all symbol in a key number area and a tier of it (docs/styles/
    key_number_match.md, section 1), beside any other area and win."""
    assert any(w["how"] == "all" for t in doc["tiers"] for w in t["wins"])
    test_every_accepted_spec_generates_a_pool_audit_verifies.hypothesis.inner_test(tmp_path_factory, doc)


def _misfit(area: dict) -> None:
    """Spots that do not add up (key number match), or more like amounts than spots (match_n)."""
    if area["style"] == "key_number_match":
        area["spots"] += 1
    elif area["style"] == "bonus_reveal":
        area["most_alike"] = area["spots"] + 1
    else:
        area["match"] = area["spots"] + 1


BREAK = [
    lambda d: d["areas"][0].__setitem__("style", "bingo"),
    lambda d: _misfit(d["areas"][0]),
    lambda d: d["areas"][0].__setitem__("unused", 1),
    lambda d: d["tiers"][0]["wins"].append({"area": "nowhere", "prize": "P0", "how": "match"}),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("prize", "NOPE"),
    lambda d: d["tiers"][0]["wins"][0].__setitem__("how", "luck"),
    lambda d: d["tiers"][0].__setitem__("count", d["printed"]["pool_tickets"] + 1),
    lambda d: d["play"].__setitem__("max_wins", len(d["tiers"][0]["wins"]) - 1),
    lambda d: d["symbols"].append(dict(d["symbols"][0])),
    lambda d: d["symbols"].append({"group": "orphans", "code": "X", "symbol": "X"}),
]


@SETTINGS
@given(doc=games(), broken=st.sampled_from(range(len(BREAK))))
def test_every_broken_variant_is_refused_with_one_line(tmp_path_factory, doc, broken):
    if not doc["tiers"]:
        return
    BREAK[broken](doc)
    path = tmp_path_factory.mktemp("bad") / "g.toml"
    path.write_text(dumps(doc))
    try:
        load_spec(path)
    except SpecError as exc:
        message = str(exc)
        assert message.startswith(f"{path}: ") and "\n" not in message
    else:
        raise AssertionError(f"variant {broken} was accepted")
