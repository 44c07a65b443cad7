"""A third, stand-alone implementation of poolgen-merkle/v2 (docs/merkle.md), used to write merkle.txt.

It shares no code with poolgen/run/merkle.py or audit/merkle.py and uses only the standard library.
It follows the document literally and favours clarity over speed:

- section 1: the row encoding M (columns in the order of their names' UTF-8 bytes, a header of
  names and type tags, then the values);
- section 2: leaf(row) = SHA-256(0x00 || M(row)), node(h_1..h_c) = SHA-256(0x01 || h_1 || ... || h_c);
- section 3: the root by the recursive definition MTH, checked against the level-by-level reading
  for every prefix of the table (0 to 300 rows);
- section 4: audit paths, one step per level below the root, each checked by the section-4 checker.

    python tests/vectors/reference_merkle.py > tests/vectors/merkle.txt
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys

# ---------------------------------------------------------------------------------------------
# The table: column -> polars dtype name, in table column order (not the order M uses).

SCHEMA = {
    "position": "UInt32",
    "ticket": "String",
    "tier": "String",
    "prize_cents": "Int64",
    "salt": "String",
    "spot_0": "UInt8",
    "delta": "Int16",
    "flag": "Boolean",
    "Zeta": "String",
    "é": "Int64",
}

INTEGER_DTYPES = {"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"}
STRING_DTYPES = {"String", "Categorical", "Enum"}
BOOLEAN_DTYPES = {"Boolean"}

NUMBER_OF_ROWS = 300
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

# The first 7 rows are those of the earlier (v1) vector, plus a salt.
FIRST_ROWS = [
    ("lose", 0, 5, -1, False, "", INT64_MIN),
    ("100", 10000, 0, 32767, True, "é€😀", INT64_MAX),
    ("free", 100, 255, -32768, False, 'a"b\\c\n', 0),
    ("2", 200, 1, 0, True, "x", 1),
    ("lose", 0, 2, 7, False, "yy", -2),
    ("5", 500, 3, -7, True, "zzz", 256),
    ("lose", 0, 4, 100, False, "\x00", 65536),
]

TIERS = [
    ("lose", 0),
    ("lose", 0),
    ("lose", 0),
    ("free", 100),
    ("2", 200),
    ("5", 500),
    ("100", 10000),
    ("1000", 100000),
]
ZETAS = [
    "",
    "x",
    "é",
    "€",
    "😀",
    "é€😀",
    'a"b\\c\n',
    "\x00",
    "a\x00b",
    '"',
    "\\",
    "\n",
    "\t\r",
    "ﬁ",
    "e\u0301",
    "Ωmega",
    " ",
    "zzz",
]
E_VALUES = [INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 0, -1, 1, 2**31, -(2**31), 2**32, -(2**32)]


def salt_of(i: int) -> str:
    """32 lower-case hex digits: the first 16 bytes of SHA-256("poolgen-merkle/v2 salt <i>")."""
    return hashlib.sha256(f"poolgen-merkle/v2 salt {i}".encode()).hexdigest()[:32]


def make_row(i: int) -> dict:
    """Row i: rows 0..6 as in v1; later rows from the bytes d = SHA-256("poolgen-merkle/v2 row <i>")."""
    if i < len(FIRST_ROWS):
        tier, prize_cents, spot_0, delta, flag, zeta, e = FIRST_ROWS[i]
    else:
        d = hashlib.sha256(f"poolgen-merkle/v2 row {i}".encode()).digest()
        tier, prize_cents = TIERS[d[0] % len(TIERS)]
        spot_0 = d[1]
        delta = int.from_bytes(d[2:4], "big", signed=True)
        flag = d[4] % 2 == 1
        # a third of the strings from ZETAS, the others "", "z<i>", "z<i>z<i>" or "z<i>z<i>z<i>"
        zeta = ZETAS[d[6] % len(ZETAS)] if d[5] % 3 == 0 else f"z{i}" * (d[6] % 4)
        # half of the integers from E_VALUES, the others any int64
        e = E_VALUES[d[8] % len(E_VALUES)] if d[7] % 2 == 0 else int.from_bytes(d[8:16], "big", signed=True)
    return {
        "position": i,
        "ticket": f"465-{i // 1000:07d}-{i % 1000:03d}",
        "tier": tier,
        "prize_cents": prize_cents,
        "salt": salt_of(i),
        "spot_0": spot_0,
        "delta": delta,
        "flag": flag,
        "Zeta": zeta,
        "é": e,
    }


# ---------------------------------------------------------------------------------------------
# Section 1: the row encoding M.


def u32be(x: int) -> bytes:
    return struct.pack(">I", x)


def tag_of_dtype(dtype: str) -> bytes:
    if dtype in INTEGER_DTYPES:
        return b"i"
    if dtype in STRING_DTYPES:
        return b"s"
    if dtype in BOOLEAN_DTYPES:
        return b"b"
    raise ValueError(f"no encoding for the type {dtype}")


def tag_of_json_value(value: object) -> bytes:
    """The tag of a value of a row given as JSON (bool first: in Python True is also an int)."""
    if isinstance(value, bool):
        return b"b"
    if isinstance(value, int):
        return b"i"
    if isinstance(value, str):
        return b"s"
    raise ValueError(f"no encoding for the value {value!r}")


def encode_value(tag: bytes, value: object) -> bytes:
    if tag == b"i":
        assert isinstance(value, int) and not isinstance(value, bool)
        assert INT64_MIN <= value <= INT64_MAX
        return struct.pack(">q", value)
    if tag == b"s":
        assert isinstance(value, str)
        data = value.encode("utf-8")
        return u32be(len(data)) + data
    if tag == b"b":
        assert isinstance(value, bool)
        return b"\x01" if value else b"\x00"
    raise ValueError(f"unknown tag {tag!r}")


def message(row: dict, tags: dict) -> bytes:
    """M(row) = header || value_1 || ... || value_k, the columns sorted by their names' UTF-8 bytes."""
    names = sorted(row, key=lambda name: name.encode("utf-8"))
    header = u32be(len(names))
    for name in names:
        header += u32be(len(name.encode("utf-8"))) + name.encode("utf-8") + tags[name]
    values = b""
    for name in names:
        values += encode_value(tags[name], row[name])
    return header + values


def table_tags() -> dict:
    return {name: tag_of_dtype(dtype) for name, dtype in SCHEMA.items()}


def json_row_tags(row: dict) -> dict:
    return {name: tag_of_json_value(value) for name, value in row.items()}


# ---------------------------------------------------------------------------------------------
# Section 2: leaves and nodes.


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def leaf(row: dict) -> bytes:
    return sha256(b"\x00" + message(row, table_tags()))


def node(children: list) -> bytes:
    assert 2 <= len(children) <= 16
    assert all(len(h) == 32 for h in children)
    return sha256(b"\x01" + b"".join(children))


# ---------------------------------------------------------------------------------------------
# Section 3: the tree, recursively (the reading the vector file is written from).


def largest_power_of_16_below(n: int) -> int:
    """The largest power of 16 that is strictly less than n (n >= 2)."""
    k = 1
    while k * 16 < n:
        k = k * 16
    return k


def mth(rows: list) -> bytes:
    n = len(rows)
    if n == 0:
        return sha256(b"")
    if n == 1:
        return leaf(rows[0])
    k = largest_power_of_16_below(n)
    c = (n + k - 1) // k
    assert 2 <= c <= 16
    return node([mth(rows[j * k : (j + 1) * k]) for j in range(c)])


# Section 3, level by level (the second reading, used as a check and for the paths of section 4).


def levels(rows: list) -> list:
    """All levels of the tree: levels[0] the leaf hashes, levels[-1] == [root] (for n >= 1)."""
    current = [leaf(row) for row in rows]
    result = [current]
    while len(current) > 1:
        upper = []
        for g in range(0, len(current), 16):
            group = current[g : g + 16]
            if len(group) == 1:
                upper.append(group[0])
            else:
                upper.append(node(group))
        current = upper
        result.append(current)
    return result


def level_root(rows: list) -> bytes:
    if not rows:
        return sha256(b"")
    return levels(rows)[-1][0]


# ---------------------------------------------------------------------------------------------
# Section 4: audit paths.


def path(rows: list, i: int) -> list:
    """One step per level below the root, from the leaf upwards; [] for a tree of one leaf."""
    assert 0 <= i < len(rows)
    steps = []
    j = i
    for level in levels(rows)[:-1]:
        g = j - j % 16
        c = min(16, len(level) - g)
        steps.append(
            {"left": [h.hex() for h in level[g:j]], "right": [h.hex() for h in level[j + 1 : g + c]]}
        )
        j = j // 16
    return steps


def expected_shape(n: int, i: int) -> list:
    """The (len(left), len(right)) of every step, from i and n alone."""
    shape = []
    size, j = n, i
    while size > 1:
        g = j - j % 16
        c = min(16, size - g)
        shape.append((j % 16, c - 1 - j % 16))
        size, j = (size + 15) // 16, j // 16
    return shape


def check_path(row: dict, n: int, i: int, steps: list, root: bytes) -> bool:
    """The checker of section 4, with the row given as JSON (tags from the JSON values)."""
    if [(len(s["left"]), len(s["right"])) for s in steps] != expected_shape(n, i):
        return False
    h = sha256(b"\x00" + message(row, json_row_tags(row)))
    for step in steps:
        if step["left"] or step["right"]:
            left = [bytes.fromhex(x) for x in step["left"]]
            right = [bytes.fromhex(x) for x in step["right"]]
            h = node(left + [h] + right)
    return h == root


# ---------------------------------------------------------------------------------------------
# The vector file.

ROOT_SIZES = [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 255, 256, 257, 272, 273, 300]
PATHS = [
    (1, 0),
    (17, 0),
    (17, 15),
    (17, 16),
    (33, 32),
    (257, 0),
    (257, 100),
    (257, 255),
    (257, 256),
    (300, 0),
    (300, 17),
    (300, 299),
]
# Message lines for every row (the file stays under 250 KB; were it larger, only the first 20).
MESSAGE_ROWS = NUMBER_OF_ROWS

HEADER = f"""\
# Known-answer vector for the Merkle tree of docs/merkle.md (poolgen-merkle/v2).
# Written by `python tests/vectors/reference_merkle.py > tests/vectors/merkle.txt`, a stand-alone
# script (standard library only) that shares no code with poolgen/run/merkle.py or audit/merkle.py.
# M = struct.pack('>I', number of columns), then per column in the order of the names' UTF-8 bytes
# struct.pack('>I', len(name)) + name + tag (b'i' integers, b's' strings, b'b' booleans), then per
# column in the same order the value: struct.pack('>q', v) for integers, b'\\x01'/b'\\x00' for
# booleans, struct.pack('>I', len) + UTF-8 for strings; leaf = sha256(b'\\x00' + M); node(h_1..h_c) =
# sha256(b'\\x01' + h_1 + ... + h_c); the root by the recursive definition MTH([]) = sha256(b''),
# MTH([d]) = leaf(d), MTH(D) = node(MTH(D[0:k]), MTH(D[k:2k]), ..., MTH(D[(c-1)k:n])), k the largest
# power of 16 strictly below n = len(D), c = ceil(n / k); checked against the level-by-level reading
# (groups of 16 from the left, a group of one moves up unchanged) for every n from 0 to {NUMBER_OF_ROWS}.
# Rows 0..6 are those of the v1 vector; the other values come from sha256(b'poolgen-merkle/v2 row <i>');
# salt = sha256(b'poolgen-merkle/v2 salt <i>').hexdigest()[:32] (i in decimal).
# Lines: 'schema <json: column -> polars dtype, in table column order>'; 'row <json>' (table order);
# 'message <i> <hex of M(row i)>' (i < {MESSAGE_ROWS}); 'leaf <i> <hex>';
# 'root <n> <hex>' = root of the first n rows; 'path <n> <i> <json>' = the audit path of leaf i in
# the tree of the first n rows (docs/merkle.md section 4: one step per level below the root, from
# the leaf upwards, each {{"left": [hex...], "right": [hex...]}}; [] for a tree of one leaf)."""


def self_checks(rows: list) -> None:
    # The example of section 1.
    example = {"tier": "2", "prize_cents": 200}
    expected = "".join(
        ["00000002", "0000000b", "7072697a655f63656e7473", "69", "00000004", "74696572", "73"]
        + ["00000000000000c8", "00000001", "32"]
    )
    assert message(example, json_row_tags(example)).hex() == expected
    # The tags from the table's types are those from the JSON values (so a proof's row gives the same M).
    for row in rows:
        assert json_row_tags(row) == table_tags()
    # Both readings of section 3 give the same root for every prefix.
    for n in range(NUMBER_OF_ROWS + 1):
        assert mth(rows[:n]) == level_root(rows[:n]), f"the two readings of section 3 differ at n = {n}"
    # Every path of every leaf of a few trees leads to the root, and a wrong position does not.
    for n in (1, 2, 16, 17, 33, 257, 273, NUMBER_OF_ROWS):
        root = mth(rows[:n])
        for i in range(n):
            assert check_path(rows[i], n, i, path(rows[:n], i), root)
        if n > 1:
            assert not check_path(rows[1], n, 0, path(rows[:n], 0), root)


def main() -> None:
    rows = [make_row(i) for i in range(NUMBER_OF_ROWS)]
    for row in rows:
        assert list(row) == list(SCHEMA)
        assert len(row["salt"]) == 32 and row["salt"] == row["salt"].lower()
    self_checks(rows)

    lines = HEADER.splitlines()
    lines.append("schema " + json.dumps(SCHEMA, ensure_ascii=False))
    for row in rows:
        lines.append("row " + json.dumps(row, ensure_ascii=False))
    for i in range(MESSAGE_ROWS):
        lines.append(f"message {i} {message(rows[i], table_tags()).hex()}")
    for i in range(NUMBER_OF_ROWS):
        lines.append(f"leaf {i} {leaf(rows[i]).hex()}")
    for n in ROOT_SIZES:
        lines.append(f"root {n} {mth(rows[:n]).hex()}")
    for n, i in PATHS:
        lines.append(f"path {n} {i} {json.dumps(path(rows[:n], i))}")
    sys.stdout.buffer.write(("\n".join(lines) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
