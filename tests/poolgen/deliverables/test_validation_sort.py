"""The validation files' sort (poolgen/deliverables/validation.py `sorted_rows`): rows in byte order,
whether they are ordered by their first 8 bytes as one big-endian integer (no two alike there) or by
all their bytes (two or more share their first 8)."""

from __future__ import annotations

import numpy as np

from poolgen.deliverables.validation import sorted_rows


def _rows(*hexes: str) -> np.ndarray:
    return np.array([list(bytes.fromhex(h)) for h in hexes], dtype=np.uint8)


def test_rows_are_ordered_by_their_first_bytes_not_as_native_integers():
    # read as little-endian integers these would sort 0100.. before 0001..; by their bytes 0001.. first
    rows = _rows("0100000000000000" + "ff" * 8, "0001000000000000" + "00" * 8, "00000000000000ff" + "11" * 8)
    assert sorted_rows(rows).tolist() == _rows(
        "00000000000000ff" + "11" * 8, "0001000000000000" + "00" * 8, "0100000000000000" + "ff" * 8).tolist()


def test_rows_sharing_their_first_8_bytes_are_ordered_by_the_rest():
    same = "a5" * 8
    rows = _rows(same + "02" + "00" * 7, "00" * 16, same + "01" + "ff" * 7, same + "01" + "00" * 7)
    assert sorted_rows(rows).tolist() == _rows("00" * 16, same + "01" + "00" * 7, same + "01" + "ff" * 7,
                                               same + "02" + "00" * 7).tolist()


def test_random_rows_sort_as_byte_strings_whatever_their_width_or_count():
    for n, width in ((0, 32), (1, 16), (2, 32), (5_000, 16), (5_000, 32)):
        rows = np.frombuffer(np.random.default_rng(n).bytes(n * width), dtype=np.uint8).reshape(n, width)
        want = np.sort(rows.copy().view(f"S{width}").ravel()).view(np.uint8).reshape(n, width)
        got = sorted_rows(rows)
        assert got.shape == (n, width) and got.tobytes() == want.tobytes()


def test_sorted_runs_are_merged_into_one_order():
    rows = _rows("03" * 16, "05" * 16, "01" * 16, "04" * 16, "02" * 16)  # runs 03 05 | 01 04 | 02
    assert sorted_rows(rows, runs=True).tolist() == _rows(*(f"0{k}" * 16 for k in range(1, 6))).tolist()
