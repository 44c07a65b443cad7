"""Every command and sub-command of both programs, walked from their typer apps (a command added later
must join WORDS, test_every_command_is_swept), each of its parameters and options given in turn a
hostile value, the others valid: no traceback, an exit code the command documents, and, where the value
is refused, one line `PREFIX: error: ...` (exit 2); a path refused is named in it (the path, its file
name, or the option). In this process (typer's CliRunner, the commands' own code path; the programs'
start, closed streams and pipes are test_closed_streams.py's and test_closed_stdout.py's), each case
in a folder of its own: a value taken as a relative name writes nowhere else. A wider sweep of the same
shape (25 values: whitespace, 5,000 characters, unicode and control characters, numbers negative, zero,
huge and fractional, a dangling link, /dev/null, /dev/full, a key, a manifest, a PDF, an empty file, a
truncated SQLite ledger, a Parquet file of other columns; then `-`, `--`, `~`, `.`, `..`, `=`, `%s%n`)
found the characters of test_path_characters.py, and the empty path below."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.core import TyperArgument
from typer.main import get_command
from typer.testing import CliRunner

from audit.cli import app as audit_app
from poolgen.cli.main import app
from tests.support import ROOT, SEED_A, ceremony, small_einstant, small_happy_holidays
from tests.support.virns import virn_of

# The valid arguments of each command, split at spaces: {w} the world's folder (`world`), {d} the case's
# own (ledgers and ceremony files copied there, outputs written there), {r} and {e} the printed and the
# eInstant run, {pub} the runs' public key, {root} the repository.
SALES = "--ledger {d}/sales.sqlite --public-key {pub}"
BOOKS = "--ledger {d}/books.sqlite --public-key {pub}"
PARTY = "--party vendor --key {w}/c/vendor-keys/signing-key.pem"
WORDS = {
    "demo": "demo --out {d}/demo --spec {w}/happy_holidays.toml --pool p1 --seed-file {w}/s.seed",
    "check": "check {root}/specs/happy_holidays.toml",
    "generate": "generate {w}/happy_holidays.toml --out {d}/runs --pool p1 --seed-file {w}/s.seed "
                "--workers 1 --run-id x --key {w}/keys/signing-key.pem",
    "verify": "verify {r} --public-key {pub} --workers 1",
    "merkle-proof": "merkle-proof {r} {ticket} {virn} --public-key {pub}",
    "prove": "prove {r} {ticket} {virn}",
    "proof": "proof {r} --out {d}/p.pdf --spec {w}/happy_holidays.toml --per-tier 1",
    "report": "report {r} --out {d}/r.pdf --public-key {pub}",
    "publish": "publish {r} --out {d}/b --public-key {pub}",
    "validate": "validate {r} {ticket} {virn} --validation-key {w}/low.key --high-validation-key "
                "{w}/high.key --ledger {d}/claims.sqlite --index-dir {w}/index --public-key {pub} --clerk c "
                "--desk d",
    "seal": "seal {r} --to {w}/rkeys/recipient-key.pub.pem --out {d}/s --public-key {pub}",
    "unseal": "unseal {w}/sealed/imaging-p1.parquet.sealed --key {w}/rkeys/recipient-key.pem --out {d}/u "
              "--manifest {r}/manifest.json",
    "seed new": "seed new {d}/n.seed",
    "keys recipient": "keys recipient {d}/rk",
    "keys new": "keys new {d}/k",
    "keys validation new": "keys validation new {d}/v.key",
    "rng bytes": "rng bytes --seed-file {w}/s.seed --count 8 --label poolgen/v1/x/p1/order --out {d}/o",
    "rng integers": "rng integers --seed-file {w}/s.seed --high 10 --count 4 --label poolgen/v1/x/p1/order "
                    "--out {d}/o",
    "rng permutations": "rng permutations --seed-file {w}/s.seed --n 5 --rows 2 --label "
                        "poolgen/v1/x/p1/order --out {d}/o",
    "ceremony new": "ceremony new {d}/made.ceremony --id c1 --spec {root}/specs/wild_side.toml --pool p1 "
                    "--run-id r --party vendor={w}/c/vendor-keys/signing-key.pub.pem "
                    "--party lottery={w}/c/lottery-keys/signing-key.pub.pem "
                    f"--beacon-round {ceremony.ROUND} --reveals-close {ceremony.CLOSE}",
    "ceremony commit": f"ceremony commit {{d}}/new.ceremony {PARTY} --contribution {{d}}/v.contribution "
                       "--yes",
    "ceremony publish": "ceremony publish {d}/committed.ceremony --out {d}/pub.json",
    "ceremony reveal": f"ceremony reveal {{d}}/committed.ceremony {PARTY} --contribution "
                       "{d}/vendor.contribution --yes",
    "ceremony seal": "ceremony seal {d}/revealed.ceremony --round {w}/round.json --yes",
    "ceremony abort": f"ceremony abort {{d}}/new.ceremony --reason r {PARTY} --yes",
    "ceremony status": "ceremony status {d}/new.ceremony",
    "imaging export": "imaging export {r} --out {d}/i.csv --public-key {pub}",
    "imaging check": "imaging check {r}/imaging-p1.parquet --manifest {r}/manifest.json --public-key {pub}",
    "imaging sequence": "imaging sequence {r} --out {d}/seq --packs-per-carton 2 --cartons-per-pallet 2",
    "claims report": "claims report --ledger {d}/claims.sqlite {r} --public-key {pub} --pdf {d}/c.pdf "
                     "--books {d}/books.sqlite",
    "claims reconcile": "claims reconcile {r} --ledger {d}/claims.sqlite --public-key {pub} --validation-key "
                        "{w}/low.key --high-validation-key {w}/high.key --books {d}/books.sqlite",
    "claims close": "claims close --ledger {d}/claims.sqlite {r} --public-key {pub} --pdf {d}/c.pdf",
    "sales sell": f"sales sell {{e}} --pool d1.00 --channel web --player p {SALES}",
    "sales void": f"sales void {{e}} d1.00-0000001 --reason r {SALES}",
    "sales close": f"sales close {{e}} --pool d1.00 {SALES}",
    "sales claim": f"sales claim {{e}} d1.00-0000001 --player p1 {SALES}",
    "sales report": f"sales report {{e}} --pdf {{d}}/s.pdf {SALES}",
    "sales reconcile": f"sales reconcile {{e}} {SALES}",
    "sales upgrade": "sales upgrade {d}/sales.sqlite {d}/new.sqlite --run {e} --public-key {pub}",
    "books activate": f"books activate {{r}} 465-0000002 --clerk c --ref x {BOOKS}",
    "books settle": f"books settle {{r}} 465-0000001 --clerk c {BOOKS}",
    "books return": f"books return {{r}} 465-0000001 --clerk c {BOOKS}",
    "books stolen": f"books stolen {{r}} 465-0000001 --clerk c {BOOKS}",
    "books status": f"books status {{r}} {BOOKS}",
    "audit verify": "verify {r} --public-key {pub} --workers 1",
    "audit check-proof": "check-proof {w}/claim.json {r}/manifest.json --public-key {pub}",
    "audit code-hash": "code-hash {root}/audit",
    "help": "help sales sell",
    "audit help": "help verify",
}
COMMANDS = {name: words.split() for name, words in WORDS.items()}
# Exit 1 where a command documents it: a step failed, a claim refused, a file not the run's, a figure
# the regulation prints disagreeing, a proof invalid, a share never sold, a reconciliation's difference.
VERDICTS = {"check", "verify", "audit verify", "audit check-proof", "validate", "imaging check", "sales void",
            "sales claim", "claims reconcile", "sales reconcile", "demo"}
SLOW = {"demo"}  # a whole job per value accepted: three values
HOSTILE = {"empty": "", "missing": "{h}/nowhere/x", "folder": "{h}/folder", "fifo": "{h}/fifo",
           "noise": "{h}/noise"}
PATHS = {"missing", "folder", "fifo", "noise"}


def _commands():
    """(name, command) for every command under both apps, hidden ones included."""
    def walk(command, path):
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                yield from walk(sub, [*path, name])
        else:
            yield " ".join(path), command
    yield from walk(get_command(app), [])
    for name, command in walk(get_command(audit_app), []):
        yield f"audit {name}", command


WALKED = dict(_commands())


def test_every_command_is_swept():
    assert sorted(WALKED) == sorted(COMMANDS)
    assert len(WALKED) == 49


def _variants(name: str) -> list[tuple[str, list[str]]]:
    """(parameter, the valid arguments with that one's value replaced by "@", or added as "@")."""
    command, base = WALKED[name], COMMANDS[name]
    words = len(name.split()) - (name.startswith("audit "))
    positions, options, i = [], {}, words
    while i < len(base):
        found = next((p for p in command.params if base[i] in p.opts), None)
        if found is None:
            positions.append(i)
            i += 1
        elif getattr(found, "is_flag", False):
            i += 1
        else:
            options.setdefault(base[i], i + 1)
            i += 2
    out, k = [], 0
    for p in command.params:
        if isinstance(p, TyperArgument):
            at = positions[k] if k < len(positions) else None
            k += 1
            out.append((p.name, base[:at] + ["@"] + base[at + 1:] if at is not None else [*base, "@"]))
        elif not getattr(p, "is_flag", False):
            at = options.get(p.opts[0])
            given = base[:at] + ["@"] + base[at + 1:] if at is not None else [*base, p.opts[0], "@"]
            out.append((p.opts[0], given))
    return out


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Every file the commands take, valid: a small printed run (Happy Holidays, one pool of 3,000, with
    validation keys) and its claim, claims, books and sales ledgers, a small eInstant run, a sealed
    imaging file, a ceremony new, committed and revealed, and a drand round; the hostile files."""
    w = tmp_path_factory.mktemp("world")

    def ok(*args, now=ceremony.BEFORE):
        done = CliRunner().invoke(app, [str(a) for a in args], env={"POOLGEN_TEST_NOW": now})
        assert done.exit_code in (0, 1), done.output  # 1: a claim refused (a ticket that did not win)
        return done

    for args in (["keys", "new", w / "keys"], ["keys", "validation", "new", w / "low.key"],
                 ["keys", "validation", "new", w / "high.key"], ["keys", "recipient", w / "rkeys"]):
        ok(*args)
    (w / "s.seed").write_text(SEED_A.hex() + "\n")
    (w / "s.seed").chmod(0o600)
    key, pub = w / "keys" / "signing-key.pem", w / "keys" / "signing-key.pub.pem"
    ok("generate", small_happy_holidays(w, 3000), "--pool", "p1", "--out", w / "runs", "--run-id", "r",
       "--seed-file", w / "s.seed", "--key", key, "--workers", "1", "--validation-key", w / "low.key",
       "--high-validation-key", w / "high.key")
    (w / "e").mkdir()
    ok("generate", small_einstant(w / "e", "hand_to_hand_tactics", 1000), "--pool", "d1.00", "--out",
       w / "runs", "--run-id", "e", "--seed-file", w / "s.seed", "--key", key, "--workers", "1")
    ok("sales", "sell", w / "runs" / "e", "--ledger", w / "sales.sqlite", "--pool", "d1.00", "--channel",
       "web", "--player", "p1", "--public-key", pub)
    run = w / "runs" / "r"
    import polars as pl  # here: polars at collection would slow every test's start

    ticket = str(pl.read_parquet(run / "pool-p1.parquet", columns=["ticket"])["ticket"][7])
    virn = virn_of(run, ticket)
    (w / "claim.json").write_text(ok("merkle-proof", run, ticket, virn, "--json").stdout)
    ok("validate", run, ticket, virn, "--validation-key", w / "low.key", "--ledger", w / "claims.sqlite",
       "--index-dir", w / "index", "--public-key", pub, "--clerk", "c", "--desk", "d")
    ok("books", "activate", run, "465-0000001", "--ledger", w / "books.sqlite", "--public-key", pub,
       "--clerk", "c")
    ok("seal", run, "--to", w / "rkeys" / "recipient-key.pub.pem", "--out", w / "sealed", "--public-key", pub)
    (w / "c").mkdir()
    ceremony.party_keys(w / "c", ("vendor", "lottery"))
    new = ok(*ceremony.new_args(w / "c", w / "c" / "new.ceremony", parties=("vendor", "lottery")))
    assert new.exit_code == 0
    for step in ("committed", "revealed"):
        shutil.copytree(w / "c", w / step, ignore=shutil.ignore_patterns("*-keys"))
    for party in ("vendor", "lottery"):
        for step in ("committed", "revealed"):
            ok("ceremony", "commit", w / step / "new.ceremony", "--party", party, "--key",
               w / "c" / f"{party}-keys" / "signing-key.pem", "--contribution",
               w / step / f"{party}.contribution", "--yes")
    for party in ("vendor", "lottery"):
        ok("ceremony", "reveal", w / "revealed" / "new.ceremony", "--party", party, "--key",
           w / "c" / f"{party}-keys" / "signing-key.pem", "--contribution",
           w / "revealed" / f"{party}.contribution", "--yes")
    shutil.copy(ceremony.round_file(w), w / "round.json")
    return w, {"ticket": ticket, "virn": virn, "r": run, "e": w / "runs" / "e", "pub": pub, "root": ROOT}


def _case(world, tmp_path) -> Path:
    """The case's own folder: the ledgers and ceremony files it may change, copied; the hostile files."""
    w, _ = world
    for name in ("claims.sqlite", "sales.sqlite", "books.sqlite"):
        shutil.copy(w / name, tmp_path / name)
    shutil.copy(w / "c" / "new.ceremony", tmp_path / "new.ceremony")
    for step in ("committed", "revealed"):
        shutil.copy(w / step / "new.ceremony", tmp_path / f"{step}.ceremony")
    shutil.copy(w / "committed" / "vendor.contribution", tmp_path / "vendor.contribution")
    h = tmp_path / "hostile"  # the case's own: a command may make a missing path (`ceremony new`'s)
    (h / "folder").mkdir(parents=True)
    os.mkfifo(h / "fifo")
    (h / "noise").write_bytes(bytes(range(256)) * 8)
    return tmp_path


def _refusals(name: str, value_name: str, world, tmp_path, monkeypatch) -> list[str]:
    """What went wrong for each parameter of `name` given HOSTILE[value_name]: nothing, if all is well."""
    w, known = world
    application = audit_app if name.startswith("audit ") else app
    prefix = "audit" if name.startswith("audit ") else "poolgen"
    allowed = {0, 1, 2} if name in VERDICTS else {0, 2}
    now = "2023-08-23T16:00:00Z" if name == "ceremony seal" else ceremony.BEFORE
    paths = {p.opts[0] if p.opts[0].startswith("-") else p.name for p in WALKED[name].params
             if "Path" in str(p.type_descriptor.annotation)}  # a path refused is named (a spec by its name)
    wrong = []
    for i, (param, template) in enumerate(_variants(name)):
        case = tmp_path / f"{i}{param}"  # `run` and `--run` both in `claims report`
        case.mkdir()
        _case(world, case)
        value = HOSTILE[value_name].format(h=case / "hostile")
        monkeypatch.chdir(case)  # a value taken as a relative name writes here
        args = [value if a == "@" else a.format(w=w, d=case, **known) for a in template]
        done = CliRunner().invoke(application, args, env={"POOLGEN_TEST_NOW": now,
                                                          "POOLGEN_KEY_PASSPHRASE": None})
        lines = done.stderr.splitlines()
        said = f"{param} = {value_name}: exit {done.exit_code}, stderr {done.stderr[-300:]!r}"
        if done.exception is not None and not isinstance(done.exception, SystemExit):
            wrong.append(f"{said}: raised {done.exception!r}")
        elif "Traceback" in done.output or done.exit_code not in allowed:
            wrong.append(said)
        elif done.exit_code == 2 and (len(lines) != 1 or not lines[0].startswith(f"{prefix}: error: ")):
            wrong.append(f"{said}: not one line")
        elif done.exit_code == 2 and value_name in PATHS and param in paths and not (
                value in lines[0] or f"{Path(value).name}:" in lines[0] or param in lines[0]):
            wrong.append(f"{said}: names neither the path nor {param}")
    return wrong


CASES = [(name, value) for name in COMMANDS for value in HOSTILE
         if name not in SLOW or value in ("empty", "missing", "fifo")]


@pytest.mark.parametrize(("name", "value"), CASES, ids=[f"{n}-{v}" for n, v in CASES])
def test_a_hostile_value_in_any_parameter_is_one_line_or_taken(name, value, world, tmp_path, monkeypatch):
    assert _refusals(name, value, world, tmp_path, monkeypatch) == []


PATH_PARAMS = [(name, p.opts[0] if p.opts[0].startswith("-") else p.name) for name in COMMANDS
               for p in WALKED[name].params if "Path" in str(p.type_descriptor.annotation)]


@pytest.mark.parametrize(("name", "param"), PATH_PARAMS, ids=[f"{n} {p}" for n, p in PATH_PARAMS])
def test_an_empty_path_is_refused_naming_its_parameter(name, param, world, tmp_path, monkeypatch):
    """An unset shell variable (`poolgen keys new "$DIR"`): typer read "" as ".", the current folder."""
    w, known = world
    monkeypatch.chdir(tmp_path)
    template = dict(_variants(name))[param]
    shown = next((p.metavar or p.name.upper()) if not p.opts[0].startswith("-") else p.opts[0]
                 for p in WALKED[name].params if param in (p.opts[0], p.name))
    args = ["" if a == "@" else a.format(w=w, d=tmp_path, **known) for a in template]
    done = CliRunner().invoke(audit_app if name.startswith("audit ") else app, args)
    prefix = "audit" if name.startswith("audit ") else "poolgen"
    command = name.removeprefix("audit ")
    said = f"{prefix}: error: Invalid value for '{shown}': an empty name is no file or folder"
    assert (done.exit_code, done.stderr) == (2, f"{said} (see `{prefix} {command} -h`)\n")
    assert list(tmp_path.iterdir()) == []
