"""The printer's side of a printed run (poolgen/deliverables/printer.py, `poolgen imaging`, `poolgen seal`
of a run): the CSV export round-trips to the imaging files in print sequence across the order, and so
do its fixed-width records (parsed by their layout file, test_printer_fixed.py); a file
is checked on arrival against the manifest; a whole run's imaging files are sealed in one command
showing the recipient's fingerprint, and `unseal --manifest` checks what it opened; with --public-key,
`imaging export` and `seal RUN` check the manifest's signature before any file is read or written, and
without it say that they go by the run folder's word alone."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from rich.console import Console

from poolgen.interrupts import PAUSE_ENV
from poolgen.run.signing import fingerprint, load_public_key
from tests.support import SEED_A, small_einstant, small_happy_holidays
from tests.support.cli import invoke, one_line
from tests.support.fixed_width import parse

UNCHECKED = ("manifest signature not checked (no --public-key): the imaging files {done} are the ones this "
             "run folder's manifest lists, its word alone; check it with --public-key\n")


@pytest.fixture(scope="module")
def order(tmp_path_factory) -> Path:
    """A Happy Holidays order of two pools of 3,000 tickets (books of 300), signed."""
    root = tmp_path_factory.mktemp("printer")
    seed = root / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    made = invoke("generate", small_happy_holidays(root, 6000), "--out", root / "runs", "--seed-file", seed,
                  "--run-id", "hh", "--workers", "1", "--key", root / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    return root / "runs" / "hh"


def test_the_csv_export_round_trips_in_print_sequence(order, tmp_path):
    out = tmp_path / "imaging.csv"
    result = invoke("imaging", "export", order, "--out", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"imaging {out}: 6,000 tickets in print sequence (mode 0600: outcomes, the "
                             f"printer only)\n")
    assert out.stat().st_mode & 0o777 == 0o600
    pools = sorted(json.loads((order / "manifest.json").read_text())["pools"],
                   key=lambda p: p["first_book"])
    assert [p["id"] for p in pools] == ["p1", "p2"] and pools[1]["first_book"] == 10  # 10 books of 300
    imaging = pl.concat([pl.read_parquet(order / f"imaging-{p['id']}.parquet") for p in pools])
    back = pl.read_csv(out, infer_schema=False)
    assert back.columns == ["sequence", *imaging.columns]
    assert back["sequence"].to_list() == [str(n) for n in range(1, 6001)]
    assert back.drop("sequence").equals(imaging.select(pl.all().cast(pl.String)))
    # print sequence: book slot after book slot, tickets 0..299 in each
    pool_rows = pl.concat([pl.read_parquet(order / f"pool-{p['id']}.parquet", columns=["book"])
                           for p in pools])
    assert back["book"].to_list() == [str(b) for b in pool_rows["book"].to_list()]
    assert back["ticket_no"].to_list()[:301] == [str(t) for t in range(300)] + ["0"]
    one_line(invoke("imaging", "export", order, "--out", out), "poolgen",
             f"{out}: already exists; not overwriting it (--force replaces it)")
    # the same order as fixed-width records: parsed back by their layout, the CSV field for field
    fixed = tmp_path / "imaging.txt"
    result = invoke("imaging", "export", order, "--out", fixed, "--format", "fixed", "--spec",
                    order.parent.parent / "happy_holidays.toml")
    assert result.exit_code == 0, result.output
    layout = (tmp_path / "imaging.layout.csv").read_bytes()
    assert layout.decode().splitlines()[:7] == [
        "field,start,end,width,type", "sequence,1,4,4,N", "barcode,5,19,15,D", "virn,20,31,12,D",
        "book,32,33,2,N", "ticket_no,34,36,3,N", "play_spot_0,37,40,4,A"]  # 6,000 tickets, 20 books
    assert parse(fixed.read_bytes(), layout).equals(back)


def test_a_file_is_checked_on_arrival(order, tmp_path):
    manifest = order / "manifest.json"
    key = order.parent.parent / "keys" / "signing-key.pub.pem"
    good = invoke("imaging", "check", order / "imaging-p2.parquet", "--manifest", manifest,
                  "--public-key", key)
    assert good.exit_code == 0, good.output
    assert good.stdout.startswith(f"{order / 'imaging-p2.parquet'}: is imaging-p2.parquet of run hh "
                                  f"(imaging, ")
    changed = tmp_path / "imaging-p2.parquet"
    data = bytearray((order / "imaging-p2.parquet").read_bytes())
    data[100] ^= 1
    changed.write_bytes(bytes(data))
    bad = invoke("imaging", "check", changed, "--manifest", manifest, "--json")
    assert bad.exit_code == 1
    doc = json.loads(bad.stdout)
    assert doc["signature"] == "signature not checked (give --public-key)"
    assert [f["ok"] for f in doc["files"]] == [False]
    assert "NOT the imaging-p2.parquet the manifest lists" in doc["files"][0]["why"]


def test_a_whole_run_sealed_in_one_command_and_checked_when_opened(order, tmp_path):
    made = invoke("keys", "recipient", tmp_path / "printer")
    fingerprint = made.stderr.split("fingerprint ")[1].strip()
    sealed = tmp_path / "sealed"
    result = invoke("seal", order, "--to", tmp_path / "printer" / "recipient-key.pub.pem", "--out", sealed)
    assert result.exit_code == 0, result.output
    assert f"sealed 2 file(s) to recipient {fingerprint} " in result.stdout
    assert sorted(p.name for p in sealed.iterdir()) == ["imaging-p1.parquet.sealed",
                                                        "imaging-p2.parquet.sealed"]
    key = tmp_path / "printer" / "recipient-key.pem"
    opened = invoke("unseal", sealed / "imaging-p2.parquet.sealed", "--key", key, "--out", tmp_path / "p2",
                    "--manifest", order / "manifest.json")
    assert opened.exit_code == 0, opened.output
    assert opened.stderr.endswith("it is the imaging-p2.parquet of run hh, byte for byte\n")
    assert (tmp_path / "p2").read_bytes() == (order / "imaging-p2.parquet").read_bytes()
    other = tmp_path / "other.json"  # a manifest whose entry for the file differs: refused, nothing written
    doc = json.loads((order / "manifest.json").read_text())
    for f in doc["deliverables"]:
        if f["name"] == "imaging-p2.parquet":
            f["sha256"] = "0" * 64
    other.write_text(json.dumps(doc))
    one_line(invoke("unseal", sealed / "imaging-p2.parquet.sealed", "--key", key, "--out", tmp_path / "x",
                    "--manifest", other), "poolgen", "opened imaging-p2.parquet, but it is not the file")
    assert not (tmp_path / "x").exists()


def test_print_sequence_and_cartons_say_where_each_pack_is_and_nothing_of_outcomes(order, tmp_path):
    out = tmp_path / "seq"
    result = invoke("imaging", "sequence", order, "--out", out, "--packs-per-carton", 3)
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"sequence {out}: 20 packs in print order, 7 cartons of up to 3, 1 pallet of "
                             f"up to 40 cartons (print-sequence.csv, cartons.csv, pallets.csv, shipment.csv, "
                             f"SHA256SUMS: no outcome, no pool)\n")
    seq = pl.read_csv(out / "print-sequence.csv", infer_schema=False)
    assert seq.columns == ["sequence", "game", "book", "first_barcode", "last_barcode", "tickets", "carton"]
    pools = pl.concat([pl.read_parquet(order / f"pool-p{k}.parquet", columns=["book"]) for k in (1, 2)])
    assert seq["book"].to_list() == [str(b) for b in pools["book"].to_list()[::300]]  # print order
    assert seq["sequence"].to_list() == [str(n) for n in range(1, 21)]
    assert seq["carton"].to_list() == [str(1 + n // 3) for n in range(20)]
    first = pl.read_parquet(order / "imaging-p1.parquet", columns=["barcode"])["barcode"]
    assert seq["first_barcode"][0] == first[0] and seq["last_barcode"][0] == first[299]
    cartons = pl.read_csv(out / "cartons.csv", infer_schema=False)
    assert cartons.row(6) == ("7", "19", "20", "2", "600", " ".join(seq["book"].to_list()[18:]))
    text = (out / "print-sequence.csv").read_text() + (out / "cartons.csv").read_text()
    assert "p1" not in text and "p2" not in text and "prize" not in text and "tier" not in text


@pytest.mark.parametrize("fmt", ["csv", "fixed"])
def test_an_imaging_file_changed_after_signing_is_not_exported_for_the_press(order, tmp_path, fmt):
    """A loser's first spot reprinted as $100.00 in the imaging file after the run was signed (the
    manifest not even re-signed: nobody's key is needed): the press would print it, and a CSV or record
    file cannot be checked on arrival against the manifest as an imaging file can. The export reads an
    imaging file only if it is the one the manifest lists, byte for byte, and writes nothing otherwise."""
    run = tmp_path / "run"
    shutil.copytree(order, run)
    path = run / "imaging-p2.parquet"
    table = pl.read_parquet(path)
    text = table["play_spot_0_text"].to_list()
    text[0] = "$100.00"
    table.with_columns(pl.Series("play_spot_0_text", text)).write_parquet(path)
    path.chmod(0o600)
    out = tmp_path / "imaging.out"
    extra = ["--spec", order.parent.parent / "happy_holidays.toml"] if fmt == "fixed" else []
    result = invoke("imaging", "export", run, "--out", out, "--format", fmt, *extra)
    one_line(result, "poolgen", f"{path}: ")
    assert result.stderr.endswith("; not exporting it\n")
    assert not out.exists() and not (tmp_path / "imaging.layout.csv").exists()


def _swapped(order: Path, tmp_path: Path) -> Path:
    """A copy of the order's run with pool p1's pool and imaging files swapped by name."""
    run = tmp_path / "hh"
    shutil.copytree(order, run)
    (run / "pool-p1.parquet").rename(run / "t")
    (run / "imaging-p1.parquet").rename(run / "pool-p1.parquet")
    (run / "t").rename(run / "imaging-p1.parquet")
    return run


@pytest.mark.parametrize("form", ["csv", "fixed"])
def test_an_imaging_file_swapped_with_its_pool_file_is_never_exported(order, tmp_path, form):
    """The export read whatever file had the imaging file's name: a pool file in its place was written to
    the printer's CSV, every ticket's tier, prize and salt with it (exit 0). It now exports only the
    file the manifest lists, by its size and SHA-256."""
    run = _swapped(order, tmp_path)
    listed = next(f for f in json.loads((run / "manifest.json").read_bytes())["deliverables"]
                  if f["name"] == "imaging-p1.parquet")
    size = (run / "imaging-p1.parquet").stat().st_size
    spec = ["--spec", order.parent.parent / "happy_holidays.toml"] if form == "fixed" else []
    result = invoke("imaging", "export", run, "--out", tmp_path / "out", "--format", form, *spec)
    one_line(result, "poolgen", f"{run / 'imaging-p1.parquet'}: {size:,} bytes, not the {listed['bytes']:,} "
                                "the manifest lists for imaging-p1.parquet; not exporting it")
    assert list(tmp_path.glob("out*")) == []


def test_an_imaging_file_changed_in_place_is_never_exported(order, tmp_path):
    run = tmp_path / "hh"
    shutil.copytree(order, run)
    table = pl.read_parquet(run / "imaging-p2.parquet")
    table = table.with_columns(pl.col("virn").reverse())  # same types: VIRNs moved
    table.write_parquet(run / "imaging-p2.parquet")
    doc = json.loads((run / "manifest.json").read_bytes())  # the size restated (no --public-key: unsigned)
    for f in doc["deliverables"]:
        if f["name"] == "imaging-p2.parquet":
            f["bytes"] = (run / "imaging-p2.parquet").stat().st_size
    (run / "manifest.json").write_text(json.dumps(doc))
    result = invoke("imaging", "export", run, "--out", tmp_path / "out.csv")
    assert result.exit_code == 2
    assert result.stderr == (f"poolgen: error: {run / 'imaging-p2.parquet'}: its SHA-256 is not the one the "
                             "manifest lists for imaging-p2.parquet (a changed or swapped file); not "
                             "exporting it\n")
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("fmt", ["csv", "fixed"])
def test_an_imaging_file_swapped_after_it_is_hashed_is_not_what_is_exported(order, tmp_path, fmt):
    """The export hashed each imaging file, then polars read it again by its name: a file swapped in
    between (a ticket's first spot reprinted as another prize) reached the press unchecked. The export now
    reads a file's bytes once, hashes those bytes and exports from them: the swap, made while the
    process waits just after imaging-p1's hash (POOLGEN_TEST_PAUSE), changes nothing it writes."""
    run = tmp_path / "run"
    shutil.copytree(order, run)
    path = run / "imaging-p1.parquet"
    original = pl.read_parquet(path)
    text = original["play_spot_0_text"].to_list()
    text[0] = next(t for t in text if t != text[0])  # another of the game's prizes: fits a record's field
    swapped = tmp_path / "swapped.parquet"
    original.with_columns(pl.Series("play_spot_0_text", text)).write_parquet(swapped)
    out, mark = tmp_path / f"imaging.{fmt}", tmp_path / "mark"
    extra = ["--spec", str(order.parent.parent / "happy_holidays.toml")] if fmt == "fixed" else []
    argv = ["imaging", "export", str(run), "--out", str(out), "--format", fmt, *extra]
    pause = {PAUSE_ENV: f"imaging-hashed-p1:60:{mark}"}
    proc = subprocess.Popen([sys.executable, "-m", "poolgen", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, **pause})
    while not mark.exists():
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    os.replace(swapped, path)
    mark.unlink()
    stdout, stderr = proc.communicate(timeout=120)
    assert (proc.returncode, stderr.decode()) == (0, UNCHECKED.format(done="exported")), stdout
    assert pl.read_parquet(path)["play_spot_0_text"][0] == text[0] != original["play_spot_0_text"][0]
    reference = tmp_path / f"reference.{fmt}"  # the untouched run's export
    assert invoke("imaging", "export", order, "--out", reference, "--format", fmt, *extra).exit_code == 0
    assert out.read_bytes() == reference.read_bytes()


@pytest.mark.parametrize("form", ["csv", "fixed"])
def test_an_export_tells_its_progress_file_by_file_and_draws_it_on_a_terminal_only(order, tmp_path, form):
    """`imaging export` drew nothing while it ran (one 150,000-ticket Wild Side pool took 6 to 10 s on a
    busy machine; a whole order is five of them): it tells the bar `verify` draws (audit.cli.progress_bar)
    each imaging file written, in tickets; on a file or pipe (CliRunner's) nothing is drawn."""
    from audit.cli import progress_bar
    from poolgen.deliverables.printer import export_csv, export_fixed
    from poolgen.loader import load_spec

    manifest = json.loads((order / "manifest.json").read_text())
    told: list[tuple[int, int, str]] = []
    screen = io.StringIO()
    out = tmp_path / f"imaging.{form}"
    with progress_bar(Console(file=screen, force_terminal=True, width=100)) as bar:
        def both(done: int, total: int, what: str) -> None:
            told.append((done, total, what))
            bar(done, total, what)

        if form == "csv":
            rows = export_csv(order, manifest, out, False, progress=both)
        else:
            game = load_spec(order.parent.parent / "happy_holidays.toml")
            rows = export_fixed(order, manifest, game, out, False, progress=both)[0]
    assert rows == 6000
    assert told == [(0, 6000, "writing 2 imaging file(s)"), (3000, 6000, "imaging-p1.parquet written"),
                    (6000, 6000, "imaging-p2.parquet written")]
    assert "imaging-p2.parquet written" in screen.getvalue() and "6000/6000" in screen.getvalue()
    spec = ["--spec", order.parent.parent / "happy_holidays.toml"] if form == "fixed" else []
    quiet = invoke("imaging", "export", order, "--format", form, *spec, "--out", tmp_path / f"again.{form}")
    assert quiet.exit_code == 0 and quiet.stderr == UNCHECKED.format(done="exported")  # no bar drawn


def _fails(key: Path) -> str:
    return f"the signature does not verify with the given public key ({fingerprint(load_public_key(key))})"


def _restated(order: Path, tmp_path: Path) -> Path:
    """A copy of the order's run whose imaging-p2.parquet has its VIRNs moved and whose manifest states
    the changed file's size and SHA-256: no key is needed for that, and the signature no longer holds."""
    run = tmp_path / "hh"
    shutil.copytree(order, run)
    path = run / "imaging-p2.parquet"
    pl.read_parquet(path).with_columns(pl.col("virn").reverse()).write_parquet(path)
    path.chmod(0o600)
    doc = json.loads((run / "manifest.json").read_bytes())
    for f in doc["deliverables"]:
        if f["name"] == "imaging-p2.parquet":
            f["bytes"], f["sha256"] = path.stat().st_size, hashlib.sha256(path.read_bytes()).hexdigest()
    (run / "manifest.json").write_text(json.dumps(doc))
    return run


@pytest.mark.parametrize("form", ["csv", "fixed"])
def test_an_imaging_file_restated_in_the_manifest_is_exported_only_without_the_key(order, tmp_path, form):
    """Size and SHA-256 are checked against manifest.json, which whoever changes an imaging file can
    change too: with --public-key the export checks the manifest's signature first and refuses in one
    line, writing nothing; without it, it exports what the folder's manifest lists and says so."""
    run = _restated(order, tmp_path)
    key = order.parent.parent / "keys" / "signing-key.pub.pem"
    spec = ["--spec", order.parent.parent / "happy_holidays.toml"] if form == "fixed" else []
    out = tmp_path / "imaging.out"
    refused = invoke("imaging", "export", run, "--out", out, "--format", form, *spec, "--public-key", key)
    assert refused.exit_code == 2
    assert refused.stderr == f"poolgen: error: {run / 'manifest.sig'}: {_fails(key)}; not exporting\n"
    assert list(tmp_path.glob("imaging*")) == []
    unchecked = invoke("imaging", "export", run, "--out", out, "--format", form, *spec)
    assert unchecked.exit_code == 0, unchecked.output
    assert unchecked.stderr == UNCHECKED.format(done="exported")


def test_an_export_with_the_signers_key_says_so(order, tmp_path):
    key = order.parent.parent / "keys" / "signing-key.pub.pem"
    out = tmp_path / "imaging.csv"
    result = invoke("imaging", "export", order, "--out", out, "--public-key", key, "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == (f"manifest signature checked with {key}: the imaging files exported are the "
                             "ones the signer listed\n")
    assert json.loads(result.stdout)["signature_checked"] is True
    plain = invoke("imaging", "export", order, "--out", tmp_path / "plain.csv", "--json")
    assert json.loads(plain.stdout)["signature_checked"] is False
    assert (tmp_path / "plain.csv").read_bytes() == out.read_bytes()


@pytest.mark.parametrize("command", ["export", "seal"])
def test_the_signature_is_checked_before_any_imaging_file_is_read(order, tmp_path, command):
    """Another signer's key against a run whose imaging file is a folder: the refusal is the signature's
    (the imaging file, which a read would refuse as a folder, is never opened), and nothing is written."""
    run = tmp_path / "hh"
    shutil.copytree(order, run)
    (run / "imaging-p1.parquet").unlink()
    (run / "imaging-p1.parquet").mkdir()
    assert invoke("keys", "new", tmp_path / "other").exit_code == 0
    other = tmp_path / "other" / "signing-key.pub.pem"
    if command == "export":
        result = invoke("imaging", "export", run, "--out", tmp_path / "out.csv", "--public-key", other)
        refusal = "not exporting"
    else:
        assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
        result = invoke("seal", run, "--to", tmp_path / "printer" / "recipient-key.pub.pem", "--out",
                        tmp_path / "out.sealed", "--public-key", other)
        refusal = "nothing sealed"
    assert result.exit_code == 2
    assert result.stderr == f"poolgen: error: {run / 'manifest.sig'}: {_fails(other)}; {refusal}\n"
    assert list(tmp_path.glob("out*")) == []


def test_sealing_a_run_checks_its_signature_with_the_key(order, tmp_path):
    """`seal RUN` checks each imaging file against manifest.json; --public-key checks that manifest is
    the signer's first: a restated one seals nothing. Without the key it seals and says what it went by."""
    run = _restated(order, tmp_path)
    key = order.parent.parent / "keys" / "signing-key.pub.pem"
    assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
    to = tmp_path / "printer" / "recipient-key.pub.pem"
    refused = invoke("seal", run, "--to", to, "--out", tmp_path / "sealed", "--public-key", key)
    assert refused.exit_code == 2
    assert refused.stderr == f"poolgen: error: {run / 'manifest.sig'}: {_fails(key)}; nothing sealed\n"
    assert not (tmp_path / "sealed").exists()
    checked = invoke("seal", order, "--to", to, "--out", tmp_path / "sealed", "--public-key", key, "--json")
    assert checked.exit_code == 0, checked.output
    assert checked.stderr.endswith(f"manifest signature checked with {key}: the imaging files sealed are the "
                                   "ones the signer listed\n")
    assert json.loads(checked.stdout)["signature_checked"] is True
    unchecked = invoke("seal", run, "--to", to, "--out", tmp_path / "unchecked")
    assert unchecked.exit_code == 0, unchecked.output
    assert unchecked.stderr.endswith(UNCHECKED.format(done="sealed"))


def test_a_key_for_one_sealed_file_or_an_unsigned_run_is_refused_in_one_line(order, tmp_path):
    key = order.parent.parent / "keys" / "signing-key.pub.pem"
    assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
    to = tmp_path / "printer" / "recipient-key.pub.pem"
    one = order / "imaging-p1.parquet"
    result = invoke("seal", one, "--to", to, "--out", tmp_path / "p1.sealed", "--public-key", key)
    assert result.exit_code == 2
    assert result.stderr == (f"poolgen: error: --public-key: checks a run folder's manifest; {one} is one "
                             "file: seal the run folder, or check the file with `poolgen imaging check`\n")
    run = tmp_path / "hh"
    shutil.copytree(order, run)
    (run / "manifest.sig").unlink()
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["signature"] = {"signed": False}
    (run / "manifest.json").write_text(json.dumps(doc))
    for argv, refusal in [(["imaging", "export", run, "--out", tmp_path / "x.csv"], "not exporting"),
                          (["seal", run, "--to", to, "--out", tmp_path / "x"], "nothing sealed")]:
        result = invoke(*argv, "--public-key", key)
        assert result.exit_code == 2
        assert result.stderr == (f"poolgen: error: {run}: the run is unsigned: no key vouches for its "
                                 f"manifest; {refusal}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hh", "printer"]


@pytest.mark.parametrize("command", [["imaging", "export"], ["seal"]])
def test_help_says_what_the_files_are_held_to_without_the_key(command):
    shown = " ".join(invoke(*command, "--help").stdout.replace("│", " ").split())
    assert "With --public-key the manifest's signature is checked first, so those are the signer's; " \
           "without it, they are the run folder's word alone (whoever changes a file can change its " \
           "entry)." in shown


def test_an_einstant_run_has_no_imaging_file_and_the_line_names_the_run(tmp_path):
    """`imaging export` and `seal` of an eInstant run said "the run has no imaging file" naming no run (as
    `imaging sequence` names it): an operator exporting several could not tell which. It is named now."""
    spec = small_einstant(tmp_path, "hand_to_hand_tactics", 1000)
    seed = tmp_path / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    made = invoke("generate", spec, "--out", tmp_path / "runs", "--run-id", "e", "--pool", "d1.00",
                  "--seed-file", seed, "--unsigned", "--workers", "1")
    assert made.exit_code == 0, made.output
    run = tmp_path / "runs" / "e"
    assert invoke("keys", "recipient", tmp_path / "printer").exit_code == 0
    said = f"{run}: the run has no imaging file (an eInstant, or a layout with no imaging rule)"
    printer = tmp_path / "printer" / "recipient-key.pub.pem"
    for argv in (["imaging", "export", run, "--out", tmp_path / "x.csv"],
                 ["seal", run, "--to", printer, "--out", tmp_path / "sealed"]):
        one_line(invoke(*argv), "poolgen", said)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand_to_hand_tactics.toml", "printer", "runs",
                                                          "s.seed"]
