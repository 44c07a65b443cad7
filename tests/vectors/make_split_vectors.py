"""Prints tests/vectors/split.txt: known answers of the split of an order's counts over its pools
(docs/randomness.md, section 4b), written from that section alone on the stand-alone reference
keystream (reference_drbg.py), without poolgen or audit. Run from the project root:

    PYTHONPATH=tests/vectors python tests/vectors/make_split_vectors.py > tests/vectors/split.txt

tests/poolgen/run/test_split.py recomputes every line with `lines()` and compares poolgen's and
audit's draws with the file."""

from __future__ import annotations

from reference_drbg import keystream

SEED = bytes(range(32))
RULES = "vectors"
# (pool sizes, each tier's count per order): six equal pools and a tier of 4; New Hampshire 1245's
# order of 1,010,300 in pools of 250,000 and a last pool of 10,300 (some of its counts); a tier whose
# shares are whole (nothing drawn) between two that split
CASES = (([600] * 6, [4, 1, 7, 600, 3000, 5]),
         ([250_000] * 4 + [10_300], [121_234, 20, 5, 30, 2_056]),
         ([100] * 3 + [40], [3, 34, 1]))


class Words:
    """The label's keystream as 64-bit little-endian words, read in order."""

    def __init__(self, label: tuple[str, ...]) -> None:
        self.data, self.at = keystream(SEED, label, 8 * 4096), 0

    def next(self) -> int:
        word = int.from_bytes(self.data[self.at:self.at + 8], "little")
        self.at += 8
        return word


def split(words: Words, count: int, sizes: list[int]) -> list[int]:
    n = sum(sizes)
    floors = [count * s // n for s in sizes]
    rests = [count * s % n for s in sizes]
    if sum(rests) == 0:
        return floors
    while True:  # permutation(P): P words as keys, all drawn again on a tie, sorted ascending
        keys = [words.next() for _ in sizes]
        if len(set(keys)) == len(keys):
            break
    visit = sorted(range(len(sizes)), key=lambda k: keys[k])
    mask = (1 << (n - 1).bit_length()) - 1
    while True:  # integers(N): a word masked, kept below N
        u = words.next() & mask
        if u < n:
            break
    running = 0
    for k in visit:  # pool k covers [running, running + r_k): up iff a point u + jN lies in it
        lo, running = running, running + rests[k]
        floors[k] += any(lo <= u + j * n < running for j in range(sum(rests) // n))
    return floors


def lines() -> list[str]:
    out = []
    for sizes, counts in CASES:
        words = Words(("poolgen/v1", RULES, "order", "split"))
        table = [split(words, c, sizes) for c in counts]
        shown = " | ".join(" ".join(str(row[k]) for row in table) for k in range(len(sizes)))
        out.append(f"split(sizes={','.join(map(str, sizes))}; counts={','.join(map(str, counts))}) = {shown}")
    return out


if __name__ == "__main__":
    print("# Known answers of the split of docs/randomness.md section 4b: seed bytes(range(32)), stream")
    print(f"# poolgen/v1/{RULES}/order/split; each line the order's pool sizes, each tier's count per order,")
    print("# and per pool (separated by |) its count of each tier. Made by make_split_vectors.py from the")
    print("# reference keystream (reference_drbg.py), written from the section alone.")
    for line in lines():
        print(line)
