"""What a format-1 spec, an eInstant of a style (game.id, game.style), says a run holds.

One pool per denomination and number of play areas, `pool_shares` shares at denomination x areas; a
tier pays multiplier x denomination x areas. Losers = pool size - winners, listed first as tier
"lose". The manifest's `play` entry must be what the style's contract derives from the spec (its
section 1), for a style whose engine derives it (audit/styles/__init__.py PLAY_FROM_SPEC).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.errors import UnusableInput
from audit.read.manifest import Manifest
from audit.read.specs.duel import refuse_unshown_legend
from audit.read.specs.model import SpecExpectation
from audit.read.specs.money import money, multiplier, sign_of
from audit.read.specs.pack_rules import PoolCounts, refuse_impossible_rules
from audit.styles import PLAY_FROM_SPEC, einstant_engine

__all__ = ["ExpectedPool", "read_einstant"]

# the manifest records `currency` only for a game not in USD (docs/manifest.md)
GAME_FIELDS = ("name", "number", "regulation", "rules", "kind", "style", "currency")


@dataclass(frozen=True)
class ExpectedPool:
    price_cents: int
    tickets: int
    tiers: tuple[tuple[str | None, int, int], ...]  # (id or None for eInstants, prize, count)
    denomination_cents: int | None = None
    play_areas: int | None = None
    id: str | None = None  # docs/pool-files.md: d, the dollars and cents, then xK if the spec lists several K


def read_einstant(doc: dict[str, Any], file: str, sha256: str) -> SpecExpectation:
    """The model of a format-1 spec (its TOML as read); UnusableInput or a KeyError, TypeError, ...
    for what is not such a spec (audit/read/specs/__init__.py words them)."""
    game = doc["game"]
    if isinstance(game, dict) and "style" in game:  # an eInstant of a generic style: named by game.id
        # `kind` may be left out (docs/new-game.md): poolgen then writes the manifest's "einstant"
        game = {**game, "rules": game.get("id"), "kind": game.get("kind", "einstant")}
    if game["kind"] != "einstant" or "style" not in game:
        raise UnusableInput("game: a format = 1 spec is an eInstant of a style (game.id, game.style); "
                            "a printed game's spec is format = 2, of play styles")
    pools = _einstant(doc["einstant"], doc["tiers"], sign_of(doc))
    ids = [f"m{multiplier(t['multiplier'], f'tiers[{i}].multiplier').normalize():f}"  # docs/new-game.md 1b
           for i, t in enumerate(doc["tiers"])]
    refuse_impossible_rules(doc, None, dict.fromkeys(ids), [  # [blocks] against its pools (new-game.md 2b)
        PoolCounts(str(p.id), p.tickets, p.price_cents,
                   {i: n for i, (_, _, n) in zip(ids, p.tiers[1:], strict=True)},
                   {i: c for i, (_, c, _) in zip(ids, p.tiers[1:], strict=True)}) for p in pools],
        doc["einstant"]["pool_shares"])
    if game["style"] == "prize_legend_duel":  # a legend value no share can show, as check refuses it
        refuse_unshown_legend(doc)
    game = {**game, "currency": None if game.get("currency", "USD") == "USD" else game["currency"]}
    return SpecExpectation(file, sha256, tuple((key, game.get(key)) for key in GAME_FIELDS),
                           (DerivedPlay(file, doc), EInstantPools(pools)), "every pool", doc)


def _einstant(sales: dict[str, Any], tiers: list[dict[str, Any]], sign: str) -> tuple[ExpectedPool, ...]:
    size = sales["pool_shares"]
    winners = sum(t["count"] for t in tiers)
    pools = []
    for j, d in enumerate(sales["denominations"]):
        denomination = money(d, f"einstant.denominations[{j}]", sign)
        for areas in sales["play_areas"]:
            rows: list[tuple[str | None, int, int]] = [("lose", 0, size - winners)]
            for i, t in enumerate(tiers):
                prize = multiplier(t["multiplier"], f"tiers[{i}].multiplier") * denomination * areas
                if prize != prize.to_integral_value():
                    raise UnusableInput(f"tiers[{i}].multiplier gives fractions of a cent")
                rows.append((None, int(prize), t["count"]))
            many = len(sales["play_areas"]) > 1
            pools.append(ExpectedPool(price_cents=denomination * areas, tickets=size, tiers=tuple(rows),
                                      denomination_cents=denomination, play_areas=areas,
                                      id=f"d{denomination // 100}.{denomination % 100:02d}"
                                         + (f"x{areas}" if many else "")))
    return tuple(pools)


@dataclass(frozen=True)
class EInstantPools:
    """Every pool of the manifest is the spec's pool of its denomination and number of play areas."""

    pools: tuple[ExpectedPool, ...]

    def problems(self, manifest: Manifest) -> list[str]:
        return [f"pool {p.id}: {why}" for p in manifest.pools for why in compare_pool(self.pools, p.raw)]


@dataclass(frozen=True)
class DerivedPlay:
    """The manifest's play entry is what the run's style derives from the spec (its section 1)."""

    file: str
    doc: dict[str, Any]

    def problems(self, manifest: Manifest) -> list[str]:
        if manifest.style is None:  # not a run of an eInstant style: game.style says what is wrong
            return []
        try:
            einstant_engine(manifest.style)
        except ValueError as exc:
            return [str(exc)]
        derive = PLAY_FROM_SPEC.get(manifest.style)
        if derive is None:
            return []
        try:
            expected = derive(self.doc)
        except (KeyError, IndexError, TypeError, ValueError, ArithmeticError) as exc:
            return [f"spec {self.file}: not a spec of style {manifest.style!r} ({type(exc).__name__}: {exc})"]
        stated = manifest.doc.get("play") or {}
        wrong = [k for k in sorted(set(expected) | set(stated)) if expected.get(k) != stated.get(k)]
        return [f"play.{k}: manifest {stated.get(k)!r}, spec {expected.get(k)!r}" for k in wrong]


def compare_pool(pools: tuple[ExpectedPool, ...], entry: dict[str, Any]) -> list[str]:
    """How a manifest pool entry differs from what the spec says that pool holds (empty: agrees)."""
    found = [p for p in pools if (p.denomination_cents, p.play_areas)
             == (entry.get("denomination_cents"), entry.get("play_areas"))]
    if not found:
        return [f"the spec has no pool of denomination {entry.get('denomination_cents')} cents and "
                f"{entry.get('play_areas')} play area(s)"]
    want = found[0]
    problems = []
    if want.id is not None and entry.get("id") != want.id:  # a pool sold under another's name
        problems.append(f"id {entry.get('id')!r} for the spec's pool {want.id!r} (docs/pool-files.md)")
    if entry["price_cents"] != want.price_cents:
        problems.append(f"price {entry['price_cents']} cents, spec {want.price_cents}")
    if entry["tickets"] != want.tickets:
        problems.append(f"{entry['tickets']} tickets, spec {want.tickets}")
    got = [(t["id"], t["prize_cents"], t["count"]) for t in entry["tiers"]]
    if len(got) != len(want.tiers):
        problems.append(f"{len(got)} tiers, spec {len(want.tiers)}")
    for (gid, gprize, gcount), (wid, wprize, wcount) in zip(got, want.tiers, strict=False):
        if wid is not None and gid != wid:
            problems.append(f"tier {gid!r} where the spec has {wid!r}")
        elif (gprize, gcount) != (wprize, wcount):
            problems.append(f"tier {gid!r}: {gcount} x {gprize} cents, spec {wcount} x {wprize} cents")
    return problems
