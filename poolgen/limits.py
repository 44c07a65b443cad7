"""The bounds of what poolgen accepts, in one place (the README's "Limits" table lists them).

Every input file passes one boundary before it is parsed (`poolgen.files.read`): its size, then its
nesting depth and the length of its numbers; a spec's values are then bounded as they are read
(poolgen/loader/): decimal exponents and digits, money, counts, pool and order sizes, play areas,
and the memory a run of its pools would need. Each bound is far above any real game (a real order
is at most ~16 pools of 1,000,000 shares; a printed order a few million tickets) and far below what
would exhaust the machine or hang a parser.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

# Files, read at most LIMIT + 1 bytes (a longer file is refused unread).
MAX_SPEC_BYTES = 1 << 20  # the largest spec today is 32 KB
MAX_SEED_FILE_BYTES = 1 << 10  # a seed file is 65 bytes
MAX_KEY_FILE_BYTES = 1 << 16  # a PEM Ed25519 key is under 300 bytes
MAX_MANIFEST_BYTES = 1 << 24  # a 24-pool manifest is about 60 KB
MAX_PROOF_BYTES = 1 << 20  # a proof is a few KB
MAX_SEALED_BYTES = 1 << 31  # a deliverable sealed or opened whole (a run's largest file is under 1 GiB)
MAX_BATCH_BYTES = 64 << 20  # `validate --batch`: a CSV of claims (a claim's line is about 30 bytes) ...
MAX_BATCH_CLAIMS = 1_000_000  # ... of at most this many claims: each is held (~470 bytes) until all are read

# Structure of a parsed document (TOML or JSON).
MAX_NESTING = 32  # brackets and braces inside one another (a spec uses 3, a manifest 5)
MAX_DIGIT_RUN = 1000  # digits in a row anywhere in a spec: refused before the parser sees them
MAX_INTEGER = 2**63 - 1  # TOML's own integer range; every count is far below it

# Numbers written as text (money, odds, multipliers, legend values).
MAX_NUMBER_CHARS = 40
MAX_SIGNIFICANT_DIGITS = 15
MAX_DECIMAL_PLACES = 15  # at most 15 digits after the point ...
MAX_DECIMAL_MAGNITUDE = 15  # ... and at most 16 before it (below 10**16)
MAX_MONEY_CENTS = 100_000_000_000  # $1,000,000,000.00: any one amount
MAX_MULTIPLIER = 1000  # a multiplier symbol's or an area's k (games print 2X to 100X); audit reads up to 4095

# Sizes of a game.
MAX_POOL_TICKETS = 10_000_000  # tickets or shares in one pool
MAX_ORDER_TICKETS = 100_000_000  # tickets or shares in one order (all pools)
MAX_POOLS = 64  # pools in one order
MAX_PLAY_AREAS = 16  # play areas of one eInstant share
MAX_TIERS = 256
MAX_SYMBOLS = 1024
MAX_LIST_ITEMS = 1024  # any other list in a spec (denominations, legend, ...)
MAX_TICKET_SPOTS = 1024  # a printed ticket's spots (layout columns), all areas; shipped specs have at most
# 56 (a proof page of 2,000 spots took over 10 minutes)

# A printed ticket's identity, `GGG-BBBBBBB-TTT` and its barcode (poolgen/deliverables/identity.py):
# three digits of game number (four for a game numbered 1000..9999: `GGGG-BBBBBBB-TTT`, a 16-digit
# barcode), seven of book number (books are numbered 0 .. the order's books - 1), three of ticket
# number in the book (0 .. tickets a book - 1).
MAX_GAME_NUMBER = 9999
MAX_ORDER_BOOKS = 10**7
MAX_BOOK_TICKETS = 1000
VIRN_DIGITS = (9, 18)  # a VIRN's digits: at least 10^9 to guess among per ticket; 10^18 fits 64 bits

# Memory: what building one pool needs at its peak, estimated from its size before anything is
# allocated. Measured peaks (/usr/bin/time -v, one worker, less the ~100 MB of the libraries) on the
# shipped specs: a printed pool of 150,000 tickets with 32 number spots and their prizes 450 MB
# (3,000 bytes a ticket); an eInstant pool of 1,000,000 shares 410 MB with 1 play area, 530 MB with
# 4, 460 MB for a one-area duel. The estimates below stay above those.
PRINTED_BYTES_PER_TICKET = 4000  # a ticket of up to 64 spots (layout columns)
PRINTED_BYTES_PER_SPOT = 120  # each spot beyond 64 (measured 110 a ticket with 512 and 2,001 spots)
EINSTANT_BYTES_PER_SHARE = 500
EINSTANT_BYTES_PER_AREA_SHARE = 100
MAX_POOL_MEMORY = 8 << 30  # refuse a spec whose pools could not be built on a large machine


def pool_memory(tickets: int, play_areas: int | None, spots: int = 0) -> int:
    """Estimated peak bytes of building one pool: a printed pool (`play_areas` None) of tickets of
    `spots` layout columns, or an eInstant pool of `play_areas` areas."""
    if play_areas is None:
        return tickets * (PRINTED_BYTES_PER_TICKET + PRINTED_BYTES_PER_SPOT * max(0, spots - 64))
    return tickets * (EINSTANT_BYTES_PER_SHARE + EINSTANT_BYTES_PER_AREA_SHARE * play_areas)


def available_memory() -> int | None:
    """The memory the system can give without swapping (MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def workers_that_fit(needs: list[int], workers: int, available: int | None) -> int:
    """How many of `workers` can build pools at once within `available` bytes (the largest pools
    first); 0 if even the largest pool alone does not fit."""
    if available is None:
        return workers
    largest = sorted(needs, reverse=True)
    n = 0
    while n < min(workers, len(largest)) and sum(largest[:n + 1]) <= available:
        n += 1
    return n


def bounded_decimal(text: str, shown: str | None = None) -> Decimal:
    """`text` as an exact Decimal within the bounds above; ValueError (a one-line reason showing
    `shown`, default `text`) if not.

    The bounds keep every later step exact and fast: no exponent can make arithmetic allocate
    gigabytes or hang, and products stay within the default 28-digit precision."""
    shown = text if shown is None else shown
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(f"{shown[:20]!r}... is longer than {MAX_NUMBER_CHARS} characters")
    if not text.isascii():  # Decimal reads any script's digits ("\u0661" is 1); a spec's are 0-9
        raise ValueError(f"{shown!r} is not a number")
    try:
        value = Decimal(text)
    except (InvalidOperation, ValueError):
        raise ValueError(f"{shown!r} is not a number") from None
    if not value.is_finite():
        raise ValueError(f"{shown!r} is not a number")
    _, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    zeros = len(digits) - len(bytes(digits).rstrip(b"\0"))  # trailing zeros add no precision
    if value and value.adjusted() > MAX_DECIMAL_MAGNITUDE or exponent + zeros < -MAX_DECIMAL_PLACES:
        raise ValueError(f"{shown!r} is out of range (at most {MAX_DECIMAL_MAGNITUDE + 1} digits before "
                         f"the point and {MAX_DECIMAL_PLACES} after it)")
    if len(digits) - zeros > MAX_SIGNIFICANT_DIGITS:
        raise ValueError(f"{shown!r} has more than {MAX_SIGNIFICANT_DIGITS} significant digits")
    return value
