"""`poolgen rng`: one DRBG stream dumped for a test lab's battery (docs/lab-testing.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from poolgen.cli.common import reports_errors, say
from poolgen.files.read import READABLE_SECRET_FLAG
from poolgen.seeds.seed import read_seed_file

if TYPE_CHECKING:  # a type only; the DRBG modules (numpy) load when a command runs (docs/scaling.md)
    from poolgen.rng.drbg import Stream

# Each function imports the DRBG modules it uses when it runs, not this module: numpy and cryptography
# would otherwise load with every poolgen command, --help included (start-up time, docs/scaling.md).

app = typer.Typer(rich_markup_mode="markdown", no_args_is_help=True,
                  help="Dump one DRBG stream for a test lab: raw bytes, or integers and permutations "
                       "exactly as the generator draws them. A dump of a real run's seed is its "
                       "outcomes: give labs a test seed.")

SeedFile = Annotated[Path, typer.Option("--seed-file", metavar="FILE",
                                        help="The seed (64 hex digits); never printed.")]
Label = Annotated[str | None, typer.Option(
    "--label", help="The stream's label as the manifest lists it (drbg.streams), e.g. "
                    "poolgen/v1/GAME/p1/order.")]
Part = Annotated[list[str] | None, typer.Option(
    "--part", help="A label part, in order (repeatable), instead of --label.")]
Out = Annotated[Path | None, typer.Option(
    "--out", metavar="FILE", help="A new file (mode 0600, never overwritten). Default: standard output.")]
Skip = Annotated[str, typer.Option("--skip", help="Keystream bytes to pass over first (e.g. 1G; at most "
                                                  "64G).")]
Repeat = Annotated[str, typer.Option("--repeat", help="Successive calls on the same stream (1 or more).")]
ReadableSecret = Annotated[bool, typer.Option(
    READABLE_SECRET_FLAG, help="Use a seed file even if its group or others may read it (refused "
                               "otherwise).")]


def _stream(seed_file: Path, label: str | None, part: list[str] | None, skip: str,
            allow_readable: bool) -> Stream:
    from poolgen.rng.labdump import (  # lazy: start-up time
        MAX_SKIP,
        DumpError,
        check_parts,
        open_stream,
        parse_label,
        parse_size,
    )

    if (label is None) == (not part):
        raise DumpError("name the stream with --label or with --part (one or the other)")
    parts = parse_label(label) if label is not None else check_parts(tuple(part or ()), "--part")
    skipped = parse_size(skip, "--skip", MAX_SKIP, " bytes")
    return open_stream(read_seed_file(seed_file, allow_readable), parts, skipped)


def _done(written: int, stream: Stream, out: Path | None, what: str) -> None:
    from poolgen.rng.drbg import label_text  # lazy: start-up time

    where = f"{out} (mode 0600)" if out is not None else "standard output"
    say(f"wrote {written:,} bytes ({what}) of stream {label_text(stream.label)} to {where}")


def _hex(chunks: Iterator[bytes]) -> Iterator[bytes]:
    for chunk in chunks:  # chunks are whole multiples of 32 bytes but the last
        digits = chunk.hex()
        yield "".join(digits[i:i + 64] + "\n" for i in range(0, len(digits), 64)).encode("ascii")


@app.command("bytes")
@reports_errors
def bytes_cmd(
    seed_file: SeedFile,
    count: Annotated[str, typer.Option("--count", help="Bytes to write, e.g. 1000, 64K, 1G (x1024; at "
                                                       "most 1T).")],
    label: Label = None, part: Part = None, out: Out = None, skip: Skip = "0",
    allow_readable_secret: ReadableSecret = False,
    fmt: Annotated[str, typer.Option("--format", help="raw (for dieharder, NIST STS) or hex (64 digits "
                                                      "a line).")] = "raw",
) -> None:
    """The stream's raw keystream bytes, before any scaling (ChaCha20 under the HKDF key of the label)."""
    from poolgen.rng.labdump import MAX_BYTES, DumpError, keystream_chunks, parse_size, write_dump  # lazy

    if fmt not in ("raw", "hex"):
        raise DumpError(f"--format {fmt[:20]!r}: raw or hex")
    size = parse_size(count, "--count", MAX_BYTES, " bytes")
    stream = _stream(seed_file, label, part, skip, allow_readable_secret)
    chunks = keystream_chunks(stream, size)
    written = write_dump(out, _hex(chunks) if fmt == "hex" else chunks)
    _done(written, stream, out, f"{fmt} keystream")


@app.command("integers")
@reports_errors
def integers_cmd(
    seed_file: SeedFile,
    high: Annotated[str, typer.Option("--high", help="The bound n (values in [0, n)); or bounds "
                                                     "separated by commas, one value each.")],
    count: Annotated[str, typer.Option("--count", help="Values per call for one bound (at most "
                                                       "10,000,000).")] = "1",
    label: Label = None, part: Part = None, out: Out = None, skip: Skip = "0", repeat: Repeat = "1",
    allow_readable_secret: ReadableSecret = False,
) -> None:
    """Integers in [0, n), one per line, by the generator's mask-and-reject (sampling.integers)."""
    from poolgen.rng.labdump import (  # lazy: start-up time
        MAX_CALL,
        MAX_REPEAT,
        check_integers,
        integer_chunks,
        parse_bounds,
        parse_size,
        parse_whole,
        write_dump,
    )

    bounds = parse_bounds(high)
    calls = parse_whole(repeat, "--repeat", 1, MAX_REPEAT)
    values = parse_size(count, "--count", MAX_CALL, " values per call; use --repeat for more")
    check_integers(bounds, values, calls)  # before the seed is read and the stream skipped
    stream = _stream(seed_file, label, part, skip, allow_readable_secret)
    written = write_dump(out, integer_chunks(stream, bounds, values, calls))
    _done(written, stream, out, "integers, one a line")


@app.command("permutations")
@reports_errors
def permutations_cmd(
    seed_file: SeedFile,
    n: Annotated[str, typer.Option("--n", help="Items permuted (values 0..n-1).")],
    rows: Annotated[str | None, typer.Option(
        "--rows", help="Draw ROWS independent permutations at once (sampling.row_permutations, "
                       "as the layouts do).")] = None,
    label: Label = None, part: Part = None, out: Out = None, skip: Skip = "0", repeat: Repeat = "1",
    allow_readable_secret: ReadableSecret = False,
) -> None:
    """Uniform permutations of 0..n-1, one value per line, as the generator draws pool orders
    (sampling.permutation) or layout rows (--rows)."""
    from poolgen.rng.labdump import (  # lazy: start-up time
        MAX_CALL,
        MAX_REPEAT,
        check_permutations,
        parse_whole,
        permutation_chunks,
        write_dump,
    )

    items = parse_whole(n, "--n", 0, MAX_CALL)
    many = parse_whole(rows, "--rows", 0, MAX_CALL) if rows is not None else None
    calls = parse_whole(repeat, "--repeat", 1, MAX_REPEAT)
    check_permutations(items, many, calls)
    stream = _stream(seed_file, label, part, skip, allow_readable_secret)
    written = write_dump(out, permutation_chunks(stream, items, many, calls))
    _done(written, stream, out, "permutations, one value a line")
