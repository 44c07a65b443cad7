"""The shape of a ceremony file (`verify --ceremony`) and of a published ceremony bundle (`poolgen ceremony
publish`: the file without `reveals`), docs/ceremony.md, "Files": every field the format lists, of its
type, and no other.

A file that breaks it is not a ceremony file or bundle: unusable input (exit 2, one line naming the file
and the field), never a step that fails; what a well-formed one says is step 5's and 7's to judge.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["bundle_problem", "ceremony_problem"]

_HEX = {n: re.compile(f"[0-9a-f]{{{n}}}") for n in (16, 64, 128)}
_MAX_ROUND = 2**63 - 1  # a drand round number, as u64(round) hashes it (docs/ceremony.md)

_TRANSCRIPT = {"id": "text", "spec_sha256": "hex64", "code_sha256": "hex64", "game": "text",
               "pools": "texts", "run_id": "text", "parties": "parties", "beacon": "beacon"}
_TRANSCRIPT_OPTIONAL = {"book_key_check": "hex16", "follows": "follows", "printed": "printed"}
_BUNDLE = {"format": "text", "transcript": "transcript", "transcript_sha256": "hex64",
           "commitments": "commitments", "round": "round", "seed_commitment": "hex64?", "run": "text?",
           "abort": "abort"}


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _keys(doc: dict[str, Any], required: set[str], optional: set[str], at: str) -> str | None:
    missing = sorted(required - set(doc))
    if missing:
        return f"{at}{missing[0]} is missing"
    extra = sorted(set(doc) - required - optional, key=str)
    if extra:
        return f"{at[:-1] or 'the bundle'} holds a field the format does not have: {_show(extra[0])}"
    return None


def _object(value: object, keys: dict[str, str], at: str) -> str | None:
    if not isinstance(value, dict):
        return f"{at[:-1]} is not an object: {_show(value)}"
    return _keys(value, set(keys), set(), at) or next(
        (p for k, kind in keys.items() if (p := _value(value[k], kind, f"{at}{k}"))), None)


def _list(value: object, kind: str, at: str, least: int = 0) -> str | None:
    if not isinstance(value, list) or len(value) < least:
        return f"{at} is not a list{' of one or more' if least else ''}: {_show(value)}"
    return next((p for i, v in enumerate(value) if (p := _value(v, kind, f"{at}[{i}]"))), None)


def _value(value: object, kind: str, at: str) -> str | None:  # noqa: PLR0911 (one kind a line)
    if kind.endswith("?"):
        return None if value is None else _value(value, kind[:-1], at)
    if kind == "text":
        return None if isinstance(value, str) else f"{at} is not text: {_show(value)}"
    if kind.startswith("hex"):
        n = int(kind[3:])
        return None if isinstance(value, str) and _HEX[n].fullmatch(value) else \
            f"{at} is not {n} lower-case hex digits: {_show(value)}"
    if kind == "texts":
        return _list(value, "text", at, least=1)
    if kind == "parties":
        return _list(value, "party", at, least=1)
    if kind == "party":  # a key's spelling is step 5's and 7's to judge (transcript_rules): text here
        return _object(value, {"name": "text", "public_key": "text"}, f"{at}.")
    if kind == "beacon":
        return _object(value, {"chain": "text", "round": "round_number", "reveals_close": "text"}, f"{at}.")
    if kind == "round_number":
        ok = type(value) is int and 1 <= value <= _MAX_ROUND
        return None if ok else f"{at} is not a round number from 1 to 2^63 - 1: {_show(value)}"
    if kind == "follows":
        return _list(value, "followed", at, least=1)
    if kind == "followed":
        return _object(value, {"run_id": "text", "manifest_sha256": "hex64", "transcript_sha256": "hex64"},
                       f"{at}.")
    if kind == "printed":
        return _object(value, {"number": "number?", "regulation": "text"}, f"{at}.")
    if kind == "number":  # a printed game's number, as u64(number) hashes it
        ok = type(value) is int and 0 <= value <= _MAX_ROUND
        return None if ok else f"{at} is not a game number from 0 to 2^63 - 1: {_show(value)}"
    if kind == "commitments":
        return _list(value, "commitment?", at)
    if kind == "reveals":
        return _list(value, "reveal?", at)
    if kind == "reveal":
        return _object(value, {"name": "text", "value": "hex64", "revealed_at": "text",
                               "signature": "hex128"}, f"{at}.")
    if kind == "commitment":
        return _object(value, {"name": "text", "commitment": "hex64", "signature": "hex128"}, f"{at}.")
    if kind == "round":
        return None if value is None else _object(
            value, {"round": "round_number", "signature": "text", "randomness": "text"}, f"{at}.")
    if kind == "abort":
        return None if value is None else _object(
            value, {"name": "text", "reason": "text", "signature": "text"}, f"{at}.")
    if kind == "transcript":
        if not isinstance(value, dict):
            return f"{at} is not an object: {_show(value)}"
        return _keys(value, set(_TRANSCRIPT), set(_TRANSCRIPT_OPTIONAL), f"{at}.") or next(
            (p for k, kind in (_TRANSCRIPT | _TRANSCRIPT_OPTIONAL).items()
             if k in value and (p := _value(value[k], kind, f"{at}.{k}"))), None)
    raise AssertionError(kind)


def bundle_problem(doc: dict[str, Any]) -> str | None:
    """The first field of a bundle (a JSON object of format poolgen-ceremony/2) that the format does not
    allow, as `FIELD is ...`; None if every field is there, of its type, and no other is."""
    return _problem(doc, _BUNDLE, "the bundle")


def ceremony_problem(doc: dict[str, Any]) -> str | None:
    """The same of a ceremony file, which holds `reveals` too."""
    return _problem(doc, _BUNDLE | {"reveals": "reveals"}, "the ceremony file")


def _problem(doc: dict[str, Any], fields: dict[str, str], what: str) -> str | None:
    problem = _keys(doc, set(fields), set(), "") or next(
        (p for k, kind in fields.items() if (p := _value(doc[k], kind, k))), None)
    if problem is not None:
        return problem.replace("the bundle holds", f"{what} holds", 1)
    parties = len(doc["transcript"]["parties"])
    for key in ("commitments", "reveals"):
        if key in fields and len(doc[key]) != parties:
            return f"{key} has {len(doc[key])} entries, not one per party ({parties})"
    return None
