"""Writing format-2 specs for tests: a small TOML writer for the shapes a spec has (tables of
strings, whole numbers, booleans and lists of inline tables), so tests build specs as data."""

from __future__ import annotations

import json


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
