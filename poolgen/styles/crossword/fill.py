"""Laying out crossword tickets (docs/styles/crossword.md, section 7): the grids are filled the same
way for every ticket, then YOUR LETTERS drawn uniformly among the letter sets that complete exactly
the tier's number of words; a ticket whose grids no letter set fits is drawn again."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

import numpy as np

from poolgen.errors import RunError
from poolgen.rng import Stream, derive_stream, integers, row_permutations
from poolgen.styles.crossword import bonus as bonus_word
from poolgen.styles.crossword import doubler
from poolgen.styles.crossword.grids import Grid
from poolgen.styles.crossword.words import Lexicon

__all__ = ["PROBE", "ROUNDS", "feasible", "fill_grids", "lay_tickets", "letter_sets"]

ROUNDS = 64  # rejection rounds of YOUR LETTERS before a ticket's letter sets are enumerated
TRIES = 10_000  # a ticket drawn again this often: the tier cannot be laid out (RunError)
PROBE = (256, 64)  # what `check` draws to see that a number of completed words can be laid out
SMALL = 1 << 16  # letter sets at most this many: many rows' words tested against all of them at once


def fill_grids(lex: Lexicon, grids: Sequence[Grid], m: int, stream: Stream) -> np.ndarray:
    """(m, S) word ids, every grid's words in slot order, grid after grid (section 7, step 1)."""
    parts = []
    for g in grids:
        words = np.zeros((m, len(g.slots)), dtype=np.int64)
        todo = np.arange(m)
        while todo.size:
            dead = np.zeros(todo.size, dtype=bool)
            for s in g.order:
                n = len(g.slots[s].cells)
                up = g.parent[s]
                if up is None:
                    key = np.full(todo.size, lex.root(n), dtype=np.int64)
                else:
                    letter = lex.letters[words[todo, up[0]], up[1]]
                    key = lex.key(n, up[2], letter)
                size = lex.size[key]
                dead |= size == 0
                pick = integers(stream, np.maximum(size, 1))
                words[todo, s] = lex.ids[np.minimum(lex.start[key] + pick, lex.ids.size - 1)]
            todo = todo[dead]
        parts.append(words)
    return np.concatenate(parts, axis=1)


@cache
def letter_sets(alphabet: int, shown: int) -> np.ndarray:
    """Every set of letters left out (alphabet - shown of them) as a bit mask, in lexicographic order (of
    each set's letters, least first: `itertools.combinations`)."""
    blocks, order = _set_blocks(alphabet, shown)
    sets: np.ndarray = _laid(blocks, alphabet)[order]
    return sets


def _laid(blocks: tuple[tuple[np.ndarray, np.ndarray], ...], alphabet: int) -> np.ndarray:
    """The sets of `_set_blocks` as bit masks, block after block, row by row."""
    if not blocks:
        return np.zeros(0, dtype=np.int64)
    return np.concatenate([(lo[:, None] | (hi[None, :] << (alphabet // 2))).ravel() for lo, hi in blocks])


@cache
def _set_blocks(alphabet: int, shown: int) -> tuple[tuple[tuple[np.ndarray, np.ndarray], ...], np.ndarray]:
    """The sets of letters left out as blocks: per number k of letters below alphabet // 2, every such k
    letters (low masks) with every choice of the rest above (high masks, shifted down), row by row; and
    where each set of lexicographic order stands in the blocks laid end to end. Of two sets, the first
    in that order holds the least letter the two do not share: it has the greater mask read with its
    bits reversed, so the order is the masks so read, descending."""
    low, out = alphabet // 2, alphabet - shown

    def masks(letters: range, k: int) -> np.ndarray:
        return np.array([sum(1 << (c - letters.start) for c in combo) for combo in combinations(letters, k)],
                        dtype=np.int64)

    blocks = tuple((masks(range(low), k), masks(range(low, alphabet), out - k))
                   for k in range(out + 1) if k <= low and out - k <= alphabet - low)
    laid = _laid(blocks, alphabet)
    mirrored = np.zeros(laid.size, dtype=np.int64)
    for c in range(alphabet):
        mirrored |= ((laid >> c) & 1) << (alphabet - 1 - c)
    return blocks, np.argsort(-mirrored, kind="stable")


Spans = tuple[tuple[int, int], ...]  # the words counted together: (first, end) slot ranges, one a legend


def _halves(word_masks: np.ndarray, alphabet: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Words 64 at a time as the bits of a number: per chunk, for every subset of each half of the
    alphabet, the words holding one of its letters (built by doubling, 2^13 subsets a half for 26)."""
    low = alphabet // 2
    bit = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
    out = []
    for start in range(0, len(word_masks), 64):
        chunk = np.asarray(word_masks[start:start + 64], dtype=np.int64)
        holds = (chunk[None, :] >> np.arange(alphabet, dtype=np.int64)[:, None]) & 1  # (letter, word)
        per_letter = np.bitwise_or.reduce(np.where(holds == 1, bit[:chunk.size], np.uint64(0)), axis=1)
        halves = []
        for letters in (per_letter[:low], per_letter[low:]):
            by_subset = np.zeros(1, dtype=np.uint64)
            for word_bits in letters:  # subsets with letter i: those without it, ORed with its words
                by_subset = np.concatenate((by_subset, by_subset | word_bits))
            halves.append(by_subset)
        out.append((halves[0], halves[1]))
    return out


@cache
def _rank(alphabet: int, shown: int) -> np.ndarray:
    """Where each set of `_set_blocks`' order (blocks laid end to end) stands in `letter_sets` order."""
    order = _set_blocks(alphabet, shown)[1]
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return rank


def _span_tests(count: int, lo: np.ndarray, hi: np.ndarray,
                spans: Spans) -> list[tuple[list[int], int, int]] | None:
    """Per span that can fail, (its words as bits of each chunk of 64 words, least, most words missed),
    the narrowest ranges first; None when a span cannot be met at all."""
    tests = []
    for k, (a, b) in enumerate(spans):
        least, most = max(0, (b - a) - int(hi[k])), (b - a) - int(lo[k])
        if most < least:
            return None
        if least > 0 or most < b - a:  # a span whatever its count (0 .. all) asks nothing
            bits = [((1 << min(max(b - c, 0), 64)) - 1) ^ ((1 << min(max(a - c, 0), 64)) - 1)
                    for c in range(0, count, 64)]
            tests.append(((most - least + 1) / (b - a + 1), bits, least, most))
    return [(bits, least, most) for _, bits, least, most in sorted(tests, key=lambda t: t[0])]


def _fitting(word_masks: np.ndarray, lo: np.ndarray, hi: np.ndarray, alphabet: int, shown: int,
             bonus: tuple[int, bool] | None, spans: Spans) -> np.ndarray:
    """The indices, in `letter_sets` order, of the sets of letters left out that complete lo[k]..hi[k]
    of one ticket's words in each span k and, with `bonus` (its word's letter mask, whether completed),
    complete the bonus word or not: tested block by block (`_set_blocks`), put in order once. (The sets
    are many, 1,562,275 of 26 letters less 18 shown: a block at a time stays in the cache.) Every
    word's miss is found at once (its bit ORed from the set's two halves); the spans are then tested
    the narrowest first, each on the sets the others left: the same sets as testing them all. First,
    a block's halves no set can fit with are dropped: a set misses at least the words either of its
    halves misses, at most those both miss."""
    tests = _span_tests(len(word_masks), lo, hi, spans)
    if tests is None:
        return np.zeros(0, dtype=np.int64)
    blocks, low = _set_blocks(alphabet, shown)[0], alphabet // 2
    kind = np.uint32 if len(word_masks) <= 32 else np.uint64  # half the bytes a set to pass over
    halves = [(low_words.astype(kind), high_words.astype(kind))
              for low_words, high_words in _halves(word_masks, alphabet)]
    below, above = (bonus[0] & ((1 << low) - 1), bonus[0] >> low) if bonus is not None else (0, 0)
    found, at = [], 0
    for lo_, hi_ in blocks:
        first, second = np.arange(lo_.size), np.arange(hi_.size)
        if bonus is not None and bonus[1]:  # a completed bonus word: neither half holds its letters
            first, second = np.flatnonzero((lo_ & below) == 0), np.flatnonzero((hi_ & above) == 0)
        sides = [(low_words[lo_[first]], high_words[hi_[second]]) for low_words, high_words in halves]
        for bits, least, most in tests:  # a set misses at least what either half misses, at most both
            by_low, by_high = (sum(np.bitwise_count(side[h] & kind(b)).astype(np.int32)
                                   for side, b in zip(sides, bits, strict=True)) for h in (0, 1))
            rows = (by_low <= most) & (by_low + by_high.max(initial=0) >= least)
            cols = (by_high <= most) & (by_high + by_low.max(initial=0) >= least)
            if not (rows.all() and cols.all()):
                first, second = first[rows], second[cols]
                sides = [(low_words[rows], high_words[cols]) for low_words, high_words in sides]
        place, missed = None, None
        for bits, least, most in tests:
            if missed is None:  # the first span on every set of the block: its words alone, ORed
                counts = [np.bitwise_count((low_words & kind(b))[:, None]
                                           | (high_words & kind(b))[None, :]).ravel()
                          for (low_words, high_words), b in zip(sides, bits, strict=True)]
            else:
                counts = [np.bitwise_count(m & kind(b)) for m, b in zip(missed, bits, strict=True)]
            count = counts[0] if len(counts) == 1 else sum(c.astype(np.uint32) for c in counts)
            keep = np.flatnonzero(count == least if least == most else (count - count.dtype.type(least))
                                  <= count.dtype.type(most - least))  # unsigned: below `least` wraps high
            place = keep if place is None else place[keep]
            if missed is None:  # every word's miss, ORed from the two halves, for the sets left
                width = max(second.size, 1)
                missed = [low_words[place // width] | high_words[place % width]
                          for low_words, high_words in sides]
            else:
                missed = [m[keep] for m in missed]
        width = max(second.size, 1)
        place = np.arange(first.size * second.size) if place is None else place
        i, j = first[place // width], second[place % width]
        if bonus is not None and not bonus[1]:  # an uncompleted bonus word: a half holds one of its letters
            left = ((lo_[i] & below) != 0) | ((hi_[j] & above) != 0)
            i, j = i[left], j[left]
        found.append(at + i * hi_.size + j)
        at += lo_.size * hi_.size
    return np.sort(_rank(alphabet, shown)[np.concatenate(found)]) if found else np.zeros(0, dtype=np.int64)


def _fitting_rows(masks: np.ndarray, lo: np.ndarray, hi: np.ndarray, alphabet: int, shown: int,
                  bonus: tuple[np.ndarray, bool] | None, spans: Spans) -> Iterator[np.ndarray]:
    """`_fitting` of each row in turn (masks (m, S), lo and hi (m, spans), bonus letter masks (m,)): where
    the sets of letters left out are few (SMALL), every word of many rows is tested against every set at
    once (a word is missed when it holds a letter of the set), rather than a row and a block at a time."""
    sets = letter_sets(alphabet, shown)
    if sets.size > SMALL:
        for r in range(masks.shape[0]):
            yield _fitting(masks[r], lo[r], hi[r], alphabet, shown,
                           (int(bonus[0][r]), bonus[1]) if bonus is not None else None, spans)
        return
    kind = next(t for t in (np.uint16, np.uint32, np.int64) if alphabet <= 8 * np.dtype(t).itemsize)
    sets = sets.astype(kind)  # the fewest bytes a set: fewer to pass over
    step = max(1, (1 << 22) // (sets.size * max(masks.shape[1], 1)))
    for start in range(0, masks.shape[0], step):
        part = slice(start, start + step)
        held = (masks[part, :, None].astype(kind) & sets[None, None, :]) != 0  # (rows, words, sets)
        ok = np.ones((held.shape[0], sets.size), dtype=bool)
        for k, (a, b) in enumerate(spans):
            missed = held[:, a:b].sum(axis=1, dtype=np.int16)
            ok &= (missed >= (b - a) - hi[part, k, None]) & (missed <= (b - a) - lo[part, k, None])
        if bonus is not None:
            ok &= ((bonus[0][part, None] & sets[None, :]) == 0) == bonus[1]
        yield from (np.flatnonzero(row) for row in ok)


def _counts(done: np.ndarray, spans: Spans) -> np.ndarray:
    """(m, len(spans)) completed words a span, from (m, S) completed flags."""
    return np.stack([done[:, a:b].sum(axis=1) for a, b in spans], axis=1)


def _letters(masks: np.ndarray, lo: np.ndarray, hi: np.ndarray, alphabet: int, shown: int,
             stream: Stream, bonus: tuple[np.ndarray, bool] | None,
             spans: Spans) -> tuple[np.ndarray, np.ndarray]:
    """(ok, letters): per row, YOUR LETTERS in the order shown, uniform among the sets completing
    lo..hi words in every span (lo, hi: (m, spans); section 7, step 2; section 10) and, with `bonus`
    (each row's bonus word as a letter mask, whether completed), completing the row's bonus word or not
    (section 9); ok False where no set does."""
    m = masks.shape[0]
    out = np.zeros((m, shown), dtype=np.int64)
    ok = np.zeros(m, dtype=bool)
    todo = np.arange(m)
    for _ in range(ROUNDS):
        if not todo.size:
            break
        perm = row_permutations(stream, todo.size, alphabet)
        left_out = np.bitwise_or.reduce(np.left_shift(1, perm[:, shown:]), axis=1)
        done = _counts((masks[todo] & left_out[:, None]) == 0, spans)
        good = ((done >= lo[todo]) & (done <= hi[todo])).all(axis=1)
        if bonus is not None:
            good &= ((bonus[0][todo] & left_out) == 0) == bonus[1]
        out[todo[good]] = perm[good, :shown]
        ok[todo[good]] = True
        todo = todo[~good]
    sets = letter_sets(alphabet, shown) if todo.size else np.zeros(0, dtype=np.int64)
    fitting = _fitting_rows(masks[todo], lo[todo], hi[todo], alphabet, shown,
                            (bonus[0][todo], bonus[1]) if bonus is not None else None, spans)
    for r, valid in zip(todo.tolist(), fitting, strict=True):
        if not valid.size:
            continue
        chosen = int(sets[valid[int(integers(stream, valid.size, size=1)[0])]])
        keep = np.array([c for c in range(alphabet) if not chosen >> c & 1], dtype=np.int64)
        out[r] = keep[row_permutations(stream, 1, shown)[0]]
        ok[r] = True
    return ok, out


def lay_tickets(lex: Lexicon, grids: Sequence[Grid], lo: np.ndarray, hi: np.ndarray, shown: int,
                stream: Stream, tier: str, bonus: tuple[int, bool] | None = None,
                spans: Spans | None = None, hits: Sequence[bool | None] | None = None, free: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(words (m, S), letters (m, shown), bonus word ids (m,), doubler cells (m, G)) of m tickets
    completing lo..hi words each (lo, hi: (m, spans); `spans` the slot ranges each counted alone, all
    the words by default); with `bonus` (its length, whether completed) each ticket's bonus word is drawn
    with its grids and YOUR LETTERS complete it or not as well (section 9); without, the ids are 0. With
    `hits` (one a span: doubled, undoubled, either) each grid's doubler cell is drawn after them and YOUR
    LETTERS meet each span's doubler state (section 11), the cells FREE spaces with `free`; without, the
    cells are (m, 0)."""
    m = lo.shape[0]
    words = np.zeros((m, sum(len(g.slots) for g in grids)), dtype=np.int64)
    spans = spans or ((0, words.shape[1]),)
    letters = np.zeros((m, shown), dtype=np.int64)
    extra = np.zeros(m, dtype=np.int64)
    marked = np.zeros((m, len(grids) if hits is not None else 0), dtype=np.int64)
    todo = np.arange(m)
    for _ in range(TRIES):
        if not todo.size:
            return words, letters, extra, marked
        drawn = fill_grids(lex, grids, todo.size, stream)
        word = bonus_word.pick(lex, bonus[0], todo.size, stream) if bonus else np.zeros(todo.size, np.int64)
        masks, low, high, counted = lex.masks[drawn], lo[todo], hi[todo], spans
        if hits is not None:
            cells = doubler.pick(grids, todo.size, stream)
            masks = doubler.free_masks(lex, grids, drawn, cells) if free else masks
            masks = np.concatenate([masks, doubler.word_masks(grids, masks, cells)], axis=1)
            counted, low, high = doubler.extend(grids, spans, low, high, hits)
            marked[todo] = cells
        ok, chosen = _letters(masks, low, high, lex.alphabet, shown, stream,
                              (lex.masks[word], bonus[1]) if bonus else None, counted)
        extra[todo[ok]] = word[ok]
        words[todo[ok]] = drawn[ok]
        letters[todo[ok]] = chosen[ok]
        todo = todo[~ok]
    raise RunError(f"tier {tier!r}: no grids of {TRIES:,} draws could complete its number of words")


def feasible(lex: Lexicon, grids: Sequence[Grid], lo: int | Sequence[int], hi: int | Sequence[int],
             shown: int, bonus: tuple[int, bool] | None = None, spans: Spans | None = None,
             hits: Sequence[bool | None] | None = None, free: bool = False) -> bool:
    """Whether some of PROBE[0] grid draws, each with PROBE[1] draws of YOUR LETTERS, completes lo..hi
    words (section 7: what `check` asks before a spec is accepted; with `spans`, lo[k]..hi[k] in each
    span k at once, section 10) and, with `bonus` (its length,
    whether completed), completes the bonus word drawn with the grids, or not (section 9); with `hits`,
    meets each span's doubler state too (section 11). The draws come from a fixed stream: the probe
    decides no layout."""
    stream = derive_stream(bytes(32), "crossword", "check")
    drawn = fill_grids(lex, grids, PROBE[0], stream)
    masks = lex.masks[drawn]
    spans = spans or ((0, masks.shape[1]),)
    low, high = np.atleast_1d(np.asarray(lo)), np.atleast_1d(np.asarray(hi))
    word = lex.masks[bonus_word.pick(lex, bonus[0], PROBE[0], stream)] if bonus else None
    if hits is not None:
        cells = doubler.pick(grids, PROBE[0], stream)
        masks = doubler.free_masks(lex, grids, drawn, cells) if free else masks
        masks = np.concatenate([masks, doubler.word_masks(grids, masks, cells)], axis=1)
        spans, wide_lo, wide_hi = doubler.extend(grids, spans, np.tile(low, (1, 1)), np.tile(high, (1, 1)),
                                                 hits)
        low, high = wide_lo[0], wide_hi[0]
    for _ in range(PROBE[1]):
        perm = row_permutations(stream, PROBE[0], lex.alphabet)
        left_out = np.bitwise_or.reduce(np.left_shift(1, perm[:, shown:]), axis=1)
        done = _counts((masks & left_out[:, None]) == 0, spans)
        good = ((done >= low) & (done <= high)).all(axis=1)
        if bonus is not None and word is not None:
            good &= ((word & left_out) == 0) == bonus[1]
        if good.any():
            return True
    return False
