"""The audit's own input boundary (audit never imports poolgen, so it keeps its own; the bounds are
the same as poolgen's, listed in the README's "Limits" table).

`read_bounded` opens without blocking, refuses anything but a regular file, and reads at most
`limit` + 1 bytes; `read_secret` also refuses a seed file others may read. `parse_json` bounds
nesting before the parser recurses and refuses what no canonical document holds: NaN, infinities,
floats, integers of more than MAX_INT_DIGITS digits. Failures are UnusableInput (exit 2).
"""

from __future__ import annotations

import json
import os
import re
import stat
import unicodedata
from itertools import accumulate
from pathlib import Path
from typing import Any

from audit.errors import UnusableInput

MAX_SPEC_BYTES = 1 << 20
MAX_SEED_FILE_BYTES = 1 << 10
MAX_KEY_FILE_BYTES = 1 << 16
MAX_MANIFEST_BYTES = 1 << 24
MAX_SIGNATURE_BYTES = 1 << 10  # manifest.sig is 64 bytes
MAX_PROOF_BYTES = 1 << 20
MAX_NESTING = 32
MAX_INT_DIGITS = 30  # the largest figure of a manifest (a prize cost in cents) has under 20
MAX_DIGIT_RUN = 1000
MAX_POOL_TICKETS = 10_000_000  # a manifest's pool, as poolgen's spec loader bounds it
MAX_ORDER_TICKETS = 100_000_000  # a spec's order (all its pools), as poolgen's spec loader bounds it
MAX_POOLS = 64
MAX_TICKET_SPOTS = 1024  # a printed ticket's spots, all areas, as poolgen's spec loader bounds them
MAX_TIERS = 256

READABLE_SECRET_FLAG = "--allow-readable-secret"


def _open_regular(path: Path, what: str) -> tuple[int, os.stat_result]:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UnusableInput(f"{path}: {what} file not found") from None
    except OSError as exc:
        raise UnusableInput(f"{path}: cannot read {what} file: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode):
        os.close(fd)
        raise UnusableInput(f"{path}: is a folder, not a {what} file")
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise UnusableInput(f"{path}: is not a regular file (a pipe, device or socket); give a {what} file")
    return fd, st


def _read_fd(fd: int, path: Path, what: str, limit: int) -> bytes:
    size = os.fstat(fd).st_size
    if size > limit:  # refused before a byte is read
        os.close(fd)
        raise UnusableInput(f"{path}: {size:,} bytes, larger than {limit:,}; not a {what} file")
    chunks, total = [], 0
    try:
        while total <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise UnusableInput(f"{path}: cannot read {what} file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if total > limit:
        raise UnusableInput(f"{path}: larger than {limit:,} bytes; not a {what} file")
    return b"".join(chunks)


def read_bounded(path: Path, what: str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or UnusableInput naming it."""
    fd, _ = _open_regular(Path(path), what)
    return _read_fd(fd, Path(path), what, limit)


def read_input(path: Path, what: str, limit: int = 1 << 16) -> bytes:
    """The bytes of an input file (a key, spec, ceremony or seed file), or UnusableInput naming it."""
    return read_bounded(path, what, limit)


def read_secret(path: Path, what: str, limit: int, allow_readable: bool = False) -> bytes:
    """As `read_bounded`, refusing a file its group or others may read unless `allow_readable`."""
    fd, st = _open_regular(Path(path), what)
    if st.st_mode & 0o077 and not allow_readable:
        os.close(fd)
        raise UnusableInput(f"{path}: the {what} file is mode {stat.S_IMODE(st.st_mode):04o}: others may "
                            f"read it; make it private (chmod 600) or give {READABLE_SECRET_FLAG}")
    return _read_fd(fd, Path(path), what, limit)


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def nesting_depth(text: str) -> int:
    """The deepest nesting of brackets and braces outside JSON strings."""
    marks = _BRACKETS.findall(_JSON_STRING.sub("", text))
    return max(accumulate(1 if m in "[{" else -1 for m in marks), default=0)


class _Refused(ValueError):
    pass


def _one_of_each_key(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are distinct: a repeated key is read differently by different parsers (the
    first or the last wins), so a document holding one could show a reader one thing and prove another."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _Refused(f"the key {ascii(key)} appears twice in one object")
        seen.add(key)
    return dict(pairs)


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"an integer of more than {MAX_INT_DIGITS} digits")
    return int(text)


def _no_float(text: str) -> float:
    raise _Refused(f"a fractional number ({text[:20]}); canonical documents hold none")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused(f"a number out of range ({text[:20]})")
    return value


def _no_constant(text: str) -> float:
    raise _Refused(f"{text}; canonical documents hold no NaN or infinity")


def parse_json(data: bytes, name: str, what: str, floats: bool = False) -> object:
    """A JSON document within the bounds above, or UnusableInput naming `name` and what is wrong.
    With `floats`, finite fractional numbers are read (for the checker to refuse by field)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnusableInput(f"{name}: not a JSON {what}: not UTF-8 text (byte {exc.start})") from None
    if nesting_depth(text) > MAX_NESTING:
        raise UnusableInput(f"{name}: not a {what}: nested more than {MAX_NESTING} deep")
    try:
        return json.loads(text, parse_int=_integer, parse_float=_finite_float if floats else _no_float,
                          parse_constant=_no_constant, object_pairs_hook=_one_of_each_key)
    except _Refused as exc:
        raise UnusableInput(f"{name}: not a usable {what}: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise UnusableInput(f"{name}: not a JSON {what}: {str(exc)[:80] or type(exc).__name__}") from None


_TOML_NOISE = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
                         re.S)


def bound_toml(text: str) -> None:
    """Refuse a TOML text nested too deep or holding an enormous digit run, before tomllib reads it."""
    marks = _BRACKETS.findall(_TOML_NOISE.sub("", text))
    if max(accumulate(1 if m in "[{" else -1 for m in marks), default=0) > MAX_NESTING:
        raise UnusableInput(f"not a spec: brackets nested more than {MAX_NESTING} deep")
    if re.search(rf"\d{{{MAX_DIGIT_RUN + 1}}}", text):
        raise UnusableInput(f"not a spec: a number of more than {MAX_DIGIT_RUN} digits")


# the characters that reorder text on display (Unicode bidirectional marks, embeddings, overrides and
# isolates: docs/new-game.md, section 1)
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


MAX_INTEGER = 2**63 - 1  # TOML's own integer range, which tomllib does not hold a number to
# the lengths a spec is held to (README, "Limits"; poolgen's loader refuses longer): a text, a list, a table;
# a report's table prints the game's name, regulation and source in one cell
MAX_STRING_CHARS = 10_000
MAX_TIER_ID_CHARS = 64
MAX_LIST_ITEMS = 1024
_TEXT_LIMITS = {"game.name": 200, "game.regulation": 200, "game.source": 500}
_LIST_LIMITS = {"tiers": MAX_TIERS, "symbols": 1024}


def printable_text(doc: object, where: str = "") -> None:
    """Refuse a string of a parsed spec holding a control character (Unicode category Cc) or a
    bidirectional control character, or longer than poolgen's loader takes (_TEXT_LIMITS), a list or
    table of more items than it takes (_LIST_LIMITS), and a whole number outside TOML's 64-bit range,
    naming its field, in the loader's words (docs/new-game.md, section 1)."""
    if isinstance(doc, int) and not isinstance(doc, bool) and not -MAX_INTEGER <= doc <= MAX_INTEGER:
        raise UnusableInput(f"{where}: {doc} is out of range (a whole number below 2**63)")
    if isinstance(doc, str):
        for limit in (MAX_STRING_CHARS, _text_limit(where)):
            if len(doc) > limit:
                raise UnusableInput(f"{where}: text longer than {limit:,} characters")
        bad = next((c for c in doc if unicodedata.category(c) == "Cc"), None)
        if bad is not None:
            raise UnusableInput(f"{where}: text holds a control character (U+{ord(bad):04X})")
        bad = next((c for c in doc if c in BIDI_CONTROLS), None)
        if bad is not None:
            raise UnusableInput(f"{where}: text holds a bidirectional control character (U+{ord(bad):04X})")
    elif isinstance(doc, list):
        limit = _LIST_LIMITS.get(where, MAX_LIST_ITEMS)
        if len(doc) > limit:
            raise UnusableInput(f"{where}: {len(doc):,} entries; at most {limit:,}")
        for i, item in enumerate(doc):
            printable_text(item, f"{where}[{i}]")
    elif isinstance(doc, dict):
        if len(doc) > MAX_LIST_ITEMS:
            raise UnusableInput(f"{where or 'spec'}: {len(doc):,} fields; at most {MAX_LIST_ITEMS:,}")
        for key, item in doc.items():
            printable_text(item, f"{where}.{key}" if where else str(key))


def _text_limit(where: str) -> int:
    if re.fullmatch(r"tiers\[\d+\]\.id", where):
        return MAX_TIER_ID_CHARS
    return _TEXT_LIMITS.get(where, MAX_STRING_CHARS)


def read_manifest_bytes(path: Path) -> bytes:
    """manifest.json's exact bytes, once they are known to be a bounded JSON document without NaN,
    floats or enormous integers (what is wrong with it otherwise is the checklist's to say)."""
    data = read_bounded(path, "manifest", MAX_MANIFEST_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # not JSON: the checklist says so
    if nesting_depth(text) > MAX_NESTING:
        raise UnusableInput(f"{path}: not a usable manifest: nested more than {MAX_NESTING} deep")
    try:
        json.loads(text, parse_int=_integer, parse_float=_no_float, parse_constant=_no_constant,
                   object_pairs_hook=_one_of_each_key)
    except _Refused as exc:
        raise UnusableInput(f"{path}: not a usable manifest: {exc}") from None
    except ValueError:
        pass  # not JSON: the checklist says so
    return data


_PEM = re.compile(rb"-----BEGIN ([A-Z0-9 ]{1,64})-----\r?\n[A-Za-z0-9+/=\r\n]{1,65536}"
                  rb"-----END \1-----[ \t\r\n]*")


def pem_problem(data: bytes) -> str | None:
    """Why a key file holding a PEM block is not one PEM block and nothing else (a byte-order mark or text
    before it, text after it), or None: cryptography's loader skips whatever surrounds the block, so a
    file could carry text a reader takes for part of the key. A file with no block is left to it."""
    if b"-----BEGIN " not in data or _PEM.fullmatch(data):
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        return "a byte-order mark before -----BEGIN (the file must be one PEM block and nothing else)"
    if not data.startswith(b"-----BEGIN "):
        return "text before -----BEGIN (the file must be one PEM block and nothing else)"
    if _PEM.match(data):
        return "text after -----END (the file must be one PEM block and nothing else)"
    return "not one PEM block (-----BEGIN, base64 lines, the same -----END, nothing else)"
