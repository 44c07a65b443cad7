"""The shape of a ceremony bundle or file, the third engine's reading of docs/ceremony.md ("Verifying": the
first problem named, keys before values, in the order "Files" lists the fields). Imports neither poolgen
nor audit."""

from __future__ import annotations

import re

TRANSCRIPT = ["id", "spec_sha256", "code_sha256", "game", "pools", "run_id", "parties", "beacon"]
TOP = ["format", "transcript", "transcript_sha256", "commitments", "round", "seed_commitment", "run", "abort"]
ENTRIES = {
    "party": ["name", "public_key"],
    "beacon": ["chain", "round", "reveals_close"],
    "followed": ["run_id", "manifest_sha256", "transcript_sha256"],
    "commitment": ["name", "commitment", "signature"],
    "reveal": ["name", "value", "revealed_at", "signature"],
    "round": ["round", "signature", "randomness"],
    "abort": ["name", "reason", "signature"],
}
KINDS = {  # a field's kind by its name inside an entry, where it is not text
    ("beacon", "round"): "round number", ("round", "round"): "round number",
    ("followed", "manifest_sha256"): "hex64", ("followed", "transcript_sha256"): "hex64",
    ("commitment", "commitment"): "hex64", ("commitment", "signature"): "hex128",
    ("reveal", "value"): "hex64", ("reveal", "signature"): "hex128",
}


class Shape(Exception):
    """The first problem, as the contract words it."""


def show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _keys(obj: dict, required: list[str], optional: list[str], name: str, at: str) -> None:
    missing = sorted(set(required) - set(obj))
    if missing:
        raise Shape(f"{at}{missing[0]} is missing")
    extra = sorted(set(obj) - set(required) - set(optional), key=str)
    if extra:
        raise Shape(f"{name} holds a field the format does not have: {show(extra[0])}")


def _text(value: object, at: str) -> None:
    if not isinstance(value, str):
        raise Shape(f"{at} is not text: {show(value)}")


def _hex(value: object, n: int, at: str) -> None:
    if not (isinstance(value, str) and re.fullmatch(f"[0-9a-f]{{{n}}}", value)):
        raise Shape(f"{at} is not {n} lower-case hex digits: {show(value)}")


def _list(value: object, at: str, least: int = 0) -> list:
    if not isinstance(value, list) or len(value) < least:
        raise Shape(f"{at} is not a list{' of one or more' if least else ''}: {show(value)}")
    return value


def _entry(value: object, kind: str, at: str) -> None:
    if not isinstance(value, dict):
        raise Shape(f"{at} is not an object: {show(value)}")
    _keys(value, ENTRIES[kind], [], at, f"{at}.")
    for field in ENTRIES[kind]:
        what, where = KINDS.get((kind, field), "text"), f"{at}.{field}"
        if what == "round number":
            v = value[field]
            if type(v) is not int or not 1 <= v <= 2**63 - 1:
                raise Shape(f"{where} is not a round number from 1 to 2^63 - 1: {show(v)}")
        elif what.startswith("hex"):
            _hex(value[field], int(what[3:]), where)
        else:
            _text(value[field], where)


def _transcript(t: object) -> None:
    if not isinstance(t, dict):
        raise Shape(f"transcript is not an object: {show(t)}")
    _keys(t, TRANSCRIPT, ["book_key_check", "follows", "printed"], "transcript", "transcript.")
    for field in ("id", "spec_sha256", "code_sha256", "game"):
        if field.endswith("sha256"):
            _hex(t[field], 64, f"transcript.{field}")
        else:
            _text(t[field], f"transcript.{field}")
    for i, pool in enumerate(_list(t["pools"], "transcript.pools", 1)):
        _text(pool, f"transcript.pools[{i}]")
    _text(t["run_id"], "transcript.run_id")
    for i, party in enumerate(_list(t["parties"], "transcript.parties", 1)):
        _entry(party, "party", f"transcript.parties[{i}]")
    _entry(t["beacon"], "beacon", "transcript.beacon")
    if "book_key_check" in t:
        _hex(t["book_key_check"], 16, "transcript.book_key_check")
    if "follows" in t:
        for i, f in enumerate(_list(t["follows"], "transcript.follows", 1)):
            _entry(f, "followed", f"transcript.follows[{i}]")
    if "printed" in t:  # v4: the printed game's number (or null) and regulation
        p = t["printed"]
        if not isinstance(p, dict):
            raise Shape(f"transcript.printed is not an object: {show(p)}")
        _keys(p, ["number", "regulation"], [], "transcript.printed", "transcript.printed.")
        n = p["number"]
        if n is not None and (type(n) is not int or not 0 <= n <= 2**63 - 1):
            raise Shape(f"transcript.printed.number is not a game number from 0 to 2^63 - 1: {show(n)}")
        _text(p["regulation"], "transcript.printed.regulation")


def problem(doc: dict, reveals: bool = False) -> str | None:
    """The first problem of a bundle (or, with `reveals`, a ceremony file); None when it has none."""
    try:
        fields = TOP + (["reveals"] if reveals else [])
        _keys(doc, fields, [], "the ceremony file" if reveals else "the bundle", "")
        _text(doc["format"], "format")
        _transcript(doc["transcript"])
        _hex(doc["transcript_sha256"], 64, "transcript_sha256")
        for i, c in enumerate(_list(doc["commitments"], "commitments")):
            if c is not None:
                _entry(c, "commitment", f"commitments[{i}]")
        if doc["round"] is not None:
            _entry(doc["round"], "round", "round")
        if doc["seed_commitment"] is not None:
            _hex(doc["seed_commitment"], 64, "seed_commitment")
        if doc["run"] is not None:
            _text(doc["run"], "run")
        if doc["abort"] is not None:
            _entry(doc["abort"], "abort", "abort")
        if reveals:
            for i, r in enumerate(_list(doc["reveals"], "reveals")):
                if r is not None:
                    _entry(r, "reveal", f"reveals[{i}]")
        parties = len(doc["transcript"]["parties"])
        for key in ("commitments",) + (("reveals",) if reveals else ()):
            if len(doc[key]) != parties:
                raise Shape(f"{key} has {len(doc[key])} entries, not one per party ({parties})")
    except Shape as shape:
        return str(shape)
    return None
