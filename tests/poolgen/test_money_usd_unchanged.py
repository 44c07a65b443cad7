"""A game's currency (docs/new-game.md, `game.currency`) changed nothing for a game in dollars, the
default: every spec's `poolgen check` output, a small run's files, the press's CSV and fixed-width
export, both proofs (specimens and tickets of the pool, byte for byte: the same run always gives the
same PDF) and the report's text are what poolgen wrote before currencies existed. The SHA-256 below
were computed at commit 2fa01a3 (the branch's base, before any change) with `digests()` of this file:

    git archive 2fa01a3 | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base python -c "import runpy; print(runpy.run_path(
        'tests/poolgen/test_money_usd_unchanged.py')['digests']('/tmp/d'))"

and again at the branch's head, giving the same. Each run's manifest has its `tool` entry (the code's
own hash, which changes with any code change) replaced by a fixed one before the rest is drawn from it."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

from poolgen.files.write import canonical_bytes
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_happy_holidays, small_wild_side, spec_path
from tests.support.cli import invoke
from tests.support.pdf import pages

LOW, HIGH = bytes(range(100, 132)), bytes(range(200, 232))  # fixed validation keys: the files are exact

BEFORE = {
    "check happy_holidays": "2a73f1cb2f4f4da9b10ad22b443ba92e15f7d8d70b1fb0fd1651d2548f35ebf8",
    "check wild_side": "83243569149f063a5d5bc4991a9bea063691a3e8fa6ad2eb377300693ce5cf28",
    "check hand_to_hand_tactics": "cbbee27bd5c6b5bd10488f38f40e285fa660ac487f7815699524d29c5e07e8e0",
    "check primetime_payout": "2022c3d12a70f81077702d57638dd682e82046b80fcd3889c89541d0b2a9d388",
    "hh/imaging-p1.parquet": "0a19eca063f22c50af940ad7d8c7b2e0aa02de2eee2c7d910d97ac2266c62de0",
    "hh/manifest.json": "e001535c2eb2e21658882f30b3403692317e3aa998f73de5934941499a4fd541",
    "hh/packs.csv": "db13e666130c1dfc3aa62133618a2b56f1a66b2f76488c30f440a12169b20a64",
    "hh/pool-p1.parquet": "28792471f64d3ccf0a99e4da127b47bb3ab54b457280bb0a13452582e46bf700",
    "hh/validation-high.bin": "725f38044a2511b593be0aae9790093311d4df72f0f6b10fb800ef28ce43e8d1",
    "hh/validation-low.bin": "2a0d8628d2a7fe8a94e9452fd60ca8783a2e94f401e525c28bd22ba9e1c06ca7",
    "hh/specimens.pdf": "0df6468d1e47885cc6ef4019b3a4a9392c31718d1f1a188eb88190bfaff18c74",
    "hh/real.pdf": "9f9cc84f7f2bd7c4344a474de23985c9aa912b822ddf50dd2ce8801001057865",
    # the report's text: step 8's tests 1j and 1k (insider10, landed beside currencies) added to its pages,
    # then 1l (insider11: spread tells, withheld from the public report but listed in the auditor's)
    "hh/report text": "a579545687d0ae89741ea82e447f9c3fe0d9632ee01b88c9b2f9cf07998b6a7c",
    "hh/imaging.csv": "237c872501fbb61d043fca351e38cac14a24416d7d98a7eecc58a1a24d932ed6",
    "hh/fixed.txt": "c94e8125ed4624d0d5837a0d062cd5be5cbd779d30692d183d6687d0774ce952",
    "hh/fixed.layout.csv": "cdd35475e5ebca86160d78e8b83377df3505e6ade8ff1ad0477c91d074783860",
    "ws/imaging-p1.parquet": "8c16f2bf7d046539201831b91a6b1f27aba852f04c6762f923009de3da9316ca",
    "ws/imaging-p2.parquet": "b8b96e8f36fd6de5990cc65a55c51396ab3710840aaeef2e51b17fec9b2e069f",
    "ws/imaging-p3.parquet": "86dca6c11af88667e41655ab7d1ba940f0d309444162accc703bbeac7602bd02",
    "ws/imaging-p4.parquet": "bbea01a1c4c74a8cd0c81817ce4c66831074e8e26bd0f6a94c6594ffcaeab012",
    "ws/imaging-p5.parquet": "2e5660b8d8d48d0fe38763709ff807aa23d508f2447ac206bc912da1e0a9c604",
    "ws/manifest.json": "c6aecbeccfb9d465bbc79911a49ce684babd72dc041ed7acac1a7402872aaad3",
    "ws/packs.csv": "95afbd71cc4b4e88ed576e450e7d056cc3cf9a31b165078302ad41f67240bde4",
    "ws/pool-p1.parquet": "d6e3be49ccb1a4c09853f00dc586af6cd6a92d116aa8f87fb7c577933dcffb75",
    "ws/pool-p2.parquet": "4a4deb4e37f565770b234ae9398e1569c515cfdf7f8897238ad5c2f29021945c",
    "ws/pool-p3.parquet": "c8d95ab9aed6aa314543710322181325a9001f704504602d4ed27fcf8be370c7",
    "ws/pool-p4.parquet": "196332f3c1ae32257588fe1eef52efaa0352edb7e86851dbf25cecc490126832",
    "ws/pool-p5.parquet": "744cb76e25b91c2948ef0764b7e49ab45d9e17edd671d28d39e5b2c6e9886ff0",
    "ws/validation-high.bin": "5d201df7a9bc34552623c7dad7c1d0fd29216eca5b7607ec6290cb31dbb3bd8d",
    "ws/validation-low.bin": "5ad02a6ec82918501e1a607cc84f93fe7c47271311e594d9096007ec6064bc8a",
    "ws/specimens.pdf": "862c5c545bdc4afd45cd83abc3ce83b4c8a2c0ec7de566b6b43b8604153816b6",
    "ws/real.pdf": "0fb0897cb89f5057ea20765d94c49bdd4253edcc5c7861346328f9f95ab1988b",
    "ws/report text": "7063a1675c7771f122e0b8d27e9049315d6726be7d8418e100180453ae602004",
    "ws/imaging.csv": "918e17b788fc5a90fe0d9a11850ef5dd0148240bb15918b61e30edb91b9235d5",
    "ws/fixed.txt": "b8fd2a1ae082c9411c6411f12a0f7853094ed7a0e242e4615d66cb0b3697f3fd",
    "ws/fixed.layout.csv": "9c0887545877e442638ef5121869ca5877e5c4b6e4801043b25492c3d57d2dfc",
}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _ok(*args: object) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def _run(folder: Path, spec: Path, name: str) -> dict[str, str]:
    out = {}
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 12, 4, tzinfo=UTC),
                                   out=folder / "runs", run_id=name, validation_keys=(LOW, HIGH))).folder
    doc = json.loads((run / "manifest.json").read_bytes())  # an unsigned run: its `tool` entry (the
    doc["tool"] = {"name": "poolgen"}  # code's hash) fixed, as specimens are drawn from the manifest's bytes
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    for path in sorted(run.iterdir()):
        data = path.read_bytes()
        out[f"{name}/{path.name}"] = _sha(data)
    _ok("proof", run, "--spec", spec, "--out", folder / "specimens.pdf")
    _ok("proof", run, "--spec", spec, "--real", "--out", folder / "real.pdf")
    _ok("report", run, "--spec", spec, "--out", folder / "report.pdf")
    _ok("imaging", "export", run, "--out", folder / "imaging.csv")
    _ok("imaging", "export", run, "--spec", spec, "--format", "fixed", "--out", folder / "fixed.txt")
    for pdf in ("specimens.pdf", "real.pdf"):
        out[f"{name}/{pdf}"] = _sha((folder / pdf).read_bytes())
    out[f"{name}/report text"] = _sha("\n".join(pages(folder / "report.pdf")).encode())
    for made in ("imaging.csv", "fixed.txt", "fixed.layout.csv"):
        out[f"{name}/{made}"] = _sha((folder / made).read_bytes())
    return out


def digests(root: str) -> dict[str, str]:
    """`poolgen check`'s output for the four games of specs/, and every file of two small printed
    runs (Happy Holidays, Wild Side) with their proofs, report and exports."""
    base = Path(root)
    out = {f"check {rules}": _sha(_ok("check", spec_path(rules)).encode())
           for rules in ("happy_holidays", "wild_side", "hand_to_hand_tactics", "primetime_payout")}
    for name, cut in (("hh", lambda f: small_happy_holidays(f, 3000)), ("ws", small_wild_side)):
        folder = base / name
        folder.mkdir(parents=True)
        out |= _run(folder, cut(folder), name)
    return out


def test_a_dollar_games_check_run_proofs_report_and_exports_are_the_ones_written_before_currencies(
        tmp_path):
    assert digests(str(tmp_path)) == BEFORE
