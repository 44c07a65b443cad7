"""`poolgen rng`: its dumps are the known-answer vectors exactly, and it handles files as secrets."""

from __future__ import annotations

import stat

import numpy as np
import pytest
import reference_drbg
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.rng import derive_stream, integers
from tests.support import SEED_A
from tests.support import vector_lines as _vectors


def invoke(*args: str):
    return CliRunner().invoke(app, ["rng", *args])


@pytest.fixture
def seed_file(tmp_path):
    path = tmp_path / "a.seed"
    path.write_text(SEED_A.hex() + "\n")
    path.chmod(0o600)  # a seed file others may read is refused
    return path


def test_bytes_are_the_drbg_vectors(tmp_path):
    lines = _vectors("drbg.txt")
    assert len(lines) == 2
    for i, line in enumerate(lines):
        fields = dict(part.split("=", 1) for part in line.split())
        seed = tmp_path / f"{i}.seed"
        seed.write_text(fields["seed"] + "\n")
        seed.chmod(0o600)
        hexed = invoke("bytes", "--seed-file", str(seed), "--label", fields["label"], "--count", "96",
                       "--format", "hex")
        if fields["seed"] == "00" * 32:  # the first vector's seed, 32 zero bytes: refused as a seed file
            assert (hexed.exit_code, hexed.stdout) == (2, "")  # (docs/randomness.md, section 1); the DRBG
            assert "all the same value" in hexed.stderr  # tests check its bytes through the library
            continue
        assert hexed.exit_code == 0, hexed.output
        assert hexed.stdout == "".join(fields["bytes"][j:j + 64] + "\n" for j in range(0, 192, 64))
        assert fields["seed"] not in hexed.output
        out = tmp_path / f"{i}.bin"
        raw = invoke("bytes", "--seed-file", str(seed), "--label", fields["label"], "--count", "96",
                     "--out", str(out))
        assert raw.exit_code == 0 and raw.stdout == ""
        assert out.read_bytes().hex() == fields["bytes"]
        assert stat.S_IMODE(out.stat().st_mode) == 0o600
        assert raw.stderr == (f"wrote 96 bytes (raw keystream) of stream {fields['label']} to {out} "
                              "(mode 0600)\n")


def test_scaled_outputs_are_the_sampling_vectors(seed_file):
    want = dict(line.split(" = ") for line in _vectors("sampling.txt"))

    def values(*args: str) -> str:
        result = invoke(*args, "--seed-file", str(seed_file))
        assert result.exit_code == 0, result.output
        assert result.stdout.endswith("\n")
        return " ".join(result.stdout.split("\n")[:-1])

    assert values("integers", "--label", "poolgen/v1/test/integers", "--high", "6", "--count", "24") == \
        want["integers(6, 24)"]
    # the vector's second call continues the same stream: pass over what the first call read
    first = derive_stream(SEED_A, "poolgen/v1", "test", "integers")
    integers(first, 6, 24)
    assert values("integers", "--part", "poolgen/v1", "--part", "test", "--part", "integers",
                  "--high", f"1,2,3,1000,{2**40}", "--skip", str(first.bytes_read)) == \
        want["integers([1,2,3,1000,2**40])"]
    assert values("permutations", "--label", "poolgen/v1/test/permutation", "--n", "20") == \
        want["permutation(20)"]
    rows = values("permutations", "--label", "poolgen/v1/test/rows", "--n", "5", "--rows", "3").split()
    assert " | ".join(" ".join(rows[i:i + 5]) for i in range(0, 15, 5)) == want["row_permutations(3, 5)"]


def test_repeated_calls_continue_the_stream(seed_file):
    result = invoke("integers", "--seed-file", str(seed_file), "--label", "poolgen/v1/x/y", "--high", "1000",
                    "--count", "50", "--repeat", "3")
    stream = derive_stream(SEED_A, "poolgen/v1", "x", "y")
    want = np.concatenate([integers(stream, 1000, 50) for _ in range(3)])
    assert result.stdout.split() == [str(v) for v in want]


def test_a_long_dump_is_one_read_of_the_stream(seed_file, tmp_path):
    out = tmp_path / "long.bin"
    result = invoke("bytes", "--seed-file", str(seed_file), "--label", "poolgen/v1/wild_side/p1/order",
                    "--count", "2M", "--skip", "100", "--out", str(out))
    assert result.exit_code == 0, result.output
    whole = derive_stream(SEED_A, "poolgen/v1", "wild_side", "p1", "order").read(100 + (2 << 20))
    assert out.read_bytes() == whole[100:]
    head = reference_drbg.keystream(SEED_A, ("poolgen/v1", "wild_side", "p1", "order"), 400)
    assert out.read_bytes()[:300] == head[100:]


@pytest.mark.parametrize(("args", "message"), [
    (["bytes", "--count", "10"], "name the stream with --label or with --part (one or the other)"),
    (["bytes", "--count", "10", "--label", "a/b", "--part", "a"],
     "name the stream with --label or with --part (one or the other)"),
    (["bytes", "--count", "ten", "--label", "a"],
     "--count 'ten': give a whole number, optionally with K, M, G or T (x1024)"),
    (["bytes", "--count", "1", "--label", "a//b"],
     "--label 'a//b': a label is non-empty parts joined by '/'"),
    (["bytes", "--count", "1", "--label", "a", "--format", "text"], "--format 'text': raw or hex"),
    (["integers", "--high", "0", "--label", "a"],
     "--high: every bound is a whole number from 1 to 2**63 - 1"),
    (["integers", "--high", "6,x", "--label", "a"], "--high '6,x': whole numbers separated by commas"),
    (["integers", "--high", "6", "--count", "200000000", "--label", "a"],
     "--count 200000000: at most 10,000,000 values per call; use --repeat for more"),
])
def test_bad_requests_are_one_line(seed_file, args, message):
    result = invoke(*args, "--seed-file", str(seed_file))
    assert result.exit_code == 2
    assert result.stderr == f"poolgen: error: {message}\n"
    assert result.stdout == ""


def test_files_are_never_overwritten_nor_put_in_a_run_folder(seed_file, tmp_path):
    out = tmp_path / "d.bin"
    out.write_bytes(b"keep")
    result = invoke("bytes", "--seed-file", str(seed_file), "--label", "a", "--count", "8", "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"poolgen: error: {out}: already exists; not overwriting it\n"
    assert out.read_bytes() == b"keep"
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text("{}")
    inside = run / "d.bin"
    result = invoke("bytes", "--seed-file", str(seed_file), "--label", "a", "--count", "8",
                    "--out", str(inside))
    assert result.exit_code == 2
    assert result.stderr == (f"poolgen: error: {inside}: would put a stream dump inside a run folder "
                             "(it holds manifest.json)\n")
    assert sorted(p.name for p in run.iterdir()) == ["manifest.json"]


def test_a_seed_file_others_may_read_is_refused_unless_allowed(seed_file):
    seed_file.chmod(0o644)
    refused = invoke("bytes", "--seed-file", str(seed_file), "--part", "x", "--count", "32")
    assert refused.exit_code == 2
    assert refused.stderr == (f"poolgen: error: {seed_file}: the seed file is mode 0644: others may read "
                              "it; make it private (chmod 600) or give --allow-readable-secret\n")
    allowed = invoke("bytes", "--seed-file", str(seed_file), "--part", "x", "--count", "32",
                     "--format", "hex", "--allow-readable-secret")
    assert allowed.exit_code == 0 and len(allowed.stdout.strip()) == 64
