"""Game numbers of four digits (docs/validation.md, section 2) changed nothing for a game numbered 0..999:
every file of a small printed run of such a game is byte for byte what poolgen wrote before 4-digit
numbers existed. The SHA-256 below were computed at commit 29a4233 (the branch's base, before any
change) with `digests()` of this file, run against that tree:

    git archive 29a4233 | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base python -c "import runpy; print(runpy.run_path(
        'tests/poolgen/deliverables/test_three_digit_runs_unchanged.py')['digests']('/tmp/d'))"

and again at the branch's head, giving the same. The manifest is compared without its `tool` entry
(the code's own hash changes with any code change); every other file, the pool files, imaging files,
pack list, both validation files and the press's fixed-width export and its layout, whole."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_happy_holidays, small_wild_side, spec_path
from tests.support.cli import invoke

LOW, HIGH = bytes(range(100, 132)), bytes(range(200, 232))  # fixed validation keys: the files are exact

BEFORE = {
    "hh/imaging-p1.parquet": "0a19eca063f22c50af940ad7d8c7b2e0aa02de2eee2c7d910d97ac2266c62de0",
    "hh/manifest.json": "39ed84e421ceaaa1ccdb3c2ee5636aad212d9140c9d465ac5ddd6db035df8852",
    "hh/packs.csv": "db13e666130c1dfc3aa62133618a2b56f1a66b2f76488c30f440a12169b20a64",
    "hh/pool-p1.parquet": "28792471f64d3ccf0a99e4da127b47bb3ab54b457280bb0a13452582e46bf700",
    "hh/validation-high.bin": "725f38044a2511b593be0aae9790093311d4df72f0f6b10fb800ef28ce43e8d1",
    "hh/validation-low.bin": "2a0d8628d2a7fe8a94e9452fd60ca8783a2e94f401e525c28bd22ba9e1c06ca7",
    "hh/fixed.txt": "c94e8125ed4624d0d5837a0d062cd5be5cbd779d30692d183d6687d0774ce952",
    "hh/fixed.layout.csv": "cdd35475e5ebca86160d78e8b83377df3505e6ade8ff1ad0477c91d074783860",
    "g7/imaging-p1.parquet": "455f5e7ae89524686caed3a09b410db56eab64b74452599e7bf425dda31a775c",
    "g7/manifest.json": "b348a6b1bb7647a97491b061e555f07a590a02b0d182ff74fe72e03a289c8874",
    "g7/packs.csv": "7ba819e3dfb5855b7d8662cbf0eca47c45880877b134321ca9b4fa7e7c40ea4f",
    "g7/pool-p1.parquet": "786adfd1dff151e27415b5b7e0237a51a7fa0a15f86524e9ddb8794d90af851a",
    "g7/validation-high.bin": "af21ea6c0599b4da917598f1575858ca670aa47137ff7541c1c16a110d5e60df",
    "g7/validation-low.bin": "ee61feae0d4c7495e5e9943b9b8b0b487d39547994d3547d72899c6eb2d7c4fd",
    "g7/fixed.txt": "4d034f29edab0bdca97e7edae0aec93b0ca1701402c26bfb0f02eb4a55770366",
    "g7/fixed.layout.csv": "cdd35475e5ebca86160d78e8b83377df3505e6ade8ff1ad0477c91d074783860",
    "ws/imaging-p1.parquet": "8c16f2bf7d046539201831b91a6b1f27aba852f04c6762f923009de3da9316ca",
    "ws/imaging-p2.parquet": "b8b96e8f36fd6de5990cc65a55c51396ab3710840aaeef2e51b17fec9b2e069f",
    "ws/imaging-p3.parquet": "86dca6c11af88667e41655ab7d1ba940f0d309444162accc703bbeac7602bd02",
    "ws/imaging-p4.parquet": "bbea01a1c4c74a8cd0c81817ce4c66831074e8e26bd0f6a94c6594ffcaeab012",
    "ws/imaging-p5.parquet": "2e5660b8d8d48d0fe38763709ff807aa23d508f2447ac206bc912da1e0a9c604",
    "ws/manifest.json": "cba8ff930018dde7a9813be021e9e0ca0ebb3dd64274b8f56bbcd20aca17d6d0",
    "ws/packs.csv": "95afbd71cc4b4e88ed576e450e7d056cc3cf9a31b165078302ad41f67240bde4",
    "ws/pool-p1.parquet": "d6e3be49ccb1a4c09853f00dc586af6cd6a92d116aa8f87fb7c577933dcffb75",
    "ws/pool-p2.parquet": "4a4deb4e37f565770b234ae9398e1569c515cfdf7f8897238ad5c2f29021945c",
    "ws/pool-p3.parquet": "c8d95ab9aed6aa314543710322181325a9001f704504602d4ed27fcf8be370c7",
    "ws/pool-p4.parquet": "196332f3c1ae32257588fe1eef52efaa0352edb7e86851dbf25cecc490126832",
    "ws/pool-p5.parquet": "744cb76e25b91c2948ef0764b7e49ab45d9e17edd671d28d39e5b2c6e9886ff0",
    "ws/validation-high.bin": "5d201df7a9bc34552623c7dad7c1d0fd29216eca5b7607ec6290cb31dbb3bd8d",
    "ws/validation-low.bin": "5ad02a6ec82918501e1a607cc84f93fe7c47271311e594d9096007ec6064bc8a",
}


def _files(folder: Path, spec: Path, run_id: str, export: bool) -> dict[str, str]:
    made = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 12, 4, tzinfo=UTC),
                                    out=folder, run_id=run_id, validation_keys=(LOW, HIGH)))
    out = {}
    for path in sorted(made.folder.iterdir()):
        data = path.read_bytes()
        if path.name == "manifest.json":
            doc = json.loads(data)
            del doc["tool"]
            data = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
        out[f"{run_id}/{path.name}"] = hashlib.sha256(data).hexdigest()
    if export:
        result = invoke("imaging", "export", made.folder, "--spec", spec, "--format", "fixed",
                        "--out", folder / "fixed.txt")
        assert result.exit_code == 0, result.output
        for name in ("fixed.txt", "fixed.layout.csv"):
            out[f"{run_id}/{name}"] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    return out


def digests(root: str) -> dict[str, str]:
    """Every file's SHA-256 of three small runs: Happy Holidays (465), the same game numbered 7 (written
    007) and Wild Side (358, five pools)."""
    base = Path(root)
    out = {}
    for name, number in (("hh", None), ("g7", 7)):
        folder = base / name
        folder.mkdir(parents=True)
        text = spec_path("happy_holidays").read_text()
        if number is not None:
            text = text.replace("\nnumber = 465\n", f"\nnumber = {number}\n")
        out |= _files(folder / "runs", small_happy_holidays(folder, 3000, text), name, export=True)
    folder = base / "ws"
    folder.mkdir()
    out |= _files(folder / "runs", small_wild_side(folder), "ws", export=False)
    return out


def test_every_file_of_a_three_digit_games_run_is_the_one_written_before_four_digit_numbers(tmp_path):
    assert digests(str(tmp_path)) == BEFORE
